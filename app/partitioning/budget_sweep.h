#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/registry.h"
#include "core/partition/partitioner.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// The WAN budget sweep of Geo-Cut's evaluation (Figs. 19-20): partitioners of one graph run at fractions of a budget
// B, by default GrapH's WAN cost. The workbench's "Sweep 1.0 to 0.6 B" lands each point as a run; `meridian-cli
// budget-sweep` runs the whole sweep at once and, under an MPI launcher, splits its points over the ranks.

namespace meridian::ops {

/// The fractions of B a sweep runs unless told otherwise: 1.0 down to 0.6, as Geo-Cut's Figs. 19-20.
inline const std::vector<double> kBudgetSweepFractions{1.0, 0.9, 0.8, 0.7, 0.6};

/// Which fractions of a budget a sweep runs and which it skips: a budget below the lowest cost any partition can
/// reach (`boundUsd`, partition::checkBudgetReachable's rule) is skipped; without a bound, none is.
struct BudgetSweepPlan {
    std::vector<double> run;
    std::vector<double> skipped;
};
BudgetSweepPlan planBudgetSweep(double budgetUsd, std::optional<double> boundUsd, const std::vector<double>& fractions);

/// Parses a comma-separated list of fractions of the budget, each in (0, 10], without repeats.
Expected<std::vector<double>> parseBudgetFractions(std::string_view text);

/// A budget sweep of one graph of a project.
struct BudgetSweepRequest {
    std::shared_ptr<const document::Project> project;
    std::string graph; ///< the graph's name in the project
    std::vector<std::pair<std::string, ParamValues>> partitioners;
    std::optional<double> budgetUsd; ///< B; empty: GrapH's WAN cost (graph-h, its defaults, the same seed)
    std::vector<double> fractions = kBudgetSweepFractions;
    std::uint64_t seed = 1;
    std::string profile = "pagerank";
    double activeFraction = 0.1;
};

/// One partitioner at one budget, measured under Geo-Cut's GAS model.
struct BudgetSweepPoint {
    double fraction = 0.0;
    double budgetUsd = 0.0;
    std::string algorithm;
    double transferSeconds = 0.0, gatherSeconds = 0.0, applySeconds = 0.0;
    double wanUsd = 0.0, wanBytes = 0.0, replicationFactor = 0.0;
    double overBudgetUsd = 0.0;  ///< 0 when the budget was met
    double runtimeSeconds = 0.0; ///< the partitioner alone, with its bound check
};

struct BudgetSweepResult {
    double budgetUsd = 0.0;               ///< B
    bool budgetFromGraphH = false;        ///< B is GrapH's cost
    double costBoundUsd = 0.0;            ///< the lowest WAN cost any partition reaches (partition::costLowerBound)
    std::vector<double> skipped;          ///< fractions whose budget is below the bound, not run
    std::vector<BudgetSweepPoint> points; ///< fraction by fraction, the partitioners in the request's order
};

/// Reads the graph (checked against its import), finds B and the cost bound, then runs every partitioner at every
/// fraction of B the bound allows (an error when it allows none). Under an MPI launcher (feedback.ranks()) rank 0
/// finds B while rank 1 finds the bound, the (fraction, partitioner) points are split over the ranks by index and every rank gets
/// the whole result, the same as one process gives but for the runtimes. Progress stages: "reading the graph",
/// "GrapH's cost", "the lowest cost", then each point's partitioner.
Expected<BudgetSweepResult> runBudgetSweep(const BudgetSweepRequest& request,
                                           const Registry<partition::Partitioner>& registry, const Feedback& feedback);

} // namespace meridian::ops
