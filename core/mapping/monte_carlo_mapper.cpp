#include "core/mapping/monte_carlo_mapper.h"

#include "core/mapping/simple_mappers.h"

#include <algorithm>
#include <atomic>
#include <limits>

namespace meridian::mapping {

namespace {

constexpr std::int64_t kChunk = 4096;

std::uint64_t chunkSeed(std::uint64_t seed, std::int64_t chunk)
{
    std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(chunk + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Sample counts at which the best-so-far curve is recorded: 1, 2, 5, 10, 20, 50, ... and K itself.
std::vector<std::int64_t> checkpoints(std::int64_t samples)
{
    std::vector<std::int64_t> out;
    for (std::int64_t decade = 1; decade <= samples; decade *= 10)
        for (std::int64_t f : {1, 2, 5})
            if (decade * f <= samples)
                out.push_back(decade * f);
    if (out.empty() || out.back() != samples)
        out.push_back(samples);
    return out;
}

struct ChunkResult {
    double best = std::numeric_limits<double>::infinity();
    std::int64_t bestIndex = -1;
    std::vector<std::pair<std::int64_t, double>> prefixBest; // (checkpoint, best within chunk up to it)
};

/// A worker's best placement so far: lowest cost, ties to the lowest sample index.
struct WorkerBest {
    double cost = std::numeric_limits<double>::infinity();
    std::int64_t index = -1;
    std::vector<int> assignment;

    bool beatenBy(double otherCost, std::int64_t otherIndex) const
    {
        return otherCost < cost || (otherCost == cost && otherIndex < index);
    }
};

/// What the sampling shares between its workers. Chunk c always draws the same samples (its own seed), so
/// the result does not depend on the number of threads or their scheduling.
struct Sampling {
    Sampling(const MappingProblem& problem, std::uint64_t seed, std::int64_t samples, std::int64_t keep)
        : problem(problem)
        , seed(seed)
        , samples(samples)
        , chunks((samples + kChunk - 1) / kChunk)
        , marks(checkpoints(samples))
        , results(static_cast<std::size_t>(chunks))
        , kept(static_cast<std::size_t>(keep))
    {}

    const MappingProblem& problem;
    std::uint64_t seed;
    std::int64_t samples;
    std::int64_t chunks;
    std::vector<std::int64_t> marks;
    std::vector<ChunkResult> results;
    std::vector<double> kept;
    std::atomic<std::int64_t> nextChunk{0};
    std::atomic<std::int64_t> doneChunks{0};
    std::atomic<bool> stop{false};

    /// Draws chunk c's samples into `assignment`, recording costs, checkpoints and the worker's best.
    void sampleChunk(std::int64_t c, RandomSiteSampler sampler, std::vector<int>& assignment, WorkerBest& best)
    {
        Random random(chunkSeed(seed, c));
        ChunkResult& r = results[static_cast<std::size_t>(c)];
        const std::int64_t begin = c * kChunk;
        const std::int64_t end = std::min(samples, begin + kChunk);
        auto mark = std::lower_bound(marks.begin(), marks.end(), begin + 1);
        for (std::int64_t i = begin; i < end; ++i) {
            sampler.draw(assignment, random);
            const double cost = problem.cost().evaluate(assignment);
            if (i < static_cast<std::int64_t>(kept.size()))
                kept[static_cast<std::size_t>(i)] = cost;
            if (cost < r.best) {
                r.best = cost;
                r.bestIndex = i;
                if (best.beatenBy(cost, i))
                    best = WorkerBest{cost, i, assignment};
            }
            while (mark != marks.end() && *mark == i + 1) {
                r.prefixBest.emplace_back(*mark, r.best);
                ++mark;
            }
        }
    }

    /// A worker takes chunks until none is left or the run is canceled.
    void work(bool reportsProgress, WorkerBest& best, const FeedbackRange& range)
    {
        const RandomSiteSampler prototype(problem);
        std::vector<int> assignment = problem.pinnedAssignment();
        while (!stop.load(std::memory_order_relaxed)) {
            const std::int64_t c = nextChunk.fetch_add(1);
            if (c >= chunks)
                break;
            if (range.isCanceled()) {
                stop = true;
                break;
            }
            sampleChunk(c, prototype, assignment, best);
            const std::int64_t done = doneChunks.fetch_add(1) + 1;
            if (reportsProgress)
                range.setProgress(static_cast<double>(done) / static_cast<double>(chunks), "sampling placements");
        }
    }

    /// The best-so-far curve over all chunks in sample order.
    std::vector<std::pair<std::int64_t, double>> bestCurve() const
    {
        std::vector<std::pair<std::int64_t, double>> curve;
        double running = std::numeric_limits<double>::infinity();
        for (const ChunkResult& r : results) {
            for (const auto& [k, best] : r.prefixBest)
                curve.emplace_back(k, std::min(running, best));
            running = std::min(running, r.best);
        }
        return curve;
    }
};

} // namespace

std::vector<ParamSpec> MonteCarloMapper::parameters() const
{
    return {ParamSpec::integer("samples", 100000, 1, 10000000, "Number of random placements K."),
            ParamSpec::integer("keep", 100000, 0, 10000000,
                               "How many sample costs to keep for the CDF (the first ones)."),
            ParamSpec::integer("threads", 0, 0, 256,
                               "Parallel workers; 0 = as many as the cores shared by all runs allow. "
                               "The result does not depend on it.")};
}

Expected<MappingResult> MonteCarloMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                                  std::uint64_t seed, const FeedbackRange& range) const
{
    const std::int64_t samples = values.integer("samples");
    int threads = static_cast<int>(values.integer("threads"));
    if (threads == 0)
        threads = range.executor().concurrency();
    Sampling sampling(problem, seed, samples, std::min(values.integer("keep"), samples));
    threads = static_cast<int>(std::min<std::int64_t>(threads, sampling.chunks));

    // Worker 0 runs on this thread and reports progress; the others run where the executor has room.
    std::vector<WorkerBest> bestOfWorker(threads);
    range.executor().shareWork(threads, [&](int t) { sampling.work(t == 0, bestOfWorker[t], range); });
    if (sampling.stop || range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");

    // Best overall: lowest cost, ties to the lowest sample index (independent of scheduling).
    int bestWorker = 0;
    for (int t = 1; t < threads; ++t)
        if (bestOfWorker[bestWorker].beatenBy(bestOfWorker[t].cost, bestOfWorker[t].index))
            bestWorker = t;
    MappingResult result;
    result.placement = model::Placement::fromSites(std::move(bestOfWorker[bestWorker].assignment));
    result.bestCurve = sampling.bestCurve();
    result.costSamples = std::move(sampling.kept);
    result.notes.push_back("best of " + std::to_string(samples) + " random placements at sample "
                           + std::to_string(bestOfWorker[bestWorker].index + 1));
    return result;
}

} // namespace meridian::mapping
