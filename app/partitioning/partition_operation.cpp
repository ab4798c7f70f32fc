#include "app/partitioning/partition_operation.h"

#include "core/io/edge_partition_io.h"
#include "core/partition/cost_bound.h"
#include "core/partition/dynamic_update.h"
#include "core/partition/geo_cut_partitioner.h"
#include "core/partition/site_removal.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

namespace meridian::ops {

namespace {

struct Prepared {
    document::LoadedGraph loaded;
    std::optional<partition::PartitionProblem> problem;
};

/// Applies a run's batches to its freshly read graph, and checks that the result is the graph the run partitioned.
Status applyRunBatches(const document::Run& run, int sites, document::LoadedGraph& loaded)
{
    for (const auto& batch : run.batches) {
        auto resolved = partition::resolveBatch(loaded.graph, batch->deletions, batch->insertions, sites, batch->seed)
                            .transform_error(prefixedBy("batch " + batch->name));
        if (!resolved)
            return resolved.error();
        partition::applyBatch(loaded.graph, loaded.home, *resolved);
    }
    if (!run.partition || loaded.graph.edgeCount() != run.partition->edgeSite.size()
        || loaded.graph.vertexCount != run.partition->masterSite.size())
        return makeError(ErrorCode::InvalidInput,
                         "graph '" + run.application + "' no longer has the edges run " + std::to_string(run.id)
                             + " partitioned");
    return {};
}

/// Reads the request's graph and builds its problem; the problem points into `out.loaded`. With `basis`, the
/// graph is the one that run partitioned (its batches applied).
Status prepare(const PartitionRequest& request, const Feedback& feedback, Prepared& out,
               const document::Run* basis = nullptr)
{
    const auto& project = *request.project;
    auto profile = cost::TrafficProfile::fromId(request.profile, request.activeFraction);
    if (!profile)
        return profile.error();
    auto loaded = basis ? loadRunGraph(project, *basis, feedback) : readProjectGraph(project, request.graph, feedback);
    if (!loaded)
        return loaded.error();
    out.loaded = std::move(*loaded);
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    auto problem = partition::PartitionProblem::create(out.loaded.graph, project.topology, *profile, out.loaded.home,
                                                       request.budgetUsd);
    if (!problem)
        return prefixedBy("graph '" + request.graph + "'")(problem.error());
    out.problem = std::move(*problem);
    return {};
}

/// A partition run as the request asks for it, before its result.
document::Run newPartitionRun(const PartitionRequest& request)
{
    document::Run run;
    run.kind = document::RunKind::Partition;
    run.algorithm = request.algorithm;
    run.application = request.graph;
    run.params = request.params;
    run.seed = request.seed;
    run.profile = request.profile;
    run.activeFraction = request.activeFraction;
    run.budgetUsd = request.budgetUsd;
    run.inputFingerprint = request.fingerprint;
    return run;
}

/// The request that made a partition run, for a what-if on it.
PartitionRequest requestOf(const std::shared_ptr<const document::Project>& project, const document::Run& run,
                           std::uint64_t fingerprint)
{
    return PartitionRequest{project,     run.application,    run.algorithm, run.params, run.seed,
                            run.profile, run.activeFraction, run.budgetUsd, fingerprint};
}

/// A what-if run derived from `parent`, as `base` asks for it.
document::Run newDerivedRun(const PartitionRequest& base, const document::Run& parent, std::string derivation)
{
    document::Run run = newPartitionRun(base);
    run.derivedFrom = parent.id;
    run.derivation = std::move(derivation);
    run.batches = parent.batches;
    return run;
}

/// Measures a run's partition (measurePartition), adds the cost bound when there is one and keeps the partition.
Expected<document::Run> measured(document::Run run, const partition::PartitionProblem& problem,
                                 model::EdgePartition partition, std::optional<double> bound, const Feedback& feedback)
{
    feedback.setProgress(1.0, "measuring");
    measurePartition(run, problem, partition, [&feedback] { return feedback.isCanceled(); });
    if (bound) {
        run.metrics.push_back({"cost_bound_usd", "Lowest possible cost", "USD", *bound});
        char text[200];
        std::snprintf(text, sizeof text,
                      "No partition can cost less than %.6g USD per iteration (a lower bound from a relaxation).",
                      *bound);
        run.notes.emplace_back(text);
    }
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    run.partition = std::make_shared<const model::EdgePartition>(std::move(partition));
    return run;
}

} // namespace

Expected<document::LoadedGraph> readProjectGraph(const document::Project& project, const std::string& name,
                                                 const Feedback& feedback)
{
    const int g = project.graphIndex(name);
    if (g < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no graph '" + name + "'");
    feedback.setProgress(0.0, "reading the graph");
    return document::loadGraphInput(project.graphs[g], project.topology, feedback);
}

Expected<document::LoadedGraph> loadRunGraph(const document::Project& project, const document::Run& run,
                                             const Feedback& feedback)
{
    auto loaded = readProjectGraph(project, run.application, feedback);
    if (!loaded)
        return loaded.error();
    if (auto s = applyRunBatches(run, project.topology.siteCount(), *loaded); !s)
        return s.error();
    return loaded;
}

void measurePartition(document::Run& run, const partition::PartitionProblem& problem,
                      const model::EdgePartition& partition, const std::function<bool()>& canceled)
{
    const auto& topology = *problem.topology;
    const auto m = cost::evaluateGas(*problem.graph, partition, problem.sizes, problem.network);
    run.metrics.clear();
    auto add = [&](std::string id, std::string label, std::string unit, double value) {
        run.metrics.push_back({std::move(id), std::move(label), std::move(unit), value});
    };
    add("transfer_time_s", "Transfer time", "s", m.transferSeconds);
    add("gather_time_s", "Gather time", "s", m.gatherSeconds);
    add("apply_time_s", "Apply time", "s", m.applySeconds);
    add("wan_usd", "WAN cost", "USD", m.wanUsd);
    add("wan_bytes", "WAN bytes", "bytes", m.wanBytes);
    add("replication_factor", "Replication factor", "", m.replicationFactor);
    const auto budget = partition::budgetStatus(problem, m.wanUsd);
    if (budget.given)
        add("over_budget_usd", "Over budget", "USD", budget.overUsd);
    add("runtime_s", "Runtime", "s", run.runtimeSeconds);
    const int sites = topology.siteCount();
    run.siteUploadBytes.assign(sites, 0.0);
    run.siteDownloadBytes.assign(sites, 0.0);
    run.siteUploadSeconds.assign(sites, 0.0);
    run.siteDownloadSeconds.assign(sites, 0.0);
    for (int r = 0; r < sites; ++r) {
        run.siteUploadBytes[r] = m.gatherUp[r] + m.applyUp[r];
        run.siteDownloadBytes[r] = m.gatherDown[r] + m.applyDown[r];
        run.siteUploadSeconds[r] = run.siteUploadBytes[r] / problem.network.upBytesPerSecond[r];
        run.siteDownloadSeconds[r] = run.siteDownloadBytes[r] / problem.network.downBytesPerSecond[r];
    }
    if (canceled())
        return;
    const auto pairs = cost::gasTrafficMatrix(*problem.graph, partition, problem.sizes, sites);
    run.trafficBytes = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        pairs.data(), sites, sites);
    // A pair's own time: its bytes over the slower of the sender's uplink and the receiver's downlink.
    run.timeSeconds = Eigen::MatrixXd::Zero(sites, sites);
    for (int i = 0; i < sites; ++i)
        for (int j = 0; j < sites; ++j)
            run.timeSeconds(i, j) = run.trafficBytes(i, j)
                / std::min(problem.network.upBytesPerSecond[i], problem.network.downBytesPerSecond[j]);
    run.notes.push_back(
        "Bottleneck: gather " + cost::GasMetrics::linkName(topology, m.gatherBottleneck, m.gatherBottleneckUplink)
        + ", apply " + cost::GasMetrics::linkName(topology, m.applyBottleneck, m.applyBottleneckUplink) + ".");
    run.notes.push_back("Budget: " + budget.text() + ".");
}

Expected<GraphPartition> partitionGraph(const partition::PartitionProblem& problem,
                                        const partition::Partitioner& partitioner, const ParamValues& params,
                                        std::uint64_t seed, const Feedback& feedback, std::optional<double> knownBound)
{
    GraphPartition out;
    // A budget no partition can meet is refused before anything runs.
    if (problem.budgetUsd) {
        auto bound = knownBound ? Expected<double>(*knownBound)
                                : partition::costLowerBound(problem, FeedbackRange(feedback, 0.0, 0.1));
        if (!bound)
            return bound.error();
        if (auto reachable = partition::checkBudgetReachable(*problem.budgetUsd, *bound); !reachable)
            return reachable.error();
        out.costBound = *bound;
    }
    const auto begin = std::chrono::steady_clock::now();
    auto result = partitioner.run(problem, params, seed, feedback);
    if (!result)
        return result.error();
    out.runtimeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    out.result = std::move(*result);
    return out;
}

Expected<GraphUpdate> updateGraphPartition(const partition::PartitionProblem& problem, model::Graph& graph,
                                           model::EdgePartition& partition, std::vector<int>& home,
                                           const partition::ResolvedBatch& batch, const ParamValues& geoCutValues,
                                           double threshold, std::uint64_t seed, const Feedback& feedback)
{
    const auto begin = std::chrono::steady_clock::now();
    auto stats = partition::applyUpdates(problem, graph, partition, home, batch, geoCutValues, threshold, seed,
                                         feedback);
    if (!stats)
        return stats.error();
    const double runtime = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (graph.edgeCount() == 0)
        return makeError(ErrorCode::InvalidInput, "the batch deletes every edge; nothing is left to partition");
    auto updated = partition::PartitionProblem::create(graph, *problem.topology, problem.profile, home,
                                                       problem.budgetUsd);
    if (!updated)
        return updated.error();
    return GraphUpdate{std::move(*stats), runtime, std::move(*updated)};
}

Expected<document::Run> runPartition(const PartitionRequest& request, const Registry<partition::Partitioner>& registry,
                                     const Feedback& feedback)
{
    const partition::Partitioner* partitioner = registry.find(request.algorithm);
    if (!partitioner)
        return makeError(ErrorCode::InvalidInput, "no partitioner '" + request.algorithm + "'");
    Prepared prepared;
    if (auto s = prepare(request, feedback, prepared); !s)
        return s.error();
    auto partitioned = partitionGraph(*prepared.problem, *partitioner, request.params, request.seed, feedback);
    if (!partitioned)
        return partitioned.error();
    auto& result = partitioned->result;
    const std::optional<double> bound = partitioned->costBound;
    document::Run run = newPartitionRun(request);
    run.runtimeSeconds = partitioned->runtimeSeconds;
    run.notes = std::move(result.notes);
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    return measured(std::move(run), *prepared.problem, std::move(result.partition), bound, feedback);
}

Expected<document::Run> runFromPartitionFiles(const PartitionRequest& request, const PartitionComputedElsewhere& files,
                                              const Feedback& feedback)
{
    Prepared prepared;
    if (auto s = prepare(request, feedback, prepared); !s)
        return s.error();
    const model::Graph& graph = prepared.loaded.graph;
    const auto& topology = request.project->topology;
    auto partition = io::readEdgePartitionOf(files.edgesPath, graph, topology);
    if (!partition)
        return partition.error();
    if (auto read = io::readMasters(files.mastersPath, graph, topology, *partition); !read)
        return read.error();
    // A vertex's master is its home, or where its home's partition moved to (Geo-Cut's relocate_data): one site per
    // home. Masters that do not follow the homes are those of other homes (another homes file, another seed).
    std::vector<int> movedTo(static_cast<std::size_t>(topology.siteCount()), -1);
    const auto refused = [&](std::uint32_t v, const std::string& why) {
        return makeError(ErrorCode::InvalidInput,
                         "vertex " + std::to_string(graph.originalId[v]) + " of graph '" + request.graph + "' " + why,
                         SourceLocation{files.mastersPath, 0, 0});
    };
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v) {
        const int master = partition->masterSite[v], home = prepared.loaded.home[v];
        if (master == 0xFF)
            return refused(v, "has no master");
        if (movedTo[home] < 0)
            movedTo[home] = master;
        else if (movedTo[home] != master)
            return refused(v,
                           "has its master at " + topology.site(master).name + ", where the graph's homes ("
                               + topology.site(home).name + ") say another vertex's is at "
                               + topology.site(movedTo[home]).name
                               + ": the partition was computed from other homes than the project's");
    }
    document::Run run = newPartitionRun(request);
    run.runtimeSeconds = files.runtimeSeconds;
    run.notes = files.notes;
    return measured(std::move(run), *prepared.problem, std::move(*partition), files.costBound, feedback);
}

Expected<document::Run> runSiteRemoval(const SiteRemovalRequest& request, const Feedback& feedback)
{
    const auto& parent = *request.run;
    if (parent.kind != document::RunKind::Partition || !parent.partition)
        return makeError(ErrorCode::InvalidInput, "run " + std::to_string(parent.id) + " is not a partition run");
    const PartitionRequest base = requestOf(request.project, parent, request.fingerprint);
    Prepared prepared;
    if (auto s = prepare(base, feedback, prepared, &parent); !s)
        return s.error();
    const auto& topology = request.project->topology;
    std::string derivation = "without";
    for (std::size_t k = 0; k < request.removedSites.size(); ++k) {
        const int s = request.removedSites[k];
        if (s < 0 || s >= topology.siteCount())
            return makeError(ErrorCode::InvalidInput, "the project has no site " + std::to_string(s));
        derivation += (k == 0 ? " " : ", ") + topology.site(s).name;
    }
    model::EdgePartition partition = *parent.partition;
    const partition::GeoCutPartitioner geoCut;
    const auto begin = std::chrono::steady_clock::now();
    auto stats = partition::removeSites(*prepared.problem, partition, request.removedSites,
                                        ParamValues::defaults(geoCut.parameters()), parent.seed, feedback);
    if (!stats)
        return stats.error();
    document::Run run = newDerivedRun(base, parent, derivation);
    run.runtimeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    run.notes = std::move(stats->notes);
    run.notes.insert(run.notes.begin(), "What-if on run #" + std::to_string(parent.id) + ": " + derivation + ".");
    measurePartition(run, *prepared.problem, partition, [&feedback] { return feedback.isCanceled(); });
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    run.partition = std::make_shared<const model::EdgePartition>(std::move(partition));
    return run;
}

Expected<document::Run> runBatchUpdate(const BatchRequest& request, const Feedback& feedback)
{
    const auto& parent = *request.run;
    if (parent.kind != document::RunKind::Partition || !parent.partition)
        return makeError(ErrorCode::InvalidInput, "run " + std::to_string(parent.id) + " is not a partition run");
    if (request.insertPath.empty() && request.deletePath.empty())
        return makeError(ErrorCode::InvalidInput, "give a file of edges to insert, to delete, or both");
    if (!(request.threshold > 0.0))
        return makeError(ErrorCode::InvalidInput, "the refinement threshold must be a positive share, e.g. 0.1");
    auto batch = std::make_shared<document::EdgeBatch>();
    batch->seed = parent.seed;
    std::vector<int> deletionLines;
    std::vector<std::string> names;
    feedback.setProgress(0.0, "reading the batch");
    if (!request.deletePath.empty()) {
        auto deletions = io::readEdgeBatch(request.deletePath, &deletionLines);
        if (!deletions)
            return deletions.error();
        batch->deletions = std::move(*deletions);
        names.push_back("\u2212" + std::filesystem::path(request.deletePath).filename().string());
    }
    if (!request.insertPath.empty()) {
        auto insertions = io::readEdgeBatch(request.insertPath);
        if (!insertions)
            return insertions.error();
        batch->insertions = std::move(*insertions);
        names.insert(names.begin(), "+" + std::filesystem::path(request.insertPath).filename().string());
    }
    batch->name = names.size() == 1 ? names[0] : names[0] + ", " + names[1];

    const PartitionRequest base = requestOf(request.project, parent, request.fingerprint);
    Prepared prepared;
    if (auto s = prepare(base, feedback, prepared, &parent); !s)
        return s.error();
    auto& graph = prepared.loaded.graph;
    auto resolved = partition::resolveBatch(graph, batch->deletions, batch->insertions,
                                            request.project->topology.siteCount(), batch->seed, [&](std::size_t k) {
                                                return SourceLocation{request.deletePath, deletionLines[k], 0};
                                            });
    if (!resolved)
        return resolved.error();
    model::EdgePartition partition = *parent.partition;
    const partition::GeoCutPartitioner geoCut;
    auto update = updateGraphPartition(*prepared.problem, graph, partition, prepared.loaded.home, *resolved,
                                       ParamValues::defaults(geoCut.parameters()), request.threshold, batch->seed,
                                       feedback);
    if (!update)
        return update.error();
    const partition::UpdateStats& stats = update->stats;
    batch->edgesAfter = graph.edgeCount();
    batch->verticesAfter = graph.vertexCount;
    const std::string derivation = "+" + std::to_string(stats.inserted) + " \u2212" + std::to_string(stats.deleted)
        + " edges (" + batch->name + ")";
    document::Run run = newDerivedRun(base, parent, derivation);
    run.batches.push_back(std::move(batch));
    run.runtimeSeconds = update->runtimeSeconds;
    run.notes = update->stats.notes;
    run.notes.insert(run.notes.begin(),
                     "What-if on run #" + std::to_string(parent.id) + ": " + derivation
                         + ", placed by Geo-Cut's streaming rule and refinement.");
    feedback.setProgress(1.0, "measuring");
    measurePartition(run, update->updated, partition, [&feedback] { return feedback.isCanceled(); });
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    run.partition = std::make_shared<const model::EdgePartition>(std::move(partition));
    return run;
}

Expected<double> graphHCost(const PartitionRequest& request, const Registry<partition::Partitioner>& registry,
                            const Feedback& feedback)
{
    Prepared prepared;
    PartitionRequest unbudgeted = request;
    unbudgeted.budgetUsd.reset();
    if (auto s = prepare(unbudgeted, feedback, prepared); !s)
        return s.error();
    return graphHCostOf(*prepared.problem, registry, request.seed, feedback);
}

Expected<double> graphHCostOf(const partition::PartitionProblem& problem,
                              const Registry<partition::Partitioner>& registry, std::uint64_t seed,
                              const Feedback& feedback)
{
    const partition::Partitioner* graphH = registry.find("graph-h");
    if (!graphH)
        return makeError(ErrorCode::Internal, "graph-h is not registered");
    partition::PartitionProblem unbudgeted = problem;
    unbudgeted.budgetUsd.reset();
    auto result = graphH->run(unbudgeted, seed, feedback);
    if (!result)
        return result.error();
    return cost::evaluateGas(*problem.graph, result->partition, problem.sizes, problem.network).wanUsd;
}

Expected<double> costBound(const PartitionRequest& request, const Feedback& feedback)
{
    Prepared prepared;
    PartitionRequest unbudgeted = request;
    unbudgeted.budgetUsd.reset();
    if (auto s = prepare(unbudgeted, feedback, prepared); !s)
        return s.error();
    return partition::costLowerBound(*prepared.problem, FeedbackRange(feedback, 0.0, 1.0));
}

} // namespace meridian::ops
