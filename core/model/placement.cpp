#include "core/model/placement.h"

#include <algorithm>
#include <map>

namespace meridian::model {

Placement Placement::fromSites(std::vector<int> sites)
{
    Placement p;
    p.host.assign(sites.size(), -1);
    p.slot.assign(sites.size(), -1);
    p.site = std::move(sites);
    return p;
}

bool Placement::hasHosts() const
{
    return std::all_of(host.begin(), host.end(), [](int h) { return h >= 0; })
        && std::all_of(slot.begin(), slot.end(), [](int s) { return s >= 0; });
}

std::vector<int> Placement::siteLoad(int siteCount) const
{
    std::vector<int> load(siteCount, 0);
    for (int s : site)
        if (s >= 0 && s < siteCount)
            ++load[s];
    return load;
}

Expected<Placement> withHosts(const Placement& placement, const Topology& topology)
{
    Placement out = placement;
    out.host.resize(placement.site.size(), -1);
    out.slot.resize(placement.site.size(), -1);
    std::vector<std::vector<char>> used(topology.hostCount());
    for (int h = 0; h < topology.hostCount(); ++h)
        used[h].assign(topology.host(h).slots, 0);
    for (std::size_t p = 0; p < out.site.size(); ++p)
        if (out.host[p] >= 0 && out.slot[p] >= 0)
            used[out.host[p]][out.slot[p]] = 1;
    std::vector<int> nextHost(topology.siteCount());
    std::vector<int> nextSlot(topology.siteCount(), 0);
    for (int s = 0; s < topology.siteCount(); ++s)
        nextHost[s] = topology.firstHost(s);
    for (std::size_t p = 0; p < out.site.size(); ++p) {
        if (out.host[p] >= 0 && out.slot[p] >= 0)
            continue;
        const int s = out.site[p];
        int& h = nextHost[s];
        int& k = nextSlot[s];
        const int end = topology.firstHost(s) + topology.hostCountOf(s);
        while (h < end && (k >= topology.host(h).slots || used[h][k])) {
            if (++k >= topology.host(h).slots) {
                ++h;
                k = 0;
            }
        }
        if (h >= end)
            return makeError(ErrorCode::Infeasible,
                             "site '" + topology.site(s).name + "' has " + std::to_string(topology.capacity(s))
                                 + " slots, fewer than the processes the mapping puts there");
        used[h][k] = 1;
        out.host[p] = h;
        out.slot[p] = k;
    }
    return out;
}

std::vector<Violation> checkPlacement(const Placement& placement, const Topology& topology,
                                      const Constraints& constraints)
{
    std::vector<Violation> out;
    const auto load = placement.siteLoad(topology.siteCount());
    for (int s = 0; s < topology.siteCount(); ++s)
        if (load[s] > topology.capacity(s))
            out.push_back({Violation::Kind::Capacity,
                           "site '" + topology.site(s).name + "' runs " + std::to_string(load[s]) + " processes on "
                               + std::to_string(topology.capacity(s)) + " slots (over by "
                               + std::to_string(load[s] - topology.capacity(s)) + ")"});
    std::map<std::pair<int, int>, int> slotOwner;
    for (int p = 0; p < placement.processCount(); ++p) {
        if (placement.host[p] < 0 || placement.slot[p] < 0)
            continue;
        const int h = placement.host[p];
        if (topology.siteOfHost(h) != placement.site[p]) {
            out.push_back({Violation::Kind::SlotConflict,
                           "process " + std::to_string(p) + " is on host " + topology.host(h).name
                               + ", which is not in site '" + topology.site(placement.site[p]).name + "'"});
            continue;
        }
        if (placement.slot[p] >= topology.host(h).slots) {
            out.push_back({Violation::Kind::SlotConflict,
                           "process " + std::to_string(p) + " is on slot " + std::to_string(placement.slot[p])
                               + " of host " + topology.host(h).name + ", which has "
                               + std::to_string(topology.host(h).slots) + " slots"});
            continue;
        }
        auto [it, inserted] = slotOwner.emplace(std::make_pair(placement.host[p], placement.slot[p]), p);
        if (!inserted)
            out.push_back({Violation::Kind::SlotConflict,
                           "processes " + std::to_string(it->second) + " and " + std::to_string(p) + " share "
                               + topology.host(placement.host[p]).name + " slot " + std::to_string(placement.slot[p])});
    }
    for (const auto& pin : constraints.pins()) {
        if (pin.process >= placement.processCount())
            continue;
        if (placement.site[pin.process] != pin.site)
            out.push_back({Violation::Kind::Pin,
                           "process " + std::to_string(pin.process) + " is pinned to '" + topology.site(pin.site).name
                               + "' but placed in '" + topology.site(placement.site[pin.process]).name + "'"});
    }
    return out;
}

} // namespace meridian::model
