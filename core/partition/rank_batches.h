#pragma once

#include "core/common/ranks.h"
#include "core/partition/edge_batches.h"
#include "core/partition/vertex_owners.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace meridian::partition::detail {

/// A part's edges (self-loops dropped) as pass 1 read them, kept chunk by chunk: each chunk's pairs are held once,
/// in a vector of their size, and never copied as the part grows (8 bytes per edge). Read back by place in the part.
class PartPairs {
public:
    void add(const std::vector<std::uint32_t>& pairs)
    {
        auto& kept = m_chunks.emplace_back();
        kept.reserve(pairs.size());
        for (std::size_t i = 0; i + 1 < pairs.size(); i += 2)
            if (pairs[i] != pairs[i + 1]) {
                kept.push_back(pairs[i]);
                kept.push_back(pairs[i + 1]);
            }
        m_edges += kept.size() / 2;
        m_ends.push_back(m_edges);
    }
    std::size_t edges() const { return m_edges; }
    /// Calls `put(u, v)` for the edges [place, place + count) of the part, in order.
    template <typename Put>
    void forEach(std::size_t place, std::size_t count, const Put& put) const
    {
        auto c = static_cast<std::size_t>(std::upper_bound(m_ends.begin(), m_ends.end(), place) - m_ends.begin());
        std::size_t start = c == 0 ? 0 : m_ends[c - 1];
        for (std::size_t i = place; i < place + count; ++i) {
            while (i >= m_ends[c])
                start = m_ends[c++];
            const std::size_t j = 2 * (i - start);
            put(m_chunks[c][j], m_chunks[c][j + 1]);
        }
    }
    void clear()
    {
        std::vector<std::vector<std::uint32_t>>().swap(m_chunks);
        std::vector<std::size_t>().swap(m_ends);
        m_edges = 0;
    }

private:
    std::vector<std::vector<std::uint32_t>> m_chunks;
    std::vector<std::size_t> m_ends; ///< the edges up to the end of each chunk
    std::size_t m_edges = 0;
};

/// The owners' records of their vertices in partitionSnapOverRanks: what RankBatches asks about and updates.
struct OwnerRecords {
    const Ranks& ranks;
    const Owners& owners;
    OwnedSlots& owned;
    std::vector<std::uint64_t>& replicas;  ///< by slot: the sites holding the vertex
    std::vector<std::uint64_t>& inSites;   ///< and those holding one of its in-edges
    const std::vector<std::uint8_t>& home; ///< and its home
    double apply = 0.0;                    ///< every vertex's apply size (a combining profile's)
};

/// A stream in batches (EdgeBatches: HDRF's, Geo-Cut's stage 1) over the ranks of partitionSnapOverRanks, each
/// holding a contiguous part of the stream (`edgeCounts`: every rank's edges, in rank order) and the owners' records
/// of their vertices. A block is placed in order by the rank where it starts: the later ranks its edges run on into
/// send it their pieces (tails) and get their sites back. The owners answer with what the rule reads of each vertex
/// at the batch's start (BatchNeeds: replica sites and degree for HDRF, replica and in-edge sites and home for
/// Geo-Cut), then learn the sites gained, in the order they were asked (no second lookup); every rank keeps the
/// loads.
class RankBatches {
public:
    RankBatches(OwnerRecords records, const std::vector<std::uint64_t>& edgeCounts, std::vector<std::uint8_t>& sites)
        : m_ranks(records.ranks)
        , m_owners(records.owners)
        , m_owned(records.owned)
        , m_replicas(records.replicas)
        , m_inSites(records.inSites)
        , m_home(records.home)
        , m_apply(records.apply)
        , m_edgeCounts(edgeCounts)
        , m_sites(sites)
        , m_degree(records.owned.size(), 0)
    {}

    /// Places batch k of `schedule`: this rank's blocks gather their tails, ask the owners of their vertices for
    /// their state at the batch's start, are placed in order, and send the tails' sites back. Collective.
    void place(const EdgeBatches& schedule, std::uint64_t k, const PartPairs& pairs, BlockPlacer& block,
               SiteLoads& loads);

    /// Whether an owner knew none of a vertex asked about (the file changed under the ranks).
    bool unknownAsked() const { return m_unknownAsked; }

private:
    /// The blocks of a batch that start in this rank's part (EdgeBatches), with the ends of them that the
    /// next ranks hold (tails), which those ranks send here: a block is placed in order by one rank.
    struct Block {
        std::uint64_t begin = 0;          ///< where it starts in the stream
        std::vector<std::uint32_t> pairs; ///< its edges in order: this rank's, then the tails
        std::size_t own = 0;              ///< how many are this rank's
        std::size_t place = 0;            ///< the place of the first in the part
        std::vector<std::uint8_t> sites;
    };
    /// A tail, as its block's rank received it (`rank` sent it, `at` is its first edge's place in the block) or as
    /// its rank sent it (to `rank`, `at` is its first edge's place in the part).
    struct Tail {
        std::size_t rank = 0, block = 0, at = 0, count = 0;
    };

    /// The rank whose part holds edge `e` of the stream.
    std::size_t rankOfEdge(std::uint64_t e) const;

    /// Places a batch's blocks: their vertices' owners answer with what the rule reads of each one at the batch's
    /// start, each block is placed in order (`block`), the owners learn the sites and degrees gained, and every rank
    /// the loads.
    void placeBlocks(std::vector<Block>& blocks, BlockPlacer& block, SiteLoads& loads);
    /// The owners' side of placeBlocks: turns what each rank asked (vertex ids) into its answers (`needs`), in place,
    /// and keeps the slots asked about ...
    void answer(std::vector<std::string>& asked, BatchNeeds needs);
    /// ... for the sites the vertices gained, a code per vertex asked (kNoHome: none).
    void learn(const std::vector<std::string>& codes);

    const Ranks& m_ranks;
    const Owners& m_owners;
    OwnedSlots& m_owned;
    std::vector<std::uint64_t>& m_replicas;
    std::vector<std::uint64_t>& m_inSites;
    const std::vector<std::uint8_t>& m_home;
    double m_apply;
    const std::vector<std::uint64_t>& m_edgeCounts;
    std::vector<std::uint8_t>& m_sites;                   ///< the site of each edge of the part
    std::vector<std::uint32_t> m_degree;                  ///< by slot: the edges placed so far
    std::vector<std::vector<std::uint32_t>> m_askedSlots; ///< the slots each rank asked about in a batch, in order
    std::vector<std::uint16_t> m_endOwners;               ///< a batch's endpoints' owners, in the order asked
    bool m_unknownAsked = false;
};

} // namespace meridian::partition::detail
