#pragma once

#include "core/partition/partitioner.h"

#include <bit>

namespace meridian::partition {

/// What a streaming partitioner knows while it places edges one by one: each vertex's replica sites (its
/// home from the start), the sites holding an in-edge of it, its master and apply size, and per-site edge
/// loads. 24 bytes per vertex and 1 byte per edge.
class StreamState {
public:
    explicit StreamState(const PartitionProblem& problem);

    std::uint64_t replicas(std::uint32_t v) const { return m_vertex[v].replicas; }
    std::uint64_t inSites(std::uint32_t v) const { return m_vertex[v].inSites; }
    std::uint64_t load(int r) const { return m_load[r]; }
    int master(std::uint32_t v) const { return m_vertex[v].master; }
    float apply(std::uint32_t v) const { return m_vertex[v].apply; }
    bool binds() const { return m_binds; }
    double gather() const { return m_gather; }

    /// Returns the extra gather bytes g_v^r grows by when r takes an in-edge (u, v) (eq. 7).
    double gatherIncrease(std::uint32_t u, std::uint32_t v, int r) const
    {
        const Vertex& x = m_vertex[v];
        if (r == x.master)
            return 0.0;
        if (m_binds)
            return m_vertex[u].apply;
        return (x.inSites >> r & 1) ? 0.0 : m_gather;
    }

    /// Hints that v's data will be read soon (the stream knows its next edges; the rules are bound by
    /// memory latency on random vertices).
    void prefetch(std::uint32_t v) const { __builtin_prefetch(&m_vertex[v]); }

    void place(std::size_t e, std::uint32_t u, std::uint32_t v, int r)
    {
        const std::uint64_t bit = 1ull << r;
        m_edgeSite[e] = static_cast<std::uint8_t>(r);
        m_vertex[u].replicas |= bit;
        m_vertex[v].replicas |= bit;
        m_vertex[v].inSites |= bit;
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

    /// Returns the partition (edge sites, and masters = homes) and releases the per-vertex state; the
    /// stream must be over.
    model::EdgePartition take();
    int siteCount() const { return static_cast<int>(m_load.size()); }

private:
    // Everything the rules read about a vertex, together (one or two cache lines).
    struct Vertex {
        std::uint64_t replicas;
        std::uint64_t inSites;
        float apply;
        std::uint8_t master;
    };
    bool m_binds;
    double m_gather;
    std::vector<Vertex> m_vertex;
    std::vector<std::uint8_t> m_edgeSite;
    std::vector<std::uint64_t> m_load;
};

} // namespace meridian::partition
