#include "core/cluster/modularity_clustering.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

namespace meridian::cluster {

namespace {

/// Renumbers labels by first appearance and returns the count.
int compact(std::vector<int>& label)
{
    std::map<int, int> ids;
    for (int& l : label) {
        const auto [it, inserted] = ids.emplace(l, static_cast<int>(ids.size()));
        l = it->second;
    }
    return static_cast<int>(ids.size());
}

/// Contracts `graph` by `label` (0..k-1): weights between clusters summed, self-loops kept aside.
WeightedGraph contract(const WeightedGraph& graph, const std::vector<int>& label, int k, std::vector<double>& inner)
{
    std::vector<std::map<int, double>> acc(k);
    inner.assign(k, 0.0);
    for (int v = 0; v < static_cast<int>(graph.size()); ++v)
        for (const auto& [u, w] : graph[v]) {
            if (label[u] == label[v])
                inner[label[v]] += w;
            else
                acc[label[v]][label[u]] += w;
        }
    WeightedGraph out(k);
    for (int c = 0; c < k; ++c)
        out[c].assign(acc[c].begin(), acc[c].end());
    return out;
}

std::vector<double> degrees(const WeightedGraph& graph)
{
    std::vector<double> d(graph.size(), 0.0);
    for (std::size_t v = 0; v < graph.size(); ++v)
        for (const auto& e : graph[v])
            d[v] += e.second;
    return d;
}

} // namespace

double modularity(const WeightedGraph& graph, const std::vector<int>& label)
{
    const std::vector<double> deg = degrees(graph);
    const double total = std::accumulate(deg.begin(), deg.end(), 0.0);
    if (total <= 0.0)
        return 0.0;
    std::map<int, double> within, degC;
    for (int v = 0; v < static_cast<int>(graph.size()); ++v) {
        degC[label[v]] += deg[v];
        for (const auto& [u, w] : graph[v])
            if (label[u] == label[v])
                within[label[v]] += w;
    }
    double q = 0.0;
    for (const auto& [c, d] : degC)
        q += within[c] / total - (d / total) * (d / total);
    return q;
}

namespace {

/// One coarsening round: pairs of nodes joined by the densest edges (weight / (deg x deg) above `threshold`),
/// each node in at most one pair. Returns each node's merged label, or nothing when no pair qualifies.
std::optional<std::vector<int>> matchDensestPairs(const WeightedGraph& current, const std::vector<double>& deg,
                                                  double threshold)
{
    const int k = static_cast<int>(current.size());
    std::vector<std::tuple<double, int, int>> edges;
    for (int c = 0; c < k; ++c)
        for (const auto& [d, w] : current[c])
            if (c < d)
                edges.emplace_back(w / (deg[c] * deg[d]), c, d);
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
        return std::get<0>(a) > std::get<0>(b)
            || (std::get<0>(a) == std::get<0>(b)
                && std::make_pair(std::get<1>(a), std::get<2>(a)) < std::make_pair(std::get<1>(b), std::get<2>(b)));
    });
    std::vector<int> merged(k, -1);
    bool any = false;
    for (const auto& [density, c, d] : edges) {
        if (density <= threshold)
            break;
        if (merged[c] >= 0 || merged[d] >= 0)
            continue;
        merged[c] = merged[d] = c;
        any = true;
    }
    if (!any)
        return std::nullopt;
    std::vector<int> label(k);
    for (int c = 0; c < k; ++c)
        label[c] = merged[c] >= 0 ? merged[c] : c;
    return label;
}

/// Coarsening until no pair qualifies. levelOf[l][v] is the level-l node of original node v; nothing when
/// canceled.
std::optional<std::vector<std::vector<int>>> coarsen(const WeightedGraph& graph, const std::vector<double>& deg0,
                                                     double threshold, const std::function<bool()>& stop)
{
    const int n = static_cast<int>(graph.size());
    std::vector<std::vector<int>> levelOf{std::vector<int>(n)};
    std::iota(levelOf[0].begin(), levelOf[0].end(), 0);
    WeightedGraph current = graph;
    std::vector<double> deg = deg0;
    while (true) {
        if (stop())
            return std::nullopt;
        std::optional<std::vector<int>> label = matchDensestPairs(current, deg, threshold);
        if (!label)
            return levelOf;
        const int next = compact(*label);
        std::vector<double> inner;
        WeightedGraph coarse = contract(current, *label, next, inner);
        std::vector<double> nextDeg(next, 0.0);
        for (std::size_t c = 0; c < label->size(); ++c)
            nextDeg[(*label)[c]] += deg[c];
        std::vector<int> up(n);
        for (int v = 0; v < n; ++v)
            up[v] = (*label)[levelOf.back()[v]];
        levelOf.push_back(std::move(up));
        current = std::move(coarse);
        deg = std::move(nextDeg);
    }
}

/// Local moves at one level: each node (a group of original nodes, `nodeOf`) moves to the neighbouring cluster
/// with the best modularity gain, in passes until none moves. Updates `cluster` (per original node); false
/// when canceled.
bool refineLevel(const WeightedGraph& graph, const std::vector<int>& nodeOf, int k, const std::vector<double>& deg0,
                 double total, std::vector<int>& cluster, const std::function<bool()>& stop)
{
    const int n = static_cast<int>(graph.size());
    std::vector<double> inner;
    const WeightedGraph g = contract(graph, nodeOf, k, inner);
    std::vector<double> nodeDeg(k, 0.0);
    std::vector<int> nodeCluster(k, 0);
    for (int v = 0; v < n; ++v) {
        nodeDeg[nodeOf[v]] += deg0[v];
        nodeCluster[nodeOf[v]] = cluster[v];
    }
    std::vector<double> clusterDeg(n, 0.0);
    for (int x = 0; x < k; ++x)
        clusterDeg[nodeCluster[x]] += nodeDeg[x];
    std::map<int, double> toCluster;
    for (int pass = 0; pass < 1000; ++pass) {
        if (stop())
            return false;
        bool moved = false;
        for (int x = 0; x < k; ++x) {
            const int c = nodeCluster[x];
            toCluster.clear();
            for (const auto& [y, w] : g[x])
                toCluster[nodeCluster[y]] += w;
            const double fOwn = toCluster.count(c) ? toCluster[c] : 0.0; // f(v, C - v)
            const double degRest = clusterDeg[c] - nodeDeg[x];           // deg(C - v)
            int best = -1;
            double bestGain = 0.0;
            for (const auto& [d, f] : toCluster) {
                if (d == c)
                    continue;
                const double gain = 2.0 * (f - fOwn) / total
                    - 2.0 * nodeDeg[x] * (clusterDeg[d] - degRest) / (total * total);
                if (gain > bestGain + 1e-15) {
                    bestGain = gain;
                    best = d;
                }
            }
            if (best >= 0) {
                clusterDeg[c] -= nodeDeg[x];
                clusterDeg[best] += nodeDeg[x];
                nodeCluster[x] = best;
                moved = true;
            }
        }
        if (!moved)
            break;
    }
    for (int v = 0; v < n; ++v)
        cluster[v] = nodeCluster[nodeOf[v]];
    return true;
}

} // namespace

ModularityResult modularityClustering(const WeightedGraph& graph, const std::function<bool()>& canceled)
{
    const std::function<bool()> stop = [&] { return canceled && canceled(); };
    const int n = static_cast<int>(graph.size());
    ModularityResult result;
    const std::vector<double> deg0 = degrees(graph);
    const double total = std::accumulate(deg0.begin(), deg0.end(), 0.0); // f(V,V) = deg(V)
    if (n == 0)
        return result;
    if (total <= 0.0) {
        // No communication: nothing to separate, one logical group.
        result.label.assign(n, 0);
        result.clusters = 1;
        return result;
    }
    const std::optional<std::vector<std::vector<int>>> levelOf = coarsen(graph, deg0, total / (total * total), stop);
    if (!levelOf) {
        result.canceled = true;
        return result;
    }
    result.levels = static_cast<int>(levelOf->size()) - 1;

    // Refinement from the coarsest level down to single nodes.
    std::vector<int> cluster = levelOf->back(); // final cluster of each original node
    int lastRefined = 0;
    for (int level = static_cast<int>(levelOf->size()) - 1; level >= 0; --level) {
        const std::vector<int>& nodeOf = (*levelOf)[level];
        int k = 0;
        for (int v : nodeOf)
            k = std::max(k, v + 1);
        // Levels that differ from the last refined one by a handful of merges (a star-like graph merges
        // one pair per round, so it has n levels) add nothing but time: refine a level only when it has
        // at least 25% more nodes than the last refined one, and always the finest.
        if (level > 0 && lastRefined > 0 && k < lastRefined + std::max(1, lastRefined / 4))
            continue;
        lastRefined = k;
        if (!refineLevel(graph, nodeOf, k, deg0, total, cluster, stop)) {
            result.canceled = true;
            return result;
        }
    }
    result.clusters = compact(cluster);
    result.label = std::move(cluster);
    result.modularity = modularity(graph, result.label);
    return result;
}

std::vector<int> mergeClusters(const WeightedGraph& graph, std::vector<int> label, int target)
{
    int k = compact(label);
    const std::vector<double> deg0 = degrees(graph);
    const double total = std::accumulate(deg0.begin(), deg0.end(), 0.0);
    while (k > std::max(1, target)) {
        std::vector<double> inner;
        const WeightedGraph g = contract(graph, label, k, inner);
        std::vector<double> deg(k, 0.0);
        for (std::size_t v = 0; v < graph.size(); ++v)
            deg[label[v]] += deg0[v];
        // Unconnected pairs only lose modularity, least for the two smallest degrees; connected pairs
        // are scanned along their edges.
        int bc = 0, bd = 1;
        {
            std::vector<int> order(k);
            std::iota(order.begin(), order.end(), 0);
            std::partial_sort(order.begin(), order.begin() + 2, order.end(),
                              [&](int a, int b) { return deg[a] < deg[b] || (deg[a] == deg[b] && a < b); });
            bc = std::min(order[0], order[1]);
            bd = std::max(order[0], order[1]);
        }
        double best = total > 0.0 ? -2.0 * deg[bc] * deg[bd] / (total * total) : 0.0;
        for (int c = 0; c < k && total > 0.0; ++c) {
            for (const auto& [d, fcd] : g[c]) {
                if (d <= c)
                    continue;
                const double gain = 2.0 * fcd / total - 2.0 * deg[c] * deg[d] / (total * total);
                if (gain > best) {
                    best = gain;
                    bc = c;
                    bd = d;
                }
            }
        }
        for (int& l : label)
            if (l == bd)
                l = bc;
        k = compact(label);
    }
    return label;
}

} // namespace meridian::cluster
