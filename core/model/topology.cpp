#include "core/model/topology.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace meridian::model {

double greatCircleKm(double lat1, double lon1, double lat2, double lon2)
{
    constexpr double kEarthRadiusKm = 6371.0088;
    constexpr double kRad = std::numbers::pi / 180.0;
    const double dLat = (lat2 - lat1) * kRad;
    const double dLon = (lon2 - lon1) * kRad;
    const double a = std::sin(dLat / 2) * std::sin(dLat / 2)
        + std::cos(lat1 * kRad) * std::cos(lat2 * kRad) * std::sin(dLon / 2) * std::sin(dLon / 2);
    return 2.0 * kEarthRadiusKm * std::asin(std::min(1.0, std::sqrt(a)));
}

namespace {

Error siteError(const Site& site, const std::string& what)
{
    return makeError(ErrorCode::InvalidInput, "site '" + site.name + "': " + what);
}

bool invalidPositive(double v) { return !std::isnan(v) && !(v > 0.0 && std::isfinite(v)); }

} // namespace

std::string Topology::defaultHostName(const std::string& site, int k, int nodes)
{
    const int digits = nodes >= 100 ? 3 : 2;
    std::string index = std::to_string(k);
    index.insert(0, static_cast<std::size_t>(std::max(0, digits - static_cast<int>(index.size()))), '0');
    return site + "-" + index;
}

Expected<Topology> Topology::create(std::vector<Site> sites)
{
    Topology topo;
    topo.m_firstHost.push_back(0);
    for (auto& site : sites) {
        if (site.name.empty())
            return makeError(ErrorCode::InvalidInput, "a site has an empty name");
        if (topo.m_siteByName.count(site.name))
            return siteError(site, "the name is used by another site");
        if (!(site.latitude >= -90.0 && site.latitude <= 90.0))
            return siteError(site, "latitude must be between -90 and 90 degrees");
        if (!(site.longitude >= -180.0 && site.longitude <= 180.0))
            return siteError(site, "longitude must be between -180 and 180 degrees");
        if (invalidPositive(site.uplinkMBps))
            return siteError(site, "uplink bandwidth must be a positive number of MB/s");
        if (invalidPositive(site.downlinkMBps))
            return siteError(site, "downlink bandwidth must be a positive number of MB/s");
        if (!std::isnan(site.egressUsdPerGB) && !(site.egressUsdPerGB >= 0.0 && std::isfinite(site.egressUsdPerGB)))
            return siteError(site, "egress price must be a non-negative number of USD/GB");
        if (!std::isnan(site.instanceUsdPerHour)
            && !(site.instanceUsdPerHour >= 0.0 && std::isfinite(site.instanceUsdPerHour)))
            return siteError(site, "instance price must be a non-negative number of USD per node-hour");
        if (site.hosts.empty()) {
            if (site.nodes < 1)
                return siteError(site, "needs at least one node");
            if (site.slotsPerNode < 1)
                return siteError(site, "needs at least one slot per node");
            if (site.nodes > kMaxHosts - topo.hostCount())
                return siteError(site,
                                 std::to_string(site.nodes) + " nodes would make more than " + std::to_string(kMaxHosts)
                                     + " hosts in the project");
            for (int k = 0; k < site.nodes; ++k)
                site.hosts.push_back(Host{defaultHostName(site.name, k, site.nodes), site.slotsPerNode});
        } else {
            site.nodes = static_cast<int>(site.hosts.size());
        }
        if (static_cast<std::int64_t>(site.hosts.size()) > kMaxHosts - topo.hostCount())
            return siteError(site,
                             "its hosts would make more than " + std::to_string(kMaxHosts) + " hosts in the project");
        const int siteIndex = static_cast<int>(topo.m_sites.size());
        std::int64_t capacity = 0;
        for (const auto& host : site.hosts) {
            if (host.name.empty())
                return siteError(site, "a host has an empty name");
            if (host.slots < 1)
                return siteError(site, "host '" + host.name + "' needs at least one slot");
            if (!topo.m_hostByName.emplace(host.name, topo.hostCount()).second)
                return siteError(site, "host name '" + host.name + "' is used twice");
            topo.m_hostSite.push_back(siteIndex);
            capacity += host.slots;
        }
        if (capacity > kMaxSlots || topo.m_totalCapacity + capacity > kMaxSlots)
            return siteError(site,
                             "its " + std::to_string(capacity) + " slots would make "
                                 + std::to_string(topo.m_totalCapacity + capacity) + " slots in the project; at most "
                                 + std::to_string(kMaxSlots) + " are supported");
        topo.m_capacity.push_back(static_cast<int>(capacity));
        topo.m_totalCapacity += static_cast<int>(capacity);
        topo.m_firstHost.push_back(topo.hostCount());
        topo.m_siteByName.emplace(site.name, siteIndex);
        topo.m_sites.push_back(std::move(site));
    }
    return topo;
}

std::optional<int> Topology::siteIndex(std::string_view name) const
{
    auto it = m_siteByName.find(std::string(name));
    if (it == m_siteByName.end())
        return std::nullopt;
    return it->second;
}

const Host& Topology::host(int host) const
{
    const int s = m_hostSite[host];
    return m_sites[s].hosts[host - m_firstHost[s]];
}

std::optional<int> Topology::hostIndex(std::string_view name) const
{
    auto it = m_hostByName.find(std::string(name));
    if (it == m_hostByName.end())
        return std::nullopt;
    return it->second;
}

double Topology::distanceKm(int a, int b) const
{
    return greatCircleKm(m_sites[a].latitude, m_sites[a].longitude, m_sites[b].latitude, m_sites[b].longitude);
}

} // namespace meridian::model
