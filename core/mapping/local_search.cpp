#include "core/mapping/local_search.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>

namespace meridian::mapping {

namespace {

constexpr double kRelativeEpsilon = 1e-12;
constexpr int kExhaustiveSwapLimit = 256;
constexpr int kRankedBinLimit = 64;
/// The best-ranked candidates of each side that swapsBetweenBinPairs tries against each other.
constexpr int kTopCandidates = 4;

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

int LocalSearch::passesWithin(double work, double movable, int bins, double meanDegree)
{
    const double pairs = static_cast<double>(bins) * bins;
    const double pass = (movable * bins + kTopCandidates * kTopCandidates * pairs) * (1.0 + meanDegree);
    return static_cast<int>(std::clamp(work / std::max(1.0, pass), 1.0, 1e6));
}

void LocalSearch::move(std::vector<int>& assignment, cost::LinkLoads& links, int p, int to) const
{
    m_cost.apply(links, assignment, p, to);
    assignment[p] = to;
}

void LocalSearch::swap(std::vector<int>& assignment, cost::LinkLoads& links, int p, int q) const
{
    const int a = assignment[p];
    move(assignment, links, p, assignment[q]);
    move(assignment, links, q, a);
}

void LocalSearch::changed(int p, PassState& state) const
{
    state.stale[p] = 1;
    for (int q : m_cost.time().outNeighbours(p))
        state.stale[q] = 1;
    for (int q : m_cost.time().inNeighbours(p))
        state.stale[q] = 1;
}

bool LocalSearch::improveByMoves(std::vector<int>& assignment, PassState& state, SearchState& cost) const
{
    std::vector<int>& load = state.load;
    // Only bins with a free slot can take a move; a full target (every slot used) makes this pass free.
    std::vector<int> open;
    const auto openBins = [&] {
        open.clear();
        for (int b = 0; b < m_binCount; ++b)
            if (load[b] < m_capacity[b])
                open.push_back(b);
    };
    openBins();
    bool improved = false;
    for (int p : m_movable) {
        if (open.empty())
            break;
        const int a = assignment[p];
        int bestBin = -1;
        SearchState bestDelta;
        for (int b : open) {
            if (b == a)
                continue;
            const SearchState d = m_cost.moveDelta(assignment, cost, load, state.links, p, b);
            if (d.value < bestDelta.value) {
                bestDelta = d;
                bestBin = b;
            }
        }
        if (bestBin >= 0 && improves(bestDelta.value, cost.value)) {
            move(assignment, state.links, p, bestBin);
            --load[a];
            ++load[bestBin];
            cost += bestDelta;
            improved = true;
            changed(p, state);
            openBins();
        }
    }
    return improved;
}

bool LocalSearch::improveBySwapsExhaustive(std::vector<int>& assignment, cost::LinkLoads& links, SearchState& cost,
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
            const SearchState d = m_cost.swapDelta(assignment, cost, links, p, q);
            if (d.value < bestDelta.value) {
                bestDelta = d;
                bestQ = q;
            }
        }
        if (bestQ >= 0 && improves(bestDelta.value, cost.value)) {
            swap(assignment, links, p, bestQ);
            cost += bestDelta;
            improved = true;
        }
    }
    return improved;
}

bool LocalSearch::improveBySwapsRanked(std::vector<int>& assignment, PassState& state, SearchState& cost,
                                       const FeedbackRange& range) const
{
    std::vector<std::vector<int>> members(m_binCount);
    for (int p : m_movable)
        members[assignment[p]].push_back(p);
    return m_binCount <= kRankedBinLimit ? swapsBetweenBinPairs(assignment, state, cost, members, range)
                                         : swapsWithNeighbourBins(assignment, state.links, cost, members, range);
}

std::vector<std::vector<int>> LocalSearch::rankedCandidates(const std::vector<double>& rank,
                                                            const std::vector<std::vector<int>>& members) const
{
    const auto bins = static_cast<std::size_t>(m_binCount);
    const auto row = [&](int p) { return rank.data() + static_cast<std::size_t>(p) * bins; };
    // best[a][b]: the lowest value of a process of bin a moving to bin b.
    std::vector<double> best(bins * bins, std::numeric_limits<double>::infinity());
    for (std::size_t a = 0; a < bins; ++a)
        for (int p : members[a])
            for (std::size_t b = 0; b < bins; ++b)
                best[a * bins + b] = std::min(best[a * bins + b], row(p)[b]);
    // A process of bin a can pair with one of bin b only if its value plus b's best towards a is negative; the
    // kTopCandidates best are kept whatever their value (the cross product tries them).
    std::vector<std::vector<int>> out(bins * bins);
    std::vector<std::array<int, kTopCandidates>> top(bins * bins);
    std::vector<int> topCount(bins * bins, 0);
    const auto better = [&](int x, int y, std::size_t to) {
        const double dx = row(x)[to];
        const double dy = row(y)[to];
        return dx < dy || (dx == dy && x < y);
    };
    for (std::size_t a = 0; a < bins; ++a) {
        for (int p : members[a]) {
            for (std::size_t b = 0; b < bins; ++b) {
                if (b == a)
                    continue;
                const std::size_t pair = a * bins + b;
                if (row(p)[b] + best[b * bins + a] < 0.0) {
                    out[pair].push_back(p);
                    continue;
                }
                auto& t = top[pair];
                int& count = topCount[pair];
                if (count == kTopCandidates && !better(p, t[count - 1], b))
                    continue;
                int i = count < kTopCandidates ? count++ : count - 1;
                for (; i > 0 && better(p, t[i - 1], b); --i)
                    t[i] = t[i - 1];
                t[i] = p;
            }
        }
    }
    for (std::size_t pair = 0; pair < bins * bins; ++pair) {
        const std::size_t to = pair % bins;
        auto& list = out[pair];
        // Top entries not already listed failed the filter, so they are not in the list.
        list.insert(list.end(), top[pair].begin(), top[pair].begin() + topCount[pair]);
        std::sort(list.begin(), list.end(), [&](int x, int y) { return better(x, y, to); });
        // Keep the filter's candidates and at least the kTopCandidates best.
        std::size_t keep = 0;
        while (keep < list.size()
               && (keep < static_cast<std::size_t>(kTopCandidates)
                   || row(list[keep])[to] + best[to * bins + pair / bins] < 0.0))
            ++keep;
        list.resize(keep);
    }
    return out;
}

bool LocalSearch::swapsBetweenBinPairs(std::vector<int>& assignment, PassState& state, SearchState& cost,
                                       const std::vector<std::vector<int>>& members, const FeedbackRange& range) const
{
    bool improved = false;
    const auto trySwap = [&](int p, int q) {
        if (assignment[p] == assignment[q])
            return false;
        const SearchState d = m_cost.swapDelta(assignment, cost, state.links, p, q);
        if (!improves(d.value, cost.value))
            return false;
        swap(assignment, state.links, p, q);
        cost += d;
        changed(p, state);
        changed(q, state);
        return true;
    };
    // The value change of every movable process into every other bin (loads unchanged, as in a swap), taken
    // before this pass's swaps; a row is recomputed only when it is stale.
    const int n = m_cost.processCount();
    if (state.rank.empty() || state.rankUsdPerHour != cost.usdPerHour || state.rankBottleneck != cost.bottleneck) {
        state.rank.assign(static_cast<std::size_t>(n) * m_binCount, 0.0);
        std::fill(state.stale.begin(), state.stale.end(), 1);
        state.rankUsdPerHour = cost.usdPerHour;
        state.rankBottleneck = cost.bottleneck;
    }
    // The stale rows are independent: the executor's workers share them in chunks (each row is written by one).
    // Not with a busiest-link term, whose deltas use the link loads' scratch space.
    std::vector<int> rows;
    for (int p : m_movable)
        if (state.stale[p])
            rows.push_back(p);
    constexpr std::size_t kRowChunk = 256;
    const std::size_t chunks = (rows.size() + kRowChunk - 1) / kRowChunk;
    std::atomic<std::size_t> nextChunk{0};
    const int workers = state.links.empty()
        ? static_cast<int>(std::min<std::size_t>(range.executor().concurrency(), chunks))
        : 1;
    range.executor().shareWork(std::max(1, workers), [&](int) {
        for (std::size_t c = nextChunk.fetch_add(1); c < chunks && !range.isCanceled(); c = nextChunk.fetch_add(1))
            for (std::size_t i = c * kRowChunk; i < std::min(rows.size(), (c + 1) * kRowChunk); ++i) {
                const int p = rows[i];
                for (int b = 0; b < m_binCount; ++b)
                    state.rank[static_cast<std::size_t>(p) * m_binCount + b] = m_cost.pairMoveDelta(assignment, cost,
                                                                                                    state.links, p, b);
            }
    });
    if (range.isCanceled())
        return improved;
    for (int p : rows)
        state.stale[p] = 0;
    const auto d = [&](int p, int b) { return state.rank[static_cast<std::size_t>(p) * m_binCount + b]; };
    const std::vector<std::vector<int>> candidates = rankedCandidates(state.rank, members);
    for (int a = 0; a < m_binCount; ++a) {
        for (int b = a + 1; b < m_binCount; ++b) {
            if (range.isCanceled())
                return improved;
            if (members[a].empty() || members[b].empty())
                continue;
            const std::vector<int>& left = candidates[static_cast<std::size_t>(a) * m_binCount + b];
            const std::vector<int>& right = candidates[static_cast<std::size_t>(b) * m_binCount + a];
            // Small cross product of the best-ranked candidates (catches pairs whose own edge matters).
            for (int i = 0; i < std::min<int>(kTopCandidates, static_cast<int>(left.size())); ++i)
                for (int j = 0; j < std::min<int>(kTopCandidates, static_cast<int>(right.size())); ++j)
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

bool LocalSearch::swapsWithNeighbourBins(std::vector<int>& assignment, cost::LinkLoads& links, SearchState& cost,
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
                const SearchState dd = m_cost.swapDelta(assignment, cost, links, p, q);
                if (dd.value < bestDelta.value) {
                    bestDelta = dd;
                    bestQ = q;
                }
            }
        }
        if (bestQ >= 0 && improves(bestDelta.value, cost.value)) {
            const int a = assignment[p];
            const int b = assignment[bestQ];
            swap(assignment, links, p, bestQ);
            cost += bestDelta;
            improved = true;
            std::replace(members[b].begin(), members[b].end(), bestQ, p);
            std::replace(members[a].begin(), members[a].end(), p, bestQ);
        }
    }
    return improved;
}

SearchState LocalSearch::descend(std::vector<int>& assignment, const FeedbackRange& range, int& passes) const
{
    SearchState cost = m_cost.evaluate(assignment);
    PassState state;
    state.links = m_cost.links(assignment);
    state.load.assign(m_binCount, 0);
    for (int b : assignment)
        ++state.load[b];
    state.stale.assign(assignment.size(), 1);
    const bool exhaustive = static_cast<int>(m_movable.size()) <= kExhaustiveSwapLimit;
    while (passes > 0) {
        if (range.isCanceled())
            break;
        --passes;
        bool improved = improveByMoves(assignment, state, cost);
        improved |= exhaustive ? improveBySwapsExhaustive(assignment, state.links, cost, range)
                               : improveBySwapsRanked(assignment, state, cost, range);
        // Resynchronise with a full evaluation so rounding never accumulates across passes.
        cost = m_cost.evaluate(assignment);
        state.links = m_cost.links(assignment);
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
    cost::LinkLoads links = m_cost.links(assignment);
    // Starting temperature: the mean size of a random swap's delta, so early uphill moves are common.
    double sum = 0.0;
    int samples = 0;
    for (int k = 0; k < 200; ++k) {
        const int p = m_movable[random.uniformInt(n)];
        const int q = m_movable[random.uniformInt(n)];
        if (assignment[p] != assignment[q]) {
            sum += std::abs(m_cost.swapDelta(assignment, cost, links, p, q).value);
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
            delta = m_cost.moveDelta(assignment, cost, load, links, p, b);
        } else {
            q = m_movable[random.uniformInt(n)];
            if (assignment[p] == assignment[q])
                continue;
            delta = m_cost.swapDelta(assignment, cost, links, p, q);
        }
        if (delta.value > 0.0 && random.uniform01() >= std::exp(-delta.value / temperature))
            continue;
        if (q >= 0) {
            swap(assignment, links, p, q);
        } else {
            --load[assignment[p]];
            ++load[b];
            move(assignment, links, p, b);
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
    int passes = options.maxPasses;
    for (int round = 0; round < rounds && passes > 0; ++round) {
        if (range.isCanceled())
            break;
        range.setProgress(annealShare + (1.0 - annealShare) * round / rounds, round == 0 ? "descent" : "restarts");
        std::vector<int> trial = best;
        // Kicks alternate between small (two swaps) and large (a tenth of the processes).
        if (round > 0)
            perturb(trial, random, round % 2 == 1 ? 2 : kick);
        const double c = descend(trial, range, passes).value;
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
