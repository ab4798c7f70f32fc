// Benchmark of `meridian-cli simulate` (SimGrid, CM02 flow model, no cross-traffic, no TCP window limit). Every
// figure comes from the whole commands a user runs (meridian-cli map, then simulate). One RESULT line per case:
//   one_flow      one transfer alone on its route (2 sites, 10 ms, 100 MB/s, 10^8 B in 4 messages): simulated
//                 time against latency x messages + bytes / bandwidth (the alpha-beta cost).
//   rank          per sample project, every application placed by every mapper: Spearman's rank correlation
//                 between the alpha-beta cost and the simulated time per iteration, over the mappers' placements
//                 of one application, averaged over the project's applications (and the lowest). A project of one
//                 site (cloudmap-a7) has one alpha-beta cost for every placement; there the analytic measure is
//                 CloudMap's CommTime (eq. 4, host links), which the simulation also sees. Also the same correlation
//                 for the busiest link's bytes / bandwidth (bottleneck_s).
//   disagree      8 processes pinned in site A each receive 10^8 B from a free partner; site B (8 slots) has a
//                 200 MB/s uplink given and a 400 MB/s link to A, site C (8 slots) a 150 MB/s link to A. The
//                 alpha-beta cost prefers every partner in B; the simulation sees B's uplink shared by 8 flows and
//                 prefers them split 4 / 4. Which placement each measure prefers (and the busiest-link bound,
//                 bottleneck_s), and where refine goes with each objective: time (alpha-beta), bottleneck (the
//                 busiest link), alpha-beta+bottleneck (weights 0.5 and 0.7) and time (the predicted time of
//                 a bulk-synchronous run), each placement then simulated.
//   objectives    per sample project and application, refine with objective=alpha-beta, bottleneck,
//                 alpha-beta+bottleneck (weight 0.5) and time, each placement simulated: the simulated time of each objective's
//                 placement, and over all applications how often the contention-aware objectives simulate faster
//                 than time's (the geometric mean ratio of their simulated times to time's).
//   lu_scale      LU (one iteration) at 64, 512 and 4,096 processes on 4 sites of 64 x 16 slots, placed by geo:
//                 wall clock of the whole simulate command (target: 4,096 under 10 s), messages simulated.
// Arguments: case names to run (default all).
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "rank_correlation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <utility>
#include <vector>

namespace {

using bench::spearman;

struct Run {
    int code = -1;
    QJsonObject json;
    QByteArray err;
    double seconds = 0.0;
};

Run cli(const QStringList& args)
{
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(MERIDIAN_CLI, args);
    p.waitForFinished(-1);
    Run r;
    r.seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    r.code = p.exitCode();
    r.json = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    r.err = p.readAllStandardError();
    if (r.code != 0)
        std::fprintf(stderr, "meridian-cli %s failed: %s\n", qPrintable(args.join(' ')), r.err.constData());
    return r;
}

QString write(const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(f.fileName()));
    f.write(text);
    return f.fileName();
}

void oneFlow(const QTemporaryDir& dir)
{
    const QStringList raw = {"--sites",     write(dir, "s.csv", "name,lat,lon,nodes,slots\na,0,0,1,1\nb,10,10,1,1\n"),
                             "--latency",   write(dir, "l.csv", ",a,b\na,0.5,10\nb,10,0.5\n"),
                             "--bandwidth", write(dir, "b.csv", ",a,b\na,1000,100\nb,100,1000\n"),
                             "--volume",    write(dir, "v.csv", "0,100000000\n0,0\n"),
                             "--messages",  write(dir, "m.csv", "0,4\n0,0\n"),
                             "--mapping",   write(dir, "map.csv", "0,a\n1,b\n")};
    const Run r = cli(QStringList{"simulate"} + raw);
    const double simulated = r.json["time_s"].toDouble();
    const double alphaBeta = r.json["alpha_beta_s"].toDouble();
    std::printf("RESULT case=one_flow simulated_s=%.9f alpha_beta_s=%.9f relative_difference=%.2e\n", simulated,
                alphaBeta, std::abs(simulated - alphaBeta) / alphaBeta);
}

void rankCorrelation(const QTemporaryDir& dir)
{
    const QStringList mappers = {"random",    "round-robin", "greedy",         "mpipp", "geo",
                                 "scotch-bw", "scotch-lat",  "topology-aware", "refine"};
    const QDir samples(QString(MERIDIAN_SOURCE_DIR) + "/sample_projects");
    for (const QString& name : samples.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString project = samples.filePath(name + "/" + name + ".meridian");
        const Run info = cli({"info", project});
        std::vector<double> rhos;
        std::vector<double> bottleneckRhos;
        int placements = 0;
        const char* measure = "alpha_beta";
        for (const auto& app : info.json["applications"].toArray()) {
            const QString application = app.toObject()["name"].toString();
            std::vector<double> costs;
            std::vector<double> commTimes;
            std::vector<double> bottlenecks;
            std::vector<double> times;
            for (const QString& mapper : mappers) {
                const QString mapping = dir.filePath(name + "-" + mapper + ".csv");
                const Run map = cli({"map", "--project", project, "--application", application, "--algorithm", mapper,
                                     "--out", mapping});
                if (map.code != 0)
                    continue;
                const Run sim = cli(
                    {"simulate", "--project", project, "--application", application, "--mapping", mapping});
                if (sim.code != 0)
                    continue;
                costs.push_back(sim.json["alpha_beta_s"].toDouble());
                commTimes.push_back(sim.json["instance"].toObject()["comm_time_s"].toDouble());
                bottlenecks.push_back(sim.json["bottleneck_s"].toDouble());
                times.push_back(sim.json["time_s"].toDouble());
            }
            placements += static_cast<int>(costs.size());
            double rho = spearman(costs, times);
            if (std::isnan(rho)) {
                rho = spearman(commTimes, times);
                measure = "cloudmap_comm_time";
            }
            if (!std::isnan(rho))
                rhos.push_back(rho);
            if (const double b = spearman(bottlenecks, times); !std::isnan(b))
                bottleneckRhos.push_back(b);
        }
        const double mean = rhos.empty() ? std::nan("") : std::accumulate(rhos.begin(), rhos.end(), 0.0) / rhos.size();
        const double lowest = rhos.empty() ? std::nan("") : *std::min_element(rhos.begin(), rhos.end());
        const double bottleneckMean = bottleneckRhos.empty()
            ? std::nan("")
            : std::accumulate(bottleneckRhos.begin(), bottleneckRhos.end(), 0.0) / bottleneckRhos.size();
        std::printf("RESULT case=rank project=%s measure=%s applications=%zu placements=%d spearman_mean=%.3f "
                    "spearman_min=%.3f bottleneck_spearman_mean=%.3f\n",
                    qPrintable(name), measure, rhos.size(), placements, mean, lowest, bottleneckMean);
        std::fflush(stdout);
    }
}

void disagree(const QTemporaryDir& dir)
{
    QByteArray volume;
    for (int i = 0; i < 16; ++i)
        if (i >= 8)
            volume += QByteArray::number(i + 1) + " " + QByteArray::number(i - 8 + 1) + " 100000000\n";
    const QByteArray header = "%%MatrixMarket matrix coordinate real general\n16 16 8\n";
    QByteArray messages = volume;
    messages.replace(" 100000000", " 1");
    QByteArray pins;
    for (int i = 0; i < 8; ++i)
        pins += QByteArray::number(i) + ",A\n";
    const QStringList raw = {
        "--sites",
        write(dir, "ds.csv", "name,lat,lon,nodes,slots,up_MBps\nA,0,0,8,1,\nB,10,10,8,1,200\nC,-10,20,8,1,\n"),
        "--latency",
        write(dir, "dl.csv", ",A,B,C\nA,0.5,10,10\nB,10,0.5,10\nC,10,10,0.5\n"),
        "--bandwidth",
        write(dir, "db.csv", ",A,B,C\nA,1000,400,150\nB,400,1000,400\nC,150,400,1000\n"),
        "--volume",
        write(dir, "dv.mtx", header + volume),
        "--messages",
        write(dir, "dm.mtx", header + messages),
        "--pins",
        write(dir, "dp.csv", pins)};
    QByteArray allB;
    QByteArray split;
    for (int i = 0; i < 16; ++i) {
        allB += QByteArray::number(i) + (i < 8 ? ",A\n" : ",B\n");
        split += QByteArray::number(i) + (i < 8 ? ",A\n" : i < 12 ? ",B\n" : ",C\n");
    }
    const Run x = cli(QStringList{"simulate", "--mapping", write(dir, "allB.csv", allB)} + raw);
    const Run y = cli(QStringList{"simulate", "--mapping", write(dir, "split.csv", split)} + raw);
    std::printf("RESULT case=disagree all_in_B_alpha_beta_s=%.3f all_in_B_simulated_s=%.3f split_alpha_beta_s=%.3f "
                "split_simulated_s=%.3f alpha_beta_prefers=%s simulation_prefers=%s all_in_B_bottleneck_s=%.3f "
                "split_bottleneck_s=%.3f\n",
                x.json["alpha_beta_s"].toDouble(), x.json["time_s"].toDouble(), y.json["alpha_beta_s"].toDouble(),
                y.json["time_s"].toDouble(),
                x.json["alpha_beta_s"].toDouble() < y.json["alpha_beta_s"].toDouble() ? "all_in_B" : "split",
                x.json["time_s"].toDouble() < y.json["time_s"].toDouble() ? "all_in_B" : "split",
                x.json["bottleneck_s"].toDouble(), y.json["bottleneck_s"].toDouble());
    const std::pair<const char*, const char*> searches[] = {{"alpha-beta", "0.5"},
                                                            {"bottleneck", "0.5"},
                                                            {"alpha-beta+bottleneck", "0.5"},
                                                            {"alpha-beta+bottleneck", "0.7"},
                                                            {"time", "0.5"}};
    for (const auto& [objective, weight] : searches) {
        const QString refined = dir.filePath(QString("refine-%1-%2.csv").arg(objective, weight).replace('+', '-'));
        cli(QStringList{"map", "--algorithm", "refine", "--param", QString("objective=") + objective, "--param",
                        QString("weight=") + weight, "--out", refined}
            + raw);
        const Run r = cli(QStringList{"simulate", "--mapping", refined} + raw);
        QFile placement(refined);
        int inB = 0;
        int inC = 0;
        if (placement.open(QIODevice::ReadOnly))
            for (const QByteArray& line : placement.readAll().split('\n')) { // process,site,host,slot
                const QList<QByteArray> fields = line.split(',');
                inB += fields.size() > 1 && fields[1] == "B" ? 1 : 0;
                inC += fields.size() > 1 && fields[1] == "C" ? 1 : 0;
            }
        std::printf("RESULT case=disagree refine_objective=%s weight=%s partners_in_B=%d partners_in_C=%d "
                    "alpha_beta_s=%.3f bottleneck_s=%.3f simulated_s=%.3f busiest=%s\n",
                    objective, weight, inB, inC, r.json["alpha_beta_s"].toDouble(), r.json["bottleneck_s"].toDouble(),
                    r.json["time_s"].toDouble(), qPrintable(r.json["bottlenecks"].toArray().first().toString()));
    }
}

void objectives(const QTemporaryDir& dir)
{
    const QStringList objectiveIds = {"alpha-beta", "bottleneck", "alpha-beta+bottleneck", "time"};
    const QDir samples(QString(MERIDIAN_SOURCE_DIR) + "/sample_projects");
    std::vector<std::vector<double>> logRatios(objectiveIds.size());
    std::vector<int> faster(objectiveIds.size(), 0);
    std::vector<int> slower(objectiveIds.size(), 0);
    for (const QString& name : samples.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString project = samples.filePath(name + "/" + name + ".meridian");
        const Run info = cli({"info", project});
        for (const auto& app : info.json["applications"].toArray()) {
            const QString application = app.toObject()["name"].toString();
            std::vector<double> simulated;
            QString line;
            for (const QString& objective : objectiveIds) {
                const QString mapping = dir.filePath(name + "-objective-" + QString::number(simulated.size()) + ".csv");
                const Run map = cli({"map", "--project", project, "--application", application, "--algorithm", "refine",
                                     "--param", "objective=" + objective, "--out", mapping});
                const Run sim = map.code == 0
                    ? cli({"simulate", "--project", project, "--application", application, "--mapping", mapping})
                    : Run{};
                if (sim.code != 0)
                    break;
                simulated.push_back(sim.json["time_s"].toDouble());
                line += QString(" %1_alpha_beta_s=%2 %1_bottleneck_s=%3 %1_simulated_s=%4")
                            .arg(QString(objective).replace('+', '_'))
                            .arg(sim.json["alpha_beta_s"].toDouble(), 0, 'f', 4)
                            .arg(sim.json["bottleneck_s"].toDouble(), 0, 'f', 4)
                            .arg(sim.json["time_s"].toDouble(), 0, 'f', 4);
            }
            if (simulated.size() != static_cast<std::size_t>(objectiveIds.size()))
                continue;
            for (std::size_t k = 1; k < simulated.size(); ++k) {
                logRatios[k].push_back(std::log(simulated[k] / simulated[0]));
                faster[k] += simulated[k] < simulated[0] * (1 - 1e-3) ? 1 : 0;
                slower[k] += simulated[k] > simulated[0] * (1 + 1e-3) ? 1 : 0;
            }
            std::printf("RESULT case=objectives project=%s application=%s%s\n", qPrintable(name),
                        qPrintable(application), qPrintable(line));
            std::fflush(stdout);
        }
    }
    for (std::size_t k = 1; k < logRatios.size(); ++k) {
        const double mean = logRatios[k].empty()
            ? 0.0
            : std::accumulate(logRatios[k].begin(), logRatios[k].end(), 0.0) / static_cast<double>(logRatios[k].size());
        std::printf("RESULT case=objectives objective=%s applications=%zu simulates_faster=%d simulates_slower=%d "
                    "geomean_simulated_ratio_to_alpha_beta=%.3f\n",
                    qPrintable(objectiveIds[static_cast<int>(k)]), logRatios[k].size(), faster[k], slower[k],
                    std::exp(mean));
    }
}

void luScale(const QTemporaryDir& dir)
{
    QByteArray sites = "name,lat,lon,nodes,slots\n";
    const char* rows[] = {"virginia,38.9,-77.0", "frankfurt,50.1,8.7", "tokyo,35.7,139.7", "sydney,-33.9,151.2"};
    for (const char* row : rows)
        sites += QByteArray(row) + ",64,16\n";
    const QString sitesFile = write(dir, "lu-sites.csv", sites);
    for (int n : {64, 512, 4096}) {
        const QString volume = dir.filePath(QString("lu%1.mtx").arg(n));
        const QString messages = dir.filePath(QString("lu%1.msg.mtx").arg(n));
        cli({"generate", "lu", "--processes", QString::number(n), "--iterations", "1", "--out", volume,
             "--messages-out", messages});
        const QStringList raw = {"--sites", sitesFile, "--volume", volume, "--messages", messages};
        const QString mapping = dir.filePath(QString("lu%1.csv").arg(n));
        cli(QStringList{"map", "--algorithm", "geo", "--out", mapping} + raw);
        const Run sim = cli(QStringList{"simulate", "--mapping", mapping} + raw);
        std::printf("RESULT case=lu_scale processes=%d wall_s=%.3f simulation_wall_s=%.3f messages=%.0f "
                    "simulated_time_s=%.6f alpha_beta_s=%.6f exit=%d\n",
                    n, sim.seconds, sim.json["simulation_wall_s"].toDouble(), sim.json["messages"].toDouble(),
                    sim.json["time_s"].toDouble(), sim.json["alpha_beta_s"].toDouble(), sim.code);
        std::fflush(stdout);
    }
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList cases = app.arguments().mid(1);
    if (cases.isEmpty())
        cases = {"one_flow", "rank", "disagree", "objectives", "lu_scale"};
    QTemporaryDir dir;
    for (const QString& c : cases) {
        if (c == "one_flow")
            oneFlow(dir);
        else if (c == "rank")
            rankCorrelation(dir);
        else if (c == "disagree")
            disagree(dir);
        else if (c == "objectives")
            objectives(dir);
        else if (c == "lu_scale")
            luScale(dir);
        else
            std::fprintf(stderr, "unknown case %s\n", qPrintable(c));
        std::fflush(stdout);
    }
    return 0;
}
