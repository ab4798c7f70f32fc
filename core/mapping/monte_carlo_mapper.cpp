#include "core/mapping/monte_carlo_mapper.h"

#include "core/common/ranks.h"
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

/// What the sampling shares between its workers: the chunks of this rank's share. Chunk c always draws the same
/// samples (its own seed), so the result does not depend on the number of threads, their scheduling or the ranks.
struct Sampling {
    Sampling(const MappingProblem& problem, std::uint64_t seed, std::int64_t samples, std::int64_t keep, Share share)
        : problem(problem)
        , seed(seed)
        , samples(samples)
        , share(share)
        , marks(checkpoints(samples))
        , results(static_cast<std::size_t>(share.end - share.begin))
        , keptBegin(std::min(keep, share.begin * kChunk))
        , kept(static_cast<std::size_t>(std::min(keep, share.end * kChunk) - keptBegin))
        , nextChunk(share.begin)
    {}

    const MappingProblem& problem;
    std::uint64_t seed;
    std::int64_t samples;
    Share share; ///< the chunks this rank draws
    std::vector<std::int64_t> marks;
    std::vector<ChunkResult> results; ///< of the share's chunks, in order
    std::int64_t keptBegin;           ///< the first sample whose cost `kept` holds
    std::vector<double> kept;         ///< the costs of the first `keep` samples that fall in the share
    std::atomic<std::int64_t> nextChunk;
    std::atomic<std::int64_t> doneChunks{0};
    std::atomic<bool> stop{false};

    /// Draws chunk c's samples into `assignment`, recording costs, checkpoints and the worker's best.
    void sampleChunk(std::int64_t c, RandomSiteSampler sampler, std::vector<int>& assignment, WorkerBest& best)
    {
        Random random(chunkSeed(seed, c));
        ChunkResult& r = results[static_cast<std::size_t>(c - share.begin)];
        const std::int64_t begin = c * kChunk;
        const std::int64_t end = std::min(samples, begin + kChunk);
        const std::int64_t keptEnd = keptBegin + static_cast<std::int64_t>(kept.size());
        auto mark = std::lower_bound(marks.begin(), marks.end(), begin + 1);
        for (std::int64_t i = begin; i < end; ++i) {
            sampler.draw(assignment, random);
            const double cost = problem.cost().evaluate(assignment);
            if (i < keptEnd)
                kept[static_cast<std::size_t>(i - keptBegin)] = cost;
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
        const std::int64_t count = share.end - share.begin;
        while (!stop.load(std::memory_order_relaxed)) {
            const std::int64_t c = nextChunk.fetch_add(1);
            if (c >= share.end)
                break;
            if (range.isCanceled()) {
                stop = true;
                break;
            }
            sampleChunk(c, prototype, assignment, best);
            const std::int64_t done = doneChunks.fetch_add(1) + 1;
            if (reportsProgress)
                range.setProgress(static_cast<double>(done) / static_cast<double>(count), "sampling placements");
        }
    }

    /// What rank 0 needs of this rank's share: its chunks' results, its kept costs and its best placement.
    std::string pack(const WorkerBest& best) const
    {
        Packer out;
        out.put<std::uint64_t>(results.size());
        for (const ChunkResult& r : results) {
            out.put(r.best);
            out.put(r.bestIndex);
            out.putVector(r.prefixBest);
        }
        out.putVector(kept);
        out.put(best.cost);
        out.put(best.index);
        out.putVector(best.assignment);
        return std::move(out.bytes());
    }
    /// On rank 0: appends another rank's share (in rank order) and keeps the better placement.
    void unpack(std::string_view bytes, WorkerBest& best)
    {
        Unpacker in(bytes);
        const auto count = in.get<std::uint64_t>();
        for (std::uint64_t k = 0; k < count; ++k) {
            ChunkResult r;
            r.best = in.get<double>();
            r.bestIndex = in.get<std::int64_t>();
            r.prefixBest = in.getVector<std::pair<std::int64_t, double>>();
            results.push_back(std::move(r));
        }
        const auto costs = in.getVector<double>();
        kept.insert(kept.end(), costs.begin(), costs.end());
        const double cost = in.get<double>();
        const auto index = in.get<std::int64_t>();
        auto assignment = in.getVector<int>();
        if (best.beatenBy(cost, index))
            best = WorkerBest{cost, index, std::move(assignment)};
    }

    /// The best-so-far curve over all chunks in sample order (on rank 0, once every share is in).
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
    return {ParamSpec::integer("samples", 100000, 1, 10000000000, "Number of random placements K."),
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
    const std::int64_t chunks = (samples + kChunk - 1) / kChunk;
    const Ranks& ranks = range.ranks();
    int threads = static_cast<int>(values.integer("threads"));
    if (threads == 0)
        threads = range.executor().concurrency();
    Sampling sampling(problem, seed, samples, std::min(values.integer("keep"), samples),
                      shareOf(chunks, ranks.rank(), ranks.size()));
    threads = static_cast<int>(std::clamp<std::int64_t>(sampling.share.end - sampling.share.begin, 1, threads));

    // Worker 0 runs on this thread and reports progress; the others run where the executor has room.
    std::vector<WorkerBest> bestOfWorker(threads);
    range.executor().shareWork(threads, [&](int t) { sampling.work(t == 0, bestOfWorker[t], range); });
    Status local;
    if (sampling.stop || range.isCanceled())
        local = makeError(ErrorCode::Canceled, "canceled");
    if (auto agreed = agreeOn(ranks, local); !agreed)
        return agreed.error();

    // Best overall: lowest cost, ties to the lowest sample index (independent of scheduling and of the ranks).
    WorkerBest best = std::move(bestOfWorker[0]);
    for (int t = 1; t < threads; ++t)
        if (best.beatenBy(bestOfWorker[t].cost, bestOfWorker[t].index))
            best = std::move(bestOfWorker[t]);
    // Rank 0 takes the other ranks' shares in rank order, which is sample order; every rank gets the best placement.
    const auto shares = ranks.gather(ranks.isRoot() ? std::string() : sampling.pack(best));
    for (std::size_t r = 1; r < shares.size(); ++r)
        sampling.unpack(shares[r], best);
    Packer chosen;
    chosen.put(best.index);
    chosen.putVector(best.assignment);
    ranks.broadcast(chosen.bytes());
    Unpacker in(chosen.bytes());
    best.index = in.get<std::int64_t>();
    best.assignment = in.getVector<int>();

    MappingResult result;
    result.placement = model::Placement::fromSites(std::move(best.assignment));
    if (ranks.isRoot()) {
        result.bestCurve = sampling.bestCurve();
        result.costSamples = std::move(sampling.kept);
    }
    result.notes.push_back("best of " + std::to_string(samples) + " random placements at sample "
                           + std::to_string(best.index + 1));
    return result;
}

} // namespace meridian::mapping
