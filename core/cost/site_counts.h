#pragma once

#include <cstdint>
#include <vector>

namespace meridian::cost {

/// For every (vertex, site): how many of the vertex's edges, and of its in-edges, the site holds. Two 16-bit
/// counters per pair, side by side, so a vertex's row over M sites is 4M bytes (a cache line at 16 sites) and a
/// graph of V vertices needs 4 V M bytes. A vertex whose count at a site would reach 2^16 - 1 is moved to a row of
/// 32-bit counters kept apart (power-law hubs; rare, at most 2^32 of them), flagged in one byte per vertex.
class SiteCounts {
public:
    SiteCounts(std::uint32_t vertices, int sites);

    std::uint32_t all(std::uint32_t v, int r) const
    {
        if (m_wide[v]) [[unlikely]]
            return m_wideRows[wideAt(v, r)];
        return m_cells[index(v, r)].all;
    }
    std::uint32_t in(std::uint32_t v, int r) const
    {
        if (m_wide[v]) [[unlikely]]
            return m_wideRows[wideAt(v, r) + 1];
        return m_cells[index(v, r)].in;
    }
    /// Adds `all` and `in` (each -1, 0 or +1; a count never goes below 0) to (v, r).
    void add(std::uint32_t v, int r, int all, int in) { change(v, r, all, in); }
    /// The counts at (v, r) before a change.
    struct Before {
        std::uint32_t all, in;
    };
    /// Adds `all` and `in` to (v, r) as add() does, and returns the counts it found there.
    Before change(std::uint32_t v, int r, int all, int in)
    {
        if (!m_wide[v]) [[likely]] {
            Cell& c = m_cells[index(v, r)];
            const Before before{c.all, c.in};
            if (c.all < kNarrowLimit - 1 || all <= 0) {
                c.all = static_cast<std::uint16_t>(c.all + all);
                c.in = static_cast<std::uint16_t>(c.in + in);
                return before;
            }
            widen(v);
        }
        const std::size_t i = wideAt(v, r);
        const Before before{m_wideRows[i], m_wideRows[i + 1]};
        m_wideRows[i] += static_cast<std::uint32_t>(all);
        m_wideRows[i + 1] += static_cast<std::uint32_t>(in);
        return before;
    }
    /// Loads v's row into the caches ahead of use (graph order is random to the counts).
    void prefetch(std::uint32_t v, bool write) const
    {
        const char* row = reinterpret_cast<const char*>(m_cells.data() + index(v, 0));
        if (write) {
            __builtin_prefetch(row, 1);
            __builtin_prefetch(row + 4 * static_cast<std::ptrdiff_t>(m_sites) - 1, 1);
        } else {
            __builtin_prefetch(row);
            __builtin_prefetch(row + 4 * static_cast<std::ptrdiff_t>(m_sites) - 1);
        }
        __builtin_prefetch(m_wide.data() + v);
    }
    /// Appends a vertex with no edges (dynamic graphs).
    void addVertex();
    /// Moves v's counts to a wide row now (a vertex that may pass 2^16 edges on a site), so that no later add
    /// widens it; not while others read or write counts.
    void widenNow(std::uint32_t v)
    {
        if (!m_wide[v])
            widen(v);
    }
    static constexpr std::uint32_t kNarrowLimit = 0xFFFF;

private:
    struct Cell {
        std::uint16_t all = 0, in = 0;
    };

    std::size_t index(std::uint32_t v, int r) const { return static_cast<std::size_t>(v) * m_sites + r; }
    /// A wide vertex's row number is kept in its (otherwise unused) first narrow cell.
    std::size_t wideAt(std::uint32_t v, int r) const
    {
        const Cell& c = m_cells[index(v, 0)];
        const std::size_t row = c.all | static_cast<std::size_t>(c.in) << 16;
        return row * 2 * m_sites + 2 * static_cast<std::size_t>(r);
    }
    /// Moves v's counts to a wide row.
    void widen(std::uint32_t v);

    int m_sites;
    std::vector<Cell> m_cells;
    std::vector<std::uint8_t> m_wide;
    std::vector<std::uint32_t> m_wideRows; ///< per wide vertex, per site: all, in
};

} // namespace meridian::cost
