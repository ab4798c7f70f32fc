#include "core/mapping/search_portfolio.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>

namespace meridian::mapping {

namespace {

using Clock = std::chrono::steady_clock;

/// The best cost over all searches so far, and the curve of its improvements.
class BestSoFar {
public:
    BestSoFar(double startCost, const FeedbackRange& range)
        : m_range(range)
        , m_t0(Clock::now())
        , m_best(startCost)
    {
        m_curve.emplace_back(0.0, startCost);
        range.setBest(startCost);
    }

    void offer(double cost)
    {
        std::lock_guard lock(m_mutex);
        if (!(cost < m_best))
            return;
        m_best = cost;
        m_curve.emplace_back(std::chrono::duration<double>(Clock::now() - m_t0).count(), cost);
        m_range.setBest(cost);
    }

    std::vector<std::pair<double, double>> takeCurve() { return std::move(m_curve); }

private:
    const FeedbackRange& m_range;
    Clock::time_point m_t0;
    std::mutex m_mutex;
    double m_best;
    std::vector<std::pair<double, double>> m_curve;
};

std::uint64_t searchSeed(std::uint64_t seed, int k)
{
    return (seed ^ 0x5bd1e995ULL) + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(k);
}

} // namespace

PortfolioResult runPortfolio(const SearchCost& cost, const std::vector<int>& capacity, const std::vector<bool>& movable,
                             const std::vector<int>& start, const PortfolioOptions& options, std::uint64_t seed,
                             const FeedbackRange& range)
{
    const int searches = std::max(1, options.searches);
    const double startCost = cost.evaluate(start).value;
    BestSoFar best(startCost, range);

    // The searches stop at the caller's cancel or at the deadline; the deadline is not an error.
    const auto deadline = options.timeLimitSeconds > 0.0 ? Clock::now()
            + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.timeLimitSeconds))
                                                         : Clock::time_point::max();
    std::atomic<bool> timedOut{false};
    const Feedback inner({}, [&] {
        if (range.isCanceled())
            return true;
        if (deadline != Clock::time_point::max() && Clock::now() >= deadline) {
            timedOut.store(true, std::memory_order_relaxed);
            return true;
        }
        return false;
    });
    const FeedbackRange innerRange(inner, 0.0, 1.0);

    std::vector<std::vector<int>> results(searches);
    std::vector<double> costs(searches, std::numeric_limits<double>::infinity());
    std::atomic<int> next{0};
    std::atomic<int> done{0};
    const auto worker = [&](int) {
        const LocalSearch search(cost, capacity, movable);
        for (int k = next.fetch_add(1); k < searches && !inner.isCanceled(); k = next.fetch_add(1)) {
            LocalSearchOptions local = k == 0 ? options.descent : options.annealing;
            local.onBest = [&best](double c) { best.offer(c); };
            Random random(searchSeed(seed, k));
            results[k] = start;
            costs[k] = search.run(results[k], local, random, innerRange);
            range.setProgress(static_cast<double>(done.fetch_add(1) + 1) / searches, "independent searches");
        }
    };
    const int workers = std::min(searches, range.executor().concurrency());
    range.executor().shareWork(workers, worker);

    PortfolioResult result;
    result.assignment = start;
    result.cost = startCost;
    for (int k = 0; k < searches; ++k)
        if (costs[k] < result.cost) {
            result.cost = costs[k];
            result.assignment = std::move(results[k]);
            result.winner = k;
        }
    result.timedOut = timedOut.load();
    result.curve = best.takeCurve();
    return result;
}

} // namespace meridian::mapping
