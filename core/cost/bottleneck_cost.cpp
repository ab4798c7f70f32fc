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

double bulkSynchronousSteps(const model::CommMatrix& comm)
{
    if (!comm.hasMessages())
        return 1.0;
    std::vector<double> counts;
    const auto& messages = comm.messages();
    counts.reserve(static_cast<std::size_t>(messages.nonZeros()));
    for (int i = 0; i < messages.outerSize(); ++i)
        for (model::CommMatrix::Sparse::InnerIterator it(messages, i); it; ++it)
            if (it.col() != i && it.value() > 0.0)
                counts.push_back(it.value());
    if (counts.empty())
        return 1.0;
    const auto middle = counts.begin() + static_cast<std::ptrdiff_t>(counts.size() / 2);
    std::nth_element(counts.begin(), middle, counts.end());
    return std::max(1.0, std::round(*middle));
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

namespace {

/// The link indices of m sites: pair (a, b) at a x m + b, a's uplink at m^2 + a, its downlink at m^2 + m + a.
std::size_t pairLink(int m, int a, int b) { return static_cast<std::size_t>(a) * m + b; }
std::size_t upLink(int m, int a) { return static_cast<std::size_t>(m) * m + a; }
std::size_t downLink(int m, int a) { return static_cast<std::size_t>(m) * m + m + a; }

/// The largest leaf of a max segment tree with `leaves` leaves in the link range [lo, hi).
double rangeMax(const std::vector<double>& tree, int leaves, int lo, int hi)
{
    double best = 0.0;
    for (lo += leaves, hi += leaves; lo < hi; lo >>= 1, hi >>= 1) {
        if (lo & 1)
            best = std::max(best, tree[static_cast<std::size_t>(lo++)]);
        if (hi & 1)
            best = std::max(best, tree[static_cast<std::size_t>(--hi)]);
    }
    return best;
}

void setLeaf(std::vector<double>& tree, int leaves, int link, double seconds)
{
    std::size_t i = static_cast<std::size_t>(leaves) + link;
    tree[i] = seconds;
    for (i >>= 1; i >= 1; i >>= 1)
        tree[i] = std::max(tree[2 * i], tree[2 * i + 1]);
}

} // namespace

BottleneckCost::BottleneckCost(const model::Topology& topology, const model::Network& network,
                               const model::CommMatrix& comm, double latencySteps)
    : m_siteCount(topology.siteCount())
    , m_latencySteps(latencySteps)
{
    const int m = m_siteCount;
    if (latencySteps > 0.0) {
        m_stepLatency.assign(static_cast<std::size_t>(m) * m, 0.0);
        for (int a = 0; a < m; ++a)
            for (int b = 0; b < m; ++b)
                m_stepLatency[pairLink(m, a, b)] = latencySteps * network.latencyMs(a, b) / 1000.0;
    }
    m_secondsPerByte.assign(static_cast<std::size_t>(linkCount()), 0.0);
    for (int a = 0; a < m; ++a) {
        for (int b = 0; b < m; ++b)
            if (a != b)
                m_secondsPerByte[pairLink(m, a, b)] = 1.0 / (network.bandwidthMBps(a, b) * kBytesPerMB);
        m_secondsPerByte[upLink(m, a)] = 1.0 / (accessBandwidthMBps(topology, network, a, true) * kBytesPerMB);
        m_secondsPerByte[downLink(m, a)] = 1.0 / (accessBandwidthMBps(topology, network, a, false) * kBytesPerMB);
    }
    const auto csr = [](const model::CommMatrix::Sparse& v, std::vector<int>& ptr, std::vector<int>& idx,
                        std::vector<double>& bytes) {
        ptr.assign(v.outerIndexPtr(), v.outerIndexPtr() + v.rows() + 1);
        idx.assign(v.innerIndexPtr(), v.innerIndexPtr() + v.nonZeros());
        bytes.assign(v.valuePtr(), v.valuePtr() + v.nonZeros());
    };
    csr(comm.volume(), m_outPtr, m_outIdx, m_outBytes);
    csr(comm.transposed().volume(), m_inPtr, m_inIdx, m_inBytes);
}

LinkLoads BottleneckCost::loads(std::span<const int> siteOf) const
{
    const int m = m_siteCount;
    const int links = linkCount();
    LinkLoads out;
    out.m_bytes.assign(static_cast<std::size_t>(links), 0.0);
    const int n = static_cast<int>(m_outPtr.size()) - 1;
    for (int i = 0; i < n; ++i) {
        const int a = siteOf[i];
        for (int e = m_outPtr[i]; e < m_outPtr[i + 1]; ++e) {
            const int b = siteOf[m_outIdx[e]];
            if (b == a)
                continue;
            const double v = m_outBytes[e];
            out.m_bytes[pairLink(m, a, b)] += v;
            out.m_bytes[upLink(m, a)] += v;
            out.m_bytes[downLink(m, b)] += v;
        }
    }
    out.m_leaves = 1;
    while (out.m_leaves < links)
        out.m_leaves *= 2;
    out.m_tree.assign(2 * static_cast<std::size_t>(out.m_leaves), 0.0);
    for (int l = 0; l < links; ++l)
        out.m_tree[static_cast<std::size_t>(out.m_leaves) + l] = out.m_bytes[static_cast<std::size_t>(l)]
            * m_secondsPerByte[static_cast<std::size_t>(l)];
    for (int i = out.m_leaves - 1; i >= 1; --i)
        out.m_tree[static_cast<std::size_t>(i)] = std::max(out.m_tree[2 * static_cast<std::size_t>(i)],
                                                           out.m_tree[2 * static_cast<std::size_t>(i) + 1]);
    if (m_stepLatency.empty())
        return out;
    const int pairs = m * m;
    out.m_pairCount.assign(static_cast<std::size_t>(pairs), 0.0);
    for (int i = 0; i < n; ++i)
        for (int e = m_outPtr[i]; e < m_outPtr[i + 1]; ++e)
            if (m_outIdx[e] != i)
                out.m_pairCount[pairLink(m, siteOf[i], siteOf[m_outIdx[e]])] += 1.0;
    out.m_latencyLeaves = 1;
    while (out.m_latencyLeaves < pairs)
        out.m_latencyLeaves *= 2;
    out.m_latencyTree.assign(2 * static_cast<std::size_t>(out.m_latencyLeaves), 0.0);
    for (int l = 0; l < pairs; ++l) {
        const auto pair = static_cast<std::size_t>(l);
        out.m_latencyTree[static_cast<std::size_t>(out.m_latencyLeaves) + pair] = pairLatencyValue(pair,
                                                                                                   out.m_pairCount[pair]);
    }
    for (int i = out.m_latencyLeaves - 1; i >= 1; --i)
        out.m_latencyTree[static_cast<std::size_t>(i)] = std::max(out.m_latencyTree[2 * static_cast<std::size_t>(i)],
                                                                  out.m_latencyTree[2 * static_cast<std::size_t>(i) + 1]);
    return out;
}

void BottleneckCost::collect(const LinkLoads& loads, std::span<const int> siteOf, int p, int pTo, int q, int qTo) const
{
    const int m = m_siteCount;
    auto& changes = loads.m_changes;
    changes.clear();
    const bool latency = !m_stepLatency.empty();
    const int links = linkCount();
    const auto after = [&](int i) { return i == p ? pTo : i == q ? qTo : siteOf[i]; };
    // One edge's bytes leave the links of its old site pair and join those of its new one.
    const auto edge = [&](int from, int to, double bytes) {
        const int a = siteOf[from];
        const int b = siteOf[to];
        const int a2 = after(from);
        const int b2 = after(to);
        if (a == a2 && b == b2)
            return;
        if (latency) {
            changes.emplace_back(links + a * m + b, -1.0);
            changes.emplace_back(links + a2 * m + b2, 1.0);
        }
        if (a != b) {
            changes.emplace_back(a * m + b, -bytes);
            changes.emplace_back(m * m + a, -bytes);
            changes.emplace_back(m * m + m + b, -bytes);
        }
        if (a2 != b2) {
            changes.emplace_back(a2 * m + b2, bytes);
            changes.emplace_back(m * m + a2, bytes);
            changes.emplace_back(m * m + m + b2, bytes);
        }
    };
    // The edges of x, but not its edges to itself nor to `skip` (whose edges were taken already).
    const auto edgesOf = [&](int x, int skip) {
        for (int e = m_outPtr[x]; e < m_outPtr[x + 1]; ++e)
            if (m_outIdx[e] != x && m_outIdx[e] != skip)
                edge(x, m_outIdx[e], m_outBytes[e]);
        for (int e = m_inPtr[x]; e < m_inPtr[x + 1]; ++e)
            if (m_inIdx[e] != x && m_inIdx[e] != skip)
                edge(m_inIdx[e], x, m_inBytes[e]);
    };
    edgesOf(p, -1);
    if (q >= 0)
        edgesOf(q, p);
    std::sort(changes.begin(), changes.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < changes.size(); ++i) {
        if (kept > 0 && changes[kept - 1].first == changes[i].first)
            changes[kept - 1].second += changes[i].second;
        else
            changes[kept++] = changes[i];
    }
    changes.resize(kept);
}

double BottleneckCost::secondsWithChanges(const LinkLoads& loads) const
{
    const int links = linkCount();
    double best = 0.0;
    int lo = 0;
    auto change = loads.m_changes.begin();
    for (; change != loads.m_changes.end() && change->first < links; ++change) {
        const auto [link, bytes] = *change;
        best = std::max(best, rangeMax(loads.m_tree, loads.m_leaves, lo, link));
        const auto l = static_cast<std::size_t>(link);
        best = std::max(best, (loads.m_bytes[l] + bytes) * m_secondsPerByte[l]);
        lo = link + 1;
    }
    best = std::max(best, rangeMax(loads.m_tree, loads.m_leaves, lo, links));
    if (m_stepLatency.empty())
        return best;
    double slowest = 0.0;
    lo = 0;
    for (; change != loads.m_changes.end(); ++change) {
        const int pair = change->first - links;
        slowest = std::max(slowest, rangeMax(loads.m_latencyTree, loads.m_latencyLeaves, lo, pair));
        const auto i = static_cast<std::size_t>(pair);
        slowest = std::max(slowest, pairLatencyValue(i, loads.m_pairCount[i] + change->second));
        lo = pair + 1;
    }
    const int pairs = m_siteCount * m_siteCount;
    return best + std::max(slowest, rangeMax(loads.m_latencyTree, loads.m_latencyLeaves, lo, pairs));
}

double BottleneckCost::moveDelta(const LinkLoads& loads, std::span<const int> siteOf, int p, int to) const
{
    if (siteOf[p] == to)
        return 0.0;
    collect(loads, siteOf, p, to, -1, -1);
    return secondsWithChanges(loads) - seconds(loads);
}

double BottleneckCost::swapDelta(const LinkLoads& loads, std::span<const int> siteOf, int p, int q) const
{
    if (siteOf[p] == siteOf[q])
        return 0.0;
    collect(loads, siteOf, p, siteOf[q], q, siteOf[p]);
    return secondsWithChanges(loads) - seconds(loads);
}

void BottleneckCost::apply(LinkLoads& loads, std::span<const int> siteOf, int p, int to) const
{
    if (siteOf[p] == to)
        return;
    collect(loads, siteOf, p, to, -1, -1);
    const int links = linkCount();
    for (const auto& [link, change] : loads.m_changes) {
        if (link >= links) {
            const auto pair = static_cast<std::size_t>(link - links);
            loads.m_pairCount[pair] += change;
            setLeaf(loads.m_latencyTree, loads.m_latencyLeaves, link - links,
                    pairLatencyValue(pair, loads.m_pairCount[pair]));
            continue;
        }
        const auto l = static_cast<std::size_t>(link);
        loads.m_bytes[l] += change;
        setLeaf(loads.m_tree, loads.m_leaves, link, std::max(0.0, loads.m_bytes[l] * m_secondsPerByte[l]));
    }
}

} // namespace meridian::cost
