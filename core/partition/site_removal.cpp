#include "core/partition/site_removal.h"

#include "core/partition/geo_cut_partitioner.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace meridian::partition {

namespace {

/// The sites that stay, in order, and each site's index among them (-1 for a removed one).
struct Kept {
    std::vector<int> sites;
    std::vector<int> indexOf;
};

Expected<Kept> keptSites(int siteCount, const std::vector<int>& removed)
{
    Kept kept;
    kept.indexOf.assign(siteCount, 0);
    for (int s : removed) {
        if (s < 0 || s >= siteCount)
            return makeError(ErrorCode::InvalidInput, "no site " + std::to_string(s) + " to remove");
        if (kept.indexOf[s] < 0)
            return makeError(ErrorCode::InvalidInput, "site " + std::to_string(s) + " is listed twice");
        kept.indexOf[s] = -1;
    }
    for (int s = 0; s < siteCount; ++s)
        if (kept.indexOf[s] == 0) {
            kept.indexOf[s] = static_cast<int>(kept.sites.size());
            kept.sites.push_back(s);
        }
    if (kept.sites.empty())
        return makeError(ErrorCode::InvalidInput, "removing every site leaves nowhere to put the graph");
    return kept;
}

/// Each vertex's master among the kept sites (reduced indices): its own when kept, else the kept site holding most
/// of its edges, else the cheapest kept site.
std::vector<int> keptMasters(const PartitionProblem& problem, const model::EdgePartition& partition, const Kept& kept,
                             std::size_t& moved)
{
    const auto& g = *problem.graph;
    const int m = static_cast<int>(kept.sites.size());
    std::vector<int> master(g.vertexCount, -1);
    std::vector<std::uint32_t> counts; // (vertex, kept site) edge counts, only for vertices that must move
    std::vector<std::int64_t> slot(g.vertexCount, -1);
    for (std::uint32_t v = 0; v < g.vertexCount; ++v) {
        const int r = kept.indexOf[partition.masterSite[v]];
        if (r >= 0)
            master[v] = r;
        else {
            slot[v] = static_cast<std::int64_t>(counts.size());
            counts.resize(counts.size() + static_cast<std::size_t>(m), 0);
        }
    }
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        const int r = kept.indexOf[partition.edgeSite[e]];
        if (r < 0)
            continue;
        for (std::uint32_t x : {g.src[e], g.dst[e]})
            if (slot[x] >= 0)
                ++counts[static_cast<std::size_t>(slot[x]) + static_cast<std::size_t>(r)];
    }
    int cheapest = 0;
    for (int r = 1; r < m; ++r)
        if (problem.network.usdPerByte[kept.sites[r]] < problem.network.usdPerByte[kept.sites[cheapest]])
            cheapest = r;
    for (std::uint32_t v = 0; v < g.vertexCount; ++v) {
        if (slot[v] < 0)
            continue;
        const auto* c = &counts[static_cast<std::size_t>(slot[v])];
        const int most = static_cast<int>(std::max_element(c, c + m) - c);
        master[v] = c[most] > 0 ? most : cheapest;
        ++moved;
    }
    return master;
}

/// The site where edge e gives the shortest transfer time (ties: the lower cost), tried in place.
int fastestSite(cost::GasState& state, std::size_t e, int sites)
{
    int best = 0;
    double bestSeconds = 0.0, bestUsd = 0.0;
    for (int r = 0; r < sites; ++r) {
        state.moveEdge(e, r);
        const double t = state.transferSeconds(), usd = state.wanUsd();
        if (r == 0 || t < bestSeconds || (t == bestSeconds && usd < bestUsd)) {
            best = r;
            bestSeconds = t;
            bestUsd = usd;
        }
    }
    return best;
}

} // namespace

Expected<RemovalStats> removeSites(const PartitionProblem& problem, model::EdgePartition& partition,
                                   const std::vector<int>& removed, const ParamValues& geoCutValues, std::uint64_t seed,
                                   const Feedback& feedback)
{
    const auto& g = *problem.graph;
    auto kept = keptSites(problem.siteCount(), removed);
    if (!kept)
        return kept.error();
    std::vector<model::Site> sites;
    for (int s : kept->sites)
        sites.push_back(problem.topology->site(s));
    auto topology = model::Topology::create(std::move(sites));
    if (!topology)
        return topology.error();
    RemovalStats stats;
    const auto master = keptMasters(problem, partition, *kept, stats.movedMasters);
    auto reduced = PartitionProblem::create(g, *topology, problem.profile, master, problem.budgetUsd);
    if (!reduced)
        return reduced.error();
    // The reduced partition: kept edges keep their site, the others start at their source's master and are then
    // placed by the streaming rule with everything else already counted.
    model::EdgePartition local;
    local.masterSite.assign(master.begin(), master.end());
    local.edgeSite.resize(g.edgeCount());
    std::vector<std::size_t> homeless;
    std::vector<std::uint64_t> load(kept->sites.size(), 0);
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        const int r = kept->indexOf[partition.edgeSite[e]];
        local.edgeSite[e] = static_cast<std::uint8_t>(r >= 0 ? r : master[g.src[e]]);
        if (r < 0)
            homeless.push_back(e);
        else
            ++load[static_cast<std::size_t>(r)];
    }
    stats.movedEdges = homeless.size();
    {
        cost::GasState state(g, local, reduced->sizes, reduced->network, [&] { return feedback.isCanceled(); });
        if (!state.complete())
            return makeError(ErrorCode::Canceled, "canceled");
        for (std::size_t k = 0; k < homeless.size(); ++k) {
            if ((k & 0xFFFF) == 0 && feedback.isCanceled())
                return makeError(ErrorCode::Canceled, "canceled");
            const std::size_t e = homeless[k];
            const int site = problem.budgetUsd ? geoCutPlace(*reduced, state, load, g.src[e], g.dst[e])
                                               : fastestSite(state, e, static_cast<int>(kept->sites.size()));
            state.moveEdge(e, site);
            ++load[static_cast<std::size_t>(site)];
        }
    }
    char text[200];
    std::snprintf(text, sizeof text, "removed %zu site(s): %zu edge(s) placed again %s, %zu master(s) moved",
                  removed.size(), stats.movedEdges,
                  problem.budgetUsd ? "by Geo-Cut's streaming rule" : "where each keeps the transfer time lowest",
                  stats.movedMasters);
    stats.notes.emplace_back(text);
    const FeedbackRange range(feedback, 0.0, 1.0);
    if (!GeoCutPartitioner::refine(*reduced, g, local, geoCutValues, seed, range, stats.notes,
                                   problem.budgetUsd.value_or(std::numeric_limits<double>::infinity())))
        return makeError(ErrorCode::Canceled, "canceled");
    for (std::size_t e = 0; e < g.edgeCount(); ++e)
        partition.edgeSite[e] = static_cast<std::uint8_t>(kept->sites[local.edgeSite[e]]);
    for (std::uint32_t v = 0; v < g.vertexCount; ++v)
        partition.masterSite[v] = static_cast<std::uint8_t>(kept->sites[local.masterSite[v]]);
    return stats;
}

} // namespace meridian::partition
