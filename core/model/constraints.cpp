#include "core/model/constraints.h"

#include <algorithm>
#include <string>

namespace meridian::model {

Expected<Constraints> Constraints::fromPins(std::vector<Pin> pins)
{
    std::sort(pins.begin(), pins.end(), [](const Pin& a, const Pin& b) { return a.process < b.process; });
    for (std::size_t k = 0; k < pins.size(); ++k) {
        if (pins[k].process < 0)
            return makeError(ErrorCode::InvalidInput, "process ids must not be negative");
        if (k > 0 && pins[k].process == pins[k - 1].process)
            return makeError(ErrorCode::InvalidInput, "process " + std::to_string(pins[k].process) + " is pinned twice");
    }
    Constraints c;
    c.m_pins = std::move(pins);
    return c;
}

std::vector<int> Constraints::siteVector(int processCount) const
{
    std::vector<int> v(processCount, -1);
    for (const auto& p : m_pins)
        if (p.process < processCount)
            v[p.process] = p.site;
    return v;
}

Status Constraints::validate(int processCount, const Topology& topology) const
{
    std::vector<int> perSite(topology.siteCount(), 0);
    for (const auto& p : m_pins) {
        if (p.process >= processCount)
            return makeError(ErrorCode::InvalidInput,
                             "process " + std::to_string(p.process) + " is pinned but the application has only "
                                 + std::to_string(processCount) + " processes");
        if (p.site < 0 || p.site >= topology.siteCount())
            return makeError(ErrorCode::InvalidInput,
                             "process " + std::to_string(p.process) + " is pinned to an unknown site");
        ++perSite[p.site];
    }
    for (int s = 0; s < topology.siteCount(); ++s)
        if (perSite[s] > topology.capacity(s))
            return makeError(ErrorCode::Infeasible,
                             "site '" + topology.site(s).name + "' has " + std::to_string(perSite[s])
                                 + " pinned processes but only " + std::to_string(topology.capacity(s))
                                 + " slots (over by " + std::to_string(perSite[s] - topology.capacity(s)) + ")");
    return {};
}

} // namespace meridian::model
