#include "core/model/topology.h"

#include "core/model/network.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
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

/// What a host name may hold (Topology::hostNameProblem), for the error messages.
constexpr const char* kHostNameExpected
    = "expected letters, digits, '-', '_' and '.', not starting with '-' or '.' (a host name as in RFC 1123)";

Error siteError(const Site& site, const std::string& what)
{
    return makeError(ErrorCode::InvalidInput, "site '" + site.name + "': " + what);
}

std::string formatValue(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

/// A site's optional quantities (NaN: not known) in their physical ranges (see Site::kMaxEgressUsdPerGB).
Status checkSiteRanges(const Site& site)
{
    const struct {
        double value;
        const char* what;
        double least, most;
        const char* range;
    } quantities[] = {
        {site.uplinkMBps, "uplink bandwidth", kMinBandwidthMBps, kMaxBandwidthMBps,
         "from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s (10 Tbit/s)"},
        {site.downlinkMBps, "downlink bandwidth", kMinBandwidthMBps, kMaxBandwidthMBps,
         "from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s (10 Tbit/s)"},
        {site.egressUsdPerGB, "egress price", 0.0, Site::kMaxEgressUsdPerGB, "from 0 to 1000 USD per GB"},
        {site.instanceUsdPerHour, "instance price", 0.0, Site::kMaxInstanceUsdPerHour,
         "from 0 to 10000 USD per node-hour"},
    };
    for (const auto& q : quantities)
        if (!std::isnan(q.value) && !(q.value >= q.least && q.value <= q.most))
            return siteError(site,
                             std::string(q.what) + " is " + formatValue(q.value) + "; expected a number " + q.range
                                 + " (or none)");
    return {};
}

} // namespace

namespace {

/// Latin-1's letters U+00C0 to U+00FF without their accents ('\0': not a letter, as U+00D7 and U+00F7).
constexpr char kLatin1Letters[] = "aaaaaaaceeeeiiiidnooooo\0ouuuuyts"
                                  "aaaaaaaceeeeiiiidnooooo\0ouuuuyty";

/// The host label of a site's name (may be empty: no letter or digit it can keep).
std::string hostLabel(const std::string& site)
{
    std::string label;
    const auto separate = [&label] {
        if (!label.empty() && label.back() != '-')
            label += '-';
    };
    for (std::size_t i = 0; i < site.size(); ++i) {
        const auto c = static_cast<unsigned char>(site[i]);
        if (std::isalnum(c) && c < 0x80) {
            label += static_cast<char>(std::tolower(c));
            continue;
        }
        // U+00C0..U+00FF in UTF-8: 0xC3 followed by 0x80..0xBF.
        if (c == 0xC3 && i + 1 < site.size()) {
            const auto next = static_cast<unsigned char>(site[i + 1]);
            if (next >= 0x80 && next <= 0xBF && kLatin1Letters[next - 0x80] != '\0') {
                label += kLatin1Letters[next - 0x80];
                ++i;
                continue;
            }
        }
        separate();
    }
    while (!label.empty() && label.back() == '-')
        label.pop_back();
    return label;
}

/// The names earlier versions gave a site's hosts: "<site>-<k>".
std::string legacyHostName(const std::string& site, const std::string& index) { return site + "-" + index; }

std::string paddedIndex(int k, int nodes)
{
    const int digits = nodes >= 100 ? 3 : 2;
    std::string index = std::to_string(k);
    index.insert(0, static_cast<std::size_t>(std::max(0, digits - static_cast<int>(index.size()))), '0');
    return index;
}

} // namespace

std::string Topology::defaultHostName(const std::string& site, int k, int nodes)
{
    std::string label = hostLabel(site);
    if (label.empty()) {
        std::uint32_t hash = 2166136261u; // FNV-1a
        for (unsigned char c : site)
            hash = (hash ^ c) * 16777619u;
        char hex[16];
        std::snprintf(hex, sizeof hex, "%08x", hash);
        label = std::string("site-") + hex;
    }
    const std::string index = paddedIndex(k, nodes);
    constexpr std::size_t kMaxLabel = 63;
    if (label.size() + 1 + index.size() > kMaxLabel) {
        label.resize(kMaxLabel - 1 - index.size());
        while (!label.empty() && label.back() == '-')
            label.pop_back();
    }
    return label + "-" + index;
}

std::string Topology::hostNameProblem(std::string_view name)
{
    if (name.empty())
        return "it is empty";
    if (name.size() > 253)
        return "it has " + std::to_string(name.size()) + " characters; a host name has at most 253";
    for (unsigned char c : name) {
        if (std::isalnum(c) && c < 0x80)
            continue;
        if (c == '-' || c == '_' || c == '.')
            continue;
        if (c == ' ' || c == '\t')
            return "it contains a space";
        if (c >= 0x80)
            return "it contains a character outside ASCII";
        if (c < 0x20 || c == 0x7F)
            return "it contains a control character";
        return std::string("it contains '") + static_cast<char>(c) + "'";
    }
    if (name.front() == '-' || name.front() == '.')
        return std::string("it starts with '") + name.front() + "'";
    std::size_t start = 0;
    while (start <= name.size()) {
        const std::size_t dot = std::min(name.find('.', start), name.size());
        if (dot == start)
            return "it has an empty part between dots";
        if (dot - start > 63)
            return "a part between dots has " + std::to_string(dot - start) + " characters; at most 63";
        start = dot + 1;
    }
    return {};
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
        if (auto ranges = checkSiteRanges(site); !ranges)
            return ranges.error();
        if (site.hosts.empty()) {
            if (site.nodes < 1)
                return siteError(site, "needs at least one node");
            if (site.slotsPerNode < 1)
                return siteError(site, "needs at least one slot per node");
            if (site.nodes > kMaxHosts - topo.hostCount())
                return siteError(site,
                                 std::to_string(site.nodes) + " nodes would make more than " + std::to_string(kMaxHosts)
                                     + " hosts in the project");
            for (int k = 0; k < site.nodes; ++k) {
                site.hosts.push_back(Host{defaultHostName(site.name, k, site.nodes), site.slotsPerNode});
                const std::string legacy = legacyHostName(site.name, paddedIndex(k, site.nodes));
                if (legacy != site.hosts.back().name)
                    topo.m_legacyHostByName.emplace(legacy, topo.hostCount() + k);
            }
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
            if (const std::string problem = hostNameProblem(host.name); !problem.empty())
                return siteError(site,
                                 "host name '" + host.name + "' cannot go into a rankfile or hostfile: " + problem
                                     + "; " + kHostNameExpected);
            if (host.slots < 1)
                return siteError(site, "host '" + host.name + "' needs at least one slot");
            if (!topo.m_hostByName.emplace(host.name, topo.hostCount()).second)
                return siteError(site,
                                 "host name '" + host.name + "' is used twice"
                                     + (site.hosts.front().name == defaultHostName(site.name, 0, site.nodes)
                                            ? " (its hosts are named after the site, as another site's are: "
                                              "rename one of the sites, or give their hosts with a hosts file)"
                                            : ""));
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
    const std::string key(name);
    if (auto it = m_hostByName.find(key); it != m_hostByName.end())
        return it->second;
    if (auto it = m_legacyHostByName.find(key); it != m_legacyHostByName.end() && isPlaceholderHost(it->second))
        return it->second;
    return std::nullopt;
}

bool Topology::isPlaceholderHost(int host) const
{
    const int s = m_hostSite[host];
    return this->host(host).name == defaultHostName(m_sites[s].name, host - m_firstHost[s], hostCountOf(s));
}

double Topology::distanceKm(int a, int b) const
{
    return greatCircleKm(m_sites[a].latitude, m_sites[a].longitude, m_sites[b].latitude, m_sites[b].longitude);
}

} // namespace meridian::model
