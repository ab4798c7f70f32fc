#include "app/partitioning/partition_files.h"

#include "core/common/ranks.h"
#include "core/io/edge_partition_io.h"
#include "core/partition/cost_bound.h"
#include "core/partition/edge_batches.h"
#include "core/partition/geo_cut_partitioner.h"
#include "core/partition/snap_stream.h"

#include <QJsonArray>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>

#include <sys/resource.h>

namespace meridian::ops {

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

/// The partition's metrics and how long writing it and (when the partitioner gave none) evaluating it took.
struct Finished {
    cost::GasMetrics metrics;
    double evaluateSeconds = 0.0, writeSeconds = 0.0;
};

/// Writes the edges (and masters) and measures the partition at once: two tasks shared by the executor's workers
/// (both only read the partition; writing waits on the disk most of its time). A partitioner that ended with an
/// exact traffic state gives the metrics; otherwise they are evaluated.
Expected<Finished> writeAndMeasure(const PartitionFilesRequest& request, const model::Graph& graph,
                                   const partition::PartitionResult& result, const partition::PartitionProblem& problem,
                                   const Feedback& feedback)
{
    const model::Topology& topology = request.settings.topology;
    std::vector<io::PendingFile> outputs{io::edgePartitionFile(request.edgesPath, graph, result.partition, topology)};
    if (!request.mastersPath.empty())
        outputs.push_back(io::mastersFile(request.mastersPath, graph, result.partition, topology));
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

/// What runs in batches for `algorithm` (a stream in batches: hdrf, geo-cut), as the notes name it.
std::string batchedName(const std::string& algorithm) { return algorithm == "geo-cut" ? "Geo-Cut's stage 1" : "HDRF"; }

/// The partition of a SNAP file by an online placer, or over ranks by hash or a stream in batches (HDRF's, Geo-Cut's
/// stage 1): read, placed and written at once. The phases overlap, so
/// load is when the last chunk was read, run when the last edge was placed and write what came after.
Expected<PartitionFilesResult> streamPartition(const PartitionFilesRequest& request, PartitionFilesResult out,
                                               const cost::TrafficProfile& profile, const Feedback& feedback)
{
    partition::SnapStreamRequest stream;
    stream.graphPath = request.graphPath;
    stream.edgesPath = request.edgesPath;
    stream.mastersPath = request.mastersPath;
    stream.homesPath = request.homesPath;
    stream.topology = &request.settings.topology;
    stream.profile = profile;
    stream.algorithm = request.algorithm;
    stream.values = out.params;
    stream.seed = request.settings.seed;
    stream.homesSeed = request.homesSeed.value_or(request.settings.seed);
    auto result = partition::partitionSnapStream(stream, feedback);
    if (!result)
        return result.error();
    out.metrics = result->metrics;
    out.vertices = static_cast<double>(result->vertices);
    out.edges = static_cast<double>(result->edges);
    out.selfLoopsDropped = static_cast<double>(result->selfLoopsDropped);
    out.streamed = true;
    out.homesFromFile = static_cast<double>(result->homesFromFile);
    out.homesRandom = static_cast<double>(result->homesDrawn);
    out.phases = {out.edges,
                  result->readSeconds,
                  result->placedSeconds,
                  result->placedSeconds,
                  0.0,
                  result->wholeSeconds - result->placedSeconds,
                  result->wholeSeconds};
    out.peakMemoryBytes = peakMemoryBytes();
    out.notes = {"streamed: the graph was read, partitioned and written at once, in file order (its reading, "
                 "partitioning and writing times overlap)"};
    if (const Ranks& ranks = feedback.ranks(); ranks.size() > 1) {
        for (const std::uint64_t peak : valueOfEveryRank(ranks, static_cast<std::uint64_t>(out.peakMemoryBytes)))
            out.rankPeakMemoryBytes.push_back(static_cast<double>(peak));
        out.peakMemoryBytes = *std::max_element(out.rankPeakMemoryBytes.begin(), out.rankPeakMemoryBytes.end());
        out.notes = {"split over " + std::to_string(ranks.size()) + " ranks: each read its share of the file's lines, "
                     + (request.algorithm == "hash" ? std::string("placed them by the hash rule")
                                                    : "placed them in batches with the others, by "
                                + std::string(request.algorithm == "geo-cut" ? "Geo-Cut's cost-aware streaming rule"
                                                                             : "HDRF's rule"))
                     + " and wrote them at their offsets (its reading time is until every part was read, its "
                       "partitioning time until every edge was placed)"};
    }
    const bool batched = request.algorithm == "hdrf" || request.algorithm == "geo-cut";
    if (batched && out.params.integer("batch") > 0) { // over ranks: the one process's notes too
        out.notes.insert(out.notes.begin(),
                         partition::EdgeBatches(result->edges, static_cast<std::uint64_t>(out.params.integer("batch")))
                             .note(batchedName(request.algorithm)));
        if (request.algorithm == "geo-cut")
            out.notes.insert(out.notes.begin() + 1,
                             partition::GeoCutPartitioner::stageOneNote(partition::GeoCutPartitioner::kCostInBatches,
                                                                        result->metrics.wanUsd,
                                                                        std::numeric_limits<double>::infinity()));
    }
    return out;
}

/// The in-memory path: the graph loaded (from the edge cache when it can be), homes read or drawn, partitioned by
/// partitionGraph, then written and measured.
Expected<PartitionFilesResult> loadAndPartition(const PartitionFilesRequest& request, PartitionFilesResult out,
                                                const partition::Partitioner& partitioner,
                                                const cost::TrafficProfile& profile, const Feedback& feedback)
{
    const model::Topology& topology = request.settings.topology;
    const auto loadStart = Clock::now();
    auto graph = io::loadGraph(request.graphPath, request.format,
                               request.useCache ? io::defaultGraphCacheDir() : std::string(), &out.fromCache);
    if (!graph)
        return graph.error();
    out.phases.load = since(loadStart);
    std::vector<int> home(graph->vertexCount, -1);
    if (!request.homesPath.empty()) {
        auto h = io::readHomes(request.homesPath, *graph, topology);
        if (!h)
            return h.error();
        home = std::move(*h);
    }
    const std::size_t random = partition::assignRandomHomes(home, topology.siteCount(),
                                                            request.homesSeed.value_or(request.settings.seed));
    auto problem = partition::PartitionProblem::create(*graph, topology, profile, home, request.settings.budgetUsd);
    if (!problem)
        return problem.error();
    auto partitioned = partitionGraph(*problem, partitioner, out.params, request.settings.seed, feedback);
    if (!partitioned)
        return partitioned.error();
    auto finished = writeAndMeasure(request, *graph, partitioned->result, *problem, feedback);
    if (!finished)
        return finished.error();
    // The whole command as the user waits for it: from reading the graph to the last file written.
    out.phases = {static_cast<double>(graph->edgeCount()),
                  out.phases.load,
                  partitioned->runtimeSeconds,
                  partitioned->result.streamingSeconds,
                  finished->evaluateSeconds,
                  finished->writeSeconds,
                  since(loadStart)};
    out.metrics = finished->metrics;
    out.costBound = partitioned->costBound;
    out.vertices = static_cast<double>(graph->vertexCount);
    out.edges = static_cast<double>(graph->edgeCount());
    out.selfLoopsDropped = static_cast<double>(graph->selfLoopsDropped);
    out.homesFromFile = static_cast<double>(graph->vertexCount - random);
    out.homesRandom = static_cast<double>(random);
    out.peakMemoryBytes = peakMemoryBytes();
    out.notes = std::move(partitioned->result.notes);
    return out;
}

/// Each vertex's master site from the masters file (every vertex must have one) or the homes file; sets the
/// partition's masters to match.
Expected<std::vector<int>> readMastersOrHomes(const UpdateFilesRequest& request, const model::Graph& graph,
                                              model::EdgePartition& part)
{
    const model::Topology& topology = request.settings.topology;
    std::vector<int> home(graph.vertexCount, -1);
    if (!request.mastersPath.empty()) {
        if (auto st = io::readMasters(request.mastersPath, graph, topology, part); !st)
            return st.error();
        for (std::uint32_t v = 0; v < graph.vertexCount; ++v) {
            if (part.masterSite[v] == 0xFF)
                return makeError(ErrorCode::InvalidInput,
                                 "vertex " + std::to_string(graph.originalId[v]) + " has no master in "
                                     + request.mastersPath);
            home[v] = part.masterSite[v];
        }
        return home;
    }
    if (request.homesPath.empty())
        return makeError(ErrorCode::InvalidInput, "give the partition's masters or the vertices' homes");
    auto h = io::readHomes(request.homesPath, graph, topology);
    if (!h)
        return h.error();
    home = std::move(*h);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v) {
        if (home[v] < 0)
            return makeError(ErrorCode::InvalidInput,
                             "vertex " + std::to_string(graph.originalId[v]) + " has no home in " + request.homesPath);
        part.masterSite[v] = static_cast<std::uint8_t>(home[v]);
    }
    return home;
}

/// The batch's edges, resolved against the partition's graph (a deletion of an edge that is not there names its
/// file and line).
Expected<partition::ResolvedBatch> readBatch(const UpdateFilesRequest& request, const model::Graph& graph)
{
    partition::EdgeIds inserts;
    partition::EdgeIds deletes;
    std::vector<int> deleteLines;
    if (!request.insertPath.empty()) {
        auto read = io::readEdgeBatch(request.insertPath);
        if (!read)
            return read.error();
        inserts = std::move(*read);
    }
    if (!request.deletePath.empty()) {
        auto read = io::readEdgeBatch(request.deletePath, &deleteLines);
        if (!read)
            return read.error();
        deletes = std::move(*read);
    }
    return partition::resolveBatch(graph, deletes, inserts, request.settings.topology.siteCount(),
                                   request.settings.seed, [&](std::size_t k) {
                                       return SourceLocation{request.deletePath, deleteLines[k], 0};
                                   });
}

QJsonArray notesJson(const std::vector<std::string>& notes)
{
    QJsonArray a;
    for (const auto& n : notes)
        a.append(QString::fromStdString(n));
    return a;
}

} // namespace

Status checkPartitioning(const std::string& algorithm, const GasSettings& settings,
                         const Registry<partition::Partitioner>& registry)
{
    return findPartitioner(registry, algorithm)
        .and_then([&](const partition::Partitioner* p) { return ParamValues::parse(p->parameters(), settings.params); })
        .and_then([&](const ParamValues&) -> Status {
            if (auto profile = cost::TrafficProfile::fromId(settings.profile, settings.activeFraction); !profile)
                return profile.error();
            return {};
        });
}

bool partitionSplitsOverRanks(const std::string& algorithm, const ParamValues& values, io::GraphFormat format,
                              bool budget, const cost::TrafficProfile& profile)
{
    return format == io::GraphFormat::Snap && !budget && !profile.binds()
        && partition::splitsSnapOverRanks(algorithm, values);
}

Expected<PartitionFilesResult> partitionFiles(const PartitionFilesRequest& request,
                                              const Registry<partition::Partitioner>& registry,
                                              const Feedback& feedback)
{
    const GasSettings& settings = request.settings;
    auto partitioner = findPartitioner(registry, request.algorithm);
    if (!partitioner)
        return partitioner.error();
    auto values = ParamValues::parse((*partitioner)->parameters(), settings.params);
    if (!values)
        return values.error();
    auto profile = cost::TrafficProfile::fromId(settings.profile, settings.activeFraction);
    if (!profile)
        return profile.error();
    if (auto network = cost::GasNetwork::fromTopology(settings.topology); !network)
        return network.error();
    PartitionFilesResult out;
    out.algorithm = request.algorithm;
    out.params = std::move(*values);
    out.profile = std::string(profile->id());
    out.seed = settings.seed;
    out.budgetUsd = settings.budgetUsd;
    const bool snapUnbound = request.format == io::GraphFormat::Snap && !settings.budgetUsd && !profile->binds();
    const bool online = snapUnbound && partition::canStreamSnap(request.algorithm, *profile);
    const bool splits = partitionSplitsOverRanks(request.algorithm, out.params, request.format,
                                                 settings.budgetUsd.has_value(), *profile);
    const bool overRanks = feedback.ranks().size() > 1;
    if (overRanks && !splits && snapUnbound && (online || request.algorithm == "geo-cut"))
        return makeError(ErrorCode::InvalidInput, partition::overRanksRefusal(request.algorithm));
    if (overRanks && !splits)
        return makeError(ErrorCode::InvalidInput,
                         "under an MPI launcher, partition splits its work over the ranks only for hash, HDRF in "
                         "batches and Geo-Cut's stage 1 in batches on a SNAP graph, without a budget, with the "
                         "pagerank or sssp profile: start this one without mpirun");
    // In one process, a stream in batches needs every edge at once: it runs on the graph in memory.
    const bool inBatches = splits && request.algorithm != "hash";
    if ((online && !inBatches) || (overRanks && splits))
        return streamPartition(request, std::move(out), *profile, feedback);
    return loadAndPartition(request, std::move(out), **partitioner, *profile, feedback);
}

Expected<UpdateFilesResult> updateFiles(const UpdateFilesRequest& request,
                                        const Registry<partition::Partitioner>& registry, const Feedback& feedback)
{
    const GasSettings& settings = request.settings;
    if (!(request.threshold > 0.0))
        return makeError(ErrorCode::InvalidInput, "the refinement threshold must be a positive share, e.g. 0.1");
    auto profile = cost::TrafficProfile::fromId(settings.profile, settings.activeFraction);
    if (!profile)
        return profile.error();
    auto geoCut = findPartitioner(registry, "geo-cut");
    if (!geoCut)
        return geoCut.error();
    auto values = ParamValues::parse((*geoCut)->parameters(), settings.params);
    if (!values)
        return values.error();
    auto scratch = findPartitioner(registry, request.scratchAlgorithm);
    if (!scratch)
        return scratch.error();
    auto loaded = io::readEdgePartition(request.partitionPath, settings.topology);
    if (!loaded)
        return loaded.error();
    model::Graph graph = std::move(loaded->first);
    model::EdgePartition part = std::move(loaded->second);
    auto home = readMastersOrHomes(request, graph, part);
    if (!home)
        return home.error();
    auto batch = readBatch(request, graph);
    if (!batch)
        return batch.error();
    auto problem = partition::PartitionProblem::create(graph, settings.topology, *profile, *home, settings.budgetUsd);
    if (!problem)
        return problem.error();

    UpdateFilesResult out;
    out.budgetUsd = settings.budgetUsd;
    if (settings.budgetUsd) {
        auto bound = partition::costLowerBound(*problem, FeedbackRange(feedback, 0.0, 0.1));
        if (!bound)
            return bound.error();
        if (auto reachable = partition::checkBudgetReachable(*settings.budgetUsd, *bound); !reachable)
            return reachable.error();
        out.costBound = *bound;
    }
    auto update = updateGraphPartition(*problem, graph, part, *home, *batch, *values, request.threshold, settings.seed,
                                       feedback);
    if (!update)
        return update.error();
    const partition::PartitionProblem& updated = update->updated;
    out.metrics = cost::evaluateGas(graph, part, updated.sizes, updated.network);
    if (request.fromScratch) {
        // The comparison the paper draws: the partitioner with its defaults on the updated graph, nothing kept.
        const auto begin = Clock::now();
        auto fresh = (*scratch)->run(updated, settings.seed, feedback);
        if (!fresh)
            return fresh.error();
        const double seconds = since(begin);
        out.fromScratch = UpdateFilesResult::Scratch{std::string((*scratch)->id()),
                                                     cost::evaluateGas(graph, fresh->partition, updated.sizes,
                                                                       updated.network),
                                                     seconds};
    }
    std::vector<io::PendingFile> outputs{io::edgePartitionFile(request.edgesOutPath, graph, part, settings.topology)};
    if (!request.mastersOutPath.empty())
        outputs.push_back(io::mastersFile(request.mastersOutPath, graph, part, settings.topology));
    if (auto st = io::writeFilesTogether(outputs); !st)
        return st.error();
    out.stats = std::move(update->stats);
    out.runtimeSeconds = update->runtimeSeconds;
    out.vertices = static_cast<double>(graph.vertexCount);
    out.edges = static_cast<double>(graph.edgeCount());
    return out;
}

QJsonObject gasMetricsJson(const cost::GasMetrics& m, const model::Topology& topology, std::optional<double> budgetUsd,
                           std::optional<double> costBound)
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
    const auto link = [&](int site, bool uplink) {
        return QString::fromStdString(cost::GasMetrics::linkName(topology, site, uplink));
    };
    return QJsonObject{
        {"replication_factor", m.replicationFactor},
        {"transfer_time_s", m.transferSeconds},
        {"gather_time_s", m.gatherSeconds},
        {"apply_time_s", m.applySeconds},
        {"wan_cost_usd", m.wanUsd},
        {"wan_bytes", m.wanBytes},
        {"sites", sites},
        {"bottleneck",
         QJsonObject{{"gather", link(m.gatherBottleneck, m.gatherBottleneckUplink)},
                     {"apply", link(m.applyBottleneck, m.applyBottleneckUplink)}}},
        {"budget", b},
    };
}

QJsonObject partitionFilesJson(const PartitionFilesResult& r, const model::Topology& topology)
{
    QJsonObject out = gasMetricsJson(r.metrics, topology, r.budgetUsd, r.costBound);
    out["algorithm"] = QString::fromStdString(r.algorithm);
    QJsonObject params;
    for (const auto& [name, value] : r.params.values())
        params[QString::fromStdString(name)] = QString::fromStdString(paramValueToString(value));
    out["parameters"] = params;
    out["profile"] = QString::fromStdString(r.profile);
    out["seed"] = static_cast<double>(r.seed);
    QJsonObject graph{{"vertices", r.vertices},
                      {"edges", r.edges},
                      {"self_loops_dropped", r.selfLoopsDropped},
                      {"loaded_from_cache", r.fromCache},
                      {"load_s", r.phases.load}};
    if (r.streamed)
        graph["streamed"] = true;
    out["graph"] = graph;
    out["homes"] = QJsonObject{{"from_file", r.homesFromFile}, {"random", r.homesRandom}};
    const PartitionPhases& t = r.phases;
    const auto rate = [&](double seconds) { return seconds > 0.0 ? t.edges / seconds : 0.0; };
    out["runtime_s"] = t.run;
    out["evaluate_s"] = t.evaluate; // measured while the files are written: it overlaps write_s
    out["write_s"] = t.write;
    out["whole_s"] = t.whole;
    out["edges_per_second"] = rate(t.whole); // the whole command's
    out["partitioning_edges_per_second"] = rate(t.run);
    out["streaming_s"] = t.streaming;
    out["streaming_edges_per_second"] = rate(t.streaming);
    out["peak_memory_bytes"] = r.peakMemoryBytes;
    if (!r.rankPeakMemoryBytes.empty()) {
        QJsonArray peaks;
        for (const double peak : r.rankPeakMemoryBytes)
            peaks.append(peak);
        out["rank_peak_memory_bytes"] = peaks;
    }
    out["notes"] = notesJson(r.notes);
    return out;
}

QJsonObject updateFilesJson(const UpdateFilesResult& r, const model::Topology& topology)
{
    QJsonObject out = gasMetricsJson(r.metrics, topology, r.budgetUsd, r.costBound);
    if (r.fromScratch) {
        QJsonObject f = gasMetricsJson(r.fromScratch->metrics, topology, r.budgetUsd);
        f["algorithm"] = QString::fromStdString(r.fromScratch->algorithm);
        f["runtime_s"] = r.fromScratch->runtimeSeconds;
        out["from_scratch"] = f;
    }
    out["inserted"] = static_cast<double>(r.stats.inserted);
    out["deleted"] = static_cast<double>(r.stats.deleted);
    out["new_vertices"] = static_cast<double>(r.stats.newVertices);
    out["refinements"] = r.stats.refinements;
    out["runtime_s"] = r.runtimeSeconds;
    out["graph"] = QJsonObject{{"vertices", r.vertices}, {"edges", r.edges}};
    out["notes"] = notesJson(r.stats.notes);
    return out;
}

} // namespace meridian::ops
