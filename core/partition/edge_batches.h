#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/cost/gas_cost.h"
#include "core/model/graph.h"
#include "core/partition/geo_cut_rule.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace meridian::partition {

/// HDRF's choice for one edge (Petroni et al.): the site maximising C_REP + lambda C_BAL, from the endpoints'
/// partial degrees (this edge counted), their replica sites and the sites' edge loads (with their largest and
/// smallest). Ties go to the lower site. Outside the endpoints' replicas only the balance term counts, below lambda;
/// inside, C_REP alone is above 1 (every vertex holds its home), so with lambda <= 1 an outside site never wins.
/// Otherwise only the least loaded outside site (lowest index on ties) can. The sequential rule and the batched one
/// (EdgeBatches) both call it, so they differ only in what they know when an edge is placed.
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

/// A stream in batches (HDRF's, or Geo-Cut's stage 1): the order in which its edges are placed when several ranks
/// place them at once, with a result that depends on the batch size only, never on how many ranks share the work. The edges, numbered in
/// stream order from 0 (self-loops dropped), are cut into 64 stretches of ceil(E / 64) edges (the last ones shorter,
/// or empty when E is small), and each stretch into blocks of `block` = ceil(batch / 64) edges (at least 1); batch k
/// is block k of every stretch. The blocks of a batch are placed side by side (BlockPlacer): each edge in order within
/// its block, from the state the earlier batches left and what its block's earlier edges added, nothing of the
/// batch's other blocks. A rank holding a contiguous part of the stream has work in every batch whose blocks meet
/// its part (every batch when its part spans a stretch or more); a file's runs of edges of one vertex (files sorted
/// by source or target) stay together in a block, as a stream one edge at a time sees them.
class EdgeBatches {
public:
    static constexpr std::uint64_t kStretches = 64;

    EdgeBatches(std::uint64_t edges, std::uint64_t batch)
        : m_edges(edges)
        , m_stretch((edges + kStretches - 1) / kStretches)
        , m_block(std::max<std::uint64_t>(1, (batch + kStretches - 1) / kStretches))
    {}

    std::uint64_t batches() const { return m_stretch == 0 ? 0 : (m_stretch + m_block - 1) / m_block; }
    /// The most edges a batch places: a block from each stretch.
    std::uint64_t batchEdges() const { return kStretches * m_block; }
    /// What a run's notes say of the schedule; `what` is what ran in batches ("HDRF"), `splits` whether the run is
    /// the partition meridian-cli gives over ranks (not when a later stage changes it in one process).
    std::string note(const std::string& what, bool splits = true) const
    {
        return what + " in " + std::to_string(batches()) + " batches of up to " + std::to_string(batchEdges())
            + " edges"
            + (splits ? ": the partition meridian-cli gives over any number of MPI ranks"
                      : ", then refined in one process by the later stages (without them it splits over MPI ranks)");
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

/// The sites' edge loads with their largest and smallest, as a batch of EdgeBatches starts from them.
struct SiteLoads {
    std::vector<std::uint64_t> load;
    std::uint64_t maxLoad = 0, minLoad = 0;

    explicit SiteLoads(int sites)
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

/// What a block knows of an edge's endpoint when its batch started: its replica sites, the sites holding one of its
/// in-edges, its edges placed so far, its home (its master's site) and its apply size. A rule reads what it needs
/// (BatchNeeds): the others may be left at zero.
struct BatchVertex {
    std::uint64_t replicas = 0;
    std::uint64_t inSites = 0;
    std::uint32_t degree = 0;
    int home = 0;
    double apply = 0.0;
};

/// What a batched rule reads of a vertex beyond its replica sites: HDRF its degree, Geo-Cut its in-edge sites and
/// home (and apply size, the same for every vertex under a combining profile).
enum class BatchNeeds { Degrees, InSitesAndHomes };

/// One block of EdgeBatches placed in order: each edge from the endpoints' state when the batch started (which the
/// caller looks up) and what the block's earlier edges added to them (replica and in-edge sites, degrees) and to the
/// loads. The block's vertices are kept in a small table, keyed by any id that names one vertex. The rule that
/// chooses a site is the subclass's: HdrfBlock, GeoCutBlock.
class BlockPlacer {
public:
    virtual ~BlockPlacer() = default;
    virtual BatchNeeds needs() const = 0;

    /// Starts a block of at most `edges` edges from the batch's loads.
    void start(const SiteLoads& batch, std::size_t edges);
    /// Places the next edge (u, v), whose endpoints were `a` and `b` when the batch started; returns its site.
    int place(std::uint32_t u, const BatchVertex& a, std::uint32_t v, const BatchVertex& b);

protected:
    /// The site for an edge between `a` and `b` (their degrees counting the edge), from the block's loads.
    virtual int choose(const BatchVertex& a, const BatchVertex& b, const SiteLoads& loads) const = 0;

private:
    struct Entry {
        std::uint32_t key = 0;
        std::uint32_t stamp = 0; ///< the block that wrote it (stale entries are free)
        BatchVertex vertex;
    };
    Entry& entry(std::uint32_t key, const BatchVertex& vertex);

    SiteLoads m_loads{0};
    int m_atMin = 0; ///< sites at the least load
    std::vector<Entry> m_table;
    std::uint32_t m_stamp = 0;
    int m_shift = 32;
};

/// HDRF's rule in a block (hdrfChoice).
class HdrfBlock final : public BlockPlacer {
public:
    explicit HdrfBlock(double lambda)
        : m_lambda(lambda)
    {}
    BatchNeeds needs() const override { return BatchNeeds::Degrees; }

protected:
    int choose(const BatchVertex& a, const BatchVertex& b, const SiteLoads& loads) const override
    {
        return hdrfChoice(m_lambda, a.degree, b.degree, a.replicas, b.replicas, loads.load, loads.maxLoad,
                          loads.minLoad);
    }

private:
    double m_lambda;
};

/// Geo-Cut's stage 1 (cost-aware streaming, geoCutChoice) in a block, each vertex's master at its home.
class GeoCutBlock final : public BlockPlacer {
public:
    GeoCutBlock(std::vector<double> usdPerByte, double gather, bool binds)
        : m_price(std::move(usdPerByte))
        , m_gather(gather)
        , m_binds(binds)
    {}
    BatchNeeds needs() const override { return BatchNeeds::InSitesAndHomes; }

protected:
    int choose(const BatchVertex& a, const BatchVertex& b, const SiteLoads& loads) const override
    {
        return geoCutChoice(m_price, m_gather, m_binds, {a.replicas, a.inSites, a.home, a.apply},
                            {b.replicas, b.inSites, b.home, b.apply},
                            [&](int r) { return loads.load[static_cast<std::size_t>(r)]; });
    }

private:
    std::vector<double> m_price;
    double m_gather;
    bool m_binds;
};

/// The rule of `algorithm` in batches: HDRF's (`lambda`) or Geo-Cut's stage 1 (the network's prices, `sizes`' gather
/// and binding); none for any other algorithm.
std::unique_ptr<BlockPlacer> makeBlockPlacer(const std::string& algorithm, const ParamValues& values,
                                             const cost::GasNetwork& network, const cost::VertexSizes& sizes);

/// A stream in batches (EdgeBatches) over a graph held in memory, its edges in their order: the sites of its edges,
/// placed by `block`'s rule. `home` gives each vertex's first replica (and master), `apply` its apply size (read by
/// Geo-Cut's rule alone). `meridian-cli partition` over ranks gives the same sites.
Expected<std::vector<std::uint8_t>> placeInBatches(const model::Graph& graph, const std::vector<std::uint8_t>& home,
                                                   const std::vector<float>& apply, int sites, std::uint64_t batch,
                                                   BlockPlacer& block, const FeedbackRange& range);

} // namespace meridian::partition
