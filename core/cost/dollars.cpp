#include "core/cost/dollars.h"

#include <cmath>
#include <vector>

namespace meridian::cost {

std::optional<double> instanceUsdPerHour(const model::Placement& placement, const model::Topology& topology)
{
    std::vector<char> used(static_cast<std::size_t>(topology.hostCount()), 0);
    std::vector<int> load(static_cast<std::size_t>(topology.siteCount()), 0);
    for (int p = 0; p < placement.processCount(); ++p) {
        if (placement.hasHosts())
            used[static_cast<std::size_t>(placement.host[p])] = 1;
        ++load[static_cast<std::size_t>(placement.site[p])];
    }
    double hourly = 0.0;
    bool priced = false;
    for (int s = 0; s < topology.siteCount(); ++s) {
        const double price = topology.site(s).instanceUsdPerHour;
        int nodes = 0;
        if (placement.hasHosts()) {
            for (int h = topology.firstHost(s); h < topology.firstHost(s) + topology.hostCountOf(s); ++h)
                nodes += used[static_cast<std::size_t>(h)];
        } else if (load[static_cast<std::size_t>(s)] > 0) {
            const int slots = topology.host(topology.firstHost(s)).slots;
            nodes = (load[static_cast<std::size_t>(s)] + slots - 1) / slots;
        }
        if (nodes > 0 && std::isfinite(price)) {
            hourly += nodes * price;
            priced = true;
        }
    }
    return priced ? std::optional<double>(hourly) : std::nullopt;
}

Dollars placementDollars(const model::Placement& placement, const model::Topology& topology,
                         const CostBreakdown& breakdown)
{
    Dollars d;
    double egress = 0.0;
    bool anyPrice = false;
    for (int k = 0; k < topology.siteCount(); ++k) {
        const double price = topology.site(k).egressUsdPerGB;
        if (!std::isfinite(price))
            continue;
        anyPrice = true;
        for (int l = 0; l < topology.siteCount(); ++l)
            if (k != l)
                egress += breakdown.trafficBytes(k, l) * price / 1e9;
    }
    if (anyPrice)
        d.egressUsd = egress;
    d.instanceUsdPerHour = instanceUsdPerHour(placement, topology);
    if (d.instanceUsdPerHour) {
        d.instanceUsd = *d.instanceUsdPerHour * breakdown.total / 3600.0;
        d.totalUsd = *d.instanceUsd + d.egressUsd.value_or(0.0);
    }
    return d;
}

} // namespace meridian::cost
