#pragma once

#include "core/common/param.h"
#include "core/model/graph.h"
#include "core/model/placement.h"

#include <Eigen/Dense>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace meridian::document {

/// One number a run reports, with a stable id ("cost_s"), a label for charts and tables and a unit.
struct RunMetric {
    std::string id;
    std::string label;
    std::string unit;
    double value = 0.0;
};

/// An insert/delete batch a what-if applied to a graph, kept whole so that the run's graph can be rebuilt from
/// the graph file (partition::resolveBatch then applyBatch): the deletions, then the insertions, the homes of
/// new vertices drawn with `seed`.
struct EdgeBatch {
    std::string name;       ///< the files it was read from ("+ins.txt, −del.txt")
    std::uint64_t seed = 1; ///< draws the homes of new vertices
    std::vector<std::pair<std::uint64_t, std::uint64_t>> deletions;  ///< original id pairs
    std::vector<std::pair<std::uint64_t, std::uint64_t>> insertions; ///< original id pairs
    std::uint64_t edgesAfter = 0;                                    ///< the graph's edges once applied
    std::uint64_t verticesAfter = 0;                                 ///< and its vertices
};

/// One site-level link's load in a run's simulation (per iteration): a site's uplink (`from` = the site, `to` =
/// -1), its downlink (`from` = -1, `to` = the site) or the link of the site pair (`from`, `to`).
struct SimulatedLink {
    int from = -1;
    int to = -1;
    double bytes = 0.0;
    double busyFraction = 0.0; ///< share of the iteration with a transfer under way on the link
    double utilisation = 0.0;  ///< bytes / (bandwidth x the iteration's time)
};

/// What a run computed: a placement of an application's processes, or an edge partition of a graph.
enum class RunKind { Mapping, Partition };

/// A finished run of one mapper on one application of a project, or of one partitioner on one of its
/// graphs: what was asked (algorithm, parameters, seed), what came back (placement or edge partition,
/// Monte Carlo samples, notes) and what it is worth (metrics, site x site traffic and time). Immutable once
/// it lands in the document's run list.
struct Run {
    int id = 0; ///< unique within a document, never reused
    RunKind kind = RunKind::Mapping;
    std::string algorithm;   ///< mapper or partitioner id
    std::string application; ///< application name in the project, or the graph's for a partition run
    ParamValues params;
    std::uint64_t seed = 1;
    model::Placement placement;
    std::vector<double> costSamples;                        ///< Monte Carlo only
    std::vector<std::pair<std::int64_t, double>> bestCurve; ///< Monte Carlo only
    std::vector<std::string> notes;
    /// predicted_s first when predicted, then cost_s, simulated_s when simulated, the parts of the cost, CloudMap's
    /// instance metrics, dollars and runtime.
    std::vector<RunMetric> metrics;
    Eigen::MatrixXd trafficBytes; ///< site x site bytes sent between sites (row = sender)
    Eigen::MatrixXd timeSeconds;  ///< site x site share of the cost (s)
    double runtimeSeconds = 0.0;
    /// The site-level links of the run's SimGrid simulation (empty when it was not simulated; its time is the
    /// metric "simulated_s").
    std::vector<SimulatedLink> simulatedLinks;
    /// Fingerprint of the inputs the run was computed from (document::inputFingerprint, project_edits.h).
    std::uint64_t inputFingerprint = 0;

    // Partition runs only.
    std::string profile;             ///< traffic profile id (pagerank, sssp, subgraph-isomorphism)
    double activeFraction = 0.1;     ///< sssp's share of active vertices
    std::optional<double> budgetUsd; ///< WAN budget per iteration (Geo-Cut eq. 6)
    /// Each edge's site and each vertex's master, in the graph's order; shared, never modified.
    std::shared_ptr<const model::EdgePartition> partition;
    std::vector<double> siteUploadBytes;     ///< per site, gather and apply together, per iteration
    std::vector<double> siteDownloadBytes;   ///< per site
    std::vector<double> siteUploadSeconds;   ///< per site: its upload bytes over its uplink
    std::vector<double> siteDownloadSeconds; ///< per site: its download bytes over its downlink
    /// A what-if derived from another run (0: none): its id, and what was changed ("without SYD, SA").
    int derivedFrom = 0;
    std::string derivation;
    /// The batches applied to the graph file's edges before this run's partition, in order (what-ifs only);
    /// shared, never modified.
    std::vector<std::shared_ptr<const EdgeBatch>> batches;

    /// Returns the value of a metric, or nullopt when the run does not report it.
    std::optional<double> metric(const std::string& id) const;
    /// Returns "#3 geo on lu", the name used in lists, legends and reports.
    std::string label() const;
};

} // namespace meridian::document
