#include "core/mapping/mpipp_mapper.h"

#include "core/mapping/simple_mappers.h"
#include "core/mapping/site_filler.h"

#include <limits>

namespace meridian::mapping {

namespace {

/// One Kernighan-Lin pass; returns the cost after keeping the best prefix, or NaN when canceled.
double klPass(const MappingProblem& problem, std::vector<int>& siteOf, double cost, const FeedbackRange& range)
{
    const auto& c = problem.cost();
    const int n = problem.processCount();
    const int m = problem.siteCount();
    const std::vector<int>& movable = problem.freeProcesses();
    std::vector<double> delta(static_cast<std::size_t>(n) * m, 0.0);
    const auto refresh = [&](int p) {
        for (int s = 0; s < m; ++s)
            delta[static_cast<std::size_t>(p) * m + s] = c.moveDelta(siteOf, p, s);
    };
    for (int p : movable)
        refresh(p);
    std::vector<bool> locked(n, false);
    std::vector<int> adjacentMark(n, -1);
    std::vector<std::pair<int, int>> exchanges;
    double running = cost;
    double bestRunning = cost;
    std::size_t bestPrefix = 0;
    const std::size_t steps = movable.size() / 2;
    for (std::size_t step = 0; step < steps; ++step) {
        if (range.isCanceled())
            return std::numeric_limits<double>::quiet_NaN();
        range.setProgress(static_cast<double>(step) / static_cast<double>(steps), "pairwise exchange");
        int bestP = -1, bestQ = -1;
        double bestGain = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < movable.size(); ++i) {
            const int p = movable[i];
            if (locked[p])
                continue;
            for (int q : c.outNeighbours(p))
                adjacentMark[q] = p;
            for (int q : c.inNeighbours(p))
                adjacentMark[q] = p;
            const double* dp = &delta[static_cast<std::size_t>(p) * m];
            const int sp = siteOf[p];
            for (std::size_t j = i + 1; j < movable.size(); ++j) {
                const int q = movable[j];
                const int sq = siteOf[q];
                if (locked[q] || sq == sp)
                    continue;
                const double d = adjacentMark[q] == p ? c.swapDelta(siteOf, p, q)
                                                      : dp[sq] + delta[static_cast<std::size_t>(q) * m + sp];
                if (d < bestGain) {
                    bestGain = d;
                    bestP = p;
                    bestQ = q;
                }
            }
        }
        if (bestP < 0)
            break;
        std::swap(siteOf[bestP], siteOf[bestQ]);
        locked[bestP] = locked[bestQ] = true;
        running += bestGain;
        exchanges.emplace_back(bestP, bestQ);
        if (running < bestRunning - 1e-12 * std::abs(bestRunning)) {
            bestRunning = running;
            bestPrefix = exchanges.size();
        }
        refresh(bestP);
        refresh(bestQ);
        for (int x : {bestP, bestQ}) {
            for (int q : c.outNeighbours(x))
                if (!problem.isPinned(q))
                    refresh(q);
            for (int q : c.inNeighbours(x))
                if (!problem.isPinned(q))
                    refresh(q);
        }
    }
    // Undo the exchanges after the best prefix.
    for (std::size_t k = exchanges.size(); k > bestPrefix; --k)
        std::swap(siteOf[exchanges[k - 1].first], siteOf[exchanges[k - 1].second]);
    return c.evaluate(siteOf);
}

} // namespace

std::vector<ParamSpec> MpippMapper::parameters() const
{
    return {ParamSpec::integer("starts", 1, 1, 64,
                               "Number of starts: the k-way partition, then random feasible placements."),
            ParamSpec::integer("max_passes", 20, 1, 1000, "Upper bound on Kernighan-Lin passes per start.")};
}

Expected<MappingResult> MpippMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                             std::uint64_t seed, const FeedbackRange& range) const
{
    const int starts = static_cast<int>(values.integer("starts"));
    const int maxPasses = static_cast<int>(values.integer("max_passes"));
    Random random(seed);
    RandomSiteSampler sampler(problem);
    std::vector<int> best;
    double bestCost = std::numeric_limits<double>::infinity();
    int passesRun = 0;
    for (int start = 0; start < starts; ++start) {
        std::vector<int> siteOf = problem.pinnedAssignment();
        if (start == 0) {
            SiteFiller filler(problem.traffic(), problem.trafficVolume(), siteOf);
            std::vector<int> room = problem.residualCapacity();
            for (int s = 0; s < problem.siteCount(); ++s)
                filler.fill(s, room[s]);
            siteOf = filler.takeAssignment();
        } else {
            sampler.draw(siteOf, random);
        }
        double cost = problem.cost().evaluate(siteOf);
        for (int pass = 0; pass < maxPasses; ++pass) {
            const FeedbackRange sub = range.sub(static_cast<double>(start) / starts,
                                                static_cast<double>(start + 1) / starts);
            const double next = klPass(problem, siteOf, cost, sub);
            ++passesRun;
            if (std::isnan(next))
                return makeError(ErrorCode::Canceled, "canceled");
            const bool gained = next < cost - 1e-12 * std::abs(cost);
            cost = next;
            if (!gained)
                break;
        }
        if (cost < bestCost) {
            bestCost = cost;
            best = std::move(siteOf);
        }
    }
    MappingResult result;
    result.placement = model::Placement::fromSites(std::move(best));
    result.notes.push_back(std::to_string(passesRun) + " Kernighan-Lin passes over " + std::to_string(starts)
                           + " start(s)");
    return result;
}

} // namespace meridian::mapping
