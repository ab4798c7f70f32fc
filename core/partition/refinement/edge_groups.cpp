#include "core/partition/refinement/edge_groups.h"

#include <algorithm>
#include <bit>
#include <map>

namespace meridian::partition::refinement {

std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> incidentEdges(const model::Graph& graph,
                                                                            const std::vector<std::uint32_t>& vertices)
{
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> out;
    std::vector<char> wanted(graph.vertexCount, 0);
    for (std::uint32_t v : vertices) {
        wanted[v] = 1;
        out[v];
    }
    for (std::size_t e = 0; e < graph.edgeCount(); ++e) {
        if (wanted[graph.src[e]])
            out[graph.src[e]].push_back(static_cast<std::uint32_t>(e));
        if (wanted[graph.dst[e]] && graph.dst[e] != graph.src[e])
            out[graph.dst[e]].push_back(static_cast<std::uint32_t>(e));
    }
    return out;
}

std::vector<std::vector<std::uint32_t>> groupEdges(const model::Graph& graph, const model::EdgePartition& partition,
                                                   const cost::GasState& state, std::uint32_t v,
                                                   const std::vector<std::uint32_t>& incident, int onlySite, int groups)
{
    std::map<std::uint64_t, std::vector<std::uint32_t>> byMask;
    for (std::uint32_t e : incident) {
        if (onlySite >= 0 && partition.edgeSite[e] != onlySite)
            continue;
        const std::uint32_t other = graph.src[e] == v ? graph.dst[e] : graph.src[e];
        byMask[state.replicaMask(other)].push_back(e);
    }
    std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> keyed(byMask.begin(), byMask.end());
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    std::vector<std::vector<std::uint32_t>> clusters;
    std::vector<std::uint64_t> clusterMask;
    for (auto& [mask, edges] : keyed) {
        if (static_cast<int>(clusters.size()) < groups) {
            clusters.push_back(std::move(edges));
            clusterMask.push_back(mask);
            continue;
        }
        std::size_t best = 0;
        for (std::size_t c = 1; c < clusters.size(); ++c)
            if (std::popcount(clusterMask[c] & mask) > std::popcount(clusterMask[best] & mask))
                best = c;
        clusters[best].insert(clusters[best].end(), edges.begin(), edges.end());
    }
    return clusters;
}

void moveGroup(cost::GasState& state, const std::vector<std::uint32_t>& group, int site)
{
    for (std::uint32_t e : group)
        state.moveEdge(e, site);
}

std::vector<std::uint8_t> sitesOf(const model::EdgePartition& partition, const std::vector<std::uint32_t>& group)
{
    std::vector<std::uint8_t> from(group.size());
    for (std::size_t i = 0; i < group.size(); ++i)
        from[i] = partition.edgeSite[group[i]];
    return from;
}

void restoreGroup(cost::GasState& state, const std::vector<std::uint32_t>& group, const std::vector<std::uint8_t>& from)
{
    for (std::size_t i = 0; i < group.size(); ++i)
        state.moveEdge(group[i], from[i]);
}

void sortHeaviestFirst(WeightedQueue& queue)
{
    std::sort(queue.begin(), queue.end(), [](const auto& a, const auto& b) {
        return a.first > b.first || (a.first == b.first && a.second < b.second);
    });
}

} // namespace meridian::partition::refinement
