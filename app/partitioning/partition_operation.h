#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/registry.h"
#include "core/partition/dynamic_update.h"
#include "core/partition/partitioner.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// Partition runs of a project's graphs, and the what-ifs derived from them (sites removed, an edge batch applied).
// The graph file itself is never changed: a run keeps its batches (Run::batches), and loadRunGraph rebuilds its graph
// from the file. The long O(E) steps poll the Feedback (the SNAP reader per chunk, streaming per block, GasState's
// construction every 2^16 edges, measurePartition between its two passes), so a cancel lands within 100 ms on
// 10^7 edges, the target `bench_workbench partition` measures. The workbench submits these through RunController
// like mapping runs; `meridian-cli partition` and `update` (partition_files.h) work on files, through the same two
// steps, partitionGraph and updateGraphPartition, except where a SNAP file is streamed (hash, HDRF without a budget:
// partition::partitionSnapStream places each edge as it is read).

namespace meridian::ops {

/// A partitioner's run on a problem, as the workbench's runs and `meridian-cli partition` make it.
struct GraphPartition {
    partition::PartitionResult result;
    std::optional<double> costBound; ///< with a budget: the lowest WAN cost any partition can reach
    double runtimeSeconds = 0.0;     ///< the partitioner alone
};

/// With a budget, first computes the lowest cost any partition can reach (partition::costLowerBound, the first 10%
/// of the progress; `knownBound` when the caller computed it for this graph and profile) and refuses a budget below
/// it; then runs the partitioner.
Expected<GraphPartition> partitionGraph(const partition::PartitionProblem& problem,
                                        const partition::Partitioner& partitioner, const ParamValues& params,
                                        std::uint64_t seed, const Feedback& feedback,
                                        std::optional<double> knownBound = std::nullopt);

/// A partition changed by an edge batch, as a workbench what-if and `meridian-cli update` change it.
struct GraphUpdate {
    partition::UpdateStats stats;
    double runtimeSeconds = 0.0;
    partition::PartitionProblem updated; ///< the problem of the updated graph (points into it), to measure on
};

/// Applies a resolved batch to `partition` of `graph` (partition::applyUpdates: deletions, then insertions by
/// Geo-Cut's streaming rule, refinement past `threshold`), changing `graph`, `partition` and `home` in place, and
/// builds the updated graph's problem. A batch that deletes every edge is refused.
Expected<GraphUpdate> updateGraphPartition(const partition::PartitionProblem& problem, model::Graph& graph,
                                           model::EdgePartition& partition, std::vector<int>& home,
                                           const partition::ResolvedBatch& batch, const ParamValues& geoCutValues,
                                           double threshold, std::uint64_t seed, const Feedback& feedback);

/// Everything one partition run needs, captured on the main thread so the job never touches the document.
struct PartitionRequest {
    std::shared_ptr<const document::Project> project;
    std::string graph; ///< the graph's name in the project
    std::string algorithm;
    ParamValues params;
    std::uint64_t seed = 1;
    std::string profile = "pagerank";
    double activeFraction = 0.1;
    std::optional<double> budgetUsd;
    std::uint64_t fingerprint = 0;
};

/// Reads the graph (checking it is the file imported), runs one partitioner and measures the partition
/// under Geo-Cut's GAS model: transfer time with its gather and apply parts, WAN dollars and bytes,
/// replication factor, budget status, per-site upload and download, the bottleneck links, and the runtime
/// of the partitioner alone. Thread-safe. Progress stages: "reading the graph", the partitioner's own
/// (streaming, refinement), "measuring".
Expected<document::Run> runPartition(const PartitionRequest& request, const Registry<partition::Partitioner>& registry,
                                     const Feedback& feedback);

/// A partition computed elsewhere (meridian-cli under a launcher): its files, as `partition --out --masters` writes
/// them, and what it said of itself.
struct PartitionComputedElsewhere {
    std::string edgesPath;
    std::string mastersPath;
    double runtimeSeconds = 0.0;
    std::vector<std::string> notes;
    std::optional<double> costBound;
};

/// The run of `request` whose partition another process computed: reads the graph as runPartition does, reads the
/// partition's files against it (io::readEdgePartitionOf: a line per edge, in the graph's order; every vertex has a
/// master, and the masters follow the graph's homes: at its home, or where its home's partition moved, one site per
/// home) and measures it as runPartition does. Progress stages: "reading the graph", "measuring".
Expected<document::Run> runFromPartitionFiles(const PartitionRequest& request, const PartitionComputedElsewhere& files,
                                              const Feedback& feedback);

/// A what-if on a partition run: the same graph and settings with sites removed (Geo-Cut's data-centre removal).
struct SiteRemovalRequest {
    std::shared_ptr<const document::Project> project;
    std::shared_ptr<const document::Run> run;
    std::vector<int> removedSites;
    std::uint64_t fingerprint = 0;
};

/// Reads the run's graph, removes the sites from a copy of its partition (partition::removeSites, Geo-Cut's rule
/// and refinement with their defaults) and measures the result as a new run derived from it ("without SYD").
Expected<document::Run> runSiteRemoval(const SiteRemovalRequest& request, const Feedback& feedback);

/// A what-if on a partition run: an insert/delete batch applied to its graph (Geo-Cut Section 5).
struct BatchRequest {
    std::shared_ptr<const document::Project> project;
    std::shared_ptr<const document::Run> run;
    std::string insertPath; ///< `src dst` lines to insert ("": none)
    std::string deletePath; ///< `src dst` lines to delete ("": none)
    double threshold = 0.1; ///< traffic change that triggers Geo-Cut's refinement, as a share
    std::uint64_t fingerprint = 0;
};

/// Reads the batch files and the run's graph, applies the batch to a copy of the run's partition
/// (partition::applyUpdates with Geo-Cut's defaults and the run's seed) and measures the result on the updated
/// graph as a new run derived from it. The run keeps the batch, so the updated graph can be rebuilt. A deletion
/// of an edge that is not there names its file and line; nothing lands then.
Expected<document::Run> runBatchUpdate(const BatchRequest& request, const Feedback& feedback);

/// Reads a graph of the project (its name there), checked against its import. Progress stage "reading the graph".
Expected<document::LoadedGraph> readProjectGraph(const document::Project& project, const std::string& name,
                                                 const Feedback& feedback);

/// The graph a partition run partitioned: its graph file (checked against the import) with the run's
/// batches applied; an error when that is not the graph of the run's partition.
Expected<document::LoadedGraph> loadRunGraph(const document::Project& project, const document::Run& run,
                                             const Feedback& feedback);

/// Fills a partition run's metrics and per-site traffic from a partition of a loaded graph (cost::evaluateGas), and
/// its site x site traffic (cost::gasTrafficMatrix), which the map and the heatmaps show. Two O(E) passes;
/// `canceled` is asked between them, and a canceled measurement is incomplete.
void measurePartition(document::Run& run, const partition::PartitionProblem& problem,
                      const model::EdgePartition& partition, const std::function<bool()>& canceled);

/// The WAN budget GrapH's partition of the graph costs (the setting of Geo-Cut's evaluation, B = GrapH's
/// cost): runs graph-h with its defaults and the same seed and profile.
Expected<double> graphHCost(const PartitionRequest& request, const Registry<partition::Partitioner>& registry,
                            const Feedback& feedback);

/// The same on a problem already built (its budget ignored).
Expected<double> graphHCostOf(const partition::PartitionProblem& problem,
                              const Registry<partition::Partitioner>& registry, std::uint64_t seed,
                              const Feedback& feedback);

/// The lowest WAN cost any partition of the graph can reach under the request's profile
/// (partition::costLowerBound): no budget below it can be met.
Expected<double> costBound(const PartitionRequest& request, const Feedback& feedback);

} // namespace meridian::ops
