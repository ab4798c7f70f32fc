#include "core/partition/dynamic_update.h"

#include "core/common/random.h"
#include "core/partition/geo_cut_partitioner.h"

#include <cmath>
#include <cstdio>
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

/// A share as a percentage with up to three significant digits ("10%", "2.5%").
std::string percent(double share)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g%%", share * 100.0);
    return text;
}

/// One batch of updates on a partition, with the per-site traffic counters that trigger refinement.
class Updater {
public:
    Updater(const PartitionProblem& problem, model::Graph& graph, model::EdgePartition& partition,
            std::vector<int>& home, const ParamValues& geoCutValues, double threshold, std::uint64_t seed,
            const Feedback& feedback)
        : m_problem(problem)
        , m_graph(graph)
        , m_partition(partition)
        , m_home(home)
        , m_local(problem)
        , m_values(geoCutValues)
        , m_threshold(threshold)
        , m_seed(seed)
        , m_feedback(feedback)
        , m_m(problem.siteCount())
        , m_baseline(m_m)
        , m_changed(m_m, 0.0)
    {
        m_local.sizes = cost::vertexSizes(graph, problem.profile);
        m_indegree.assign(graph.vertexCount, 0);
        for (std::uint32_t v : graph.dst)
            ++m_indegree[v];
        m_state = std::make_unique<cost::GasState>(graph, partition, m_local.sizes, m_local.network);
        resetCounters();
    }

    /// Removes the marked edges, keeping the order of the others; false when a refinement was canceled.
    bool deleteEdges(const std::vector<bool>& removed);
    /// Places edge a -> b by Geo-Cut's streaming rule; false when a refinement was canceled.
    bool insertEdge(std::uint32_t u, std::uint32_t v, std::vector<std::uint64_t>& load);
    /// Makes sure vertex `v` exists, adding the batch's next new vertex when `v` is it.
    void addVertexIfNew(std::uint32_t v, const ResolvedBatch& batch, std::uint32_t firstNew);
    UpdateStats& stats() { return m_stats; }

private:
    void resetCounters()
    {
        for (int r = 0; r < m_m; ++r) {
            m_baseline[r] = m_state->siteTraffic(r);
            m_changed[r] = 0.0;
        }
    }
    std::vector<double> snapshot() const
    {
        std::vector<double> s(m_m);
        for (int r = 0; r < m_m; ++r)
            s[r] = m_state->siteTraffic(r);
        return s;
    }
    void track(const std::vector<double>& before)
    {
        for (int r = 0; r < m_m; ++r)
            m_changed[r] += std::abs(m_state->siteTraffic(r) - before[r]);
    }
    bool refineIfNeeded();

    const PartitionProblem& m_problem;
    model::Graph& m_graph;
    model::EdgePartition& m_partition;
    std::vector<int>& m_home;
    PartitionProblem m_local;
    const ParamValues& m_values;
    double m_threshold;
    std::uint64_t m_seed;
    const Feedback& m_feedback;
    int m_m;
    std::vector<std::uint32_t> m_indegree;
    std::unique_ptr<cost::GasState> m_state;
    std::vector<double> m_baseline, m_changed;
    UpdateStats m_stats;
};

bool Updater::refineIfNeeded()
{
    bool trigger = false;
    for (int r = 0; r < m_m; ++r)
        trigger = trigger || m_changed[r] > m_threshold * std::max(m_baseline[r], 1e-300);
    if (!trigger)
        return true;
    m_state.reset();
    std::vector<std::string> notes;
    const FeedbackRange range(m_feedback, 0.0, 1.0);
    if (!GeoCutPartitioner::refine(m_local, m_graph, m_partition, m_values,
                                   m_seed + static_cast<std::uint64_t>(m_stats.refinements), range, notes,
                                   m_problem.budgetUsd.value_or(std::numeric_limits<double>::infinity())))
        return false;
    ++m_stats.refinements;
    m_state = std::make_unique<cost::GasState>(m_graph, m_partition, m_local.sizes, m_local.network);
    resetCounters();
    return true;
}

bool Updater::deleteEdges(const std::vector<bool>& removed)
{
    const auto before = snapshot();
    for (std::size_t e = 0; e < m_graph.edgeCount(); ++e)
        if (removed[e]) {
            m_state->removeEdge(m_graph.src[e], m_graph.dst[e], m_partition.edgeSite[e]);
            --m_indegree[m_graph.dst[e]];
        }
    track(before);
    std::size_t out = 0;
    for (std::size_t e = 0; e < m_graph.edgeCount(); ++e) {
        if (removed[e])
            continue;
        m_graph.src[out] = m_graph.src[e];
        m_graph.dst[out] = m_graph.dst[e];
        m_partition.edgeSite[out] = m_partition.edgeSite[e];
        ++out;
    }
    m_stats.deleted = m_graph.edgeCount() - out;
    m_graph.src.resize(out);
    m_graph.dst.resize(out);
    m_partition.edgeSite.resize(out);
    if (m_local.profile.binds())
        for (std::uint32_t v = 0; v < m_graph.vertexCount; ++v)
            m_state->setApplySize(v, m_local.sizes.apply[v] = applySizeOf(m_local.profile, m_indegree[v]));
    // The state's edge bookkeeping must follow the compacted arrays.
    m_state = std::make_unique<cost::GasState>(m_graph, m_partition, m_local.sizes, m_local.network);
    return refineIfNeeded();
}

void Updater::addVertexIfNew(std::uint32_t v, const ResolvedBatch& batch, std::uint32_t firstNew)
{
    if (v < m_graph.vertexCount)
        return;
    const std::size_t k = v - firstNew;
    const int h = batch.newHomes[k];
    m_graph.originalId.push_back(batch.newIds[k]);
    ++m_graph.vertexCount;
    m_home.push_back(h);
    m_local.home.push_back(static_cast<std::uint8_t>(h));
    m_local.sizes.apply.push_back(applySizeOf(m_local.profile, 0));
    m_indegree.push_back(0);
    m_state->addVertex(h, m_local.sizes.apply.back());
    ++m_stats.newVertices;
}

bool Updater::insertEdge(std::uint32_t u, std::uint32_t v, std::vector<std::uint64_t>& load)
{
    const auto before = snapshot();
    const int site = geoCutPlace(m_local, *m_state, load, u, v);
    m_graph.src.push_back(u);
    m_graph.dst.push_back(v);
    m_partition.edgeSite.push_back(static_cast<std::uint8_t>(site));
    ++load[site];
    m_state->addEdge(u, v, site);
    ++m_indegree[v];
    if (m_local.profile.binds())
        m_state->setApplySize(v, m_local.sizes.apply[v] = applySizeOf(m_local.profile, m_indegree[v]));
    track(before);
    ++m_stats.inserted;
    return refineIfNeeded();
}

} // namespace

Expected<ResolvedBatch> resolveBatch(const model::Graph& graph, const EdgeIds& deletions, const EdgeIds& insertions,
                                     int siteCount, std::uint64_t seed,
                                     const std::function<SourceLocation(std::size_t)>& deletionAt)
{
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(graph.vertexCount + insertions.size());
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        index.emplace(graph.originalId[v], v);
    ResolvedBatch batch;
    batch.removed.assign(graph.edgeCount(), false);
    if (!deletions.empty()) {
        std::unordered_multimap<std::uint64_t, std::size_t> edgeAt;
        edgeAt.reserve(graph.edgeCount());
        for (std::size_t e = 0; e < graph.edgeCount(); ++e)
            edgeAt.emplace(key(graph.src[e], graph.dst[e]), e);
        for (std::size_t k = 0; k < deletions.size(); ++k) {
            const auto [a, b] = deletions[k];
            const auto ia = index.find(a), ib = index.find(b);
            auto range = ia == index.end() || ib == index.end()
                ? decltype(edgeAt.equal_range(0)){edgeAt.end(), edgeAt.end()}
                : edgeAt.equal_range(key(ia->second, ib->second));
            bool found = false;
            for (auto it = range.first; it != range.second && !found; ++it)
                if (!batch.removed[it->second])
                    batch.removed[it->second] = found = true;
            if (!found)
                return Error{ErrorCode::InvalidInput,
                             "deleting edge " + std::to_string(a) + " -> " + std::to_string(b)
                                 + ": the graph has no such edge left to delete",
                             deletionAt ? deletionAt(k) : SourceLocation{}};
            ++batch.removedCount;
        }
    }
    Random random(seed ^ 0x44594e414d4943ull);
    auto vertexFor = [&](std::uint64_t id) {
        auto it = index.find(id);
        if (it != index.end())
            return it->second;
        const auto v = static_cast<std::uint32_t>(graph.vertexCount + batch.newIds.size());
        batch.newIds.push_back(id);
        batch.newHomes.push_back(static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(siteCount))));
        index.emplace(id, v);
        return v;
    };
    batch.inserted.reserve(insertions.size());
    for (const auto& [a, b] : insertions) {
        if (a == b)
            continue;
        const std::uint32_t u = vertexFor(a);
        batch.inserted.emplace_back(u, vertexFor(b));
    }
    return batch;
}

void applyBatch(model::Graph& graph, std::vector<int>& home, const ResolvedBatch& batch)
{
    std::size_t out = 0;
    for (std::size_t e = 0; e < graph.edgeCount(); ++e)
        if (!batch.removed[e]) {
            graph.src[out] = graph.src[e];
            graph.dst[out] = graph.dst[e];
            ++out;
        }
    graph.src.resize(out);
    graph.dst.resize(out);
    graph.originalId.insert(graph.originalId.end(), batch.newIds.begin(), batch.newIds.end());
    graph.vertexCount += static_cast<std::uint32_t>(batch.newIds.size());
    home.insert(home.end(), batch.newHomes.begin(), batch.newHomes.end());
    for (const auto& [u, v] : batch.inserted) {
        graph.src.push_back(u);
        graph.dst.push_back(v);
    }
}

Expected<UpdateStats> applyUpdates(const PartitionProblem& problem, model::Graph& graph,
                                   model::EdgePartition& partition, std::vector<int>& home, const ResolvedBatch& batch,
                                   const ParamValues& geoCutValues, double threshold, std::uint64_t seed,
                                   const Feedback& feedback)
{
    if (batch.removed.size() != graph.edgeCount())
        return makeError(ErrorCode::Internal, "the batch was resolved against another graph");
    const std::uint32_t firstNew = graph.vertexCount;
    Updater updater(problem, graph, partition, home, geoCutValues, threshold, seed, feedback);
    if (batch.removedCount > 0 && !updater.deleteEdges(batch.removed))
        return makeError(ErrorCode::Canceled, "canceled");
    std::vector<std::uint64_t> load(problem.siteCount(), 0);
    for (std::uint8_t s : partition.edgeSite)
        ++load[s];
    for (const auto& [u, v] : batch.inserted) {
        if (feedback.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        updater.addVertexIfNew(u, batch, firstNew);
        updater.addVertexIfNew(v, batch, firstNew);
        if (!updater.insertEdge(u, v, load))
            return makeError(ErrorCode::Canceled, "canceled");
    }
    UpdateStats& stats = updater.stats();
    stats.notes.push_back(std::to_string(stats.deleted) + " edge(s) deleted, " + std::to_string(stats.inserted)
                          + " inserted (" + std::to_string(stats.newVertices) + " new vertices), "
                          + std::to_string(stats.refinements) + " refinement(s) at a " + percent(threshold)
                          + " traffic-change threshold");
    return std::move(stats);
}

} // namespace meridian::partition
