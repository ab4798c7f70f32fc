#include "core/sim/platform.h"

#include "core/cost/bottleneck_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace meridian::sim {

namespace {

/// A fat pipe this fast never limits a flow (1 TB/s).
constexpr double kGatewayBps = 1e12;
constexpr double kBytesPerMB = 1e6;

int addLink(SimPlatform& p, SimLink link)
{
    p.links.push_back(std::move(link));
    return static_cast<int>(p.links.size()) - 1;
}

void addSiteLinks(SimPlatform& p, const model::Topology& topology, const model::Network& network, int s)
{
    const model::Site& site = topology.site(s);
    for (int h = topology.firstHost(s); h < topology.firstHost(s) + topology.hostCountOf(s); ++h)
        p.intra[h] = addLink(p,
                             {"intra:" + p.hostNames[h], SimLink::Kind::Intra, network.latencyMs(s, s) / 1000.0,
                              network.bandwidthMBps(s, s) * kBytesPerMB, false, -1, -1, s});
    const double up = cost::accessBandwidthMBps(topology, network, s, true);
    const double down = cost::accessBandwidthMBps(topology, network, s, false);
    p.uplink[s] = addLink(p, {"up:" + site.name, SimLink::Kind::Uplink, 0.0, up * kBytesPerMB, true, s, -1, s});
    p.downlink[s] = addLink(p, {"down:" + site.name, SimLink::Kind::Downlink, 0.0, down * kBytesPerMB, true, -1, s, s});
    p.gateway[s] = addLink(p, {"gw:" + site.name, SimLink::Kind::Gateway, 0.0, kGatewayBps, false, -1, -1, s});
}

void addHostLinks(SimPlatform& p, const model::Topology& topology, const model::Network& network)
{
    for (const auto& [hosts, link] : network.hostLinks()) {
        const auto [h1, h2] = hosts;
        const int s = topology.siteOfHost(h1);
        if (s != topology.siteOfHost(h2)) {
            ++p.crossSiteHostLinks;
            continue;
        }
        const double latencyMs = std::isfinite(link.latencyMs) ? link.latencyMs : network.latencyMs(s, s);
        const double mbps = std::isfinite(link.bandwidthMBps) ? link.bandwidthMBps : network.bandwidthMBps(s, s);
        p.hostPair[hosts] = addLink(p,
                                    {"host:" + p.hostNames[h1] + "->" + p.hostNames[h2], SimLink::Kind::HostPair,
                                     latencyMs / 1000.0, mbps * kBytesPerMB, true, h1, h2, s});
    }
}

/// An XML attribute value ('>' is allowed there and left as is, so that ids read "wan:a->b").
std::string xmlEscaped(const std::string& text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string number(double v)
{
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
}

std::string linkXml(const SimLink& link)
{
    std::string out = "    <link id=\"" + xmlEscaped(link.id) + "\" bandwidth=\"" + number(link.bandwidthBps);
    out += "Bps\" latency=\"" + number(link.latencyS) + "s\"";
    if (!link.shared)
        out += " sharing_policy=\"FATPIPE\"";
    out += "/>\n";
    return out;
}

std::string routeXml(const std::string& src, const std::string& dst, const std::string& link, bool symmetrical)
{
    std::string out = "    <route src=\"" + src + "\" dst=\"" + dst + "\"";
    if (!symmetrical)
        out += " symmetrical=\"NO\"";
    out += "><link_ctn id=\"" + link + "\"/></route>\n";
    return out;
}

/// A site's zone: its hosts, its gateway router, its intra-site, gateway and host links and their routes.
void siteZoneXml(const SimPlatform& p, int s, int firstHost, int hosts, std::string& out)
{
    const std::string site = xmlEscaped(p.siteNames[s]);
    out += "  <zone id=\"site:" + site + "\" routing=\"Full\">\n";
    for (int h = firstHost; h < firstHost + hosts; ++h)
        out += "    <host id=\"" + xmlEscaped(p.hostNames[h]) + "\" speed=\"1Gf\" core=\""
            + std::to_string(p.hostCores[h]) + "\"/>\n";
    out += "    <router id=\"gateway:" + site + "\"/>\n";
    for (int h = firstHost; h < firstHost + hosts; ++h)
        out += linkXml(p.links[p.intra[h]]);
    out += linkXml(p.links[p.gateway[s]]);
    for (const auto& [hosts2, l] : p.hostPair)
        if (p.links[l].site == s)
            out += linkXml(p.links[l]);
    const std::string gw = xmlEscaped(p.links[p.gateway[s]].id);
    for (int h1 = firstHost; h1 < firstHost + hosts; ++h1) {
        const std::string n1 = xmlEscaped(p.hostNames[h1]);
        const std::string intra = xmlEscaped(p.links[p.intra[h1]].id);
        out += routeXml(n1, "gateway:" + site, gw, true);
        for (int h2 = h1; h2 < firstHost + hosts; ++h2) {
            const std::string n2 = xmlEscaped(p.hostNames[h2]);
            const auto forward = p.hostPair.find({h1, h2});
            const auto backward = p.hostPair.find({h2, h1});
            if (forward == p.hostPair.end() && backward == p.hostPair.end()) {
                out += routeXml(n1, n2, intra, true);
                continue;
            }
            out += routeXml(n1, n2, forward != p.hostPair.end() ? xmlEscaped(p.links[forward->second].id) : intra,
                            false);
            out += routeXml(n2, n1, backward != p.hostPair.end() ? xmlEscaped(p.links[backward->second].id) : intra,
                            false);
        }
    }
    out += "  </zone>\n";
}

} // namespace

void SimPlatform::route(int h1, int h2, std::vector<int>& out) const
{
    const int a = hostSite[h1];
    const int b = hostSite[h2];
    if (a == b) {
        const auto it = hostPair.find({h1, h2});
        out.push_back(it != hostPair.end() ? it->second : intra[std::min(h1, h2)]);
        return;
    }
    out.push_back(uplink[a]);
    out.push_back(pair[static_cast<std::size_t>(a) * siteCount() + b]);
    out.push_back(downlink[b]);
}

std::int64_t SimPlatform::declaredRoutes() const
{
    std::vector<std::int64_t> hosts(siteCount(), 0);
    for (int s : hostSite)
        ++hosts[s];
    std::int64_t routes = static_cast<std::int64_t>(siteCount()) * (siteCount() - 1)
        + static_cast<std::int64_t>(hostPair.size());
    for (std::int64_t h : hosts)
        routes += h * (h + 1) / 2 + h;
    return routes;
}

std::vector<std::string> simgridConfiguration()
{
    return {"network/model:CM02", "network/crosstraffic:0", "network/TCP-gamma:0", "network/optim:Full"};
}

Expected<SimPlatform> buildPlatform(const model::Topology& topology, const model::Network& network)
{
    if (!network.isComplete() || network.siteCount() != topology.siteCount())
        return makeError(ErrorCode::InvalidInput, "simulate: the network must have every site-level entry");
    SimPlatform p;
    const int m = topology.siteCount();
    for (int s = 0; s < m; ++s)
        p.siteNames.push_back(topology.site(s).name);
    for (int h = 0; h < topology.hostCount(); ++h) {
        p.hostNames.push_back(topology.host(h).name);
        p.hostSite.push_back(topology.siteOfHost(h));
        p.hostCores.push_back(topology.host(h).slots);
    }
    p.intra.assign(topology.hostCount(), -1);
    p.uplink.assign(m, -1);
    p.downlink.assign(m, -1);
    p.gateway.assign(m, -1);
    p.pair.assign(static_cast<std::size_t>(m) * m, -1);
    addHostLinks(p, topology, network);
    if (const std::int64_t routes = p.declaredRoutes(); routes > kMaxDeclaredRoutes)
        return makeError(ErrorCode::InvalidInput,
                         "simulate: the platform would declare " + std::to_string(routes)
                             + " routes (one per host pair of a site), over the limit of "
                             + std::to_string(kMaxDeclaredRoutes) + "; use fewer, larger hosts");
    for (int s = 0; s < m; ++s)
        addSiteLinks(p, topology, network, s);
    for (int a = 0; a < m; ++a)
        for (int b = 0; b < m; ++b)
            if (a != b)
                p.pair[static_cast<std::size_t>(a) * m + b] = addLink(p,
                                                                      {"wan:" + p.siteNames[a] + "->" + p.siteNames[b],
                                                                       SimLink::Kind::SitePair,
                                                                       network.latencyMs(a, b) / 1000.0,
                                                                       network.bandwidthMBps(a, b) * kBytesPerMB, true,
                                                                       a, b, -1});
    return p;
}

std::string platformXml(const SimPlatform& p)
{
    std::string out = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                      "<platform version=\"4.1\">\n";
    // The network model the predictions assume, for a user's own smpirun or S4U program on this file. (smpirun
    // sets network/model itself, so it needs --cfg=network/model:CM02 as well; the others it takes from here.)
    out += "<config>\n";
    for (const std::string& setting : simgridConfiguration()) {
        const std::size_t colon = setting.find(':');
        out += "  <prop id=\"" + setting.substr(0, colon) + "\" value=\"" + setting.substr(colon + 1) + "\"/>\n";
    }
    out += "</config>\n<zone id=\"world\" routing=\"Full\">\n";
    std::vector<int> first(p.siteCount() + 1, 0);
    for (int s : p.hostSite)
        ++first[s + 1];
    for (int s = 0; s < p.siteCount(); ++s)
        first[s + 1] += first[s];
    for (int s = 0; s < p.siteCount(); ++s)
        siteZoneXml(p, s, first[s], first[s + 1] - first[s], out);
    for (int s = 0; s < p.siteCount(); ++s) {
        out += linkXml(p.links[p.uplink[s]]);
        out += linkXml(p.links[p.downlink[s]]);
    }
    const int m = p.siteCount();
    for (int a = 0; a < m; ++a)
        for (int b = 0; b < m; ++b)
            if (a != b)
                out += linkXml(p.links[p.pair[static_cast<std::size_t>(a) * m + b]]);
    for (int a = 0; a < m; ++a)
        for (int b = 0; b < m; ++b) {
            if (a == b)
                continue;
            const std::string sa = xmlEscaped(p.siteNames[a]);
            const std::string sb = xmlEscaped(p.siteNames[b]);
            out += "  <zoneRoute src=\"site:";
            out += sa;
            out += "\" dst=\"site:";
            out += sb;
            out += "\" gw_src=\"gateway:";
            out += sa;
            out += "\" gw_dst=\"gateway:";
            out += sb;
            out += "\" symmetrical=\"NO\">";
            for (int l : {p.uplink[a], p.pair[static_cast<std::size_t>(a) * m + b], p.downlink[b]})
                out += "<link_ctn id=\"" + xmlEscaped(p.links[l].id) + "\"/>";
            out += "</zoneRoute>\n";
        }
    out += "</zone>\n</platform>\n";
    return out;
}

} // namespace meridian::sim
