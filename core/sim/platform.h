#pragma once

#include "core/common/expected.h"
#include "core/model/network.h"
#include "core/model/topology.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace meridian::sim {

/// One link of a simulated platform. Latency in seconds, bandwidth in bytes per second.
struct SimLink {
    enum class Kind { Intra, Uplink, Downlink, SitePair, HostPair, Gateway };
    std::string id;
    Kind kind = Kind::Intra;
    double latencyS = 0.0;
    double bandwidthBps = 0.0;
    /// A shared link divides its bandwidth among the flows crossing it; a fat pipe gives each flow all of it.
    bool shared = true;
    int from = -1; ///< site (or host, for HostPair) the link leaves; -1 for Intra and Gateway
    int to = -1;   ///< site (or host) the link enters
    int site = -1; ///< the site of an Intra, Uplink, Downlink or Gateway link
};

/// The platform a project describes, as SimGrid simulates it and as `meridian-cli simulate --export-platform`
/// writes it:
/// - one host per node, its slots as cores;
/// - per host an intra-site link from its site's diagonal of the latency and bandwidth matrices, a fat pipe: the
///   fabric inside a data centre is taken as non-blocking, so every intra-site flow gets the diagonal bandwidth.
///   (One link per host rather than per site gives the same times and keeps SimGrid's sharing systems small);
/// - per site an uplink and a downlink, shared by every flow leaving (entering) the site. Their bandwidth is the
///   site's up/down MB/s when given, else the site's fastest site-pair bandwidth out of (into) it, so that one
///   flow alone is never slowed by them; their latency is 0;
/// - per ordered site pair a shared link with that pair's latency and bandwidth (asymmetric where measured so);
/// - a host link (shared) for every ordered host pair of one site the project measured; it replaces the
///   intra-site link for that pair, with the site's entry for a quantity the host link lacks.
/// Routes: same site, host -> intra-site link of the lower-numbered host (or the host link) -> host; between sites, host -> uplink -> site-pair
/// link -> downlink -> host. A transfer alone on its route therefore takes latency + bytes / bandwidth of the
/// alpha-beta cost. Each site's hosts form a zone whose routes to other sites leave through a gateway router,
/// reached by a zero-latency fat pipe (SimGrid forbids empty routes); gateway links never limit a flow.
struct SimPlatform {
    std::vector<std::string> hostNames;
    std::vector<int> hostSite;
    std::vector<int> hostCores;
    std::vector<std::string> siteNames;
    std::vector<SimLink> links;
    std::vector<int> intra;                      ///< per host, index into links
    std::vector<int> uplink;                     ///< per site
    std::vector<int> downlink;                   ///< per site
    std::vector<int> gateway;                    ///< per site
    std::vector<int> pair;                       ///< site a x sites + b, -1 on the diagonal
    std::map<std::pair<int, int>, int> hostPair; ///< (from host, to host) of one site -> link
    /// Host links the project has between hosts of different sites: SimGrid's zone routes go through the
    /// site-pair link, so these are not in the platform (reported, not silently dropped).
    int crossSiteHostLinks = 0;

    int siteCount() const { return static_cast<int>(siteNames.size()); }
    int hostCount() const { return static_cast<int>(hostNames.size()); }
    /// Appends the links a transfer from host h1 to host h2 crosses (gateway links left out: they never limit).
    void route(int h1, int h2, std::vector<int>& out) const;
    /// The number of routes the platform declares (what its size limit counts).
    std::int64_t declaredRoutes() const;
};

/// The SimGrid settings every simulation and prediction uses: the CM02 flow model without cross-traffic and without
/// the TCP window limit, so that a transfer alone on its route takes exactly latency + bytes / bandwidth, solved
/// with the full max-min solver (network/optim:Full). SimGrid's default lazy solver finished transfers that start
/// at the same simulated instant too early: an SMPI run of a halo exchange whose ranks post every step's messages at
/// once took 20.00 s where its busiest link alone needs 20.88 s.
std::vector<std::string> simgridConfiguration();

/// The largest platform buildPlatform accepts, in declared routes (each site's host pairs, plus the site pairs).
constexpr std::int64_t kMaxDeclaredRoutes = 4'000'000;

/// Builds the platform of a topology over a complete network (every site-level entry present: estimate the
/// missing ones first). Fails when the platform would declare more than kMaxDeclaredRoutes routes, naming the
/// limit.
Expected<SimPlatform> buildPlatform(const model::Topology& topology, const model::Network& network);

/// The platform as a SimGrid XML file (DTD 4.1), its <config> stating simgridConfiguration(): one zone per site (Full routing) inside a Full world zone
/// whose zone routes are uplink -> site-pair link -> downlink.
std::string platformXml(const SimPlatform& platform);

} // namespace meridian::sim
