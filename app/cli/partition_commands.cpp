#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "core/io/edge_partition_io.h"
#include "core/io/graph_io.h"
#include "core/io/sites_io.h"
#include "core/partition/builtin_partitioners.h"
#include "core/partition/cost_bound.h"
#include "core/partition/dynamic_update.h"
#include "core/partition/snap_stream.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <sys/resource.h>

namespace meridian::cli {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double peakMemoryBytes()
{
    // VmHWM is this process image's own peak; getrusage's ru_maxrss survives execve and would report a
    // larger parent's peak when meridian-cli is started by a benchmark.
    if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        double kib = -1.0;
        while (std::fgets(line, sizeof line, f))
            if (std::sscanf(line, "VmHWM: %lf kB", &kib) == 1)
                break;
        std::fclose(f);
        if (kib >= 0.0)
            return kib * 1024.0;
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) * 1024.0; // Linux reports KiB
}

void addSiteOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {"project", "A project whose sites (with up/down bandwidth and prices) are used.", "file"},
        {"sites", "Sites as CSV or GeoJSON with up_MBps, down_MBps and egress_usd_per_GB.", "file"},
        {"profile", "Traffic profile: pagerank (default), sssp or subgraph-isomorphism.", "name", "pagerank"},
        {"active-fraction", "sssp: share of vertices active per iteration (default 0.1).", "share", "0.1"},
        {"budget", "WAN budget per iteration in USD (eq. 6).", "usd"},
        {"param", "Algorithm parameter key=value (repeatable).", "key=value"},
        {"seed", "Random seed (default 1).", "n", "1"},
    });
}

Expected<model::Topology> loadSites(const QCommandLineParser& parser)
{
    if (parser.isSet("project") == parser.isSet("sites"))
        return makeError(ErrorCode::InvalidInput, "name the sites with exactly one of --project or --sites");
    if (parser.isSet("project")) {
        auto project = document::ProjectFile::load(parser.value("project"));
        if (!project)
            return project.error();
        return project->topology;
    }
    return io::loadTopology(parser.value("sites").toStdString());
}

Expected<std::optional<double>> parseBudget(const QCommandLineParser& parser)
{
    if (!parser.isSet("budget"))
        return std::optional<double>();
    bool ok = false;
    const double b = parser.value("budget").toDouble(&ok);
    if (!ok || !(b >= 0.0))
        return makeError(ErrorCode::InvalidInput,
                         "--budget must be a non-negative number of USD, not '" + parser.value("budget").toStdString()
                             + "'");
    return std::optional<double>(b);
}

/// With a budget, the lowest cost any partition can reach (partition::costLowerBound), computed before running; a
/// budget below it is refused. Nothing without a budget.
Expected<std::optional<double>> budgetBound(const partition::PartitionProblem& problem, const Feedback& feedback)
{
    if (!problem.budgetUsd)
        return std::optional<double>();
    auto bound = partition::costLowerBound(problem, FeedbackRange(feedback, 0.0, 1.0));
    if (!bound)
        return bound.error();
    if (auto reachable = partition::checkBudgetReachable(*problem.budgetUsd, *bound); !reachable)
        return reachable.error();
    return std::optional<double>(*bound);
}

QJsonObject metricsJson(const cost::GasMetrics& m, const model::Topology& topology, std::optional<double> budgetUsd,
                        std::optional<double> costBound = {})
{
    QJsonArray sites;
    for (int r = 0; r < topology.siteCount(); ++r)
        sites.append(QJsonObject{{"site", QString::fromStdString(topology.site(r).name)},
                                 {"upload_bytes", m.gatherUp[r] + m.applyUp[r]},
                                 {"download_bytes", m.gatherDown[r] + m.applyDown[r]},
                                 {"upload_share", m.uploadShare[r]}});
    partition::BudgetStatus budget;
    if (budgetUsd) {
        budget.given = true;
        budget.met = partition::withinBudget(m.wanUsd, *budgetUsd);
        budget.overUsd = budget.met ? 0.0 : m.wanUsd - *budgetUsd;
    }
    QJsonObject b{{"status", QString::fromStdString(budget.text())}};
    if (budget.given) {
        b["usd"] = *budgetUsd;
        b["met"] = budget.met;
        b["over_by_usd"] = budget.overUsd;
    }
    if (costBound)
        b["lower_bound_usd"] = *costBound;
    return QJsonObject{{"replication_factor", m.replicationFactor},
                       {"transfer_time_s", m.transferSeconds},
                       {"gather_time_s", m.gatherSeconds},
                       {"apply_time_s", m.applySeconds},
                       {"wan_cost_usd", m.wanUsd},
                       {"wan_bytes", m.wanBytes},
                       {"sites", sites},
                       {"bottleneck",
                        QJsonObject{{"gather",
                                     QString::fromStdString(cost::GasMetrics::linkName(topology, m.gatherBottleneck,
                                                                                       m.gatherBottleneckUplink))},
                                    {"apply",
                                     QString::fromStdString(cost::GasMetrics::linkName(topology, m.applyBottleneck,
                                                                                       m.applyBottleneckUplink))}}},
                       {"budget", b}};
}

QJsonArray notesJson(const std::vector<std::string>& notes)
{
    QJsonArray a;
    for (const auto& n : notes)
        a.append(QString::fromStdString(n));
    return a;
}

/// How long each phase of a partition command took.
struct PhaseTimes {
    double edges = 0, run = 0, streaming = 0, evaluate = 0, write = 0, whole = 0;
};

void addPhaseTimes(QJsonObject& out, const PhaseTimes& t)
{
    const auto rate = [&](double seconds) { return seconds > 0.0 ? t.edges / seconds : 0.0; };
    out["runtime_s"] = t.run;
    out["evaluate_s"] = t.evaluate; // measured while the files are written: it overlaps write_s
    out["write_s"] = t.write;
    out["whole_s"] = t.whole;
    out["edges_per_second"] = rate(t.whole); // the whole command's
    out["partitioning_edges_per_second"] = rate(t.run);
    out["streaming_s"] = t.streaming;
    out["streaming_edges_per_second"] = rate(t.streaming);
}

void addPartitionOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(
        "Partitions a graph's edges across geo-distributed sites (vertex-cut) and prints JSON: replication factor, "
        "inter-DC transfer time per GAS iteration (s), WAN cost (USD) and bytes, per-site upload, the bottleneck "
        "links, budget status, each phase's seconds, edges per second of the whole command and peak memory. Writes "
        "one 'src dst site' line per input edge (--out) and one 'vertex site' line per master (--masters), only on "
        "success. A binary edge cache makes a second load of the same file fast.");
    parser.addOption({"graph", "The graph file.", "file"});
    parser.addOption({"format", "snap (default), metis or mtx.", "format", "snap"});
    parser.addOption(
        {"algorithm", "Partitioner: hash, greedy, hdrf, graph-h, g-cut, geo-cut (default).", "id", "geo-cut"});
    parser.addOption(
        {"homes", "Home site of each vertex: 'vertex site' lines; vertices not listed get a random home.", "file"});
    parser.addOption({"out", "Write the edge partition (src dst site per line).", "file"});
    parser.addOption({"masters", "Write the master site of every vertex.", "file"});
    parser.addOption({"no-cache", "Do not read or write the binary edge cache."});
    addSiteOptions(parser);
}

} // namespace

/// The partition command for a SNAP file and an online placer (hash, HDRF): read, placed and written at once
/// (partition::partitionSnapStream). Prints the same JSON as the in-memory path; the phases overlap, so load_s is
/// when the last chunk was read, runtime_s when the last edge was placed and write_s what came after.
int streamPartition(const QCommandLineParser& parser, const std::string& id, const ParamValues& values,
                    const cost::TrafficProfile& profile, const model::Topology& topology, std::uint64_t seed)
{
    partition::SnapStreamRequest request;
    request.graphPath = parser.value("graph").toStdString();
    request.edgesPath = parser.value("out").toStdString();
    request.mastersPath = parser.isSet("masters") ? parser.value("masters").toStdString() : std::string();
    request.homesPath = parser.isSet("homes") ? parser.value("homes").toStdString() : std::string();
    request.topology = &topology;
    request.profile = profile;
    request.algorithm = id;
    request.values = values;
    request.seed = seed;
    const Feedback feedback;
    auto result = partition::partitionSnapStream(request, feedback);
    if (!result)
        return report(result.error());
    QJsonObject out = metricsJson(result->metrics, topology, std::nullopt);
    out["algorithm"] = QString::fromStdString(id);
    QJsonObject params;
    for (const auto& [name, value] : values.values())
        params[QString::fromStdString(name)] = QString::fromStdString(paramValueToString(value));
    out["parameters"] = params;
    out["profile"] = QString::fromStdString(std::string(profile.id()));
    out["seed"] = static_cast<double>(seed);
    out["graph"] = QJsonObject{{"vertices", static_cast<double>(result->vertices)},
                               {"edges", static_cast<double>(result->edges)},
                               {"self_loops_dropped", static_cast<double>(result->selfLoopsDropped)},
                               {"loaded_from_cache", false},
                               {"streamed", true},
                               {"load_s", result->readSeconds}};
    out["homes"] = QJsonObject{{"from_file", static_cast<double>(result->homesFromFile)},
                               {"random", static_cast<double>(result->homesDrawn)}};
    addPhaseTimes(out,
                  {static_cast<double>(result->edges), result->placedSeconds, result->placedSeconds, 0.0,
                   result->wholeSeconds - result->placedSeconds, result->wholeSeconds});
    out["peak_memory_bytes"] = peakMemoryBytes();
    out["notes"] = notesJson({"streamed: the graph was read, partitioned and written at once, in file order (load_s, "
                              "runtime_s and write_s overlap)"});
    printJson(out);
    return kExitOk;
}

/// The partitioner `id` names, or an error listing the known ones.
Expected<const partition::Partitioner*> findPartitioner(const Registry<partition::Partitioner>& registry,
                                                        const std::string& id)
{
    if (const partition::Partitioner* p = registry.find(id))
        return p;
    std::string known;
    for (const auto& k : registry.ids())
        known += (known.empty() ? "" : ", ") + k;
    return makeError(ErrorCode::InvalidInput, "unknown partitioner '" + id + "' (known: " + known + ")");
}

/// A finished partition's metrics and how long writing it and (when the partitioner gave none) evaluating it took.
struct Finished {
    cost::GasMetrics metrics;
    double evaluateSeconds = 0.0, writeSeconds = 0.0;
};

/// Writes --out (and --masters) and measures the partition at once: two tasks shared by the executor's workers
/// (both only read the partition; writing waits on the disk most of its time). A partitioner that ended with an
/// exact traffic state gives the metrics; otherwise they are evaluated.
Expected<Finished> writeAndMeasure(const QCommandLineParser& parser, const model::Graph& graph,
                                   const partition::PartitionResult& result, const model::Topology& topology,
                                   const partition::PartitionProblem& problem, const Feedback& feedback)
{
    std::vector<io::PendingFile> outputs{
        io::edgePartitionFile(parser.value("out").toStdString(), graph, result.partition, topology)};
    if (parser.isSet("masters"))
        outputs.push_back(io::mastersFile(parser.value("masters").toStdString(), graph, result.partition, topology));
    std::optional<Status> written;
    std::optional<cost::GasMetrics> metrics = result.metrics;
    Finished finished;
    std::atomic<int> nextTask{0};
    const int tasks = metrics ? 1 : 2;
    feedback.executor().shareWork(tasks, [&](int) {
        for (int task = nextTask++; task < tasks; task = nextTask++) {
            const auto taskStart = Clock::now();
            if (task == 0) {
                written = io::writeFilesTogether(outputs);
                finished.writeSeconds = since(taskStart);
            } else {
                metrics = cost::evaluateGas(graph, result.partition, problem.sizes, problem.network);
                finished.evaluateSeconds = since(taskStart);
            }
        }
    });
    if (!*written)
        return written->error();
    finished.metrics = *metrics;
    return finished;
}

int runPartition(const QStringList& arguments)
{
    QCommandLineParser parser;
    addPartitionOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("graph") || !parser.isSet("out"))
        return usageError("--graph and --out are required");
    if (int code = checkOutputs(parser, {"out", "masters"}); code >= 0)
        return code;
    auto format = io::graphFormatFromId(parser.value("format").toStdString());
    if (!format)
        return report(format.error());
    auto budget = parseBudget(parser);
    if (!budget)
        return report(budget.error());
    bool seedOk = false;
    const qulonglong seed = parser.value("seed").toULongLong(&seedOk);
    if (!seedOk)
        return usageError("--seed must be a non-negative integer");
    Registry<partition::Partitioner> registry;
    partition::registerBuiltinPartitioners(registry);
    const std::string id = parser.value("algorithm").toStdString();
    auto partitioner = findPartitioner(registry, id);
    if (!partitioner)
        return report(partitioner.error());
    std::vector<std::string> assignments;
    for (const auto& p : parser.values("param"))
        assignments.push_back(p.toStdString());
    auto values = ParamValues::parse((*partitioner)->parameters(), assignments);
    if (!values)
        return report(values.error());
    bool activeOk = false;
    const double active = parser.value("active-fraction").toDouble(&activeOk);
    auto profile = cost::TrafficProfile::fromId(parser.value("profile").toStdString(), activeOk ? active : -1.0);
    if (!profile)
        return report(profile.error());
    auto topology = loadSites(parser);
    if (!topology)
        return report(topology.error());
    if (auto network = cost::GasNetwork::fromTopology(*topology); !network)
        return report(network.error());

    if (*format == io::GraphFormat::Snap && !*budget && partition::canStreamSnap(id, *profile))
        return streamPartition(parser, id, *values, *profile, *topology, seed);

    const auto loadStart = Clock::now();
    bool fromCache = false;
    auto graph = io::loadGraph(parser.value("graph").toStdString(), *format,
                               parser.isSet("no-cache") ? std::string() : io::defaultGraphCacheDir(), &fromCache);
    if (!graph)
        return report(graph.error());
    const double loadSeconds = since(loadStart);
    std::vector<int> home(graph->vertexCount, -1);
    if (parser.isSet("homes")) {
        auto h = io::readHomes(parser.value("homes").toStdString(), *graph, *topology);
        if (!h)
            return report(h.error());
        home = std::move(*h);
    }
    const std::size_t random = partition::assignRandomHomes(home, topology->siteCount(), seed);
    auto problem = partition::PartitionProblem::create(*graph, *topology, *profile, home, *budget);
    if (!problem)
        return report(problem.error());

    const Feedback feedback;
    auto bound = budgetBound(*problem, feedback);
    if (!bound)
        return report(bound.error());
    const auto runStart = Clock::now();
    auto result = (*partitioner)->run(*problem, *values, seed, feedback);
    const double runSeconds = since(runStart);
    if (!result)
        return report(result.error());
    auto finished = writeAndMeasure(parser, *graph, *result, *topology, *problem, feedback);
    if (!finished)
        return report(finished.error());
    // The whole command as the user waits for it: from reading the graph to the last file written.
    const double wholeSeconds = since(loadStart);

    QJsonObject out = metricsJson(finished->metrics, *topology, problem->budgetUsd, *bound);
    out["algorithm"] = QString::fromStdString(id);
    QJsonObject params;
    for (const auto& [name, value] : values->values())
        params[QString::fromStdString(name)] = QString::fromStdString(paramValueToString(value));
    out["parameters"] = params;
    out["profile"] = QString::fromStdString(std::string(profile->id()));
    out["seed"] = static_cast<double>(seed);
    out["graph"] = QJsonObject{{"vertices", static_cast<double>(graph->vertexCount)},
                               {"edges", static_cast<double>(graph->edgeCount())},
                               {"self_loops_dropped", static_cast<double>(graph->selfLoopsDropped)},
                               {"loaded_from_cache", fromCache},
                               {"load_s", loadSeconds}};
    out["homes"] = QJsonObject{{"from_file", static_cast<double>(graph->vertexCount - random)},
                               {"random", static_cast<double>(random)}};
    addPhaseTimes(out,
                  {static_cast<double>(graph->edgeCount()), runSeconds, result->streamingSeconds,
                   finished->evaluateSeconds, finished->writeSeconds, wholeSeconds});
    out["peak_memory_bytes"] = peakMemoryBytes();
    out["notes"] = notesJson(result->notes);
    printJson(out);
    return kExitOk;
}

} // namespace meridian::cli

namespace meridian::cli {

namespace {

/// Each vertex's master site from --masters (every vertex must have one) or --homes; sets the partition's
/// masters to match.
Expected<std::vector<int>> readMastersOrHomes(const QCommandLineParser& parser, const model::Graph& graph,
                                              const model::Topology& topology, model::EdgePartition& part)
{
    std::vector<int> home(graph.vertexCount, -1);
    if (parser.isSet("masters")) {
        if (auto st = io::readMasters(parser.value("masters").toStdString(), graph, topology, part); !st)
            return st.error();
        for (std::uint32_t v = 0; v < graph.vertexCount; ++v) {
            if (part.masterSite[v] == 0xFF)
                return makeError(ErrorCode::InvalidInput,
                                 "vertex " + std::to_string(graph.originalId[v]) + " has no master in "
                                     + parser.value("masters").toStdString());
            home[v] = part.masterSite[v];
        }
        return home;
    }
    auto h = io::readHomes(parser.value("homes").toStdString(), graph, topology);
    if (!h)
        return h.error();
    home = std::move(*h);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v) {
        if (home[v] < 0)
            return makeError(ErrorCode::InvalidInput,
                             "vertex " + std::to_string(graph.originalId[v]) + " has no home in "
                                 + parser.value("homes").toStdString());
        part.masterSite[v] = static_cast<std::uint8_t>(home[v]);
    }
    return home;
}

/// The edges of an --insert or --delete file; none when the option is not given.
Expected<partition::EdgeIds> readBatchOption(const QCommandLineParser& parser, const QString& option,
                                             std::vector<int>* lines = nullptr)
{
    if (!parser.isSet(option))
        return partition::EdgeIds{};
    return io::readEdgeBatch(parser.value(option).toStdString(), lines);
}

/// The metrics of repartitioning the updated graph from nothing, for comparison.
Expected<QJsonObject> fromScratchJson(const partition::Partitioner& scratch, const partition::PartitionProblem& updated,
                                      const model::Graph& graph, const model::Topology& topology, std::uint64_t seed)
{
    const Feedback feedback;
    const auto t0 = Clock::now();
    auto fresh = scratch.run(updated, seed, feedback);
    if (!fresh)
        return fresh.error();
    const double seconds = since(t0);
    QJsonObject f = metricsJson(cost::evaluateGas(graph, fresh->partition, updated.sizes, updated.network), topology,
                                updated.budgetUsd);
    f["algorithm"] = QString::fromStdString(std::string(scratch.id()));
    f["runtime_s"] = seconds;
    return f;
}

} // namespace

int runUpdate(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Applies edge deletions and insertions to a partition written by 'partition' (Geo-Cut Section 5): inserted "
        "edges are placed by Geo-Cut's streaming rule, and Geo-Cut's refinement runs whenever the traffic a site has "
        "seen change passes --threshold of its traffic. Prints the metrics after the update (and, with --from-scratch, "
        "those of repartitioning the updated graph from nothing with --algorithm) as JSON; writes --out and "
        "--masters-out only on success.");
    parser.addOption({"partition", "The edge partition to update (src dst site lines).", "file"});
    parser.addOption({"masters", "Its masters (vertex site lines, from 'partition --masters').", "file"});
    parser.addOption({"homes", "Home sites, used as masters when --masters is not given.", "file"});
    parser.addOption({"insert", "Edges to insert (src dst lines).", "file"});
    parser.addOption({"delete", "Edges to delete (src dst lines).", "file"});
    parser.addOption(
        {"threshold", "Traffic change that triggers refinement, as a share (default 0.1).", "share", "0.1"});
    parser.addOption({"from-scratch", "Also repartition the updated graph from scratch, for comparison."});
    parser.addOption({"algorithm", "Partitioner for --from-scratch (default geo-cut).", "id", "geo-cut"});
    parser.addOption({"out", "Write the updated edge partition.", "file"});
    parser.addOption({"masters-out", "Write the updated masters.", "file"});
    addSiteOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("partition") || !parser.isSet("out"))
        return usageError("--partition and --out are required");
    if (int code = checkOutputs(parser, {"out", "masters-out"}); code >= 0)
        return code;
    if (!parser.isSet("masters") && !parser.isSet("homes"))
        return usageError("give --masters (written by 'partition --masters') or --homes");
    bool ok = false;
    const double threshold = parser.value("threshold").toDouble(&ok);
    if (!ok || !(threshold > 0.0))
        return usageError("--threshold must be a positive share, e.g. 0.1");
    auto budget = parseBudget(parser);
    if (!budget)
        return report(budget.error());
    const qulonglong seed = parser.value("seed").toULongLong();
    bool activeOk = false;
    const double active = parser.value("active-fraction").toDouble(&activeOk);
    auto profile = cost::TrafficProfile::fromId(parser.value("profile").toStdString(), activeOk ? active : -1.0);
    if (!profile)
        return report(profile.error());
    Registry<partition::Partitioner> registry;
    partition::registerBuiltinPartitioners(registry);
    std::vector<std::string> assignments;
    for (const auto& p : parser.values("param"))
        assignments.push_back(p.toStdString());
    auto values = ParamValues::parse(registry.find("geo-cut")->parameters(), assignments);
    if (!values)
        return report(values.error());
    const partition::Partitioner* scratch = registry.find(parser.value("algorithm").toStdString());
    if (!scratch)
        return usageError("unknown partitioner '" + parser.value("algorithm") + "'");
    auto topology = loadSites(parser);
    if (!topology)
        return report(topology.error());

    auto loaded = io::readEdgePartition(parser.value("partition").toStdString(), *topology);
    if (!loaded)
        return report(loaded.error());
    model::Graph graph = std::move(loaded->first);
    model::EdgePartition part = std::move(loaded->second);
    auto home = readMastersOrHomes(parser, graph, *topology, part);
    if (!home)
        return report(home.error());
    auto inserts = readBatchOption(parser, "insert");
    if (!inserts)
        return report(inserts.error());
    std::vector<int> deleteLines;
    auto deletes = readBatchOption(parser, "delete", &deleteLines);
    if (!deletes)
        return report(deletes.error());
    auto problem = partition::PartitionProblem::create(graph, *topology, *profile, *home, *budget);
    if (!problem)
        return report(problem.error());
    const std::string deleteFile = parser.value("delete").toStdString();
    auto batch = partition::resolveBatch(graph, *deletes, *inserts, topology->siteCount(), seed, [&](std::size_t k) {
        return SourceLocation{deleteFile, deleteLines[k], 0};
    });
    if (!batch)
        return report(batch.error());

    const Feedback feedback;
    auto bound = budgetBound(*problem, feedback);
    if (!bound)
        return report(bound.error());
    const auto start = Clock::now();
    auto stats = partition::applyUpdates(*problem, graph, part, *home, *batch, *values, threshold, seed, feedback);
    const double updateSeconds = since(start);
    if (!stats)
        return report(stats.error());
    if (graph.edgeCount() == 0)
        return report(makeError(ErrorCode::InvalidInput, "the update deletes every edge; nothing is left to partition"));
    auto updated = partition::PartitionProblem::create(graph, *topology, *profile, *home, *budget);
    if (!updated)
        return report(updated.error());
    const auto metrics = cost::evaluateGas(graph, part, updated->sizes, updated->network);

    QJsonObject out = metricsJson(metrics, *topology, updated->budgetUsd, *bound);
    if (parser.isSet("from-scratch")) {
        auto fresh = fromScratchJson(*scratch, *updated, graph, *topology, seed);
        if (!fresh)
            return report(fresh.error());
        out["from_scratch"] = *fresh;
    }
    std::vector<io::PendingFile> outputs{
        io::edgePartitionFile(parser.value("out").toStdString(), graph, part, *topology)};
    if (parser.isSet("masters-out"))
        outputs.push_back(io::mastersFile(parser.value("masters-out").toStdString(), graph, part, *topology));
    if (auto st = io::writeFilesTogether(outputs); !st)
        return report(st.error());
    out["inserted"] = static_cast<double>(stats->inserted);
    out["deleted"] = static_cast<double>(stats->deleted);
    out["new_vertices"] = static_cast<double>(stats->newVertices);
    out["refinements"] = stats->refinements;
    out["runtime_s"] = updateSeconds;
    out["graph"] = QJsonObject{{"vertices", static_cast<double>(graph.vertexCount)},
                               {"edges", static_cast<double>(graph.edgeCount())}};
    out["notes"] = notesJson(stats->notes);
    printJson(out);
    return kExitOk;
}

} // namespace meridian::cli
