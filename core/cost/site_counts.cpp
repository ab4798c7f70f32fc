#include "core/cost/site_counts.h"

namespace meridian::cost {

SiteCounts::SiteCounts(std::uint32_t vertices, int sites)
    : m_sites(sites)
    , m_cells(static_cast<std::size_t>(vertices) * sites)
    , m_wide(vertices, 0)
{}

void SiteCounts::addVertex()
{
    m_cells.resize(m_cells.size() + m_sites);
    m_wide.push_back(0);
}

void SiteCounts::widen(std::uint32_t v)
{
    const std::size_t row = m_wideRows.size() / (2 * static_cast<std::size_t>(m_sites));
    for (int r = 0; r < m_sites; ++r) {
        Cell& c = m_cells[index(v, r)];
        m_wideRows.push_back(c.all);
        m_wideRows.push_back(c.in);
        c = Cell{};
    }
    m_cells[index(v, 0)] = Cell{static_cast<std::uint16_t>(row & 0xFFFF), static_cast<std::uint16_t>(row >> 16)};
    m_wide[v] = 1;
}

} // namespace meridian::cost
