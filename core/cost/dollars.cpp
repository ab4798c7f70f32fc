#include "core/cost/dollars.h"

#include <cmath>
#include <vector>

namespace meridian::cost {

namespace {

bool anySitePriced(const model::Topology& topology, double model::Site::*price)
{
    for (const auto& site : topology.sites())
        if (std::isfinite(site.*price))
            return true;
    return false;
}

} // namespace

std::optional<double> instanceUsdPerHour(const model::Placement& placement, const model::Topology& topology)
{
    if (!anySitePriced(topology, &model::Site::instanceUsdPerHour))
        return std::nullopt;
    std::vector<char> used(static_cast<std::size_t>(topology.hostCount()), 0);
    std::vector<int> load(static_cast<std::size_t>(topology.siteCount()), 0);
    const bool hosts = placement.hasHosts(); // reads every process: asked once
    for (int p = 0; p < placement.processCount(); ++p) {
        if (hosts)
            used[static_cast<std::size_t>(placement.host[p])] = 1;
        ++load[static_cast<std::size_t>(placement.site[p])];
    }
    double hourly = 0.0;
    for (int s = 0; s < topology.siteCount(); ++s) {
        int nodes = 0;
        if (hosts) {
            for (int h = topology.firstHost(s); h < topology.firstHost(s) + topology.hostCountOf(s); ++h)
                nodes += used[static_cast<std::size_t>(h)];
        } else if (load[static_cast<std::size_t>(s)] > 0) {
            const int slots = topology.host(topology.firstHost(s)).slots;
            nodes = (load[static_cast<std::size_t>(s)] + slots - 1) / slots;
        }
        if (nodes == 0)
            continue;
        const double price = topology.site(s).instanceUsdPerHour;
        if (!std::isfinite(price))
            return std::nullopt; // a used site without a price: the sum would be too low
        hourly += nodes * price;
    }
    return hourly;
}

Dollars placementDollars(const model::Placement& placement, const model::Topology& topology,
                         const CostBreakdown& breakdown)
{
    Dollars d;
    const bool egressPriced = anySitePriced(topology, &model::Site::egressUsdPerGB);
    if (egressPriced) {
        double egress = 0.0;
        bool complete = true;
        for (int k = 0; k < topology.siteCount() && complete; ++k) {
            double leaving = 0.0;
            for (int l = 0; l < topology.siteCount(); ++l)
                if (k != l)
                    leaving += breakdown.trafficBytes(k, l);
            const double price = topology.site(k).egressUsdPerGB;
            if (leaving > 0.0 && !std::isfinite(price))
                complete = false; // bytes leave a site without a price
            else if (leaving > 0.0)
                egress += leaving * price / 1e9;
        }
        if (complete)
            d.egressUsd = egress;
    }
    d.instanceUsdPerHour = instanceUsdPerHour(placement, topology);
    if (d.instanceUsdPerHour) {
        d.instanceUsd = *d.instanceUsdPerHour * breakdown.total / 3600.0;
        if (d.egressUsd || !egressPriced)
            d.totalUsd = *d.instanceUsd + d.egressUsd.value_or(0.0);
    }
    return d;
}

} // namespace meridian::cost
