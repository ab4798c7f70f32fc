#include "core/cost/gas_cost.h"

#include "core/common/ranks.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <mutex>

namespace meridian::cost {

Expected<TrafficProfile> TrafficProfile::fromId(std::string_view id, double activeFraction)
{
    TrafficProfile p;
    if (id == "pagerank")
        p.kind = Kind::PageRank;
    else if (id == "sssp")
        p.kind = Kind::Sssp;
    else if (id == "subgraph-isomorphism")
        p.kind = Kind::SubgraphIsomorphism;
    else
        return makeError(ErrorCode::InvalidInput,
                         "unknown traffic profile '" + std::string(id)
                             + "' (known: pagerank, sssp, subgraph-isomorphism)");
    if (p.kind == Kind::Sssp) {
        if (!(activeFraction > 0.0 && activeFraction <= 1.0))
            return makeError(ErrorCode::InvalidInput, "the sssp active fraction must be in (0, 1]");
        p.activeFraction = activeFraction;
    }
    return p;
}

std::string_view TrafficProfile::id() const
{
    switch (kind) {
    case Kind::PageRank:
        return "pagerank";
    case Kind::Sssp:
        return "sssp";
    case Kind::SubgraphIsomorphism:
        return "subgraph-isomorphism";
    }
    return "pagerank";
}

std::string TrafficProfile::describe() const
{
    switch (kind) {
    case Kind::PageRank:
        return "pagerank: every vertex active; a_v = 8 bytes to each mirror; a mirror holding at least one in-edge of "
               "v sends g_v^r = 8 bytes (combined sums).";
    case Kind::Sssp:
        return "sssp: pagerank's sizes times the active fraction " + std::to_string(activeFraction)
            + " (expected traffic).";
    case Kind::SubgraphIsomorphism:
        return "subgraph-isomorphism: a_v = 8 (1 + indeg v) bytes; a mirror sends the bound partial matches of its "
               "in-edges, g_v^r = sum of a_u over in-edges (u, v) in r.";
    }
    return {};
}

Expected<GasNetwork> GasNetwork::fromTopology(const model::Topology& topology)
{
    GasNetwork n;
    if (topology.siteCount() > 64)
        return makeError(ErrorCode::InvalidInput, "graph partitioning supports at most 64 sites");
    for (const auto& s : topology.sites()) {
        const auto missing = [&](const char* what) {
            return makeError(ErrorCode::InvalidInput,
                             "site '" + s.name + "' has no " + what + " (needed by the GAS cost model)");
        };
        if (!(s.uplinkMBps > 0.0) || !std::isfinite(s.uplinkMBps))
            return missing("uplink bandwidth (up_MBps)");
        if (!(s.downlinkMBps > 0.0) || !std::isfinite(s.downlinkMBps))
            return missing("downlink bandwidth (down_MBps)");
        if (!(s.egressUsdPerGB >= 0.0) || !std::isfinite(s.egressUsdPerGB))
            return missing("upload price (egress_usd_per_GB)");
        n.upBytesPerSecond.push_back(s.uplinkMBps * 1e6);
        n.downBytesPerSecond.push_back(s.downlinkMBps * 1e6);
        n.usdPerByte.push_back(s.egressUsdPerGB * 1e-9);
    }
    return n;
}

std::string GasNetwork::missingInputs(const model::Topology& topology)
{
    if (topology.siteCount() > 64)
        return "the project has " + std::to_string(topology.siteCount()) + " sites; graph partitioning supports 64";
    const struct {
        const char* what;
        bool (*has)(const model::Site&);
    } inputs[] = {
        {"uplink bandwidth (up_MBps)",
         [](const model::Site& s) { return s.uplinkMBps > 0.0 && std::isfinite(s.uplinkMBps); }},
        {"downlink bandwidth (down_MBps)",
         [](const model::Site& s) { return s.downlinkMBps > 0.0 && std::isfinite(s.downlinkMBps); }},
        {"upload price (egress_usd_per_GB)",
         [](const model::Site& s) { return s.egressUsdPerGB >= 0.0 && std::isfinite(s.egressUsdPerGB); }},
    };
    std::string sentence;
    for (const auto& input : inputs) {
        std::vector<std::string> lacking;
        for (const auto& s : topology.sites())
            if (!input.has(s))
                lacking.push_back(s.name);
        if (lacking.empty())
            continue;
        std::string names;
        const std::size_t shown = std::min<std::size_t>(lacking.size(), 6);
        for (std::size_t k = 0; k < shown; ++k)
            names += (k == 0 ? "" : k + 1 == shown && lacking.size() == shown ? " and " : ", ") + lacking[k];
        if (lacking.size() > shown)
            names += " and " + std::to_string(lacking.size() - shown) + " more";
        sentence += (sentence.empty() ? "" : "; ") + names + (lacking.size() == 1 ? " has no " : " have no ")
            + input.what;
    }
    return sentence;
}

std::string GasMetrics::linkName(const model::Topology& topology, int site, bool uplink)
{
    if (site < 0)
        return "none";
    return topology.site(site).name + (uplink ? " uplink" : " downlink");
}

VertexSizes vertexSizes(const model::Graph& graph, const TrafficProfile& profile)
{
    VertexSizes s;
    s.binds = profile.binds();
    const double scale = profile.kind == TrafficProfile::Kind::Sssp ? profile.activeFraction : 1.0;
    s.apply.assign(graph.vertexCount, static_cast<float>(8.0 * scale));
    s.gather = 8.0 * scale;
    if (s.binds) {
        std::vector<std::uint32_t> indeg(graph.vertexCount, 0);
        for (std::uint32_t v : graph.dst)
            ++indeg[v];
        for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
            s.apply[v] = static_cast<float>(8.0 * (1.0 + indeg[v]));
    }
    return s;
}

VertexSizes combiningSizes(std::uint32_t vertices, const TrafficProfile& profile)
{
    VertexSizes s;
    const double scale = profile.kind == TrafficProfile::Kind::Sssp ? profile.activeFraction : 1.0;
    s.apply.assign(vertices, static_cast<float>(8.0 * scale));
    s.gather = 8.0 * scale;
    return s;
}

namespace {

/// Accumulates the per-site traffic of one vertex with sign (+1 add, -1 remove).
struct Totals {
    std::vector<double> gUp, gDown, aUp, aDown;
    explicit Totals(int m)
        : gUp(m, 0.0)
        , gDown(m, 0.0)
        , aUp(m, 0.0)
        , aDown(m, 0.0)
    {}
};

/// The link loads one vertex causes, with sign (+1 add, -1 remove), handed to add(link, site, bytes) with link
/// 0 gather up, 1 gather down, 2 apply up, 3 apply down.
template <typename Add, typename GatherOf>
void addVertexTraffic(const Add& add, std::uint64_t replicas, int master, double apply, const GatherOf& gatherOf,
                      double sign)
{
    const int mirrors = std::popcount(replicas) - 1;
    if (mirrors <= 0)
        return;
    add(2, master, sign * apply * mirrors);
    for (std::uint64_t rest = replicas & ~(1ull << master); rest; rest &= rest - 1) {
        const int r = std::countr_zero(rest);
        add(3, r, sign * apply);
        const double g = gatherOf(r);
        if (g > 0.0) {
            add(0, r, sign * g);
            add(1, master, sign * g);
        }
    }
}

GasMetrics finish(const Totals& t, const GasNetwork& n, double replicaSum, std::uint32_t vertices)
{
    GasMetrics m;
    const int sites = n.siteCount();
    m.gatherUp = t.gUp;
    m.gatherDown = t.gDown;
    m.applyUp = t.aUp;
    m.applyDown = t.aDown;
    m.uploadShare.assign(sites, 0.0);
    for (int r = 0; r < sites; ++r) {
        const double gUp = t.gUp[r] / n.upBytesPerSecond[r];
        const double gDown = t.gDown[r] / n.downBytesPerSecond[r];
        const double aUp = t.aUp[r] / n.upBytesPerSecond[r];
        const double aDown = t.aDown[r] / n.downBytesPerSecond[r];
        if (std::max(gUp, gDown) > m.gatherSeconds || m.gatherBottleneck < 0) {
            m.gatherSeconds = std::max(gUp, gDown);
            m.gatherBottleneck = r;
            m.gatherBottleneckUplink = gUp >= gDown;
        }
        if (std::max(aUp, aDown) > m.applySeconds || m.applyBottleneck < 0) {
            m.applySeconds = std::max(aUp, aDown);
            m.applyBottleneck = r;
            m.applyBottleneckUplink = aUp >= aDown;
        }
        const double up = t.gUp[r] + t.aUp[r];
        m.wanBytes += up;
        m.wanUsd += up * n.usdPerByte[r];
    }
    for (int r = 0; r < sites; ++r)
        m.uploadShare[r] = m.wanBytes > 0.0 ? (t.gUp[r] + t.aUp[r]) / m.wanBytes : 0.0;
    m.transferSeconds = m.gatherSeconds + m.applySeconds;
    m.replicationFactor = vertices ? replicaSum / vertices : 0.0;
    return m;
}

double seconds(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& bwA,
               const std::vector<double>& bwB)
{
    double worst = 0.0;
    for (std::size_t r = 0; r < a.size(); ++r)
        worst = std::max({worst, a[r] / bwA[r], b[r] / bwB[r]});
    return worst;
}

} // namespace

namespace {

/// Each vertex's replica sites (its master and its edges' sites), the sites holding its in-edges, and for a
/// binding profile the gathered bytes per (vertex, site).
struct ReplicaSets {
    std::vector<std::uint64_t> replicas, inSites;
    std::vector<float> bound;
    int sites = 0;

    ReplicaSets(const model::Graph& graph, const model::EdgePartition& partition, const VertexSizes& sizes, int m)
        : replicas(graph.vertexCount, 0)
        , inSites(graph.vertexCount, 0)
        , sites(m)
    {
        for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
            replicas[v] = 1ull << partition.masterSite[v];
        if (sizes.binds)
            bound.assign(static_cast<std::size_t>(graph.vertexCount) * m, 0.0f);
        const std::size_t edges = graph.edgeCount();
        for (std::size_t e = 0; e < edges; ++e) {
            // The per-vertex arrays are larger than the caches and the edges' vertices random: load them ahead.
            constexpr std::size_t kAhead = 16;
            const std::size_t ahead = std::min(e + kAhead, edges - 1);
            __builtin_prefetch(replicas.data() + graph.src[ahead], 1);
            __builtin_prefetch(replicas.data() + graph.dst[ahead], 1);
            __builtin_prefetch(inSites.data() + graph.dst[ahead], 1);
            const std::uint64_t bit = 1ull << partition.edgeSite[e];
            replicas[graph.src[e]] |= bit;
            replicas[graph.dst[e]] |= bit;
            inSites[graph.dst[e]] |= bit;
            if (sizes.binds)
                bound[static_cast<std::size_t>(graph.dst[e]) * m + partition.edgeSite[e]] += sizes.apply[graph.src[e]];
        }
    }

    /// The bytes the mirror of v at site r gathers to its master.
    double gatherOf(std::uint32_t v, int r, const VertexSizes& sizes) const
    {
        if (!(inSites[v] >> r & 1))
            return 0.0;
        return sizes.binds ? bound[static_cast<std::size_t>(v) * sites + r] : sizes.gather;
    }
};

} // namespace

GasMetrics evaluateGas(const model::Graph& graph, const model::EdgePartition& partition, const VertexSizes& sizes,
                       const GasNetwork& network)
{
    const int m = network.siteCount();
    const std::uint32_t n = graph.vertexCount;
    const ReplicaSets sets(graph, partition, sizes, m);
    Totals t(m);
    double replicaSum = 0.0;
    for (std::uint32_t v = 0; v < n; ++v) {
        replicaSum += std::popcount(sets.replicas[v]);
        addVertexTraffic(
            [&t](int link, int r, double bytes) {
                (link == 0 ? t.gUp : link == 1 ? t.gDown : link == 2 ? t.aUp : t.aDown)[r] += bytes;
            },
            sets.replicas[v], partition.masterSite[v], sizes.apply[v],
            [&](int r) { return sets.gatherOf(v, r, sizes); }, 1.0);
    }
    return finish(t, network, replicaSum, n);
}

GasMetrics evaluateGasFromSites(const std::vector<std::uint64_t>& replicas, const std::vector<std::uint64_t>& inSites,
                                const std::vector<std::uint8_t>& masters, const VertexSizes& sizes,
                                const GasNetwork& network)
{
    GasSitesFold fold(network.siteCount());
    fold.add(replicas.data(), inSites.data(), masters.data(), sizes.apply.data(), replicas.size(), sizes.gather);
    return fold.metrics(network);
}

GasSitesFold::GasSitesFold(int sites)
    : m_gUp(sites, 0.0)
    , m_gDown(sites, 0.0)
    , m_aUp(sites, 0.0)
    , m_aDown(sites, 0.0)
{}

void GasSitesFold::add(const std::uint64_t* replicas, const std::uint64_t* inSites, const std::uint8_t* masters,
                       const float* apply, std::size_t count, double gather)
{
    for (std::size_t v = 0; v < count; ++v) {
        const std::uint64_t sites = replicas[v] | 1ull << masters[v];
        m_replicaSum += std::popcount(sites);
        addVertexTraffic(
            [this](int link, int r, double bytes) {
                (link == 0 ? m_gUp : link == 1 ? m_gDown : link == 2 ? m_aUp : m_aDown)[r] += bytes;
            },
            sites, masters[v], apply[v], [&](int r) { return (inSites[v] >> r & 1) ? gather : 0.0; }, 1.0);
    }
    m_vertices += count;
}

std::string GasSitesFold::pack() const
{
    Packer out;
    out.putVector(m_gUp);
    out.putVector(m_gDown);
    out.putVector(m_aUp);
    out.putVector(m_aDown);
    out.put(m_replicaSum);
    out.put(m_vertices);
    return std::move(out.bytes());
}

GasSitesFold GasSitesFold::unpack(std::string_view bytes)
{
    Unpacker in(bytes);
    GasSitesFold fold(0);
    fold.m_gUp = in.getVector<double>();
    fold.m_gDown = in.getVector<double>();
    fold.m_aUp = in.getVector<double>();
    fold.m_aDown = in.getVector<double>();
    fold.m_replicaSum = in.get<double>();
    fold.m_vertices = in.get<std::uint64_t>();
    return fold;
}

GasMetrics GasSitesFold::metrics(const GasNetwork& network) const
{
    Totals t(0);
    t.gUp = m_gUp;
    t.gDown = m_gDown;
    t.aUp = m_aUp;
    t.aDown = m_aDown;
    return finish(t, network, m_replicaSum, static_cast<std::uint32_t>(m_vertices));
}

std::vector<double> gasTrafficMatrix(const model::Graph& graph, const model::EdgePartition& partition,
                                     const VertexSizes& sizes, int sites)
{
    const ReplicaSets sets(graph, partition, sizes, sites);
    std::vector<double> bytes(static_cast<std::size_t>(sites) * sites, 0.0);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v) {
        const int master = partition.masterSite[v];
        for (std::uint64_t rest = sets.replicas[v] & ~(1ull << master); rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            bytes[static_cast<std::size_t>(master) * sites + r] += sizes.apply[v]; // apply: master -> mirror
            bytes[static_cast<std::size_t>(r) * sites + master] += sets.gatherOf(v, r,
                                                                                 sizes); // gather: mirror -> master
        }
    }
    return bytes;
}

GasState::GasState(const model::Graph& graph, model::EdgePartition& partition, const VertexSizes& sizes,
                   const GasNetwork& network, const std::function<bool()>& canceled, Executor* executor)
    : m_graph(&graph)
    , m_partition(&partition)
    , m_network(network)
    , m_sites(network.siteCount())
    , m_binds(sizes.binds)
    , m_gather(sizes.gather)
    , m_apply(sizes.apply)
    , m_counts(graph.vertexCount, m_sites)
    , m_edgeSites(graph.vertexCount, 0)
    , m_gUp(m_sites, 0.0)
    , m_gDown(m_sites, 0.0)
    , m_aUp(m_sites, 0.0)
    , m_aDown(m_sites, 0.0)
{
    for (int r = 0; r < m_sites; ++r) {
        m_invUp.push_back(1.0 / network.upBytesPerSecond[r]);
        m_invDown.push_back(1.0 / network.downBytesPerSecond[r]);
    }
    m_seconds.assign(4 * static_cast<std::size_t>(m_sites), 0.0);
    if (m_binds)
        m_gatherSum.assign(static_cast<std::size_t>(graph.vertexCount) * m_sites, 0.0f);
    const int parts = executor ? std::max(1, executor->concurrency()) : 1;
    if (parts > 1)
        widenHubs(); // every part would widen a hub (moving every wide row) while the others count
    // The vertices are cut into parts; each part scans every edge and counts those of its own vertices, so no two
    // workers touch one vertex's counts. The parts are taken from a shared counter: a worker the executor never
    // starts leaves its part to the others.
    std::atomic<int> nextPart{0};
    std::atomic<bool> stopped{false};
    std::mutex merge;
    const auto work = [&](int) {
        for (int part = nextPart++; part < parts; part = nextPart++) {
            const auto lo = static_cast<std::uint32_t>(std::uint64_t{graph.vertexCount} * part / parts);
            const auto hi = static_cast<std::uint32_t>(std::uint64_t{graph.vertexCount} * (part + 1) / parts);
            if (!countPart(lo, hi, canceled)) {
                stopped = true;
                return;
            }
            addPartTraffic(lo, hi, merge);
        }
    };
    if (parts > 1)
        executor->shareWork(parts, work);
    else
        work(0);
    if (stopped) {
        m_complete = false;
        return;
    }
    resync();
}

void GasState::widenHubs()
{
    std::vector<std::uint32_t> degree(m_graph->vertexCount, 0);
    for (std::size_t e = 0; e < m_graph->edgeCount(); ++e) {
        ++degree[m_graph->src[e]];
        ++degree[m_graph->dst[e]];
    }
    for (std::uint32_t v = 0; v < m_graph->vertexCount; ++v)
        if (degree[v] >= SiteCounts::kNarrowLimit - 1)
            m_counts.widenNow(v);
}

bool GasState::countPart(std::uint32_t lo, std::uint32_t hi, const std::function<bool()>& canceled)
{
    const model::Graph& graph = *m_graph;
    const auto mine = [lo, hi](std::uint32_t v) { return v >= lo && v < hi; };
    const std::size_t edges = graph.edgeCount();
    for (std::size_t e = 0; e < edges; ++e) {
        if ((e & 0xFFFF) == 0 && canceled && canceled())
            return false;
        // The counters of random vertices are larger than the caches: load the next edges' rows ahead.
        constexpr std::size_t kAhead = 16;
        if (e + kAhead < edges) {
            const std::uint32_t a = graph.src[e + kAhead], b = graph.dst[e + kAhead];
            if (mine(a)) {
                m_counts.prefetch(a, true);
                __builtin_prefetch(m_edgeSites.data() + a, 1);
            }
            if (mine(b)) {
                m_counts.prefetch(b, true);
                __builtin_prefetch(m_edgeSites.data() + b, 1);
            }
        }
        const std::uint32_t u = graph.src[e], v = graph.dst[e];
        const int site = m_partition->edgeSite[e];
        if (mine(u))
            countOne(u, site, 1, 0);
        if (mine(v)) {
            countOne(v, site, 1, 1);
            if (m_binds)
                m_gatherSum[static_cast<std::size_t>(v) * m_sites + site] += m_apply[u];
        }
    }
    return true;
}

void GasState::addPartTraffic(std::uint32_t lo, std::uint32_t hi, std::mutex& merge)
{
    // The part's vertices' traffic, summed apart, then added to the totals.
    Totals t(m_sites);
    for (std::uint32_t v = lo; v < hi; ++v)
        addVertexTraffic(
            [&t](int link, int r, double bytes) {
                (link == 0 ? t.gUp : link == 1 ? t.gDown : link == 2 ? t.aUp : t.aDown)[r] += bytes;
            },
            replicaMask(v), m_partition->masterSite[v], m_apply[v], [&](int r) { return gatherSize(v, r); }, 1.0);
    const std::lock_guard lock(merge);
    for (int r = 0; r < m_sites; ++r) {
        m_gUp[r] += t.gUp[r];
        m_gDown[r] += t.gDown[r];
        m_aUp[r] += t.aUp[r];
        m_aDown[r] += t.aDown[r];
    }
}

void GasState::count(std::uint32_t u, std::uint32_t v, int site, int delta)
{
    m_counts.add(u, site, delta, 0);
    m_counts.add(v, site, delta, delta);
    // The sites holding edges of a vertex, kept with the counts (a site joins at its first edge, leaves at its last).
    const std::uint64_t bit = 1ull << site;
    m_edgeSites[u] = m_counts.all(u, site) ? m_edgeSites[u] | bit : m_edgeSites[u] & ~bit;
    m_edgeSites[v] = m_counts.all(v, site) ? m_edgeSites[v] | bit : m_edgeSites[v] & ~bit;
    if (m_binds)
        m_gatherSum[static_cast<std::size_t>(v) * m_sites + site] += static_cast<float>(delta) * m_apply[u];
}

void GasState::contribute(std::uint32_t v, double sign)
{
    addVertexTraffic([this](int link, int r, double bytes) { addLoad(link, r, bytes); }, replicaMask(v),
                     m_partition->masterSite[v], m_apply[v], [&](int r) { return gatherSize(v, r); }, sign);
}

void GasState::recount(std::uint32_t x, int r, int all, int in)
{
    const auto before = m_counts.change(x, r, all, in);
    const bool wasPresent = before.all > 0, wasGathering = before.in > 0;
    const bool present = before.all + all > 0, gathering = before.in + in > 0;
    const std::uint64_t bit = 1ull << r;
    m_edgeSites[x] = present ? m_edgeSites[x] | bit : m_edgeSites[x] & ~bit;
    const int master = m_partition->masterSite[x];
    if (r == master)
        return; // the master's own site sends and receives nothing for x
    if (present != wasPresent) {
        const double a = present ? m_apply[x] : -m_apply[x];
        addLoad(2, master, a);
        addLoad(3, r, a);
    }
    if (gathering != wasGathering) {
        const double g = gathering ? m_gather : -m_gather;
        addLoad(0, r, g);
        addLoad(1, master, g);
    }
}

void GasState::countEffect(std::uint32_t x, int r, int all, int in, std::pair<int, double>* out, int& n) const
{
    const int master = m_partition->masterSite[x];
    if (r == master)
        return;
    const std::uint32_t a0 = m_counts.all(x, r), i0 = m_counts.in(x, r);
    const bool wasPresent = a0 > 0, present = a0 + all > 0;
    const bool wasGathering = i0 > 0, gathering = i0 + in > 0;
    if (present != wasPresent) {
        const double a = present ? m_apply[x] : -m_apply[x];
        out[n++] = {4 * master + 2, a};
        out[n++] = {4 * r + 3, a};
    }
    if (gathering != wasGathering) {
        const double g = gathering ? m_gather : -m_gather;
        out[n++] = {4 * r + 0, g};
        out[n++] = {4 * master + 1, g};
    }
}

GasState::Summary GasState::predictMove(std::size_t e, std::uint32_t u, std::uint32_t v, int site,
                                        const Summary& now) const
{
    const int from = m_partition->edgeSite[e];
    Summary next = now;
    ++m_steps;
    if (from == site)
        return next;
    std::pair<int, double> changes[16];
    int n = 0;
    countEffect(u, from, -1, 0, changes, n);
    countEffect(v, from, -1, -1, changes, n);
    countEffect(u, site, +1, 0, changes, n);
    countEffect(v, site, +1, +1, changes, n);
    // A link may change twice (both endpoints' masters on one site): merge before squaring.
    for (int i = 0; i < n; ++i) {
        double bytes = changes[i].second;
        if (bytes == 0.0)
            continue;
        for (int j = i + 1; j < n; ++j)
            if (changes[j].first == changes[i].first) {
                bytes += changes[j].second;
                changes[j].second = 0.0;
            }
        const int r = changes[i].first / 4, kind = changes[i].first % 4;
        const double* load = kind == 0 ? m_gUp.data()
            : kind == 1                ? m_gDown.data()
            : kind == 2                ? m_aUp.data()
                                       : m_aDown.data();
        const double inv = (kind == 0 || kind == 2) ? m_invUp[r] : m_invDown[r];
        const double before = load[r] * inv, after = (load[r] + bytes) * inv;
        next.squares += after * after - before * before;
        if (kind == 0 || kind == 2)
            next.usd += bytes * m_network.usdPerByte[r];
        double& stage = kind < 2 ? next.gatherSeconds : next.applySeconds;
        stage = std::max(stage, after);
    }
    return next;
}

void GasState::moveEdge(std::size_t e, std::uint32_t u, std::uint32_t v, int site)
{
    const int from = m_partition->edgeSite[e];
    m_steps += m_binds ? static_cast<std::uint64_t>(m_sites) : 1;
    if (from == site)
        return;
    m_partition->edgeSite[e] = static_cast<std::uint8_t>(site);
    if (!m_binds) {
        // A combining profile's traffic changes only where a replica or a gathering site of u or v appears or
        // disappears: O(1) per move.
        recount(u, from, -1, 0);
        recount(v, from, -1, -1);
        recount(u, site, +1, 0);
        recount(v, site, +1, +1);
        return;
    }
    contribute(u, -1.0);
    contribute(v, -1.0);
    count(u, v, from, -1);
    count(u, v, site, +1);
    contribute(u, 1.0);
    contribute(v, 1.0);
}

void GasState::setMaster(std::uint32_t v, int site)
{
    contribute(v, -1.0);
    m_partition->masterSite[v] = static_cast<std::uint8_t>(site);
    contribute(v, 1.0);
}

void GasState::addEdge(std::uint32_t u, std::uint32_t v, int site)
{
    contribute(u, -1.0);
    if (v != u)
        contribute(v, -1.0);
    count(u, v, site, +1);
    contribute(u, 1.0);
    if (v != u)
        contribute(v, 1.0);
}

void GasState::removeEdge(std::uint32_t u, std::uint32_t v, int site)
{
    contribute(u, -1.0);
    contribute(v, -1.0);
    count(u, v, site, -1);
    contribute(u, 1.0);
    contribute(v, 1.0);
}

void GasState::addVertex(int home, float applySize)
{
    m_apply.push_back(applySize);
    m_partition->masterSite.push_back(static_cast<std::uint8_t>(home));
    m_counts.addVertex();
    m_edgeSites.push_back(0);
    if (m_binds)
        m_gatherSum.resize(m_gatherSum.size() + m_sites, 0.0f);
}

void GasState::setApplySize(std::uint32_t v, float applySize)
{
    contribute(v, -1.0);
    m_apply[v] = applySize;
    contribute(v, 1.0);
}

double GasState::transferSeconds() const
{
    return seconds(m_gUp, m_gDown, m_network.upBytesPerSecond, m_network.downBytesPerSecond)
        + seconds(m_aUp, m_aDown, m_network.upBytesPerSecond, m_network.downBytesPerSecond);
}

double GasState::siteSecondsSum() const
{
    double sum = 0.0;
    for (int r = 0; r < m_sites; ++r) {
        const double up = m_network.upBytesPerSecond[r], down = m_network.downBytesPerSecond[r];
        sum += std::max(m_gUp[r] / up, m_gDown[r] / down) + std::max(m_aUp[r] / up, m_aDown[r] / down);
    }
    return sum;
}

double GasState::wanUsd() const
{
    double usd = 0.0;
    for (int r = 0; r < m_sites; ++r)
        usd += (m_gUp[r] + m_aUp[r]) * m_network.usdPerByte[r];
    return usd;
}

void GasState::addLoad(int link, int r, double bytes)
{
    double& load = (link == 0 ? m_gUp : link == 1 ? m_gDown : link == 2 ? m_aUp : m_aDown)[r];
    const bool up = link == 0 || link == 2;
    const int i = link * m_sites + r;
    double& seconds = m_seconds[i];
    const double before = seconds;
    load += bytes;
    seconds = load * (up ? m_invUp[r] : m_invDown[r]);
    m_squares += seconds * seconds - before * before;
    if (up)
        m_usd += bytes * m_network.usdPerByte[r];
    // Each stage's busiest link is kept; only when it falls must the stage be scanned again.
    StageMax& stage = m_stageMax[link / 2];
    if (seconds >= stage.seconds) {
        stage.seconds = seconds;
        stage.link = i;
    } else if (i == stage.link) {
        stage.stale = true;
    }
}

void GasState::resync()
{
    m_squares = 0.0;
    m_usd = 0.0;
    for (int r = 0; r < m_sites; ++r) {
        const double loads[4] = {m_gUp[r], m_gDown[r], m_aUp[r], m_aDown[r]};
        for (int link = 0; link < 4; ++link) {
            const double seconds = loads[link] * ((link == 0 || link == 2) ? m_invUp[r] : m_invDown[r]);
            m_seconds[link * m_sites + r] = seconds;
            m_squares += seconds * seconds;
        }
        m_usd += (m_gUp[r] + m_aUp[r]) * m_network.usdPerByte[r];
    }
    rescan(0);
    rescan(1);
}

void GasState::rescan(int stage) const
{
    StageMax& m = m_stageMax[stage];
    m = StageMax{};
    for (int i = 2 * stage * m_sites; i < 2 * (stage + 1) * m_sites; ++i)
        if (m.link < 0 || m_seconds[i] > m.seconds) {
            m.seconds = m_seconds[i];
            m.link = i;
        }
}

GasState::Summary GasState::summary() const
{
    for (int stage = 0; stage < 2; ++stage)
        if (m_stageMax[stage].stale)
            rescan(stage);
    Summary s;
    s.gatherSeconds = m_stageMax[0].seconds;
    s.applySeconds = m_stageMax[1].seconds;
    s.squares = m_squares;
    s.usd = m_usd;
    return s;
}

GasMetrics GasState::linkMetrics() const
{
    Totals t(m_sites);
    t.gUp = m_gUp;
    t.gDown = m_gDown;
    t.aUp = m_aUp;
    t.aDown = m_aDown;
    return finish(t, m_network, 0.0, 0);
}

GasMetrics GasState::metrics() const
{
    GasMetrics m = linkMetrics();
    double replicaSum = 0.0;
    for (std::uint32_t v = 0; v < vertexCount(); ++v)
        replicaSum += std::popcount(replicaMask(v));
    m.replicationFactor = vertexCount() ? replicaSum / vertexCount() : 0.0;
    return m;
}

} // namespace meridian::cost
