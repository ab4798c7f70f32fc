#pragma once

#include "core/partition/partitioner.h"

#include <bit>

namespace meridian::partition {

/// What a streaming partitioner knows while it places edges one by one: each vertex's replica sites (its
/// home from the start), the sites holding an in-edge of it, partial degrees and per-site edge loads.
/// 8 + 8 + 4 bytes per vertex and 1 byte per edge.
class StreamState {
public:
    explicit StreamState(const PartitionProblem& problem);

    std::uint64_t replicas(std::uint32_t v) const { return m_replicas[v]; }
    std::uint64_t inSites(std::uint32_t v) const { return m_inSites[v]; }
    std::uint32_t degree(std::uint32_t v) const { return m_degree[v]; }
    std::uint64_t load(int r) const { return m_load[r]; }
    int master(std::uint32_t v) const { return m_partition.masterSite[v]; }

    /// Returns the extra gather bytes g_v^r grows by when r takes an in-edge (u, v) (eq. 7).
    double gatherIncrease(std::uint32_t u, std::uint32_t v, int r) const
    {
        if (r == master(v))
            return 0.0;
        if (m_sizes.binds)
            return m_sizes.apply[u];
        return (m_inSites[v] >> r & 1) ? 0.0 : m_sizes.gather;
    }

    /// Counts edge (u, v) as seen (for partial degrees) before a choice is made.
    void see(std::uint32_t u, std::uint32_t v)
    {
        ++m_degree[u];
        ++m_degree[v];
    }

    void place(std::size_t e, std::uint32_t u, std::uint32_t v, int r)
    {
        const std::uint64_t bit = 1ull << r;
        m_partition.edgeSite[e] = static_cast<std::uint8_t>(r);
        m_replicas[u] |= bit;
        m_replicas[v] |= bit;
        m_inSites[v] |= bit;
        ++m_load[r];
    }

    /// Returns the site of `mask` with the least load (ties to the lower index); mask must be non-zero.
    int leastLoaded(std::uint64_t mask) const
    {
        int best = -1;
        for (; mask; mask &= mask - 1) {
            const int r = std::countr_zero(mask);
            if (best < 0 || m_load[r] < m_load[best])
                best = r;
        }
        return best;
    }

    model::EdgePartition take() { return std::move(m_partition); }
    int siteCount() const { return static_cast<int>(m_load.size()); }

private:
    const cost::VertexSizes& m_sizes;
    model::EdgePartition m_partition;
    std::vector<std::uint64_t> m_replicas;
    std::vector<std::uint64_t> m_inSites;
    std::vector<std::uint32_t> m_degree;
    std::vector<std::uint64_t> m_load;
};

} // namespace meridian::partition
