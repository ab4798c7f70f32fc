#include "core/mapping/placement_units.h"

#include "core/mapping/host_assignment.h"

#include <cmath>

namespace meridian::mapping {

PlacementUnits::PlacementUnits(const MappingProblem& problem, bool hosts)
    : m_problem(problem)
    , m_hosts(hosts)
    , m_pinned(model::Placement::fromSites(problem.pinnedAssignment()))
{
    const auto& topo = problem.topology();
    if (!hosts) {
        m_room = problem.residualCapacity();
        return;
    }
    m_room.resize(topo.hostCount());
    for (int h = 0; h < topo.hostCount(); ++h)
        m_room[h] = topo.host(h).slots;
    for (int p = 0; p < problem.processCount(); ++p) {
        const int s = problem.pinnedSite()[p];
        if (s < 0)
            continue;
        for (int h = topo.firstHost(s); h < topo.firstHost(s) + topo.hostCountOf(s); ++h)
            if (m_room[h] > 0) {
                m_pinned.host[p] = h;
                --m_room[h];
                break;
            }
    }
}

int PlacementUnits::siteOf(int unit) const { return m_hosts ? m_problem.topology().siteOfHost(unit) : unit; }

double PlacementUnits::latencySeconds(int a, int b) const
{
    if (!m_hosts)
        return m_problem.network().latencyMs(a, b) * 1e-3;
    if (const model::HostLink* link = m_problem.network().hostLink(a, b); link && std::isfinite(link->latencyMs))
        return link->latencyMs * 1e-3;
    return a == b ? 0.0 : m_problem.network().latencyMs(siteOf(a), siteOf(b)) * 1e-3;
}

double PlacementUnits::secondsPerByte(int a, int b) const
{
    if (!m_hosts)
        return 1.0 / (m_problem.network().bandwidthMBps(a, b) * 1e6);
    if (const model::HostLink* link = m_problem.network().hostLink(a, b); link && std::isfinite(link->bandwidthMBps))
        return 1.0 / (link->bandwidthMBps * 1e6);
    return a == b ? 0.0 : 1.0 / (m_problem.network().bandwidthMBps(siteOf(a), siteOf(b)) * 1e6);
}

model::Placement PlacementUnits::place(const std::vector<int>& unitOfFree) const
{
    model::Placement placement = m_pinned;
    const auto& freeProcs = m_problem.freeProcesses();
    for (std::size_t i = 0; i < freeProcs.size(); ++i) {
        placement.site[freeProcs[i]] = siteOf(unitOfFree[i]);
        if (m_hosts)
            placement.host[freeProcs[i]] = unitOfFree[i];
    }
    if (m_hosts)
        numberSlots(placement, m_problem.topology());
    return placement;
}

} // namespace meridian::mapping
