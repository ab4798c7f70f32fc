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
    /// host names across all sites that a launcher file can carry (hostNameProblem), at most kMaxHosts hosts and kMaxSlots slots in all, summed in 64 bits)
    /// and fills in default hosts. Returns an error naming the site.
    static Expected<Topology> create(std::vector<Site> sites);

    /// Returns the name given to host k (0-based) of a site with `nodes` hosts when none are listed: a valid
    /// host name (an RFC 1123 label) made of the site's name, "<label>-<k>" with k zero-padded to two digits
    /// (three from 100 nodes). The label keeps the name's ASCII letters (lower case) and digits, Latin-1
    /// accented letters without their accent, and one '-' for any other run ("Washington DC" -> "washington-dc",
    /// "São Paulo" -> "sao-paulo"); a name with none of these gives "site-" and 8 hex digits of its hash. At most
    /// 63 characters. Such hosts are placeholders (isPlaceholderHost) until the user names the machines.
    static std::string defaultHostName(const std::string& site, int k, int nodes);

    /// Whether a launcher file can carry this host name, or what is wrong with it (empty when it can): letters,
    /// digits, '-', '_' and '.', not starting with '-' or '.', dot-separated labels of 1 to 63 characters, at most
    /// 253 in all (RFC 1123, with the '_' that /etc/hosts and DNS servers accept). Spaces, '=', ',', ':' and '#'
    /// would break a rankfile (`rank N=host slot=S`) or a machinefile (`host:1`).
    static std::string hostNameProblem(std::string_view name);

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
    /// Returns the global index of the host of this name, or nullopt. Placeholder hosts also answer to the
    /// names earlier versions gave them ("<site>-<k>" with the site's name as it is), so older mapping files
    /// and projects still read.
    std::optional<int> hostIndex(std::string_view name) const;
    /// Whether a host is a placeholder: named by defaultHostName, not after a real machine. A launcher file
    /// naming one cannot be launched until the site's hosts are given (a hosts file).
    bool isPlaceholderHost(int host) const;

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
    std::unordered_map<std::string, int> m_legacyHostByName;
};

} // namespace meridian::model
