#include "core/partition/dynamic_update.h"

#include "core/common/random.h"
#include "core/partition/geo_cut_partitioner.h"

#include <cmath>
#include <limits>
#include <memory>
#include <unordered_map>

namespace meridian::partition {

namespace {

std::uint64_t key(std::uint32_t u, std::uint32_t v) { return static_cast<std::uint64_t>(u) << 32 | v; }

float applySizeOf(const cost::TrafficProfile& profile, std::uint32_t indegree)
{
    if (profile.binds())
        return static_cast<float>(8.0 * (1.0 + indegree));
    return static_cast<float>(8.0 * (profile.kind == cost::TrafficProfile::Kind::Sssp ? profile.activeFraction : 1.0));
}

} // namespace

Expected<UpdateStats> applyUpdates(const PartitionProblem& problem, model::Graph& graph,
                                   model::EdgePartition& partition, std::vector<int>& home,
                                   const std::vector<std::pair<std::uint64_t, std::uint64_t>>& deletions,
                                   const std::vector<std::pair<std::uint64_t, std::uint64_t>>& insertions,
                                   const ParamValues& geoCutValues, double threshold, std::uint64_t seed,
                                   const Feedback& feedback)
{
    UpdateStats stats;
    const int m = problem.siteCount();
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(graph.vertexCount + insertions.size());
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        index.emplace(graph.originalId[v], v);

    // Deletions: find every edge first, so an unknown edge changes nothing.
    std::unordered_multimap<std::uint64_t, std::size_t> edgeAt;
    if (!deletions.empty()) {
        edgeAt.reserve(graph.edgeCount());
        for (std::size_t e = 0; e < graph.edgeCount(); ++e)
            edgeAt.emplace(key(graph.src[e], graph.dst[e]), e);
    }
    std::vector<bool> removed(graph.edgeCount(), false);
    for (const auto& [a, b] : deletions) {
        const auto ia = index.find(a), ib = index.find(b);
        auto range = ia == index.end() || ib == index.end()
            ? decltype(edgeAt.equal_range(0)){edgeAt.end(), edgeAt.end()}
            : edgeAt.equal_range(key(ia->second, ib->second));
        bool found = false;
        for (auto it = range.first; it != range.second; ++it) {
            if (!removed[it->second]) {
                removed[it->second] = true;
                found = true;
                break;
            }
        }
        if (!found)
            return makeError(ErrorCode::InvalidInput,
                             "deleting edge " + std::to_string(a) + " -> " + std::to_string(b)
                                 + ": no such edge is left in the partition");
    }

    // The traffic per site before the batch, and the traffic each change moves.
    PartitionProblem local = problem;
    local.sizes = cost::vertexSizes(graph, problem.profile);
    std::vector<std::uint32_t> indegree(graph.vertexCount, 0);
    for (std::uint32_t v : graph.dst)
        ++indegree[v];
    auto state = std::make_unique<cost::GasState>(graph, partition, local.sizes, local.network);
    std::vector<double> baseline(m), changed(m, 0.0);
    const auto resetCounters = [&] {
        for (int r = 0; r < m; ++r) {
            baseline[r] = state->siteTraffic(r);
            changed[r] = 0.0;
        }
    };
    resetCounters();
    const auto track = [&](const std::vector<double>& before) {
        for (int r = 0; r < m; ++r)
            changed[r] += std::abs(state->siteTraffic(r) - before[r]);
    };
    const auto snapshot = [&] {
        std::vector<double> s(m);
        for (int r = 0; r < m; ++r)
            s[r] = state->siteTraffic(r);
        return s;
    };
    const auto refineIfNeeded = [&]() -> bool {
        bool trigger = false;
        for (int r = 0; r < m; ++r)
            trigger = trigger || changed[r] > threshold * std::max(baseline[r], 1e-300);
        if (!trigger)
            return true;
        state.reset();
        std::vector<std::string> notes;
        const FeedbackRange range(feedback, 0.0, 1.0);
        if (!GeoCutPartitioner::refine(local, graph, partition, geoCutValues,
                                       seed + static_cast<std::uint64_t>(stats.refinements), range, notes,
                                       problem.budgetUsd.value_or(std::numeric_limits<double>::infinity())))
            return false;
        ++stats.refinements;
        state = std::make_unique<cost::GasState>(graph, partition, local.sizes, local.network);
        resetCounters();
        return true;
    };

    if (!deletions.empty()) {
        const auto before = snapshot();
        for (std::size_t e = 0; e < graph.edgeCount(); ++e)
            if (removed[e]) {
                state->removeEdge(graph.src[e], graph.dst[e], partition.edgeSite[e]);
                --indegree[graph.dst[e]];
            }
        track(before);
        // Compact the arrays, keeping the order of the remaining edges.
        std::size_t out = 0;
        for (std::size_t e = 0; e < graph.edgeCount(); ++e) {
            if (removed[e])
                continue;
            graph.src[out] = graph.src[e];
            graph.dst[out] = graph.dst[e];
            partition.edgeSite[out] = partition.edgeSite[e];
            ++out;
        }
        stats.deleted = graph.edgeCount() - out;
        graph.src.resize(out);
        graph.dst.resize(out);
        partition.edgeSite.resize(out);
        if (local.profile.binds())
            for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
                state->setApplySize(v, local.sizes.apply[v] = applySizeOf(local.profile, indegree[v]));
        // The state's edge bookkeeping must follow the compacted arrays.
        state = std::make_unique<cost::GasState>(graph, partition, local.sizes, local.network);
        if (!refineIfNeeded())
            return makeError(ErrorCode::Canceled, "canceled");
    }

    Random random(seed ^ 0x44594e414d4943ull);
    std::vector<std::uint64_t> load(m, 0);
    for (std::uint8_t s : partition.edgeSite)
        ++load[s];
    for (const auto& [a, b] : insertions) {
        if (feedback.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        if (a == b)
            continue; // self-loops are dropped, as readers drop them
        std::uint32_t ends[2];
        const std::uint64_t ids[2] = {a, b};
        for (int k = 0; k < 2; ++k) {
            auto it = index.find(ids[k]);
            if (it == index.end()) {
                const int h = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m)));
                it = index.emplace(ids[k], graph.vertexCount).first;
                graph.originalId.push_back(ids[k]);
                ++graph.vertexCount;
                home.push_back(h);
                local.home.push_back(static_cast<std::uint8_t>(h));
                local.sizes.apply.push_back(applySizeOf(local.profile, 0));
                indegree.push_back(0);
                state->addVertex(h, local.sizes.apply.back());
                ++stats.newVertices;
            }
            ends[k] = it->second;
        }
        const std::uint32_t u = ends[0], v = ends[1];
        const auto before = snapshot();
        const int site = geoCutPlace(local, *state, load, u, v);
        graph.src.push_back(u);
        graph.dst.push_back(v);
        partition.edgeSite.push_back(static_cast<std::uint8_t>(site));
        ++load[site];
        state->addEdge(u, v, site);
        ++indegree[v];
        if (local.profile.binds())
            state->setApplySize(v, local.sizes.apply[v] = applySizeOf(local.profile, indegree[v]));
        track(before);
        ++stats.inserted;
        if (!refineIfNeeded())
            return makeError(ErrorCode::Canceled, "canceled");
    }
    stats.notes.push_back(std::to_string(stats.deleted) + " edge(s) deleted, " + std::to_string(stats.inserted)
                          + " inserted (" + std::to_string(stats.newVertices) + " new vertices), "
                          + std::to_string(stats.refinements) + " refinement(s) at a "
                          + std::to_string(threshold * 100.0) + "% traffic-change threshold");
    return stats;
}

} // namespace meridian::partition
