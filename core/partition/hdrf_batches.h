#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/graph.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace meridian::partition {

/// HDRF's choice for one edge (Petroni et al.): the site maximising C_REP + lambda C_BAL, from the endpoints'
/// partial degrees (this edge counted), their replica sites and the sites' edge loads (with their largest and
/// smallest). Ties go to the lower site. Outside the endpoints' replicas only the balance term counts, below lambda;
/// inside, C_REP alone is above 1 (every vertex holds its home), so with lambda <= 1 an outside site never wins.
/// Otherwise only the least loaded outside site (lowest index on ties) can. The sequential rule and the batched one
/// (HdrfBatches) both call it, so they differ only in what they know when an edge is placed.
inline int hdrfChoice(double lambda, double du, double dv, std::uint64_t ru, std::uint64_t rv,
                      const std::vector<std::uint64_t>& load, std::uint64_t maxLoad, std::uint64_t minLoad)
{
    const double thetaU = du / (du + dv), thetaV = 1.0 - thetaU;
    std::uint64_t candidates = ru | rv;
    if (lambda > 1.0) {
        int least = -1;
        for (int r = 0; r < static_cast<int>(load.size()); ++r)
            if (!(candidates >> r & 1)
                && (least < 0 || load[static_cast<std::size_t>(r)] < load[static_cast<std::size_t>(least)]))
                least = r;
        candidates |= least < 0 ? 0 : 1ull << least;
    }
    const double scale = lambda / (1.0 + static_cast<double>(maxLoad - minLoad));
    int best = 0;
    double bestScore = -1.0;
    for (; candidates; candidates &= candidates - 1) {
        const int r = std::countr_zero(candidates);
        double score = static_cast<double>(maxLoad - load[static_cast<std::size_t>(r)]) * scale;
        if (ru >> r & 1)
            score += 2.0 - thetaU;
        if (rv >> r & 1)
            score += 2.0 - thetaV;
        if (score > bestScore) {
            bestScore = score;
            best = r;
        }
    }
    return best;
}

/// HDRF in batches: the order in which a stream's edges are placed when several ranks place them at once, with a
/// result that depends on the batch size only, never on how many ranks share the work. The edges, numbered in
/// stream order from 0 (self-loops dropped), are cut into 64 stretches of ceil(E / 64) edges (the last ones shorter,
/// or empty when E is small), and each stretch into blocks of `block` = ceil(batch / 64) edges (at least 1); batch k
/// is block k of every stretch. The blocks of a batch are placed side by side (HdrfBlock): each edge in order within
/// its block, from the state the earlier batches left and what its block's earlier edges added, nothing of the
/// batch's other blocks. A rank holding a contiguous part of the stream has work in every batch whose blocks meet
/// its part (every batch when its part spans a stretch or more); a file's runs of edges of one vertex (files sorted
/// by source or target) stay together in a block, as HDRF one edge at a time sees them.
class HdrfBatches {
public:
    static constexpr std::uint64_t kStretches = 64;

    HdrfBatches(std::uint64_t edges, std::uint64_t batch)
        : m_edges(edges)
        , m_stretch((edges + kStretches - 1) / kStretches)
        , m_block(std::max<std::uint64_t>(1, (batch + kStretches - 1) / kStretches))
    {}

    std::uint64_t batches() const { return m_stretch == 0 ? 0 : (m_stretch + m_block - 1) / m_block; }
    /// The most edges a batch places: a block from each stretch.
    std::uint64_t batchEdges() const { return kStretches * m_block; }
    /// What a run's notes say of the schedule.
    std::string note() const
    {
        return "HDRF in " + std::to_string(batches()) + " batches of up to " + std::to_string(batchEdges())
            + " edges: the partition meridian-cli gives over any number of MPI ranks";
    }

    /// Calls `run(begin, end, blockBegin)` for the edges [begin, end) of each block of batch k within [first, last),
    /// in stream order; blockBegin is where the block starts, before `first` when the block starts before it.
    template <typename Run>
    void forEachRun(std::uint64_t k, std::uint64_t first, std::uint64_t last, const Run& run) const
    {
        if (m_stretch == 0)
            return;
        for (std::uint64_t s = first / m_stretch; s < kStretches && s * m_stretch < last; ++s) {
            const std::uint64_t blockBegin = s * m_stretch + k * m_block;
            const std::uint64_t begin = std::max(first, blockBegin);
            const std::uint64_t end = std::min({last, m_edges, (s + 1) * m_stretch, blockBegin + m_block});
            if (begin < end)
                run(begin, end, blockBegin);
        }
    }

private:
    std::uint64_t m_edges, m_stretch, m_block;
};

/// The sites' edge loads with their largest and smallest, as a batch of HdrfBatches starts from them.
struct HdrfLoads {
    std::vector<std::uint64_t> load;
    std::uint64_t maxLoad = 0, minLoad = 0;

    explicit HdrfLoads(int sites)
        : load(static_cast<std::size_t>(sites), 0)
    {}
    /// Adds a batch's edges per site.
    void add(const std::vector<std::uint64_t>& placed)
    {
        for (std::size_t r = 0; r < load.size(); ++r)
            load[r] += placed[r];
        maxLoad = *std::max_element(load.begin(), load.end());
        minLoad = *std::min_element(load.begin(), load.end());
    }
};

/// One block of HdrfBatches placed in order: each edge from the endpoints' state when the batch started (their
/// replica sites and degrees, which the caller looks up) and what the block's earlier edges added to them and to
/// the loads. The block's vertices are kept in a small table, keyed by any id that names one vertex.
class HdrfBlock {
public:
    explicit HdrfBlock(double lambda)
        : m_lambda(lambda)
        , m_loads(0)
    {}

    /// Starts a block of at most `edges` edges from the batch's loads.
    void start(const HdrfLoads& batch, std::size_t edges);
    /// Places the next edge (u, v), whose endpoints had the replica sites ru, rv and degrees du, dv when the batch
    /// started; returns its site.
    int place(std::uint32_t u, std::uint64_t ru, std::uint32_t du, std::uint32_t v, std::uint64_t rv, std::uint32_t dv);

private:
    struct Entry {
        std::uint32_t key = 0;
        std::uint32_t stamp = 0; ///< the block that wrote it (stale entries are free)
        std::uint64_t replicas = 0;
        std::uint32_t degree = 0;
    };
    Entry& entry(std::uint32_t key, std::uint64_t replicas, std::uint32_t degree);

    double m_lambda;
    HdrfLoads m_loads;
    int m_atMin = 0; ///< sites at the least load
    std::vector<Entry> m_table;
    std::uint32_t m_stamp = 0;
    int m_shift = 32;
};

/// HDRF in batches (HdrfBatches) over a graph held in memory, its edges in their order: the sites of its edges.
/// `home` gives each vertex's first replica. `meridian-cli partition` over ranks gives the same sites.
Expected<std::vector<std::uint8_t>> placeHdrfInBatches(const model::Graph& graph, const std::vector<std::uint8_t>& home,
                                                       int sites, double lambda, std::uint64_t batch,
                                                       const FeedbackRange& range);

} // namespace meridian::partition
