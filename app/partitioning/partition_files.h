#pragma once

#include "app/partitioning/partition_operation.h"
#include "core/cost/gas_cost.h"
#include "core/io/graph_io.h"
#include "core/model/topology.h"
#include "core/partition/dynamic_update.h"

#include <QJsonObject>

#include <optional>
#include <string>
#include <vector>

// Partitioning as `meridian-cli partition` and `update` do it: on graph and partition files, the result written to
// files, without a project. The partitioners, the budget check and the update run through the same steps as the
// workbench's partition runs (ops::partitionGraph, ops::updateGraphPartition in partition_operation.h); each result
// is serialised to the JSON the commands print here, once.

namespace meridian::ops {

/// The traffic profile and budget of a partitioning, shared by partition and update.
struct GasSettings {
    model::Topology topology; ///< the sites, with up/down bandwidth and egress prices
    std::string profile = "pagerank";
    double activeFraction = 0.1; ///< sssp's share of active vertices; negative when the option was not a number
    std::optional<double> budgetUsd;
    std::vector<std::string> params; ///< `key=value` assignments, checked against the partitioner's parameters
    std::uint64_t seed = 1;
};

/// Checks a partitioner's id, the settings' parameters for it and the traffic profile, before anything is read: the
/// first errors `partition` and `update` report.
Status checkPartitioning(const std::string& algorithm, const GasSettings& settings,
                         const Registry<partition::Partitioner>& registry);

/// Whether `partition` splits its work over the ranks of an MPI launcher's job: hash, HDRF in batches or Geo-Cut's
/// stage 1 in batches (partition::splitsSnapOverRanks), streamed from a SNAP file without a budget under a combining
/// profile (pagerank, sssp). Under more than one rank anything else is refused.
bool partitionSplitsOverRanks(const std::string& algorithm, const ParamValues& values, io::GraphFormat format,
                              bool budget, const cost::TrafficProfile& profile);

/// `meridian-cli partition`: a graph file partitioned across the sites, written as `src dst site` lines (and the
/// masters as `vertex site` lines). A SNAP file partitioned by an online placer without a budget is streamed
/// (partition::partitionSnapStream): read, placed and written at once.
struct PartitionFilesRequest {
    GasSettings settings;
    std::string graphPath;
    io::GraphFormat format = io::GraphFormat::Snap;
    bool useCache = true;  ///< read and write the binary edge cache
    std::string homesPath; ///< `vertex site` lines; "": every home drawn at random
    /// The seed of the homes drawn for the vertices the homes file does not list; none: settings.seed. A project's
    /// graph keeps its own (document::GraphInput::homesSeed).
    std::optional<std::uint64_t> homesSeed;
    std::string algorithm = "geo-cut";
    std::string edgesPath;   ///< required
    std::string mastersPath; ///< "": not written
};

/// How long each phase took, in seconds from the command's own start.
struct PartitionPhases {
    double edges = 0, load = 0, run = 0, streaming = 0, evaluate = 0, write = 0, whole = 0;
};

/// What a partitioning of files did.
struct PartitionFilesResult {
    std::string algorithm;
    ParamValues params;
    std::string profile;
    std::uint64_t seed = 1;
    cost::GasMetrics metrics;
    std::optional<double> budgetUsd;
    std::optional<double> costBound;
    double vertices = 0, edges = 0, selfLoopsDropped = 0;
    bool fromCache = false, streamed = false;
    double homesFromFile = 0, homesRandom = 0;
    PartitionPhases phases;
    double peakMemoryBytes = 0;
    /// Split over the ranks of an MPI launcher's job: each rank's peak, in rank order (peakMemoryBytes is the
    /// largest); empty in one process.
    std::vector<double> rankPeakMemoryBytes;
    std::vector<std::string> notes;
};

/// Partitions a graph file as the request says; the files are written only on success, as one transaction.
Expected<PartitionFilesResult> partitionFiles(const PartitionFilesRequest& request,
                                              const Registry<partition::Partitioner>& registry,
                                              const Feedback& feedback);

/// The JSON `meridian-cli partition` prints.
QJsonObject partitionFilesJson(const PartitionFilesResult& result, const model::Topology& topology);

/// `meridian-cli update`: a partition file changed by an insert/delete batch (Geo-Cut Section 5), written again.
struct UpdateFilesRequest {
    GasSettings settings;      ///< params: Geo-Cut's
    std::string partitionPath; ///< `src dst site` lines, as partitionFiles writes them
    std::string mastersPath;   ///< its masters; "": homesPath gives them
    std::string homesPath;
    std::string insertPath;                   ///< "": none
    std::string deletePath;                   ///< "": none
    double threshold = 0.1;                   ///< traffic change that triggers Geo-Cut's refinement, as a share
    std::string scratchAlgorithm = "geo-cut"; ///< the partitioner of the comparison (checked even without it)
    bool fromScratch = false;   ///< also repartition the updated graph from nothing with it, for comparison
    std::string edgesOutPath;   ///< required
    std::string mastersOutPath; ///< "": not written
};

/// What an update of files did; from_scratch, when asked for, beside it.
struct UpdateFilesResult {
    cost::GasMetrics metrics;
    std::optional<double> budgetUsd;
    std::optional<double> costBound;
    partition::UpdateStats stats;
    double runtimeSeconds = 0;
    double vertices = 0, edges = 0;
    struct Scratch {
        std::string algorithm;
        cost::GasMetrics metrics;
        double runtimeSeconds = 0;
    };
    std::optional<Scratch> fromScratch;
};

/// Reads the partition and the batch, applies the batch (ops::updateGraphPartition) and writes the updated
/// partition, only on success.
Expected<UpdateFilesResult> updateFiles(const UpdateFilesRequest& request,
                                        const Registry<partition::Partitioner>& registry, const Feedback& feedback);

/// The JSON `meridian-cli update` prints.
QJsonObject updateFilesJson(const UpdateFilesResult& result, const model::Topology& topology);

/// A partition's GAS metrics as JSON: replication factor, transfer, gather and apply times, WAN cost and bytes,
/// per-site upload and download, the bottleneck links and the budget status.
QJsonObject gasMetricsJson(const cost::GasMetrics& metrics, const model::Topology& topology,
                           std::optional<double> budgetUsd, std::optional<double> costBound = {});

} // namespace meridian::ops
