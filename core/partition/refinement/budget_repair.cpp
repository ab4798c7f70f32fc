#include "core/partition/refinement/budget_repair.h"

#include "core/partition/refinement/edge_groups.h"

#include <bit>
#include <cmath>
#include <cstdio>

namespace meridian::partition::refinement {

namespace {

/// Vertices with mirrors, by the dollars their master's apply and their mirrors' gathers upload, heaviest first.
WeightedQueue uploadDollarQueue(const cost::GasState& state, const cost::GasNetwork& net)
{
    WeightedQueue queue;
    for (std::uint32_t v = 0; v < state.vertexCount(); ++v) {
        const std::uint64_t mask = state.replicaMask(v);
        const int mirrors = std::popcount(mask) - 1;
        if (mirrors <= 0)
            continue;
        double usd = net.usdPerByte[state.master(v)] * state.applySize(v) * mirrors;
        for (std::uint64_t rest = mask & ~(1ull << state.master(v)); rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            usd += net.usdPerByte[r] * state.gatherSize(v, r);
        }
        queue.emplace_back(usd, v);
    }
    sortHeaviestFirst(queue);
    return queue;
}

/// Moves `group` to the site with the lowest WAN cost if that is lower than now; returns whether it moved.
bool moveToCheapestSite(cost::GasState& state, const model::EdgePartition& partition, int siteCount,
                        const std::vector<std::uint32_t>& group)
{
    const std::vector<std::uint8_t> from = sitesOf(partition, group);
    const double before = state.wanUsd();
    int bestSite = -1;
    double bestUsd = before, bestSeconds = 0.0;
    for (int s = 0; s < siteCount; ++s) {
        moveGroup(state, group, s);
        const double c = state.wanUsd();
        // The time (O(M)) only breaks ties of cost.
        if (c < bestUsd - 1e-12 * before) {
            bestUsd = c;
            bestSeconds = state.transferSeconds();
            bestSite = s;
        } else if (bestSite >= 0 && c == bestUsd) {
            if (const double t = state.transferSeconds(); t < bestSeconds) {
                bestSeconds = t;
                bestSite = s;
            }
        }
        restoreGroup(state, group, from);
    }
    if (bestSite < 0)
        return false;
    moveGroup(state, group, bestSite);
    return true;
}

/// Empties the site that uploads the most dollars into the site that leaves the partition fastest within
/// `budgetUsd`, or, when none is within it, cheapest: its edges and the masters it holds move there whole.
/// Returns the two sites (from, to), or {-1, -1} when fewer than two sites hold edges.
std::pair<int, int> mergeCostliestSite(cost::GasState& state, const model::EdgePartition& partition,
                                       const cost::GasNetwork& net, double budgetUsd)
{
    const int m = net.siteCount();
    const auto link = state.linkMetrics();
    std::vector<std::size_t> load(m, 0); // edges per site
    for (std::uint8_t s : partition.edgeSite)
        ++load[s];
    int from = -1, busy = 0;
    double worst = -1.0;
    const auto& price = net.usdPerByte;
    for (int r = 0; r < m; ++r) {
        busy += load[r] > 0 ? 1 : 0;
        const double usd = (link.gatherUp[r] + link.applyUp[r]) * price[r];
        if (load[r] > 0 && usd > worst) {
            worst = usd;
            from = r;
        }
    }
    if (busy < 2)
        return {-1, -1};
    std::vector<std::size_t> edges;
    std::vector<std::uint32_t> masters;
    for (std::size_t e = 0; e < partition.edgeSite.size(); ++e)
        if (partition.edgeSite[e] == from)
            edges.push_back(e);
    for (std::uint32_t v = 0; v < state.vertexCount(); ++v)
        if (partition.masterSite[v] == from)
            masters.push_back(v);
    // The edges move; a master follows them to `site` when its vertex has edges there, else goes to its
    // replica with the most edges (an isolated vertex's master stays: it sends nothing).
    const auto moveAll = [&](int site) {
        for (std::size_t e : edges)
            state.moveEdge(e, site);
        for (std::uint32_t v : masters) {
            int target = site == from || state.edgesAt(v, site) ? site : -1;
            if (target < 0)
                for (int r = 0; r < m; ++r)
                    if (r != from && state.edgesAt(v, r)
                        && (target < 0 || state.edgesAt(v, r) > state.edgesAt(v, target)))
                        target = r;
            if (target >= 0)
                state.setMaster(v, target);
        }
    };
    int best = -1;
    bool bestWithin = false;
    double bestUsd = 0.0, bestSeconds = 0.0;
    for (int to = 0; to < m; ++to) {
        if (to == from || load[to] == 0)
            continue;
        moveAll(to);
        const double usd = state.wanUsd(), seconds = state.transferSeconds();
        const bool within = withinBudget(usd, budgetUsd);
        const bool better = best < 0 || (within && !bestWithin) || (within && seconds < bestSeconds)
            || (!within && !bestWithin && usd < bestUsd);
        if (better) {
            best = to;
            bestWithin = within;
            bestUsd = usd;
            bestSeconds = seconds;
        }
        moveAll(from);
    }
    moveAll(best);
    return {from, best};
}

} // namespace

bool repairBudget(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                  int groups, double budgetUsd, const FeedbackRange& range, std::vector<std::string>& notes)
{
    if (!std::isfinite(budgetUsd))
        return false;
    cost::GasState state(graph, partition, problem.sizes, problem.network, [&] { return range.isCanceled(); });
    if (!state.complete())
        return false; // canceled: the next stage sees it
    const double startUsd = state.wanUsd();
    if (withinBudget(startUsd, budgetUsd))
        return false;
    int moves = 0;
    // Passes over the vertices by the dollars they upload, until the budget holds or a pass saves under 1%.
    constexpr int kMaxPasses = 8;
    for (int pass = 0; pass < kMaxPasses && !withinBudget(state.wanUsd(), budgetUsd) && !range.isCanceled(); ++pass) {
        const double passStart = state.wanUsd();
        const WeightedQueue queue = uploadDollarQueue(state, problem.network);
        constexpr std::size_t kBatch = 1u << 16; // vertices per scan of the edge list
        for (std::size_t first = 0; first < queue.size() && !withinBudget(state.wanUsd(), budgetUsd); first += kBatch) {
            std::vector<std::uint32_t> batch;
            for (std::size_t i = first; i < std::min(queue.size(), first + kBatch); ++i)
                batch.push_back(queue[i].second);
            auto incident = incidentEdges(graph, batch);
            for (std::uint32_t v : batch) {
                if (withinBudget(state.wanUsd(), budgetUsd) || range.isCanceled())
                    break;
                for (const auto& group : groupEdges(graph, partition, state, v, incident[v], -1, groups))
                    moves += moveToCheapestSite(state, partition, problem.siteCount(), group) ? 1 : 0;
            }
        }
        if (state.wanUsd() > passStart * 0.99)
            break;
    }
    char text[200];
    std::snprintf(text, sizeof text,
                  "budget repair: %d edge group(s) moved, cost %.6g USD -> %.6g USD (budget %.6g USD)", moves, startUsd,
                  state.wanUsd(), budgetUsd);
    notes.emplace_back(text);
    // Moving edge groups stops in a local minimum. Every budget can be met under this model, since one site
    // holding every edge and master sends nothing over the WAN, so what is still over the budget is closed by
    // emptying sites into others, the costliest first (at most M - 1 of them, each O(E M)).
    std::string merged;
    while (!withinBudget(state.wanUsd(), budgetUsd) && !range.isCanceled()) {
        const auto [from, to] = mergeCostliestSite(state, partition, problem.network, budgetUsd);
        if (from < 0)
            break;
        merged += (merged.empty() ? "" : ", ") + problem.topology->site(from).name + " into "
            + problem.topology->site(to).name;
    }
    if (merged.empty())
        return false;
    std::snprintf(text, sizeof text, "%.6g USD", state.wanUsd());
    notes.push_back("budget repair emptied sites to meet the budget (" + merged + "): cost " + text);
    return true;
}

} // namespace meridian::partition::refinement
