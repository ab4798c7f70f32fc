#pragma once

#include "core/model/network.h"
#include "core/model/topology.h"

#include <Eigen/Dense>

namespace meridian::cost {

/// The bandwidth of a site's uplink (`outgoing`) or downlink, MB/s: the site's up/down MB/s when given, else its
/// fastest site-pair bandwidth out of (into) it, so that one flow alone is never slowed by it (its intra-site
/// bandwidth for a site alone). `network` must be complete. The simulation's platform uses the same links.
double accessBandwidthMBps(const model::Topology& topology, const model::Network& network, int site, bool outgoing);

/// The busiest shared link of a placement under the contention model Geo-Cut uses for graphs: every link carries
/// its bytes at its full bandwidth, so the slowest link bounds the time. Links: each site's uplink (the bytes it
/// sends to other sites), its downlink (the bytes it receives from them) and each ordered site pair's link (the
/// bytes from one to the other at the pair's bandwidth). Intra-site traffic is taken as uncontended.
struct Bottleneck {
    enum class Link { None, Uplink, Downlink, SitePair };
    double seconds = 0.0; ///< the largest bytes / bandwidth
    Link link = Link::None;
    int from = -1; ///< the site of an uplink, the sender of a pair
    int to = -1;   ///< the site of a downlink, the receiver of a pair
};

/// The bottleneck of site x site traffic (bytes, row = sender; the diagonal is ignored). O(sites^2).
Bottleneck bottleneck(const Eigen::MatrixXd& trafficBytes, const model::Topology& topology,
                      const model::Network& network);

} // namespace meridian::cost
