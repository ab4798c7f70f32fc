#pragma once

#include "app/document/run.h"
#include "core/model/topology.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace meridian::document {

/// One ordered pair of sites in a mapping run's traffic: what the sender sends the receiver per iteration, the
/// share of the run's cost it accounts for, and what its egress costs.
struct SitePairCost {
    int from = 0;
    int to = 0;
    double bytes = 0.0;
    double seconds = 0.0;            ///< the pair's share of the mapping cost (Run::timeSeconds)
    double shareOfCost = 0.0;        ///< seconds over the run's cost, 0..1
    std::optional<double> egressUsd; ///< bytes x the sender's egress price; none without a price
};

/// Returns the pairs of different sites that carry traffic, costliest first (by seconds, then bytes), at most
/// `limit` of them. Empty for a partition run or a run without site matrices.
std::vector<SitePairCost> heaviestSitePairs(const Run& run, const model::Topology& topology, int limit);

/// What a placement study recommends for one application: the fastest current mapping run, the baseline it is
/// measured against and the next best run.
struct Recommendation {
    std::string application;
    std::shared_ptr<const Run> best;
    std::shared_ptr<const Run> runnerUp; ///< the fastest run of another algorithm; null when there is none
    /// The baseline: the mean of the application's current random runs, else the mean of a monte-carlo run's
    /// sampled (random) placements; `baselineRuns` 0 when there is neither.
    std::string baselineKind; ///< "random" or "monte-carlo"
    int baselineRuns = 0;     ///< random runs averaged, or placements sampled
    std::optional<double> baselineCost;
    std::optional<double> baselineUsd; ///< random runs only
    std::string usdMetric;             ///< "usd" (egress and instances) when every run has it, else "wan_usd"
};

/// Returns one recommendation per application with a current mapping run, in the project's order of first
/// appearance in `runs`. Random runs are the baseline, never recommended. Ties in cost go to the cheaper run.
std::vector<Recommendation> recommend(const std::vector<std::shared_ptr<const Run>>& runs,
                                      const std::function<bool(const Run&)>& isStale);

} // namespace meridian::document
