// Benchmark of the predicted run time (`meridian-cli predict`) and of refine's default objective against ground
// truth: real MPI programs (prediction/prediction_apps.c: a 2-D and a 3-D halo exchange with uneven weights, an
// all-to-all, a master-worker and a pipeline) compiled with smpicc and run by smpirun on the platform Meridian
// exports (simulate --export-platform; --cfg=network/model:CM02, as its <config> states, and
// smpi/simulate-computation:no: the programs only communicate), one run per placement, each rank on the host the
// placement names. Each application's matrices come from prediction_apps.h, the description the programs run, as
// `meridian-cli capture` records them. Whole commands, as a user runs them.
//
// Cases: every program on two generated heterogeneous platforms of 32 ranks,
//   latency   8 sites, 5-120 ms between sites, 200-1000 MB/s, 2 KB base messages, 50 steps;
//   bandwidth 4 sites, 1-10 ms, 5-100 MB/s between sites and per-site uplinks, 1 MB base messages, 10 steps.
// Placements (10 per case): random (seeds 1-3), round-robin and interleave (the launchers' defaults), greedy,
// geo, scotch-bw, refine (its default objective, the predicted time), refine objective=alpha-beta.
// One RESULT line per case: Spearman's rank correlation of the predicted time with the measured one (target
// >= 0.9), of refine's step-time estimate (surrogate_s) and of SC17's eq. 3 (alpha-beta) with it; the median
// relative error of the prediction (target <= 10%); refine's default placement's measured time over the fastest
// measured (target <= 1.03), and the same for the placement the prediction ranks first. A summary line counts the
// cases that meet each target.
// Arguments: case names (platform/program, e.g. latency/halo2d) to run; default all.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include "prediction/prediction_apps.h"
#include "rank_correlation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <vector>

namespace {

constexpr int kRanks = 32;

struct Platform {
    QString name;
    int sites = 4;
    double latencyLo = 1.0, latencyHi = 10.0; // ms between sites
    double bandwidthLo = 5.0, bandwidthHi = 100.0;
    bool uplinks = false; // per-site up/down MB/s (shared by every flow leaving or entering the site)
    long base = 1000000;
    int steps = 10;
};

QString write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        std::fprintf(stderr, "bench_prediction: cannot write %s\n", qPrintable(path));
    return path;
}

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString& program, const QStringList& args, const QString& dir = QString())
{
    QProcess p;
    if (!dir.isEmpty())
        p.setWorkingDirectory(dir);
    p.start(program, args);
    p.waitForFinished(-1);
    Run r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
          p.readAllStandardError()};
    if (r.code != 0)
        std::fprintf(stderr, "bench_prediction: %s %s failed: %s\n", qPrintable(program), qPrintable(args.join(' ')),
                     r.err.constData());
    return r;
}

/// The platform's files (sites, latency, bandwidth) in `dir`, from a fixed seed.
QStringList platformFiles(const Platform& pf, const QString& dir)
{
    std::mt19937_64 random(42 + pf.sites);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const int nodes = (kRanks * 3 / 2 + pf.sites - 1) / pf.sites / 2 + 1; // 2 slots per node: room for 1.5x
    QString sites = "name,lat,lon,nodes,slots,up_MBps,down_MBps\n";
    for (int s = 0; s < pf.sites; ++s) {
        const double up = pf.uplinks ? pf.bandwidthLo + (pf.bandwidthHi - pf.bandwidthLo) * unit(random) : 0.0;
        sites += QString("s%1,%2,%3,%4,2,%5,%6\n")
                     .arg(s)
                     .arg(-40.0 + 80.0 * unit(random), 0, 'f', 2)
                     .arg(-150.0 + 300.0 * unit(random), 0, 'f', 2)
                     .arg(nodes)
                     .arg(pf.uplinks ? QString::number(up, 'f', 1) : QString())
                     .arg(pf.uplinks ? QString::number(up * 1.5, 'f', 1) : QString());
    }
    QString latency, bandwidth;
    std::vector<std::vector<double>> lat(pf.sites, std::vector<double>(pf.sites));
    std::vector<std::vector<double>> bw(pf.sites, std::vector<double>(pf.sites));
    for (int a = 0; a < pf.sites; ++a)
        for (int b = a; b < pf.sites; ++b) {
            lat[a][b] = lat[b][a] = a == b ? 0.05 : pf.latencyLo + (pf.latencyHi - pf.latencyLo) * unit(random);
            bw[a][b] = bw[b][a] = a == b ? 1250.0 : pf.bandwidthLo + (pf.bandwidthHi - pf.bandwidthLo) * unit(random);
        }
    for (int a = 0; a < pf.sites; ++a) {
        for (int b = 0; b < pf.sites; ++b) {
            latency += QString::number(lat[a][b], 'f', 3) + (b + 1 < pf.sites ? "," : "\n");
            bandwidth += QString::number(bw[a][b], 'f', 1) + (b + 1 < pf.sites ? "," : "\n");
        }
    }
    return {"--sites",     write(dir + "/sites.csv", sites.toUtf8()),
            "--latency",   write(dir + "/latency.csv", latency.toUtf8()),
            "--bandwidth", write(dir + "/bandwidth.csv", bandwidth.toUtf8())};
}

/// The program's matrices (volume and message counts over all steps) as Matrix Market files in `dir`.
QStringList matrixFiles(const char* mode, const Platform& pf, const QString& dir)
{
    std::map<std::pair<int, int>, long> bytes;
    for (int r = 0; r < kRanks; ++r) {
        int peers[APP_MAX_PEERS];
        long b[APP_MAX_PEERS];
        const int c = app_sends(mode, r, kRanks, pf.base, peers, b);
        for (int k = 0; k < c; ++k)
            bytes[{r, peers[k]}] += b[k];
    }
    QString volume = QString("%%MatrixMarket matrix coordinate real general\n%1 %1 %2\n").arg(kRanks).arg(bytes.size());
    QString messages = volume;
    for (const auto& [pair, b] : bytes) {
        volume += QString("%1 %2 %3\n").arg(pair.first + 1).arg(pair.second + 1).arg(double(b) * pf.steps, 0, 'f', 0);
        messages += QString("%1 %2 %3\n").arg(pair.first + 1).arg(pair.second + 1).arg(pf.steps);
    }
    return {"--volume", write(dir + "/" + mode + ".volume.mtx", volume.toUtf8()), "--messages",
            write(dir + "/" + mode + ".messages.mtx", messages.toUtf8())};
}

struct Placement {
    QString name;
    QStringList mapArgs;
    double predicted = 0.0, traced = 0.0, surrogate = 0.0, alphaBeta = 0.0, measured = 0.0, predictWall = 0.0;
};

/// Captures the program with Meridian's tracer and --trace under Open MPI (mpirun on this machine, oversubscribed):
/// the time-independent trace that `predict --trace` replays. Returns the trace's list, or an empty string.
QString capturedTrace(const char* mode, const Platform& pf, const QString& ompiApps, const QString& dir)
{
    const QString prefix = dir + "/captured-" + mode;
    const Run captured = run(MERIDIAN_CLI,
                             {"capture", "--out", prefix, "--trace", "--", "mpirun", "--allow-run-as-root",
                              "--oversubscribe", "-np", QString::number(kRanks), ompiApps, mode,
                              QString::number(pf.steps), QString::number(pf.base)});
    return captured.code == 0 ? prefix + ".ti" : QString();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? std::nan("") : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Outcome {
    bool ran = false, spearman = false, error = false, recommended = false;
};

Outcome runCase(const Platform& pf, const char* mode, const QString& apps, const QString& ompiApps, const QString& root)
{
    const QString dir = root + "/" + pf.name + "-" + mode;
    QDir().mkpath(dir);
    const QStringList problem = platformFiles(pf, dir) + matrixFiles(mode, pf, dir);
    const QString trace = capturedTrace(mode, pf, ompiApps, dir);
    if (trace.isEmpty())
        return {};
    // The traced prediction as a user runs it: with the captured matrices (an MPI_Alltoall is a collective there,
    // not point-to-point traffic), which capture checked against the trace.
    const QString captured = trace.chopped(3);
    QStringList tracedProblem = problem;
    tracedProblem[tracedProblem.indexOf("--volume") + 1] = captured + ".volume.mtx";
    tracedProblem[tracedProblem.indexOf("--messages") + 1] = captured + ".messages.mtx";
    const QString platformXml = dir + "/platform.xml";
    if (run(MERIDIAN_CLI, QStringList{"simulate"} + problem + QStringList{"--export-platform", platformXml}).code != 0)
        return {};
    std::vector<Placement> placements = {
        {"random-1", {"--algorithm", "random", "--seed", "1"}},
        {"random-2", {"--algorithm", "random", "--seed", "2"}},
        {"random-3", {"--algorithm", "random", "--seed", "3"}},
        {"round-robin", {"--algorithm", "round-robin"}},
        {"interleave", {"--algorithm", "interleave"}},
        {"greedy", {"--algorithm", "greedy"}},
        {"geo", {"--algorithm", "geo"}},
        {"scotch-bw", {"--algorithm", "scotch-bw"}},
        // A user with a trace gives it to refine, which replays it to choose between its last candidates (the
        // all-to-all's trace holds a collective the generated matrix has as point-to-point traffic: not given).
        {"refine",
         std::strcmp(mode, "alltoall") == 0 ? QStringList{"--algorithm", "refine"}
                                            : QStringList{"--algorithm", "refine", "--trace", trace}},
        {"refine-alpha-beta", {"--algorithm", "refine", "--param", "objective=alpha-beta"}},
    };
    for (Placement& p : placements) {
        const QString mapping = dir + "/" + p.name + ".csv";
        if (run(MERIDIAN_CLI, QStringList{"map"} + problem + p.mapArgs + QStringList{"--out", mapping}).code != 0)
            return {};
        QElapsedTimer timer;
        timer.start();
        const Run predicted = run(MERIDIAN_CLI, QStringList{"predict"} + problem + QStringList{"--mapping", mapping});
        p.predictWall = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
        if (predicted.code != 0)
            return {};
        const QJsonObject json = QJsonDocument::fromJson(predicted.out).object();
        p.predicted = json["predicted_s"].toDouble();
        const Run traced = run(MERIDIAN_CLI,
                               QStringList{"predict"} + tracedProblem
                                   + QStringList{"--mapping", mapping, "--trace", trace});
        if (traced.code != 0)
            return {};
        p.traced = QJsonDocument::fromJson(traced.out).object()["predicted_s"].toDouble();
        p.surrogate = json["surrogate_s"].toDouble();
        p.alphaBeta = json["alpha_beta_s"].toDouble();
        // The host of each rank, in rank order, from the mapping's host column.
        QFile csv(mapping);
        csv.open(QIODevice::ReadOnly);
        QByteArray hosts;
        for (const QByteArray& line : csv.readAll().split('\n').mid(1))
            if (const auto fields = line.split(','); fields.size() >= 3)
                hosts += fields[2] + "\n";
        const QString hostFile = write(dir + "/" + p.name + ".hosts", hosts);
        const Run measured = run("smpirun",
                                 {"-no-privatize", "-np", QString::number(kRanks), "-platform", platformXml,
                                  "-hostfile", hostFile, "--cfg=network/model:CM02",
                                  "--cfg=smpi/simulate-computation:no", "--log=root.thresh:warning", apps, mode,
                                  QString::number(pf.steps), QString::number(pf.base)},
                                 dir);
        const int at = measured.out.indexOf("TIME ");
        if (measured.code != 0 || at < 0)
            return {};
        p.measured = measured.out.mid(at + 5).trimmed().toDouble();
    }
    std::vector<double> predicted, traced, surrogate, alphaBeta, measured, errors, tracedErrors;
    for (const Placement& p : placements) {
        predicted.push_back(p.predicted);
        traced.push_back(p.traced);
        tracedErrors.push_back(std::abs(p.traced - p.measured) / p.measured);
        surrogate.push_back(p.surrogate);
        alphaBeta.push_back(p.alphaBeta);
        measured.push_back(p.measured);
        errors.push_back(std::abs(p.predicted - p.measured) / p.measured);
        std::fprintf(
            stderr, "  %s/%s %-18s measured %.4f s predicted %.4f s traced %.4f s surrogate %.4f s alpha-beta %.4f s\n",
            qPrintable(pf.name), mode, qPrintable(p.name), p.measured, p.predicted, p.traced, p.surrogate, p.alphaBeta);
    }
    const double fastest = *std::min_element(measured.begin(), measured.end());
    const auto byName = [&](const char* name) {
        return std::find_if(placements.begin(), placements.end(), [&](const Placement& p) { return p.name == name; });
    };
    const double recommended = byName("refine")->measured / fastest;
    const auto firstPredicted = std::min_element(placements.begin(), placements.end(),
                                                 [](const Placement& a, const Placement& b) {
                                                     return a.predicted < b.predicted;
                                                 });
    double predictWall = 0.0;
    for (const Placement& p : placements)
        predictWall = std::max(predictWall, p.predictWall);
    Outcome o;
    o.ran = true;
    const double rho = bench::spearman(predicted, measured);
    const double medianError = median(errors);
    const double tracedRho = bench::spearman(traced, measured);
    const double tracedMedianError = median(tracedErrors);
    // The prediction a user gets for a captured program is the traced one.
    o.spearman = tracedRho >= 0.9;
    o.error = tracedMedianError <= 0.10;
    o.recommended = recommended <= 1.03;
    std::printf("RESULT case=%s/%s placements=%zu spearman_traced=%.3f median_error_traced=%.4f max_error_traced=%.4f "
                "spearman_predicted=%.3f spearman_surrogate=%.3f "
                "spearman_alpha_beta=%.3f median_error=%.4f max_error=%.4f refine_over_fastest=%.4f "
                "predicted_first_over_fastest=%.4f fastest=%s fastest_s=%.4f predict_wall_max_s=%.2f targets=%s\n",
                qPrintable(pf.name), mode, placements.size(), tracedRho, tracedMedianError,
                *std::max_element(tracedErrors.begin(), tracedErrors.end()), rho, bench::spearman(surrogate, measured),
                bench::spearman(alphaBeta, measured), medianError, *std::max_element(errors.begin(), errors.end()),
                recommended, firstPredicted->measured / fastest,
                qPrintable(
                    std::min_element(placements.begin(), placements.end(),
                                     [](const Placement& a, const Placement& b) { return a.measured < b.measured; })
                        ->name),
                fastest, predictWall, o.spearman && o.error && o.recommended ? "met" : "missed");
    std::fflush(stdout);
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList wanted = app.arguments().mid(1);
    QTemporaryDir root;
    if (!root.isValid())
        return 1;
    const QString apps = root.filePath("prediction_apps");
    const QString source = QString(MERIDIAN_SOURCE_DIR) + "/tests/bench/prediction";
    if (run("smpicc", {"-O2", "-I" + source, "-o", apps, source + "/prediction_apps.c"}).code != 0) {
        std::fprintf(stderr, "bench_prediction: smpicc (Debian package libsimgrid-dev) could not build the programs\n");
        return 1;
    }
    const QString ompiApps = root.filePath("prediction_apps_ompi");
    if (run("mpicc", {"-O2", "-I" + source, "-o", ompiApps, source + "/prediction_apps.c"}).code != 0) {
        std::fprintf(stderr, "bench_prediction: mpicc (Debian package libopenmpi-dev) could not build the programs\n");
        return 1;
    }
    const std::vector<Platform> platforms = {
        {"latency", 8, 5.0, 120.0, 200.0, 1000.0, false, 2000, 50},
        {"bandwidth", 4, 1.0, 10.0, 5.0, 100.0, true, 1000000, 10},
    };
    int cases = 0, spearmanMet = 0, errorMet = 0, recommendedMet = 0, failed = 0;
    for (const Platform& pf : platforms)
        for (const char* mode : {"halo2d", "halo3d", "alltoall", "master", "pipeline"}) {
            if (!wanted.isEmpty() && !wanted.contains(pf.name + "/" + mode))
                continue;
            const Outcome o = runCase(pf, mode, apps, ompiApps, root.path());
            ++cases;
            failed += o.ran ? 0 : 1;
            spearmanMet += o.spearman;
            errorMet += o.error;
            recommendedMet += o.recommended;
        }
    std::printf("RESULT case=summary cases=%d spearman_met=%d median_error_met=%d recommended_met=%d failed=%d\n",
                cases, spearmanMet, errorMet, recommendedMet, failed);
    return failed == 0 ? 0 : 1;
}
