#pragma once

#include "core/common/feedback.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/mapping/local_search.h"
#include "core/mapping/search_cost.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace meridian::mapping {

/// Independent local searches from one start, run on the Feedback's executor, the best kept.
struct PortfolioOptions {
    int searches = 8;              ///< Search 0 descends from the start; the others anneal first.
    LocalSearchOptions descent;    ///< Search 0: descent and perturb-and-descend rounds.
    LocalSearchOptions annealing;  ///< Searches 1 ... searches - 1 (annealing set, its steps given).
    double timeLimitSeconds = 0.0; ///< Wall-clock limit over all searches; 0 = none.
};

/// What the portfolio found.
struct PortfolioResult {
    std::vector<int> assignment; ///< The best search's result (the start when nothing was better).
    double cost = 0.0;           ///< Its value (seconds for the time objective).
    int winner = -1;             ///< The search that found it; -1 when the start was kept.
    bool timedOut = false;       ///< The time limit stopped at least one search.
    /// (seconds since the start, best cost so far), one point per improvement of the best.
    std::vector<std::pair<double, double>> curve;
};

/// Runs `options.searches` independent searches from `start`, search k seeded from `seed` and k alone, and
/// keeps the lowest value of `cost` (ties: the lowest k). Searches are shared by the executor's workers through a counter,
/// so without a time limit the result does not depend on the thread count or the machine's load. The best
/// cost so far is reported with Feedback::setBest as the searches improve it. Cancellation stops every
/// search; the best found so far is returned.
PortfolioResult runPortfolio(const SearchCost& cost, const std::vector<int>& capacity, const std::vector<bool>& movable,
                             const std::vector<int>& start, const PortfolioOptions& options, std::uint64_t seed,
                             const FeedbackRange& range);

} // namespace meridian::mapping
