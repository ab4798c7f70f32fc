#pragma once

#include "core/common/expected.h"
#include "core/model/site.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace meridian::model {

/// Sites, the hosts inside them and the slots of each host. Immutable once created; indices are stable:
/// sites 0..siteCount()-1 in input order, hosts numbered globally site by site.
class Topology {
public:
    /// Limits checked before anything is allocated: hosts and slots in all, so that every count fits an
    /// int and a process index, and a tiny file cannot claim a billion machines.
    static constexpr int kMaxHosts = 1'000'000;
    static constexpr std::int64_t kMaxSlots = std::int64_t{1} << 30;

    Topology() = default;

    /// Validates the sites (unique non-empty names, latitude in [-90, 90], longitude in [-180, 180],
    /// at least one node and slot, positive bandwidths and non-negative prices where given, unique
    /// host names across all sites, at most kMaxHosts hosts and kMaxSlots slots in all, summed in 64 bits)
    /// and fills in default hosts. Returns an error naming the site.
    static Expected<Topology> create(std::vector<Site> sites);

    /// Returns the name given to host k (0-based) of a site with `nodes` hosts when none are listed:
    /// "<site>-<k>", k zero-padded to two digits (three from 100 nodes).
    static std::string defaultHostName(const std::string& site, int k, int nodes);

    int siteCount() const { return static_cast<int>(m_sites.size()); }
    const Site& site(int index) const { return m_sites[index]; }
    const std::vector<Site>& sites() const { return m_sites; }
    /// Returns the index of the site with this name, or nullopt.
    std::optional<int> siteIndex(std::string_view name) const;

    int hostCount() const { return static_cast<int>(m_hostSite.size()); }
    /// Returns the site of a global host index.
    int siteOfHost(int host) const { return m_hostSite[host]; }
    const Host& host(int host) const;
    /// Returns the global index of the first host of a site; its hosts are consecutive.
    int firstHost(int site) const { return m_firstHost[site]; }
    int hostCountOf(int site) const { return m_firstHost[site + 1] - m_firstHost[site]; }
    std::optional<int> hostIndex(std::string_view name) const;

    /// Returns the number of slots of a site (sum over its hosts).
    int capacity(int site) const { return m_capacity[site]; }
    int totalCapacity() const { return m_totalCapacity; }
    /// Returns the great-circle distance between two sites in km.
    double distanceKm(int a, int b) const;

private:
    std::vector<Site> m_sites;
    std::vector<int> m_firstHost;
    std::vector<int> m_hostSite;
    std::vector<int> m_capacity;
    int m_totalCapacity = 0;
    std::unordered_map<std::string, int> m_siteByName;
    std::unordered_map<std::string, int> m_hostByName;
};

} // namespace meridian::model
