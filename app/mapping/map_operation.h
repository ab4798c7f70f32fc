#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/registry.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/cost/dollars.h"
#include "core/cost/instance_metrics.h"
#include "core/mapping/mapper.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace meridian::ops {

/// Everything one mapping run needs, captured on the main thread so the job never touches the document.
struct MappingRequest {
    std::shared_ptr<const document::Project> project;
    model::Network completeNetwork;
    std::string application;
    std::string algorithm;
    ParamValues params;
    std::uint64_t seed = 1;
    /// The fingerprint of the inputs at submission (ProjectDocument::fingerprint).
    std::uint64_t fingerprint = 0;
    /// A placement to start from (for `refine` with start=input), and the file it came from (errors name it).
    std::optional<model::Placement> start;
    std::string startFile;
    /// Simulate and predict runs small enough (kAutoSimulateMessages) at once, as the workbench does; meridian-cli
    /// map leaves that to `simulate` and `predict`.
    bool simulateSmallRuns = true;
};

/// What a placement of an application measures, computed once for the run's metrics and for meridian-cli's JSON:
/// SC17 eq. 3 with its parts, per-site load and site x site matrices; the busiest link; the dollars; CloudMap's
/// instance metrics when the placement names hosts.
struct PlacementMeasures {
    cost::CostBreakdown breakdown;
    double bottleneckSeconds = 0.0;
    cost::Dollars dollars;
    std::optional<cost::InstanceMetrics> instance;
};

/// Measures `placement` of `app` on the completed network. Errors: a process count that does not match.
Expected<PlacementMeasures> measure(const model::Placement& placement, const document::Application& app,
                                    const model::Topology& topology, const model::Network& completeNetwork);

/// A run and what its placement measures.
struct MappedRun {
    document::Run run;
    PlacementMeasures measures;
};

/// Runs one mapper on the request's application and measures the result (measure(), and the run's metrics from
/// it: the alpha-beta cost with its latency and bandwidth parts, CloudMap's instance metrics, the bytes and egress
/// dollars crossing sites, the slowest site pair and the runtime). Thread-safe (reads only the request and the
/// registry). Errors name the application.
Expected<MappedRun> mapAndMeasure(const MappingRequest& request, const Registry<mapping::Mapper>& mappers,
                                  const Feedback& feedback);
/// Simulates a run with SimGrid and predicts its time by SMPI replay when it is small enough to do so at once
/// (kAutoSimulateMessages), as the workbench does with each run it computes; a failure of either is a note on the
/// run, a cancel an error.
Status simulateIfSmall(document::Run& run, const document::Project& project, const model::Network& completeNetwork,
                       const Feedback& feedback);
/// mapAndMeasure's run alone (the workbench's mapping job).
Expected<document::Run> runMapping(const MappingRequest& request, const Registry<mapping::Mapper>& mappers,
                                   const Feedback& feedback);

/// A Pareto sweep: `refine` with objective=weighted at each weight (0 = time alone ... 1 = dollars alone), other
/// parameters from `request.params` (refine's), one run per weight in the order given. Cancellable between and
/// inside the runs; an error names the weight. The project's sites need instance prices (refine says which lacks
/// one). Over several ranks (the Feedback's), each takes a block of the weights and every rank returns every run,
/// as one process computes them (only their runtimes are each run's own).
/// The weights of a Pareto sweep of `points` runs: evenly from 0 to 1 (0.5 alone for one run).
std::vector<double> paretoWeights(int points);
Expected<std::vector<document::Run>> runParetoSweep(const MappingRequest& request, const std::vector<double>& weights,
                                                    const Registry<mapping::Mapper>& mappers, const Feedback& feedback);

/// Computes the metrics and site x site matrices of a placement of an application (used for runs and
/// for placements imported from a mapping CSV): with prices, cost::placementDollars.
Status measurePlacement(document::Run& run, const document::Project& project, const model::Network& completeNetwork);

} // namespace meridian::ops
