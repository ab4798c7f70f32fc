#include "core/mapping/local_search.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace meridian::mapping {

namespace {

constexpr double kRelativeEpsilon = 1e-12;
constexpr int kExhaustiveSwapLimit = 256;
constexpr int kRankedBinLimit = 64;

bool improves(double delta, double cost) { return delta < -kRelativeEpsilon * std::max(std::abs(cost), 1e-300); }

} // namespace

LocalSearch::LocalSearch(const cost::AlphaBetaCost& cost, std::vector<int> capacity, std::vector<bool> movable)
    : LocalSearch(SearchCost(cost), std::move(capacity), std::move(movable))
{}

LocalSearch::LocalSearch(SearchCost cost, std::vector<int> capacity, std::vector<bool> movable)
    : m_cost(std::move(cost))
    , m_capacity(std::move(capacity))
    , m_binCount(static_cast<int>(m_capacity.size()))
{
    for (int p = 0; p < static_cast<int>(movable.size()); ++p) {
        if (movable[p])
            m_movable.push_back(p);
    }
}

bool LocalSearch::improveByMoves(std::vector<int>& assignment, std::vector<int>& load, SearchState& cost) const
{
    bool improved = false;
    for (int p : m_movable) {
        const int a = assignment[p];
        int bestBin = -1;
        SearchState bestDelta;
        for (int b = 0; b < m_binCount; ++b) {
            if (b == a || load[b] >= m_capacity[b])
                continue;
            const SearchState d = m_cost.moveDelta(assignment, cost, load, p, b);
            if (d.value < bestDelta.value) {
                bestDelta = d;
                bestBin = b;
            }
        }
        if (bestBin >= 0 && improves(bestDelta.value, cost.value)) {
            assignment[p] = bestBin;
            --load[a];
            ++load[bestBin];
            cost += bestDelta;
            improved = true;
        }
    }
    return improved;
}

bool LocalSearch::improveBySwapsExhaustive(std::vector<int>& assignment, SearchState& cost,
                                           const FeedbackRange& range) const
{
    bool improved = false;
    for (int p : m_movable) {
        if (range.isCanceled())
            return improved;
        int bestQ = -1;
        SearchState bestDelta;
        for (int q : m_movable) {
            if (assignment[q] == assignment[p])
                continue;
            const SearchState d = m_cost.swapDelta(assignment, cost, p, q);
            if (d.value < bestDelta.value) {
                bestDelta = d;
                bestQ = q;
            }
        }
        if (bestQ >= 0 && improves(bestDelta.value, cost.value)) {
            std::swap(assignment[p], assignment[bestQ]);
            cost += bestDelta;
            improved = true;
        }
    }
    return improved;
}

bool LocalSearch::improveBySwapsRanked(std::vector<int>& assignment, SearchState& cost, const FeedbackRange& range) const
{
    std::vector<std::vector<int>> members(m_binCount);
    for (int p : m_movable)
        members[assignment[p]].push_back(p);
    return m_binCount <= kRankedBinLimit ? swapsBetweenBinPairs(assignment, cost, members, range)
                                         : swapsWithNeighbourBins(assignment, cost, members, range);
}

bool LocalSearch::swapsBetweenBinPairs(std::vector<int>& assignment, SearchState& cost,
                                       const std::vector<std::vector<int>>& members, const FeedbackRange& range) const
{
    bool improved = false;
    const auto trySwap = [&](int p, int q) {
        if (assignment[p] == assignment[q])
            return false;
        const SearchState d = m_cost.swapDelta(assignment, cost, p, q);
        if (!improves(d.value, cost.value))
            return false;
        std::swap(assignment[p], assignment[q]);
        cost += d;
        return true;
    };
    // The value change of every movable process into every other bin (loads unchanged, as in a swap), taken
    // before this pass's swaps.
    const int n = m_cost.processCount();
    std::vector<double> delta(static_cast<std::size_t>(n) * m_binCount, 0.0);
    for (int p : m_movable) {
        for (int b = 0; b < m_binCount; ++b)
            delta[static_cast<std::size_t>(p) * m_binCount + b] = m_cost.pairMoveDelta(assignment, cost, p, b);
        if (range.isCanceled())
            return improved;
    }
    const auto d = [&](int p, int b) { return delta[static_cast<std::size_t>(p) * m_binCount + b]; };
    for (int a = 0; a < m_binCount; ++a) {
        for (int b = a + 1; b < m_binCount; ++b) {
            if (range.isCanceled())
                return improved;
            std::vector<int> left = members[a];
            std::vector<int> right = members[b];
            if (left.empty() || right.empty())
                continue;
            std::sort(left.begin(), left.end(),
                      [&](int x, int y) { return d(x, b) < d(y, b) || (d(x, b) == d(y, b) && x < y); });
            std::sort(right.begin(), right.end(),
                      [&](int x, int y) { return d(x, a) < d(y, a) || (d(x, a) == d(y, a) && x < y); });
            // Small cross product of the best-ranked candidates (catches pairs whose own edge matters).
            const int top = 4;
            for (int i = 0; i < std::min<int>(top, static_cast<int>(left.size())); ++i)
                for (int j = 0; j < std::min<int>(top, static_cast<int>(right.size())); ++j)
                    if (assignment[left[i]] == a && assignment[right[j]] == b)
                        improved |= trySwap(left[i], right[j]);
            // Then walk both rankings together while the estimate still promises a gain.
            const int len = static_cast<int>(std::min(left.size(), right.size()));
            for (int i = 0; i < len; ++i) {
                const int p = left[i];
                const int q = right[i];
                if (d(p, b) + d(q, a) >= 0.0)
                    break;
                if (assignment[p] == a && assignment[q] == b)
                    improved |= trySwap(p, q);
            }
        }
    }
    return improved;
}

bool LocalSearch::swapsWithNeighbourBins(std::vector<int>& assignment, SearchState& cost,
                                         std::vector<std::vector<int>>& members, const FeedbackRange& range) const
{
    bool improved = false;
    std::vector<int> mark(m_binCount, -1);
    std::vector<int> bins;
    for (int p : m_movable) {
        if (range.isCanceled())
            return improved;
        bins.clear();
        const auto addBinOf = [&](int q) {
            const int b = assignment[q];
            if (b != assignment[p] && mark[b] != p) {
                mark[b] = p;
                bins.push_back(b);
            }
        };
        for (int q : m_cost.time().outNeighbours(p))
            addBinOf(q);
        for (int q : m_cost.time().inNeighbours(p))
            addBinOf(q);
        int bestQ = -1;
        SearchState bestDelta;
        for (int b : bins) {
            for (int q : members[b]) {
                if (assignment[q] != b)
                    continue;
                const SearchState dd = m_cost.swapDelta(assignment, cost, p, q);
                if (dd.value < bestDelta.value) {
                    bestDelta = dd;
                    bestQ = q;
                }
            }
        }
        if (bestQ >= 0 && improves(bestDelta.value, cost.value)) {
            const int a = assignment[p];
            const int b = assignment[bestQ];
            std::swap(assignment[p], assignment[bestQ]);
            cost += bestDelta;
            improved = true;
            std::replace(members[b].begin(), members[b].end(), bestQ, p);
            std::replace(members[a].begin(), members[a].end(), p, bestQ);
        }
    }
    return improved;
}

SearchState LocalSearch::descend(std::vector<int>& assignment, const FeedbackRange& range) const
{
    SearchState cost = m_cost.evaluate(assignment);
    std::vector<int> load(m_binCount, 0);
    for (int b : assignment)
        ++load[b];
    const bool exhaustive = static_cast<int>(m_movable.size()) <= kExhaustiveSwapLimit;
    std::vector<int> lastGood = assignment;
    for (int pass = 0; pass < 1000000; ++pass) {
        if (range.isCanceled())
            break;
        bool improved = improveByMoves(assignment, load, cost);
        improved |= exhaustive ? improveBySwapsExhaustive(assignment, cost, range)
                               : improveBySwapsRanked(assignment, cost, range);
        // Resynchronise with a full evaluation so rounding never accumulates across passes.
        cost = m_cost.evaluate(assignment);
        if (!improved)
            break;
    }
    return cost;
}

void LocalSearch::perturb(std::vector<int>& assignment, Random& random, int swaps) const
{
    const auto n = static_cast<std::uint64_t>(m_movable.size());
    if (n < 2)
        return;
    std::vector<int> load(m_binCount, 0);
    for (int b : assignment)
        ++load[b];
    for (int k = 0; k < swaps; ++k) {
        const int p = m_movable[random.uniformInt(n)];
        if (random.uniform01() < 0.25) {
            const int b = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m_binCount)));
            if (b != assignment[p] && load[b] < m_capacity[b]) {
                --load[assignment[p]];
                ++load[b];
                assignment[p] = b;
            }
            continue;
        }
        const int q = m_movable[random.uniformInt(n)];
        std::swap(assignment[p], assignment[q]);
    }
}

double LocalSearch::anneal(std::vector<int>& assignment, SearchState cost, std::int64_t steps, Random& random,
                           const FeedbackRange& range) const
{
    const auto n = static_cast<std::uint64_t>(m_movable.size());
    if (n < 2 || steps <= 0)
        return cost.value;
    std::vector<int> load(m_binCount, 0);
    for (int b : assignment)
        ++load[b];
    // Starting temperature: the mean size of a random swap's delta, so early uphill moves are common.
    double sum = 0.0;
    int samples = 0;
    for (int k = 0; k < 200; ++k) {
        const int p = m_movable[random.uniformInt(n)];
        const int q = m_movable[random.uniformInt(n)];
        if (assignment[p] != assignment[q]) {
            sum += std::abs(m_cost.swapDelta(assignment, cost, p, q).value);
            ++samples;
        }
    }
    if (samples == 0 || sum == 0.0)
        return cost.value;
    const double t0 = sum / samples;
    // Final temperature: a thousandth of the start. Colder ends only repeat the descent that follows (on random
    // sparse graphs over heterogeneous sites, 1e-4 left refine's defaults 1.0-1.2% above the best known).
    const double t1 = t0 * 1e-3;
    const double cooling = std::pow(t1 / t0, 1.0 / static_cast<double>(steps));
    double temperature = t0;
    std::vector<int> best = assignment;
    double bestCost = cost.value;
    for (std::int64_t step = 0; step < steps; ++step, temperature *= cooling) {
        if ((step & 4095) == 0) {
            if (range.isCanceled())
                break;
            range.setProgress(static_cast<double>(step) / static_cast<double>(steps), "annealing");
        }
        const int p = m_movable[random.uniformInt(n)];
        SearchState delta;
        int q = -1;
        int b = -1;
        if (random.uniform01() < 0.2) {
            b = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m_binCount)));
            if (b == assignment[p] || load[b] >= m_capacity[b])
                continue;
            delta = m_cost.moveDelta(assignment, cost, load, p, b);
        } else {
            q = m_movable[random.uniformInt(n)];
            if (assignment[p] == assignment[q])
                continue;
            delta = m_cost.swapDelta(assignment, cost, p, q);
        }
        if (delta.value > 0.0 && random.uniform01() >= std::exp(-delta.value / temperature))
            continue;
        if (q >= 0) {
            std::swap(assignment[p], assignment[q]);
        } else {
            --load[assignment[p]];
            ++load[b];
            assignment[p] = b;
        }
        cost += delta;
        if (cost.value < bestCost) {
            bestCost = cost.value;
            best = assignment;
        }
    }
    assignment = std::move(best);
    return m_cost.evaluate(assignment).value;
}

double LocalSearch::run(std::vector<int>& assignment, const LocalSearchOptions& options, Random& random,
                        const FeedbackRange& range) const
{
    const double startCost = m_cost.evaluate(assignment).value;
    std::vector<int> best = assignment;
    double bestCost = startCost;
    if (m_movable.empty())
        return startCost;

    const int rounds = 1 + std::max(0, options.restarts);
    const double annealShare = options.annealing ? 0.5 : 0.0;
    if (options.annealing) {
        const std::int64_t steps = options.annealSteps > 0
            ? options.annealSteps
            : static_cast<std::int64_t>(200) * static_cast<std::int64_t>(m_movable.size());
        std::vector<int> trial = best;
        const FeedbackRange sub = range.sub(0.0, annealShare);
        const double c = anneal(trial, m_cost.evaluate(trial), steps, random, sub);
        if (c < bestCost) {
            bestCost = c;
            best = std::move(trial);
            if (options.onBest)
                options.onBest(bestCost);
        }
    }
    const int kick = std::max(2, static_cast<int>(m_movable.size()) / 10);
    for (int round = 0; round < rounds; ++round) {
        if (range.isCanceled())
            break;
        range.setProgress(annealShare + (1.0 - annealShare) * round / rounds, round == 0 ? "descent" : "restarts");
        std::vector<int> trial = best;
        // Kicks alternate between small (two swaps) and large (a tenth of the processes).
        if (round > 0)
            perturb(trial, random, round % 2 == 1 ? 2 : kick);
        const double c = descend(trial, range).value;
        if (c < bestCost) {
            bestCost = c;
            best = std::move(trial);
            if (options.onBest)
                options.onBest(bestCost);
        }
    }
    if (bestCost < startCost)
        assignment = std::move(best);
    return std::min(bestCost, startCost);
}

} // namespace meridian::mapping
