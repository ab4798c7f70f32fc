// Benchmark of meridian-cli split over MPI ranks (`mpirun -np N meridian-cli ...`, Open MPI on this machine), the
// whole command from the project file to the printed JSON, wall clock, each after what earlier commands wrote is on
// disk (sync, outside the clock). One RESULT line per case and rank count:
//   monte_carlo   SC17's Monte Carlo mapper, 10^8 random placements of the ec2-4-regions sample's first application
//                 (LAMMPS, 32 processes), at np = 1 and 2, and without a launcher (one process, its threads on
//                 every core). Open MPI binds each of up to 2 ranks to a core of its own, so np = 1 samples on one
//                 core and np = 2 on two. identical=1 when the placement, the kept costs' distribution and the
//                 best-so-far curve equal np = 1's. Target: np = 2 at least 1.8x as fast as np = 1.
//   partition     `partition --algorithm hash` of a generated power-law graph (SNAP text, 2 x 10^8 edges by
//                 default, in the page cache) onto the geo-cut-ec2-8-regions sample's sites, from the text to the
//                 partition and masters files, at np = 1, 2 and 4 (4 oversubscribes the 2 cores) and without a
//                 launcher (one process, a stream on both cores). identical=1 when both files equal np = 1's byte for
//                 byte and the metrics are np = 1's. rank_peak_mb is the largest rank's peak resident memory,
//                 share_of_np1 that over np = 1's peak. Target: np = 2 at least 1.6x as fast as np = 1.
//   outgrown      the same partition with every rank's address space limited (prlimit --as) to 40% of what
//                 np = 1 needs (its smallest limit that completes, found by halving): np = 1 must refuse cleanly
//                 (a failed exit with the out-of-memory message, no output file), np = 4 must complete with np = 1's
//                 files. np = 1's message says how many ranks would hold the graph ("F to M ranks", or "about F");
//                 each of F and M is run under the same limit: advice_fewest_ok and advice_most_ok say whether they
//                 completed with np = 1's files (the most is the estimate's safe end, the fewest its hopeful one;
//                 "at least F" has no most, M = 0). met when M completes (F for "at least F").
//   partition_hdrf  the same graph partitioned by `--algorithm hdrf --param batch=B` (HDRF in batches, B = 65536 by
//                 default) at np = 1, 2 and 4 and without a launcher, and by HDRF one edge at a time without a launcher.
//                 identical=1 when both files and the metrics equal np = 1's; transfer_vs_one_at_a_time and
//                 usd_vs_one_at_a_time are the transfer time and WAN cost over HDRF one edge at a time's, within_1pct=1
//                 when neither is more than 1% above. Target: np = 2 at least 1.6x as fast as np = 1, and within 1%.
//   partition_geocut  the same for Geo-Cut's stage 1, the paper's cost-aware streaming (`--algorithm geo-cut --param
//                 start=cost --param lq_fraction=0 --param replica_passes=0`), in batches of B against one edge at a
//                 time (in the seeded random order of one process). Target: within 1%.
//   budget_sweep  `budget-sweep` (geo-cut and g-cut at 1.0 to 0.6 times GrapH's cost: 10 points) of a generated
//                 power-law graph of 10^6 edges imported into a copy of the geo-cut-ec2-8-regions sample, at np = 1
//                 and 2 and without a launcher. identical=1 when every point but its runtime equals np = 1's.
//   workbench_partition  the workbench's partition run (ops::runPartition) against the same run sent to a launcher
//                 (ops::runPartitionLaunched, the workbench's Run on a Launcher: meridian-cli under mpirun, its files
//                 read back and measured), HDRF in batches (B as above) on a generated power-law graph of
//                 workbench_edges edges (default 2 x 10^7) imported into a copy of the geo-cut-ec2-8-regions sample:
//                 locally, and launched at np = 1 and 2. Each run is a child process of this benchmark, from the request
//                 to the run landed, wall clock; workbench_peak_mb is that process's peak (the ranks' own peaks are in
//                 the run's notes). identical=1 when the partition, the masters and the transfer time are the local
//                 run's.
// Arguments: key=value: samples (default 10^8), edges (default 2 x 10^8), sweep_edges (default 10^6), batch (default
// 65536), workbench_edges (default 2 x 10^7), cases (default
// monte_carlo,partition,partition_hdrf,partition_geocut,outgrown,budget_sweep,workbench_partition).
#include "../partition_json.h"
#include "app/partitioning/launched_partition.h"
#include "app/project/project_file.h"
#include "core/partition/builtin_partitioners.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cstdio>

#include <sys/resource.h>
#include <unistd.h>

namespace {

struct Run {
    int code = -1;
    QJsonObject json;
    QByteArray err;
    double seconds = 0.0;
};

/// Runs meridian-cli, under mpirun with `ranks` processes when ranks > 0, each under `prefix` (prlimit) if given.
Run cli(int ranks, const QStringList& args, const QStringList& prefix = {})
{
    QProcess p;
    QStringList env = QProcess::systemEnvironment();
    env << "OMPI_MCA_plm_rsh_agent=false";
    p.setEnvironment(env);
    // What earlier commands wrote (the generated graph, the last run's files) goes to disk first, outside the clock:
    // its writeback would otherwise land in this run's time.
    ::sync();
    QElapsedTimer timer;
    timer.start();
    const QStringList command = prefix + QStringList{MERIDIAN_CLI} + args;
    if (ranks > 0)
        p.start(MERIDIAN_MPIRUN,
                QStringList{"--allow-run-as-root", "--oversubscribe", "-np", QString::number(ranks)} + command);
    else
        p.start(command.first(), command.mid(1));
    p.waitForFinished(-1);
    Run run{p.exitCode(), QJsonDocument::fromJson(p.readAllStandardOutput()).object(), p.readAllStandardError(),
            static_cast<double>(timer.nsecsElapsed()) * 1e-9};
    return run;
}

/// SHA-256 of a file, read in blocks.
QByteArray digestOf(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    return hash.result();
}

int monteCarlo(const QString& samples, QTemporaryDir& dir)
{
    const QString project = QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/ec2-4-regions/ec2-4-regions.meridian";
    const auto args = [&](const QString& out) {
        return QStringList{"map",     "--project",          project, "--algorithm",    "monte-carlo",
                           "--param", "samples=" + samples, "--out", dir.filePath(out)};
    };
    const auto comparable = [](QJsonObject o) {
        o.remove("runtime_s");
        o.remove("written");
        return o;
    };
    int failures = 0;
    double np1 = 0.0;
    QJsonObject reference;
    QByteArray referencePlacement;
    for (int ranks : {1, 2, 0}) {
        const QString out = QString("ranks%1.csv").arg(ranks);
        const Run run = cli(ranks, args(out));
        if (run.code != 0) {
            std::printf("RESULT case=monte_carlo ranks=%d error=1\n%s\n", ranks, run.err.constData());
            ++failures;
            continue;
        }
        QFile placement(dir.filePath(out));
        placement.open(QIODevice::ReadOnly);
        const QByteArray bytes = placement.readAll();
        if (ranks == 1) {
            np1 = run.seconds;
            reference = comparable(run.json);
            referencePlacement = bytes;
        }
        const bool identical = comparable(run.json) == reference && bytes == referencePlacement;
        const double speedup = np1 / run.seconds;
        const QJsonObject kept = run.json["samples"].toObject();
        std::printf("RESULT case=monte_carlo ranks=%s samples=%s wall_s=%.2f speedup_vs_np1=%.2f identical=%d "
                    "best_cost_s=%.6f kept=%d kept_mean_s=%.6f",
                    ranks == 0 ? "none" : qPrintable(QString::number(ranks)), qPrintable(samples), run.seconds, speedup,
                    identical ? 1 : 0, run.json["cost_s"].toDouble(), kept["kept"].toInt(), kept["mean_s"].toDouble());
        if (ranks == 2) {
            const bool met = identical && speedup >= 1.8;
            std::printf(" target_speedup=1.8 met=%d", met ? 1 : 0);
        }
        std::printf("\n");
        std::fflush(stdout);
        if (!identical)
            ++failures;
    }
    return failures;
}

struct Partitioned {
    Run run;
    QByteArray edges, masters;
};

/// One partition run: the whole command, then the digests of its files (outside the clock), which it removes.
Partitioned partition(int ranks, const QString& graph, QTemporaryDir& dir, const QStringList& prefix = {},
                      const QStringList& algorithm = {"--algorithm", "hash"})
{
    const QString project = QString(MERIDIAN_SOURCE_DIR)
        + "/sample_projects/geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian";
    const QString e = dir.filePath("E.tsv"), m = dir.filePath("M.tsv");
    QFile::remove(e);
    QFile::remove(m);
    Partitioned out;
    out.run = cli(ranks,
                  QStringList{"partition", "--graph", graph, "--project", project, "--no-cache", "--out", e,
                              "--masters", m}
                      + algorithm,
                  prefix);
    if (out.run.code == 0) {
        out.edges = digestOf(e);
        out.masters = digestOf(m);
    }
    QFile::remove(e);
    QFile::remove(m);
    return out;
}

double peakOf(const QJsonObject& json) { return json["peak_memory_bytes"].toDouble(); }

/// A stream in batches (`oneAtATime` with --param batch=B) at np = 1, 2 and 4 and without a launcher, against np = 1's
/// files and the stream one edge at a time (`oneAtATime`, one process, without a launcher) for its transfer time and
/// WAN cost. `name` is the case's.
int streamInBatches(const char* name, const QStringList& oneAtATime, const QString& graph, const QString& edges,
                    const QString& batch, QTemporaryDir& dir)
{
    const Partitioned sequential = partition(0, graph, dir, {}, oneAtATime);
    const QStringList batched = oneAtATime + QStringList{"--param", "batch=" + batch};
    const Partitioned reference = partition(1, graph, dir, {}, batched);
    if (sequential.run.code != 0 || reference.run.code != 0) {
        std::printf("RESULT case=%s error=1\n%s%s\n", name, sequential.run.err.constData(),
                    reference.run.err.constData());
        return 1;
    }
    const double seqTransfer = sequential.run.json["transfer_time_s"].toDouble();
    const double seqUsd = sequential.run.json["wan_cost_usd"].toDouble();
    std::printf("RESULT case=%s batch=0 ranks=none edges=%s wall_s=%.2f peak_mb=%.0f transfer_s=%.6g "
                "wan_usd=%.6g\n",
                name, qPrintable(edges), sequential.run.seconds, peakOf(sequential.run.json) / 1e6, seqTransfer,
                seqUsd);
    std::fflush(stdout);
    int failures = 0;
    for (int ranks : {1, 2, 4, 0}) {
        const Partitioned p = ranks == 1 ? reference : partition(ranks, graph, dir, {}, batched);
        if (p.run.code != 0) {
            std::printf("RESULT case=%s ranks=%d error=1\n%s\n", name, ranks, p.run.err.constData());
            ++failures;
            continue;
        }
        const bool same = p.edges == reference.edges && p.masters == reference.masters
            && meridian::test::withoutTimes(p.run.json) == meridian::test::withoutTimes(reference.run.json);
        const double speedup = reference.run.seconds / p.run.seconds;
        const double transfer = p.run.json["transfer_time_s"].toDouble() / seqTransfer;
        const double usd = p.run.json["wan_cost_usd"].toDouble() / seqUsd;
        const bool close = transfer <= 1.01 && usd <= 1.01; // no more than 1% above one edge at a time
        std::printf("RESULT case=%s batch=%s ranks=%s edges=%s wall_s=%.2f speedup_vs_np1=%.2f "
                    "identical=%d rank_peak_mb=%.0f share_of_np1=%.2f transfer_vs_one_at_a_time=%.4f "
                    "usd_vs_one_at_a_time=%.4f within_1pct=%d",
                    name, qPrintable(batch), ranks == 0 ? "none" : qPrintable(QString::number(ranks)),
                    qPrintable(edges), p.run.seconds, speedup, same ? 1 : 0, peakOf(p.run.json) / 1e6,
                    peakOf(p.run.json) / peakOf(reference.run.json), transfer, usd, close ? 1 : 0);
        if (ranks == 2)
            std::printf(" target_speedup=1.6 met=%d", same && close && speedup >= 1.6 ? 1 : 0);
        std::printf("\n");
        std::fflush(stdout);
        if (!same)
            ++failures;
    }
    return failures;
}

int partitionCases(const QString& edges, const QString& batch, const QStringList& chosen, QTemporaryDir& dir)
{
    const bool speed = chosen.contains("partition"), outgrown = chosen.contains("outgrown");
    const QString graph = dir.filePath("power-law.txt");
    QElapsedTimer timer;
    timer.start();
    const Run generated = cli(0, {"generate", "graph", "--edges", edges, "--seed", "3", "--out", graph});
    if (generated.code != 0) {
        std::printf("RESULT case=partition error=1\n%s\n", generated.err.constData());
        return 1;
    }
    std::printf("# generated %s edges, %.0f vertices, %.1f MB of text in %.1f s (not timed below)\n", qPrintable(edges),
                generated.json["vertices"].toDouble(), static_cast<double>(QFileInfo(graph).size()) / 1e6,
                timer.nsecsElapsed() * 1e-9);
    std::fflush(stdout);
    int failures = 0;
    if (chosen.contains("partition_hdrf"))
        failures += streamInBatches("partition_hdrf", {"--algorithm", "hdrf"}, graph, edges, batch, dir);
    if (chosen.contains("partition_geocut"))
        failures += streamInBatches("partition_geocut",
                                    {"--algorithm", "geo-cut", "--param", "start=cost", "--param", "lq_fraction=0",
                                     "--param", "replica_passes=0"},
                                    graph, edges, batch, dir);
    if (!speed && !outgrown)
        return failures;
    const Partitioned reference = partition(1, graph, dir);
    if (reference.run.code != 0) {
        std::printf("RESULT case=partition ranks=1 error=1\n%s\n", reference.run.err.constData());
        return 1;
    }
    const double np1Peak = peakOf(reference.run.json);
    const auto identical = [&](const Partitioned& p) {
        return p.run.code == 0 && p.edges == reference.edges && p.masters == reference.masters
            && meridian::test::withoutTimes(p.run.json) == meridian::test::withoutTimes(reference.run.json);
    };
    if (speed) {
        for (int ranks : {1, 2, 4, 0}) {
            const Partitioned p = ranks == 1 ? reference : partition(ranks, graph, dir);
            if (p.run.code != 0) {
                std::printf("RESULT case=partition ranks=%d error=1\n%s\n", ranks, p.run.err.constData());
                ++failures;
                continue;
            }
            const bool same = identical(p);
            const double speedup = reference.run.seconds / p.run.seconds;
            const double peak = peakOf(p.run.json);
            std::printf("RESULT case=partition algorithm=hash ranks=%s edges=%s wall_s=%.2f "
                        "edges_per_second=%.0f speedup_vs_np1=%.2f identical=%d rank_peak_mb=%.0f "
                        "share_of_np1=%.2f transfer_s=%.6g wan_usd=%.6g",
                        ranks == 0 ? "none" : qPrintable(QString::number(ranks)), qPrintable(edges), p.run.seconds,
                        edges.toDouble() / p.run.seconds, speedup, same ? 1 : 0, peak / 1e6, peak / np1Peak,
                        p.run.json["transfer_time_s"].toDouble(), p.run.json["wan_cost_usd"].toDouble());
            if (ranks == 2)
                std::printf(" target_speedup=1.6 met=%d", same && speedup >= 1.6 ? 1 : 0);
            std::printf("\n");
            std::fflush(stdout);
            if (!same)
                ++failures;
        }
    }
    if (outgrown) {
        // What np = 1 needs of address space: the smallest limit, halving from 4x its resident peak, at which it
        // still completes (a 5% step at the end).
        double high = 4.0 * np1Peak, low = 0.0;
        const auto completesAlone = [&](double limit) {
            const Partitioned p = partition(1, graph, dir, {"prlimit", QString("--as=%1").arg(qint64(limit))});
            return p.run.code == 0;
        };
        if (!completesAlone(high)) {
            std::printf("RESULT case=outgrown error=1 (np = 1 does not complete within 4x its resident peak)\n");
            return failures + 1;
        }
        while (high - low > 0.05 * high) {
            const double mid = 0.5 * (low + high);
            (completesAlone(mid) ? high : low) = mid;
        }
        const double limit = 0.4 * high;
        const QStringList prefix{"prlimit", QString("--as=%1").arg(qint64(limit))};
        const Partitioned alone = partition(1, graph, dir, prefix);
        const bool refused = alone.run.code != 0 && alone.run.err.contains("out of memory")
            && !QFile::exists(dir.filePath("E.tsv"));
        const Partitioned four = partition(4, graph, dir, prefix);
        const bool completed = identical(four);
        const QByteArray said = alone.run.err.trimmed().split('\n').value(0);
        std::printf("RESULT case=outgrown edges=%s np1_needs_mb=%.0f limit_mb=%.0f np1_exit=%d np1_refused=%d "
                    "np4_exit=%d np4_identical=%d np4_wall_s=%.2f np4_rank_peak_mb=%.0f met=%d\n# np = 1 said: %s\n",
                    qPrintable(edges), high / 1e6, limit / 1e6, alone.run.code, refused ? 1 : 0, four.run.code,
                    completed ? 1 : 0, four.run.seconds, peakOf(four.run.json) / 1e6, refused && completed ? 1 : 0,
                    said.constData());
        if (!completed)
            std::printf("# np = 4 said: %s\n", four.run.err.constData());
        std::fflush(stdout);
        if (!refused || !completed)
            ++failures;
        // The ranks np = 1 said would hold the graph: "F to M", "about F" or "at least F" ranks.
        const QRegularExpression pattern(R"((?:(\d+) to (\d+)|about (\d+)|at least (\d+)) ranks with as much memory)");
        const QRegularExpressionMatch advice = pattern.match(said);
        if (!advice.hasMatch()) {
            std::printf("RESULT case=outgrown_advice error=1 (np = 1 said no number of ranks)\n");
            return failures + 1;
        }
        // "F to M" and "about F" (M = F) promise M; "at least F" promises nothing beyond F (M = 0).
        const int fewest = (advice.captured(1) + advice.captured(3) + advice.captured(4)).toInt();
        const int most = !advice.captured(4).isEmpty() ? 0
            : advice.captured(2).isEmpty()             ? fewest
                                                       : advice.captured(2).toInt();
        const auto completesWith = [&](int ranks) { return identical(partition(ranks, graph, dir, prefix)); };
        const bool mostOk = most > 0 && completesWith(most);
        const bool fewestOk = fewest == most ? mostOk : completesWith(fewest);
        std::printf("RESULT case=outgrown_advice edges=%s limit_mb=%.0f advice_fewest=%d advice_fewest_ok=%d "
                    "advice_most=%d advice_most_ok=%d met=%d\n",
                    qPrintable(edges), limit / 1e6, fewest, fewestOk ? 1 : 0, most, mostOk ? 1 : 0,
                    (most > 0 ? mostOk : fewestOk) ? 1 : 0);
        std::fflush(stdout);
        if (most > 0 ? !mostOk : !fewestOk)
            ++failures;
    }
    return failures;
}

/// A copy of the geo-cut-ec2-8-regions sample named `name`.meridian with a generated power-law graph of `edges`
/// edges imported as "g"; "" after printing the case's error.
QString projectWithGraph(const QString& name, const QString& edges, const char* benchCase, QTemporaryDir& dir)
{
    const QString project = dir.filePath(name + ".meridian");
    QFile::remove(project);
    QFile::copy(QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian",
                project);
    const QString graph = dir.filePath(name + "-graph.txt");
    for (const QStringList& args : {QStringList{"generate", "graph", "--edges", edges, "--seed", "3", "--out", graph},
                                    QStringList{"project", "import-graph", project, graph, "--name", "g"}})
        if (const Run made = cli(0, args); made.code != 0) {
            std::printf("RESULT case=%s error=1\n%s\n", benchCase, made.err.constData());
            return {};
        }
    return project;
}

int budgetSweep(const QString& edges, QTemporaryDir& dir)
{
    const QString project = projectWithGraph("sweep", edges, "budget_sweep", dir);
    if (project.isEmpty())
        return 1;
    const QStringList args{"budget-sweep", "--project", project, "--graph", "g"};
    int failures = 0;
    double np1 = 0.0;
    QJsonObject reference;
    for (int ranks : {1, 2, 0}) {
        const Run run = cli(ranks, args);
        if (run.code != 0) {
            std::printf("RESULT case=budget_sweep ranks=%d error=1\n%s\n", ranks, run.err.constData());
            ++failures;
            continue;
        }
        if (ranks == 1) {
            np1 = run.seconds;
            reference = meridian::test::withoutPointRuntimes(run.json);
        }
        const bool identical = meridian::test::withoutPointRuntimes(run.json) == reference;
        std::printf("RESULT case=budget_sweep ranks=%s edges=%s points=%d wall_s=%.2f speedup_vs_np1=%.2f "
                    "identical=%d\n",
                    ranks == 0 ? "none" : qPrintable(QString::number(ranks)), qPrintable(edges),
                    static_cast<int>(run.json["points"].toArray().size()), run.seconds, np1 / run.seconds,
                    identical ? 1 : 0);
        std::fflush(stdout);
        if (!identical)
            ++failures;
    }
    return failures;
}

/// The child of workbench_partition: one partition run of graph "g" of `project`, here (ranks 0) or launched; prints
/// its seconds, peak memory, transfer time and a digest of its partition as JSON.
int workbenchRun(const QString& project, int ranks, const QString& batch, const QString& work)
{
    using namespace meridian;
    auto loaded = document::ProjectFile::load(project);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", loaded.error().toString().c_str());
        return 1;
    }
    Registry<partition::Partitioner> registry;
    partition::registerBuiltinPartitioners(registry);
    ops::PartitionRequest request;
    request.project = std::make_shared<const document::Project>(std::move(*loaded));
    request.graph = "g";
    request.algorithm = "hdrf";
    request.params = *ParamValues::parse(registry.find("hdrf")->parameters(), {"batch=" + batch.toStdString()});
    QElapsedTimer timer;
    timer.start();
    const auto run = ranks == 0 ? ops::runPartition(request, registry, Feedback())
                                : ops::runPartitionLaunched(request,
                                                            {QString("%1 --oversubscribe -np {N}").arg(MERIDIAN_MPIRUN),
                                                             ranks,
                                                             work,
                                                             MERIDIAN_CLI,
                                                             {},
                                                             {}},
                                                            Feedback());
    const double seconds = static_cast<double>(timer.nsecsElapsed()) * 1e-9;
    if (!run) {
        std::fprintf(stderr, "%s\n", run.error().toString().c_str());
        return 1;
    }
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView(reinterpret_cast<const char*>(run->partition->edgeSite.data()),
                                static_cast<qsizetype>(run->partition->edgeSite.size())));
    hash.addData(QByteArrayView(reinterpret_cast<const char*>(run->partition->masterSite.data()),
                                static_cast<qsizetype>(run->partition->masterSite.size())));
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const QJsonObject out{{"seconds", seconds},
                          {"peak_bytes", static_cast<double>(usage.ru_maxrss) * 1024.0},
                          {"transfer_s", run->metric("transfer_time_s").value_or(-1.0)},
                          {"digest", QString::fromLatin1(hash.result().toHex())}};
    std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
    return 0;
}

int workbenchPartition(const QString& edges, const QString& batch, QTemporaryDir& dir)
{
    const QString project = projectWithGraph("workbench", edges, "workbench_partition", dir);
    if (project.isEmpty())
        return 1;
    int failures = 0;
    double localSeconds = 0.0;
    QJsonObject local;
    for (int ranks : {0, 1, 2}) {
        ::sync(); // as cli() does
        QProcess child;
        QStringList env = QProcess::systemEnvironment();
        env << "OMPI_MCA_plm_rsh_agent=false"
            << "OMPI_ALLOW_RUN_AS_ROOT=1"
            << "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
        child.setEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(),
                    {"workbench-run", project, QString::number(ranks), batch, dir.path()});
        child.waitForFinished(-1);
        const QJsonObject out = QJsonDocument::fromJson(child.readAllStandardOutput()).object();
        if (child.exitCode() != 0 || out.isEmpty()) {
            std::printf("RESULT case=workbench_partition ranks=%d error=1\n%s\n", ranks,
                        child.readAllStandardError().constData());
            ++failures;
            continue;
        }
        if (ranks == 0) {
            local = out;
            localSeconds = out["seconds"].toDouble();
        }
        const bool identical = out["digest"] == local["digest"]
            && out["transfer_s"].toDouble() == local["transfer_s"].toDouble();
        std::printf("RESULT case=workbench_partition batch=%s ranks=%s edges=%s wall_s=%.2f vs_local=%.2f "
                    "workbench_peak_mb=%.0f identical=%d transfer_s=%.6g\n",
                    qPrintable(batch), ranks == 0 ? "local" : qPrintable(QString::number(ranks)), qPrintable(edges),
                    out["seconds"].toDouble(), out["seconds"].toDouble() / localSeconds,
                    out["peak_bytes"].toDouble() / 1e6, identical ? 1 : 0, out["transfer_s"].toDouble());
        std::fflush(stdout);
        if (!identical)
            ++failures;
    }
    return failures;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 6 && QString(argv[1]) == "workbench-run")
        return workbenchRun(argv[2], QString(argv[3]).toInt(), argv[4], argv[5]);
    QString samples = "100000000", edges = "200000000", sweepEdges = "1000000", batch = "65536",
            workbenchEdges = "20000000",
            cases = "monte_carlo,partition,partition_hdrf,partition_geocut,outgrown,budget_sweep,workbench_partition";
    for (int k = 1; k < argc; ++k) {
        const QString arg = argv[k];
        const QString value = arg.section('=', 1);
        if (arg.startsWith("samples="))
            samples = value;
        else if (arg.startsWith("edges="))
            edges = value;
        else if (arg.startsWith("sweep_edges="))
            sweepEdges = value;
        else if (arg.startsWith("batch="))
            batch = value;
        else if (arg.startsWith("workbench_edges="))
            workbenchEdges = value;
        else if (arg.startsWith("cases="))
            cases = value;
    }
    QTemporaryDir dir;
    const QStringList chosen = cases.split(',');
    int failures = 0;
    if (chosen.contains("monte_carlo"))
        failures += monteCarlo(samples, dir);
    if (chosen.contains("partition") || chosen.contains("partition_hdrf") || chosen.contains("partition_geocut")
        || chosen.contains("outgrown"))
        failures += partitionCases(edges, batch, chosen, dir);
    if (chosen.contains("budget_sweep"))
        failures += budgetSweep(sweepEdges, dir);
    if (chosen.contains("workbench_partition"))
        failures += workbenchPartition(workbenchEdges, batch, dir);
    return failures == 0 ? 0 : 1;
}
