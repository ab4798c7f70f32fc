#include "core/cost/bottleneck_cost.h"

#include <algorithm>
#include <cmath>

namespace meridian::cost {

namespace {

constexpr double kBytesPerMB = 1e6;

} // namespace

double accessBandwidthMBps(const model::Topology& topology, const model::Network& network, int site, bool outgoing)
{
    const model::Site& s = topology.site(site);
    const double given = outgoing ? s.uplinkMBps : s.downlinkMBps;
    if (std::isfinite(given))
        return given;
    double fastest = 0.0;
    for (int other = 0; other < network.siteCount(); ++other)
        if (other != site)
            fastest = std::max(fastest,
                               outgoing ? network.bandwidthMBps(site, other) : network.bandwidthMBps(other, site));
    return fastest > 0.0 ? fastest : network.bandwidthMBps(site, site);
}

Bottleneck bottleneck(const Eigen::MatrixXd& trafficBytes, const model::Topology& topology,
                      const model::Network& network)
{
    Bottleneck worst;
    const auto offer = [&](double seconds, Bottleneck::Link link, int from, int to) {
        if (seconds > worst.seconds)
            worst = {seconds, link, from, to};
    };
    const int m = topology.siteCount();
    for (int a = 0; a < m; ++a) {
        double sent = 0.0;
        double received = 0.0;
        for (int b = 0; b < m; ++b) {
            if (b == a)
                continue;
            sent += trafficBytes(a, b);
            received += trafficBytes(b, a);
            offer(trafficBytes(a, b) / (network.bandwidthMBps(a, b) * kBytesPerMB), Bottleneck::Link::SitePair, a, b);
        }
        offer(sent / (accessBandwidthMBps(topology, network, a, true) * kBytesPerMB), Bottleneck::Link::Uplink, a, -1);
        offer(received / (accessBandwidthMBps(topology, network, a, false) * kBytesPerMB), Bottleneck::Link::Downlink,
              -1, a);
    }
    return worst;
}

} // namespace meridian::cost
