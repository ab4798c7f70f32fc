#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "core/model/topology.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// What the report, the runs panel's details pane (run_explanation) and the compare panel say about runs, computed
// in one place: each application's recommended run and its baseline, a run's costliest site pairs, and, in words,
// where the traffic cost (eq. 3) prefers a run that the predicted time finds slower.

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

/// Whether a Monte Carlo run's samples differ in cost (by more than a millionth): when every sampled placement
/// costs the same (one site, or processes that never talk), its CDF and best-of-K curve are a single point.
bool samplesDiffer(const Run& run);

/// What a placement study recommends for one application: the fastest current mapping run, the baseline it is
/// measured against and the next best run.
struct Recommendation {
    std::string application;
    /// What "fastest" means: "predicted_s" (the predicted run time) when every current run of the application has
    /// one, else "cost_s" (SC17 eq. 3, the traffic cost).
    std::string metric;
    std::shared_ptr<const Run> best;
    std::shared_ptr<const Run> runnerUp; ///< the fastest run of another algorithm; null when there is none
    /// With the predicted time: the run of lowest traffic cost (eq. 3) when it is not the best, so slower (the two
    /// metrics disagree); else null.
    std::shared_ptr<const Run> lowestTrafficCost;
    /// The baseline: the mean of the application's current random runs, else the mean of a monte-carlo run's
    /// sampled (random) placements; `baselineRuns` 0 when there is neither.
    std::string baselineKind;           ///< "random" or "monte-carlo"
    int baselineRuns = 0;               ///< random runs averaged, or placements sampled
    std::optional<double> baselineCost; ///< in `metric`
    std::optional<double> baselineUsd;  ///< random runs only
    std::string usdMetric;              ///< "usd" (egress and instances) when every run has it, else "wan_usd"
};

/// Predicted times that differ by less than this share are level: the prediction's own error is larger (1-2% against
/// SMPI runs of the programs), so neither is called faster.
inline constexpr double kLevelTime = 0.01;
/// Whether two predicted times (or two costs) are level: the larger within kLevelTime of the smaller.
bool isLevel(double a, double b);

/// Returns one recommendation per application with a current mapping run, in the project's order of first
/// appearance in `runs`, by predicted time where every current run has one (else by traffic cost). Random runs
/// are the baseline, never recommended. Runs level with the fastest (kLevelTime) go to the lower traffic cost;
/// exact ties then to the cheaper run.
std::vector<Recommendation> recommend(const std::vector<std::shared_ptr<const Run>>& runs,
                                      const std::function<bool(const Run&)>& isStale);

/// Why a mapping run's steps take the time they take, in words, as the step-time model sees them (the run's
/// application as bulk-synchronous steps: each step waits for its slowest message, which waits for its route's
/// latency and for the busiest link it crosses): "its slowest step crosses Sydney-Sao Paulo (12.0 MB a step at
/// 25.0 MB/s)", or "its steps wait for the 310 ms of Sydney-Sao Paulo". `network` must be complete. Empty when
/// the run is not a mapping of one of the project's applications.
std::string slowestStep(const Run& run, const Project& project, const model::Network& network);

/// Where eq. 3 and the predicted time rank two runs of one application differently: "#3 refine has the lower
/// traffic cost (1.20 s against 1.50 s), but is slower: 0.45 s against 0.38 s predicted; its slowest step crosses
/// ..." for `cheaper` (lower cost_s) and `faster` (lower predicted_s, by more than kLevelTime). Empty when they
/// agree, are level or a metric is missing.
std::string trafficButSlower(const Run& cheaper, const Run& faster, const Project& project,
                             const model::Network& network);

} // namespace meridian::document
