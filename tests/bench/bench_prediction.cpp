// Benchmark of the predicted run time (`meridian-cli predict`) and of refine's default objective against ground
// truth, on generated heterogeneous platforms and on the sample projects.
//
// Programs and their ground truth ("measured"):
//   halo2d, halo3d, alltoall, master, pipeline: real MPI programs (prediction/prediction_apps.c: a 2-D and a 3-D
//     halo exchange with uneven weights, an all-to-all, a master-worker and a pipeline) compiled with smpicc and
//     run by smpirun on the platform Meridian exports (simulate --export-platform; --cfg=network/model:CM02, as
//     its <config> states, and smpi/simulate-computation:no: the programs only communicate), one run per
//     placement, each rank on the host the placement names. Their matrices come from prediction_apps.h, the
//     description the programs run, as `meridian-cli capture` records them.
//   lammps: LAMMPS from Debian's lammps package (`lmp`, built with Open MPI; the Lennard-Jones melt of
//     prediction/lammps_melt.in, about 512 atoms per rank, 200 steps) has no description but its capture: its
//     ground truth is SimGrid's own replay of its whole captured trace, `smpirun -replay` on the exported platform
//     with the placement's host file (an invocation independent of Meridian's; both are SMPI replays of the same
//     trace, so the traced prediction matches it up to the settings Meridian adds). Its matrix-model prediction
//     is judged against that replay. Without `lmp` the case prints a SKIP line (scripts/dev bench installs it).
// Every program is captured by `meridian-cli capture --trace` under Open MPI (mpirun here, oversubscribed).
// Predictions per placement: "traced" = `predict --trace` (SMPI's replay of the captured trace, with the captured
// matrices), "predicted" = `predict` on the matrices (the bulk-synchronous model), plus refine's step-time
// estimate (surrogate_s) and SC17's eq. 3 (alpha-beta).
//
// Cases (platform/program):
//   latency    8 sites, 5-120 ms between sites, 200-1000 MB/s, 2 KB base messages, 50 steps, 32 ranks;
//   bandwidth  4 sites, 1-10 ms, 5-100 MB/s between sites and per-site uplinks, 1 MB base messages, 10 steps,
//              32 ranks;
//   latency16  16 sites, as latency;
//     each with every program;
//   azure-3-regions (48 ranks), ec2-4-regions (64), cloudmap-a7 (64, one site of 8 hosts with host-level links):
//     the sample projects' sites, network and hosts at their host count, 100 KB base messages, 20 steps, with
//     halo2d and halo3d.
// Placements (14 per case): random (seeds 1-3), round-robin and interleave (the launchers' defaults), every
// mapper (greedy, mpipp, geo, scotch-bw, scotch-lat, topology-aware, monte-carlo), refine (its default objective,
// the predicted time, given the trace) and refine objective=alpha-beta.
// One RESULT line per case: Spearman's rank correlation of the traced prediction with the measured time (target
// >= 0.9), and of the matrix model, refine's step-time estimate and alpha-beta with it; the median relative error
// of the traced prediction (target <= 10%) and of the matrix model; refine's default placement's measured time
// over the fastest measured (target <= 1.03), and the same for the placement the traced prediction ranks first.
// A summary line counts the cases that meet each target and gives the wall time (about 8 minutes on 2 cores).
// Arguments: case names (platform/program, e.g. latency/halo2d) to run; default all. MERIDIAN_BENCH_KEEP=1 keeps
// the files.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
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

/// Where a case runs: a generated heterogeneous platform (sites, latency and bandwidth drawn from a fixed seed) or
/// a sample project's sites, network and hosts; and how much each program sends.
struct Platform {
    QString name;
    int sites = 4;
    double latencyLo = 1.0, latencyHi = 10.0; // ms between sites
    double bandwidthLo = 5.0, bandwidthHi = 100.0;
    bool uplinks = false; // per-site up/down MB/s (shared by every flow leaving or entering the site)
    long base = 1000000;
    int steps = 10;
    QStringList programs;
    QString project; // a sample project (sample_projects/NAME/NAME.meridian): its sites, network and hosts
    int ranks = kRanks;
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
    const int nodes = (pf.ranks * 3 / 2 + pf.sites - 1) / pf.sites / 2 + 1; // 2 slots per node: room for 1.5x
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

/// A copy of the sample project (with its sidecar files) in `dir`, to which the case adds its applications.
QString projectCopy(const Platform& pf, const QString& dir)
{
    const QDir from(QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/" + pf.project);
    for (const QString& file : from.entryList(QDir::Files))
        QFile::copy(from.filePath(file), dir + "/" + file);
    return dir + "/" + pf.project + ".meridian";
}

/// The arguments that name an application of matrices `volume` and `messages` on the case's platform: the
/// generated platform's files with the matrices, or the project copy with the matrices added as application
/// `name` (a project takes no raw matrices beside it).
QStringList problemArgs(const QStringList& network, const QString& volume, const QString& messages, const QString& name)
{
    if (network.first() != "--project")
        return network + QStringList{"--volume", volume, "--messages", messages};
    if (run(MERIDIAN_CLI,
            {"project", "add-application", network[1], "--name", name, "--volume", volume, "--messages", messages})
            .code
        != 0)
        return {};
    return network + QStringList{"--application", name};
}

/// The program's matrices (volume and message counts over all steps) as Matrix Market files in `dir`.
QStringList matrixFiles(const QString& mode, const Platform& pf, const QString& dir)
{
    std::map<std::pair<int, int>, long> bytes;
    for (int r = 0; r < pf.ranks; ++r) {
        int peers[APP_MAX_PEERS];
        long b[APP_MAX_PEERS];
        const int c = app_sends(qPrintable(mode), r, pf.ranks, pf.base, peers, b);
        for (int k = 0; k < c; ++k)
            bytes[{r, peers[k]}] += b[k];
    }
    QString volume = QString("%%MatrixMarket matrix coordinate real general\n%1 %1 %2\n").arg(pf.ranks).arg(bytes.size());
    QString messages = volume;
    for (const auto& [pair, b] : bytes) {
        volume += QString("%1 %2 %3\n").arg(pair.first + 1).arg(pair.second + 1).arg(double(b) * pf.steps, 0, 'f', 0);
        messages += QString("%1 %2 %3\n").arg(pair.first + 1).arg(pair.second + 1).arg(pf.steps);
    }
    return {write(dir + "/" + mode + ".volume.mtx", volume.toUtf8()),
            write(dir + "/" + mode + ".messages.mtx", messages.toUtf8())};
}

/// The programs a case runs: prediction_apps built with smpicc (run by smpirun) and with mpicc (captured under
/// Open MPI), and LAMMPS (`lmp`, captured under Open MPI) with its input.
struct Programs {
    QString apps, ompiApps, lmp, lammpsInput;
};

/// LAMMPS's run: the Lennard-Jones melt of lammps_melt.in with about 512 atoms per rank (4 n^3 atoms), 200 steps.
QStringList lammpsArguments(const Platform& pf, const Programs& programs)
{
    const int cells = static_cast<int>(std::lround(std::cbrt(128.0 * pf.ranks)));
    return {programs.lmp, "-in",   programs.lammpsInput,
            "-var",       "n",     QString::number(cells),
            "-var",       "steps", "200",
            "-log",       "none",  "-screen",
            "none"};
}

/// Captures the program with Meridian's tracer and --trace under Open MPI (mpirun on this machine, oversubscribed):
/// the time-independent trace that `predict --trace` replays. Returns the trace's list, or an empty string.
QString capturedTrace(const QString& mode, const Platform& pf, const Programs& programs, const QString& dir)
{
    const QString prefix = dir + "/captured-" + mode;
    const QStringList program = mode == "lammps"
        ? lammpsArguments(pf, programs)
        : QStringList{programs.ompiApps, mode, QString::number(pf.steps), QString::number(pf.base)};
    const Run captured = run(MERIDIAN_CLI,
                             QStringList{"capture", "--out", prefix, "--trace", "--", "mpirun", "--allow-run-as-root",
                                         "--oversubscribe", "-np", QString::number(pf.ranks)}
                                 + program,
                             dir);
    return captured.code == 0 ? prefix + ".ti" : QString();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? std::nan("") : v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Placement {
    QString name;
    QStringList mapArgs;
    double predicted = 0.0, traced = 0.0, surrogate = 0.0, alphaBeta = 0.0, measured = 0.0, predictWall = 0.0;
};

/// A case's inputs: the problem refine and the matrix model see (`problem`), the captured one the trace goes
/// with (`traced`), the trace and the exported platform.
struct CaseFiles {
    QStringList problem, traced;
    QString trace, platformXml, dir;
};

/// Writes the platform, the matrices and the trace of `mode` on `pf` into `dir`; false when a step failed.
bool prepareCase(const Platform& pf, const QString& mode, const Programs& programs, CaseFiles& files)
{
    const QString& dir = files.dir;
    const QStringList network = pf.project.isEmpty() ? platformFiles(pf, dir)
                                                     : QStringList{"--project", projectCopy(pf, dir)};
    files.trace = capturedTrace(mode, pf, programs, dir);
    if (files.trace.isEmpty())
        return false;
    // The traced prediction as a user runs it: with the captured matrices (an MPI_Alltoall is a collective there,
    // not point-to-point traffic), which capture checked against the trace.
    const QString captured = files.trace.chopped(3);
    files.traced = problemArgs(network, captured + ".volume.mtx", captured + ".messages.mtx", mode + "-captured");
    // LAMMPS has no description but its capture; the programs have prediction_apps.h's.
    const QStringList generated = mode == "lammps" ? QStringList{} : matrixFiles(mode, pf, dir);
    files.problem = generated.isEmpty() ? files.traced : problemArgs(network, generated[0], generated[1], mode);
    files.platformXml = dir + "/platform.xml";
    return !files.traced.isEmpty() && !files.problem.isEmpty()
        && run(MERIDIAN_CLI,
               QStringList{"simulate"} + files.problem + QStringList{"--export-platform", files.platformXml})
               .code
        == 0;
}

/// The placements of a case: random seeds, the launchers' defaults and every mapper (refine twice).
std::vector<Placement> placementsFor(const QString& trace)
{
    std::vector<Placement> placements = {
        {"random-1", {"--algorithm", "random", "--seed", "1"}}, {"random-2", {"--algorithm", "random", "--seed", "2"}},
        {"random-3", {"--algorithm", "random", "--seed", "3"}}, {"round-robin", {"--algorithm", "round-robin"}},
        {"interleave", {"--algorithm", "interleave"}},
    };
    for (const char* mapper : {"greedy", "mpipp", "geo", "scotch-bw", "scotch-lat", "topology-aware", "monte-carlo"})
        placements.push_back({mapper, {"--algorithm", mapper}});
    // A user with a trace gives it to refine, which replays it to choose between its last candidates (the
    // all-to-all's trace holds the collective the generated matrix has as point-to-point traffic; it is accepted).
    placements.push_back({"refine", QStringList{"--algorithm", "refine", "--trace", trace}});
    placements.push_back({"refine-alpha-beta", {"--algorithm", "refine", "--param", "objective=alpha-beta"}});
    return placements;
}

/// The ground truth of one placement (hosts in rank order in `hostFile`): the program run by smpirun, or for
/// LAMMPS SimGrid's own replay of its whole trace (smpirun -replay). NaN when it failed.
double measure(const Platform& pf, const QString& mode, const Programs& programs, const CaseFiles& files,
               const QString& hostFile)
{
    const QStringList common = {"-np",    QString::number(pf.ranks), "-platform", files.platformXml, "-hostfile",
                                hostFile, "--cfg=network/model:CM02"};
    if (mode == "lammps") {
        // SMPI's replay prints the simulated time at its end ("Simulation time T", smpi_replay's info).
        const Run replayed = run("smpirun",
                                 common
                                     + QStringList{"--log=root.thresh:warning", "--log=smpi_replay.thresh:info",
                                                   "-replay", files.trace},
                                 files.dir);
        const QByteArray text = replayed.out + replayed.err;
        const int at = text.lastIndexOf("Simulation time ");
        return replayed.code == 0 && at >= 0 ? text.mid(at + 16).split('\n').first().trimmed().toDouble()
                                             : std::nan("");
    }
    const Run measured = run("smpirun",
                             QStringList{"-no-privatize"} + common
                                 + QStringList{"--cfg=smpi/simulate-computation:no", "--log=root.thresh:warning",
                                               programs.apps, mode, QString::number(pf.steps), QString::number(pf.base)},
                             files.dir);
    // Every rank prints when it ended its last step: the run time is the latest.
    double latest = std::nan("");
    for (const QByteArray& line : measured.out.split('\n'))
        if (line.startsWith("TIME ")) {
            const double t = line.mid(5).trimmed().toDouble();
            latest = std::isnan(latest) ? t : std::max(latest, t);
        }
    return measured.code == 0 ? latest : std::nan("");
}

/// The host of each rank, in rank order, from the mapping's host column, as an smpirun host file.
QString hostFileOf(const QString& mapping)
{
    QFile csv(mapping);
    csv.open(QIODevice::ReadOnly);
    QByteArray hosts;
    for (const QByteArray& line : csv.readAll().split('\n').mid(1))
        if (const auto fields = line.split(','); fields.size() >= 3)
            hosts += fields[2] + "\n";
    return write(mapping.chopped(4) + ".hosts", hosts);
}

/// Maps, predicts (matrices, then trace) and measures one placement; false when a step failed.
bool placeAndMeasure(Placement& p, const Platform& pf, const QString& mode, const Programs& programs,
                     const CaseFiles& files)
{
    const QString mapping = files.dir + "/" + p.name + ".csv";
    if (run(MERIDIAN_CLI, QStringList{"map"} + files.problem + p.mapArgs + QStringList{"--out", mapping}).code != 0)
        return false;
    QElapsedTimer timer;
    timer.start();
    const Run predicted = run(MERIDIAN_CLI, QStringList{"predict"} + files.problem + QStringList{"--mapping", mapping});
    p.predictWall = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    const Run traced = run(MERIDIAN_CLI,
                           QStringList{"predict"} + files.traced
                               + QStringList{"--mapping", mapping, "--trace", files.trace});
    if (predicted.code != 0 || traced.code != 0)
        return false;
    const QJsonObject json = QJsonDocument::fromJson(predicted.out).object();
    p.predicted = json["predicted_s"].toDouble();
    p.traced = QJsonDocument::fromJson(traced.out).object()["predicted_s"].toDouble();
    p.surrogate = json["surrogate_s"].toDouble();
    p.alphaBeta = json["alpha_beta_s"].toDouble();
    p.measured = measure(pf, mode, programs, files, hostFileOf(mapping));
    return std::isfinite(p.measured) && p.measured > 0.0;
}

struct Outcome {
    bool ran = false, spearman = false, error = false, recommended = false;
};

/// Prints the case's placements and its RESULT line; returns which targets it met.
Outcome report(const QString& name, const std::vector<Placement>& placements)
{
    std::vector<double> predicted, traced, surrogate, alphaBeta, measured, errors, tracedErrors;
    double predictWall = 0.0;
    for (const Placement& p : placements) {
        predicted.push_back(p.predicted);
        traced.push_back(p.traced);
        tracedErrors.push_back(std::abs(p.traced - p.measured) / p.measured);
        surrogate.push_back(p.surrogate);
        alphaBeta.push_back(p.alphaBeta);
        measured.push_back(p.measured);
        errors.push_back(std::abs(p.predicted - p.measured) / p.measured);
        predictWall = std::max(predictWall, p.predictWall);
        std::fprintf(stderr,
                     "  %s %-18s measured %.4f s predicted %.4f s traced %.4f s surrogate %.4f s alpha-beta %.4f s\n",
                     qPrintable(name), qPrintable(p.name), p.measured, p.predicted, p.traced, p.surrogate, p.alphaBeta);
    }
    const auto byMeasured = [](const Placement& a, const Placement& b) { return a.measured < b.measured; };
    const auto fastest = std::min_element(placements.begin(), placements.end(), byMeasured);
    const auto refine = std::find_if(placements.begin(), placements.end(),
                                     [](const Placement& p) { return p.name == "refine"; });
    const auto firstPredicted = std::min_element(placements.begin(), placements.end(),
                                                 [](const Placement& a, const Placement& b) {
                                                     return a.traced < b.traced;
                                                 });
    const double recommended = refine->measured / fastest->measured;
    const double tracedRho = bench::spearman(traced, measured);
    const double tracedMedianError = median(tracedErrors);
    // The prediction a user gets for a captured program is the traced one.
    Outcome o{true, tracedRho >= 0.9, tracedMedianError <= 0.10, recommended <= 1.03};
    std::printf("RESULT case=%s placements=%zu spearman_traced=%.3f median_error_traced=%.4f max_error_traced=%.4f "
                "spearman_predicted=%.3f spearman_surrogate=%.3f spearman_alpha_beta=%.3f median_error=%.4f "
                "max_error=%.4f refine_over_fastest=%.4f traced_first_over_fastest=%.4f fastest=%s fastest_s=%.4f "
                "predict_wall_max_s=%.2f targets=%s\n",
                qPrintable(name), placements.size(), tracedRho, tracedMedianError,
                *std::max_element(tracedErrors.begin(), tracedErrors.end()), bench::spearman(predicted, measured),
                bench::spearman(surrogate, measured), bench::spearman(alphaBeta, measured), median(errors),
                *std::max_element(errors.begin(), errors.end()), recommended,
                firstPredicted->measured / fastest->measured, qPrintable(fastest->name), fastest->measured, predictWall,
                o.spearman && o.error && o.recommended ? "met" : "missed");
    std::fflush(stdout);
    return o;
}

Outcome runCase(const Platform& pf, const QString& mode, const Programs& programs, const QString& root)
{
    CaseFiles files;
    files.dir = root + "/" + pf.name + "-" + mode;
    QDir().mkpath(files.dir);
    QElapsedTimer timer;
    timer.start();
    if (!prepareCase(pf, mode, programs, files))
        return {};
    std::vector<Placement> placements = placementsFor(files.trace);
    for (Placement& p : placements)
        if (!placeAndMeasure(p, pf, mode, programs, files))
            return {};
    const Outcome o = report(pf.name + "/" + mode, placements);
    std::fprintf(stderr, "  %s/%s took %.0f s\n", qPrintable(pf.name), qPrintable(mode),
                 static_cast<double>(timer.elapsed()) * 1e-3);
    return o;
}

/// Builds prediction_apps with smpicc and mpicc into `root`; finds LAMMPS. False when a compiler is missing.
bool buildPrograms(const QString& root, Programs& programs)
{
    const QString source = QString(MERIDIAN_SOURCE_DIR) + "/tests/bench/prediction";
    programs.apps = root + "/prediction_apps";
    if (run("smpicc", {"-O2", "-I" + source, "-o", programs.apps, source + "/prediction_apps.c"}).code != 0) {
        std::fprintf(stderr, "bench_prediction: smpicc (Debian package libsimgrid-dev) could not build the programs\n");
        return false;
    }
    programs.ompiApps = root + "/prediction_apps_ompi";
    if (run("mpicc", {"-O2", "-I" + source, "-o", programs.ompiApps, source + "/prediction_apps.c"}).code != 0) {
        std::fprintf(stderr, "bench_prediction: mpicc (Debian package libopenmpi-dev) could not build the programs\n");
        return false;
    }
    programs.lmp = QStandardPaths::findExecutable("lmp");
    programs.lammpsInput = source + "/lammps_melt.in";
    return true;
}

const QStringList kAllPrograms = {"halo2d", "halo3d", "alltoall", "master", "pipeline", "lammps"};

std::vector<Platform> platforms()
{
    // name, sites, latency ms, bandwidth MB/s, uplinks, base bytes, steps, programs, project, ranks
    std::vector<Platform> list = {
        {"latency", 8, 5.0, 120.0, 200.0, 1000.0, false, 2000, 50, kAllPrograms, {}, kRanks},
        {"bandwidth", 4, 1.0, 10.0, 5.0, 100.0, true, 1000000, 10, kAllPrograms, {}, kRanks},
        {"latency16", 16, 5.0, 120.0, 200.0, 1000.0, false, 2000, 50, kAllPrograms, {}, kRanks},
    };
    // The sample projects at their host count (their sites, network and hosts), with the halo exchanges.
    for (const auto& [project, ranks] : {std::pair{"azure-3-regions", 48}, {"ec2-4-regions", 64}, {"cloudmap-a7", 64}}) {
        list.push_back({project, 0, 0.0, 0.0, 0.0, 0.0, false, 100000, 20, {"halo2d", "halo3d"}, project, ranks});
    }
    return list;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QStringList wanted = app.arguments().mid(1);
    QTemporaryDir root;
    if (!root.isValid())
        return 1;
    // MERIDIAN_BENCH_KEEP=1 keeps the platforms, mappings and traces for a look after the run.
    root.setAutoRemove(qEnvironmentVariableIsEmpty("MERIDIAN_BENCH_KEEP"));
    if (!root.autoRemove())
        std::fprintf(stderr, "bench_prediction: keeping %s\n", qPrintable(root.path()));
    Programs programs;
    if (!buildPrograms(root.path(), programs))
        return 1;
    QElapsedTimer timer;
    timer.start();
    int cases = 0, spearmanMet = 0, errorMet = 0, recommendedMet = 0, failed = 0, skipped = 0;
    for (const Platform& pf : platforms())
        for (const QString& mode : pf.programs) {
            const QString name = pf.name + "/" + mode;
            if (!wanted.isEmpty() && !wanted.contains(name))
                continue;
            if (mode == "lammps" && programs.lmp.isEmpty()) {
                std::printf("SKIP case=%s reason=\"lmp not found: install Debian's lammps (scripts/dev bench)\"\n",
                            qPrintable(name));
                ++skipped;
                continue;
            }
            const Outcome o = runCase(pf, mode, programs, root.path());
            ++cases;
            failed += o.ran ? 0 : 1;
            spearmanMet += o.spearman;
            errorMet += o.error;
            recommendedMet += o.recommended;
        }
    std::printf("RESULT case=summary cases=%d spearman_met=%d median_error_met=%d recommended_met=%d failed=%d "
                "skipped=%d wall_s=%.0f\n",
                cases, spearmanMet, errorMet, recommendedMet, failed, skipped,
                static_cast<double>(timer.elapsed()) * 1e-3);
    return failed == 0 ? 0 : 1;
}
