#pragma once

#include "core/mapping/mapping_problem.h"
#include "core/model/placement.h"

#include <vector>

namespace meridian::mapping {

/// The units a mapper places processes on: sites, or hosts when it maps onto instances as CloudMap does.
/// Holds each unit's room after pins (pinned processes take the first free host of their site) and the
/// latency and inverse bandwidth between units: host links where measured, else the site matrix, and
/// zero inside one host when its own link is not measured.
class PlacementUnits {
public:
    PlacementUnits(const MappingProblem& problem, bool hosts);

    bool hosts() const { return m_hosts; }
    int count() const { return static_cast<int>(m_room.size()); }
    int room(int unit) const { return m_room[unit]; }
    const std::vector<int>& rooms() const { return m_room; }
    int siteOf(int unit) const;
    /// Seconds per message between two units.
    double latencySeconds(int a, int b) const;
    /// Seconds per byte between two units.
    double secondsPerByte(int a, int b) const;
    /// Returns a placement with the pins placed (sites, and hosts in host mode).
    const model::Placement& pinned() const { return m_pinned; }
    /// Builds the placement of `unitOfFree[i]` for free process i (in freeProcesses() order).
    model::Placement place(const std::vector<int>& unitOfFree) const;

private:
    const MappingProblem& m_problem;
    bool m_hosts;
    std::vector<int> m_room;
    model::Placement m_pinned;
};

} // namespace meridian::mapping
