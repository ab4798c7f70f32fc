#include "core/partition/geo_cut_partitioner.h"

#include "core/partition/streaming_partitioners.h"

#include "core/common/random.h"
#include "core/partition/refinement/budget_repair.h"
#include "core/partition/refinement/edge_migration.h"
#include "core/partition/refinement/partition_mapping.h"
#include "core/partition/stream_state.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace meridian::partition {

namespace {

/// Eq. 7-9 over any view exposing replicas(v), master(v), gatherIncrease(u, v, r) and a load per site.
template <typename View, typename Load>
int choose(const PartitionProblem& problem, const View& view, const Load& load, std::uint32_t u, std::uint32_t v)
{
    const int m = problem.siteCount();
    const auto& price = problem.network.usdPerByte;
    const auto& a = problem.sizes.apply;
    const std::uint64_t ru = view.replicas(u), rv = view.replicas(v);
    const std::uint64_t both = ru & rv;
    int best = -1;
    double bestCost = 0.0;
    const auto consider = [&](int r, double usd) {
        if (best < 0 || usd < bestCost || (usd == bestCost && load(r) < load(best))) {
            best = r;
            bestCost = usd;
        }
    };
    if (both) {
        // Rule 1 (eq. 8): inside the intersection only the gather cost changes.
        for (std::uint64_t rest = both; rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            consider(r, price[r] * view.gatherIncrease(u, v, r));
        }
        return best;
    }
    // Rule 2 (eq. 8 + 9): synchronising a new mirror costs its master's upload of a_x.
    for (int r = 0; r < m; ++r) {
        double sync = 0.0;
        if (!(ru >> r & 1))
            sync += price[view.master(u)] * a[u];
        if (!(rv >> r & 1))
            sync += price[view.master(v)] * a[v];
        consider(r, price[r] * view.gatherIncrease(u, v, r) + sync);
    }
    return best;
}

/// A GasState seen through the stream interface.
struct GasView {
    const cost::GasState& state;
    const cost::VertexSizes& sizes;
    std::uint64_t replicas(std::uint32_t v) const { return state.replicaMask(v); }
    int master(std::uint32_t v) const { return state.master(v); }
    double gatherIncrease(std::uint32_t u, std::uint32_t v, int r) const
    {
        if (r == state.master(v))
            return 0.0;
        if (sizes.binds)
            return sizes.apply[u];
        return state.inEdgesAt(v, r) ? 0.0 : sizes.gather;
    }
};

} // namespace

int geoCutPlace(const PartitionProblem& problem, const StreamState& state, std::uint32_t u, std::uint32_t v)
{
    // The hot path of the stream: the same rules as choose(), with each endpoint read once.
    const auto& price = problem.network.usdPerByte;
    const std::uint64_t ru = state.replicas(u), rv = state.replicas(v), both = ru & rv;
    const int masterV = state.master(v);
    const std::uint64_t inV = state.inSites(v);
    const double dgBind = state.binds() ? state.apply(u) : 0.0;
    const auto gatherIncrease = [&](int r) {
        if (r == masterV)
            return 0.0;
        return state.binds() ? dgBind : ((inV >> r & 1) ? 0.0 : state.gather());
    };
    int best = -1;
    double bestCost = 0.0;
    const auto consider = [&](int r, double usd) {
        if (best < 0 || usd < bestCost || (usd == bestCost && state.load(r) < state.load(best))) {
            best = r;
            bestCost = usd;
        }
    };
    if (both) {
        for (std::uint64_t rest = both; rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            consider(r, price[r] * gatherIncrease(r));
        }
        return best;
    }
    const double syncU = price[state.master(u)] * state.apply(u);
    const double syncV = price[masterV] * state.apply(v);
    const int m = problem.siteCount();
    for (int r = 0; r < m; ++r)
        consider(r, price[r] * gatherIncrease(r) + ((ru >> r & 1) ? 0.0 : syncU) + ((rv >> r & 1) ? 0.0 : syncV));
    return best;
}

int geoCutPlace(const PartitionProblem& problem, const cost::GasState& state, const std::vector<std::uint64_t>& load,
                std::uint32_t u, std::uint32_t v)
{
    return choose(
        problem, GasView{state, problem.sizes}, [&](int r) { return load[r]; }, u, v);
}

std::vector<ParamSpec> GeoCutPartitioner::parameters() const
{
    return {
        ParamSpec::integer("d", 2, 1, 64, "Pairs of partitions sampled per mapping step (power of d choices)."),
        ParamSpec::integer("max_iter", 1000, 0, 1000000, "Upper bound on partition-mapping steps (0 skips stage 2a)."),
        ParamSpec::integer("exhaustive_sites", 8, 0, 10,
                           "Up to this many sites, partition mapping tries every mapping (M!) instead of sampling."),
        ParamSpec::integer("patience", 0, 0, 100000,
                           "Fruitless samples in a row before mapping stops; 0 = the number of sites, 1 = the paper."),
        ParamSpec::real("lq_fraction", 0.05, 0.0, 1.0,
                        "L_Q: share of the bottleneck's queue examined for edge migration (0 skips stage 2b)."),
        ParamSpec::integer("groups", 4, 1, 1024, "C: edge groups per migrated vertex (edges of a group move together)."),
        ParamSpec::integer("max_rounds", 50, 0, 100000, "Upper bound on edge-migration rounds."),
        ParamSpec::choice("start", "best", {"best", "cost", "bandwidth"},
                          "Where refinement starts: the paper's cost-aware streaming, G-Cut's bandwidth-aware "
                          "streaming (Section 4.2.1 allows any partitioner's result), or both refined and the "
                          "faster one within the budget kept.")};
}

bool GeoCutPartitioner::refine(const PartitionProblem& problem, const model::Graph& graph,
                               model::EdgePartition& partition, const ParamValues& values, std::uint64_t seed,
                               const FeedbackRange& range, std::vector<std::string>& notes, double budgetUsd,
                               std::vector<int>* mapping)
{
    Random random(seed ^ 0x47454f435554ull);
    const bool emptied = refinement::repairBudget(problem, graph, partition, static_cast<int>(values.integer("groups")),
                                                  budgetUsd, range, notes);
    std::vector<int> sites;
    std::optional<cost::GasState> unmoved; // the mapping's state, when it moved nothing, saves migration a count
    if (values.integer("max_iter") > 0
        && !refinement::mapPartitions(problem, graph, partition, values, random, budgetUsd, range, notes, &sites,
                                      &unmoved))
        return false;
    range.setProgress(0.3, "edge migration");
    if (!refinement::migrateEdges(problem, graph, partition, values, budgetUsd, range, notes, &unmoved))
        return false;
    if (emptied)
        settleMasters(problem, graph, partition, sites);
    if (mapping)
        *mapping = std::move(sites);
    return true;
}

void GeoCutPartitioner::settleMasters(const PartitionProblem& problem, const model::Graph& graph,
                                      model::EdgePartition& partition, const std::vector<int>& mapping)
{
    const auto replicas = homeAndEdgeSites(graph, problem.home, partition, mapping);
    std::vector<std::uint32_t> stray;
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        if (!(replicas[v] >> partition.masterSite[v] & 1))
            stray.push_back(v);
    if (stray.empty())
        return;
    cost::GasState state(graph, partition, problem.sizes, problem.network);
    for (std::uint32_t v : stray) {
        int best = -1;
        double bestUsd = 0.0, bestSeconds = 0.0;
        for (std::uint64_t rest = replicas[v]; rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            state.setMaster(v, r);
            const double usd = state.wanUsd(), seconds = state.transferSeconds();
            if (best < 0 || usd < bestUsd || (usd == bestUsd && seconds < bestSeconds)) {
                best = r;
                bestUsd = usd;
                bestSeconds = seconds;
            }
        }
        state.setMaster(v, best);
    }
}

namespace {

/// Stage 1 as the paper has it: cost-aware streaming (eq. 7-9).
Expected<PartitionResult> costAwareStream(const PartitionProblem& problem, std::uint64_t seed,
                                          const FeedbackRange& range)
{
    const auto& g = *problem.graph;
    StreamState stream(problem);
    std::size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    const bool finished = forEachEdgeInStreamOrder(
        g.edgeCount(), seed,
        [&](std::size_t e) {
            constexpr std::size_t kAhead = 16;
            if (e + kAhead < g.edgeCount()) {
                stream.prefetch(g.src[e + kAhead]);
                stream.prefetch(g.dst[e + kAhead]);
            }
            const std::uint32_t u = g.src[e], v = g.dst[e];
            stream.place(e, u, v, geoCutPlace(problem, stream, u, v));
            if ((++done & 0xFFFFF) == 0)
                range.setProgress(static_cast<double>(done) / static_cast<double>(g.edgeCount()),
                                  "cost-aware streaming");
        },
        [&] { return range.isCanceled(); });
    if (!finished || range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    PartitionResult result;
    result.streamingSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.partition = stream.take();
    return result;
}

} // namespace

bool GeoCutPartitioner::refineStart(const PartitionProblem& problem, const ParamValues& values, std::uint64_t seed,
                                    const FeedbackRange& range, PartitionResult& result, const char* startName)
{
    const auto& g = *problem.graph;
    const double budget = problem.budgetUsd.value_or(std::numeric_limits<double>::infinity());
    const bool refining = values.integer("max_iter") > 0
        || (values.real("lq_fraction") > 0.0 && values.integer("max_rounds") > 0);
    if (!problem.budgetUsd && !refining)
        return true; // streaming only: nothing needs the stage-1 cost
    const double stage1 = cost::evaluateGas(g, result.partition, problem.sizes, problem.network).wanUsd;
    char text[200];
    if (problem.budgetUsd && !withinBudget(stage1, budget))
        std::snprintf(text, sizeof text,
                      "stage 1 (%s) costs %.6g USD, over the budget of %.6g USD by %.6g USD: budget repair first",
                      startName, stage1, budget, stage1 - budget);
    else
        std::snprintf(text, sizeof text, "stage 1 (%s) costs %.6g USD", startName, stage1);
    result.notes.emplace_back(text);
    return refine(problem, g, result.partition, values, seed, range, result.notes, budget, &result.siteMapping);
}

Expected<PartitionResult> GeoCutPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const std::string& start = values.choice("start");
    // With no budget the objective is the transfer time alone, so `best` starts from the time-minimising stream;
    // under a budget both starts are refined, since repairing the budget reorders them.
    const bool both = start == "best" && problem.budgetUsd.has_value();
    const bool costStart = start == "cost" || both;
    const bool bandwidthStart = start == "bandwidth" || both || (start == "best" && !problem.budgetUsd);
    std::vector<PartitionResult> candidates;
    std::vector<const char*> names;
    // Stage 1 from each start (each a quarter of the progress when both run).
    if (costStart) {
        auto streamed = costAwareStream(problem, seed, range.sub(0.0, both ? 0.25 : 0.5));
        if (!streamed)
            return streamed.error();
        candidates.push_back(std::move(*streamed));
        names.push_back("cost-aware streaming");
    }
    if (bandwidthStart) {
        // Under a budget, the stream keeps its dollars pro rata of the budget (then the refinement stays within it).
        auto streamed = bandwidthAwareStream(problem, 0.0, problem.budgetUsd.value_or(0.0), seed,
                                             range.sub(both ? 0.25 : 0.0, 0.5));
        if (!streamed)
            return streamed.error();
        if (start == "best" && !both)
            streamed->notes.emplace_back("no budget: refinement starts from the bandwidth-aware streaming, which "
                                         "minimises the transfer time (start=cost runs the paper's stage 1)");
        candidates.push_back(std::move(*streamed));
        names.push_back("bandwidth-aware streaming");
    }
    for (std::size_t k = 0; k < candidates.size(); ++k) {
        const double from = 0.5 + 0.5 * static_cast<double>(k) / static_cast<double>(candidates.size());
        const double to = 0.5 + 0.5 * static_cast<double>(k + 1) / static_cast<double>(candidates.size());
        if (!refineStart(problem, values, seed, range.sub(from, to), candidates[k], names[k]))
            return makeError(ErrorCode::Canceled, "canceled");
    }
    if (candidates.size() == 1)
        return std::move(candidates.front());
    // Both starts refined: the faster one within the budget; when neither fits, the cheaper one.
    const double budget = problem.budgetUsd.value_or(std::numeric_limits<double>::infinity());
    std::size_t best = 0;
    std::vector<cost::GasMetrics> metrics;
    metrics.reserve(candidates.size());
    for (const auto& c : candidates)
        metrics.push_back(cost::evaluateGas(*problem.graph, c.partition, problem.sizes, problem.network));
    const auto better = [&](std::size_t a, std::size_t b) {
        const bool fitsA = withinBudget(metrics[a].wanUsd, budget), fitsB = withinBudget(metrics[b].wanUsd, budget);
        if (fitsA != fitsB)
            return fitsA;
        if (!fitsA)
            return metrics[a].wanUsd < metrics[b].wanUsd;
        return metrics[a].transferSeconds < metrics[b].transferSeconds
            || (metrics[a].transferSeconds == metrics[b].transferSeconds && metrics[a].wanUsd < metrics[b].wanUsd);
    };
    for (std::size_t k = 1; k < candidates.size(); ++k)
        if (better(k, best))
            best = k;
    PartitionResult result = std::move(candidates[best]);
    result.streamingSeconds = candidates[best == 0 ? 1 : 0].streamingSeconds + result.streamingSeconds;
    char text[240];
    std::snprintf(text, sizeof text, "kept the %s start: %.6g s at %.6g USD (the %s start gave %.6g s at %.6g USD)",
                  names[best], metrics[best].transferSeconds, metrics[best].wanUsd, names[1 - best],
                  metrics[1 - best].transferSeconds, metrics[1 - best].wanUsd);
    result.notes.emplace_back(text);
    return result;
}

} // namespace meridian::partition
