#include "core/partition/geo_cut_partitioner.h"

#include "core/partition/streaming_partitioners.h"

#include "core/common/random.h"
#include "core/common/readable.h"
#include "core/partition/edge_batches.h"
#include "core/partition/geo_cut_rule.h"
#include "core/partition/refinement/edge_migration.h"
#include "core/partition/refinement/partition_mapping.h"
#include "core/partition/refinement/replica_refinement.h"
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

std::string GeoCutPartitioner::stageOneNote(const char* startName, double usd, double budgetUsd)
{
    std::string text = std::string("stage 1 (") + startName + ") costs " + readableUsd(usd);
    if (std::isfinite(budgetUsd) && !withinBudget(usd, budgetUsd))
        text += ", over the budget of " + readableUsd(budgetUsd) + " by " + readableUsd(usd - budgetUsd)
            + ": refinement lowers the cost first";
    return text;
}

bool GeoCutPartitioner::refines(const ParamValues& values)
{
    return (values.flag("relocate_data") && values.integer("max_iter") > 0)
        || (values.real("lq_fraction") > 0.0 && values.integer("max_rounds") > 0)
        || values.integer("replica_passes") > 0;
}

std::uint64_t GeoCutPartitioner::automaticWorkLimit(std::size_t edges)
{
    return std::max<std::uint64_t>(kMinimumWork, static_cast<std::uint64_t>(edges) * kStepsPerEdge);
}

int geoCutPlace(const PartitionProblem& problem, const StreamState& state, std::uint32_t u, std::uint32_t v)
{
    // The hot path of the stream: each endpoint read once.
    const GeoCutEnd a{state.replicas(u), state.inSites(u), state.master(u), state.apply(u)};
    const GeoCutEnd b{state.replicas(v), state.inSites(v), state.master(v), state.apply(v)};
    return geoCutChoice(problem.network.usdPerByte, state.gather(), state.binds(), a, b,
                        [&](int r) { return state.load(r); });
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
        ParamSpec::flag("relocate_data", false,
                        "Let stage 2a (partition mapping) move whole partitions, with their vertices' data and "
                        "masters, to other sites: a one-off migration the per-iteration model does not charge. Off: "
                        "every vertex's data and master stay at its home, and stage 2a is skipped."),
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
        ParamSpec::integer("replica_passes", 20, 0, 1000,
                           "Upper bound on passes of replica refinement, Meridian's stage 3 (0 skips it: the paper's "
                           "Geo-Cut alone)."),
        ParamSpec::real("effort", 1.0, 0.0, 1e6,
                        "How much edge migration and replica refinement may search together, as a multiple of the "
                        "automatic amount (search steps: the larger of 10^7 and twice the number of edges). The "
                        "search also ends when a pass of replica refinement gains under 0.1%. The result depends on "
                        "the seed alone."),
        ParamSpec::real("time_limit_s", 0.0, 0.0, 1e6,
                        "Also stop edge migration and replica refinement after this many seconds (0: no time limit). "
                        "A time limit makes the result depend on the machine's speed."),
        ParamSpec::choice("start", "best", {"best", "degree", "cost", "bandwidth"},
                          "Where refinement starts (Section 4.2.1 allows any partitioner's result): each edge at "
                          "its lower-degree endpoint's home (degree; best), the paper's cost-aware streaming (cost), "
                          "or G-Cut's bandwidth-aware streaming (bandwidth)."),
        ParamSpec::integer("batch", 0, 0, std::int64_t{1} << 20,
                           "With start=cost: 0 streams one edge at a time in a seeded random order, as the paper. "
                           "Otherwise the stream in file order in batches of about this many edges (a block of "
                           "ceil(batch / 64) from each of 64 stretches), each edge placed from what the earlier "
                           "batches and its own block left: the same stage 1 in one process and on any number of MPI "
                           "ranks (there with lq_fraction=0 and replica_passes=0).")};
}

bool GeoCutPartitioner::refine(const PartitionProblem& problem, const model::Graph& graph,
                               model::EdgePartition& partition, const ParamValues& values, std::uint64_t seed,
                               const FeedbackRange& range, std::vector<std::string>& notes, double budgetUsd,
                               std::vector<int>* mapping, const char* startName,
                               std::optional<cost::GasMetrics>* metrics)
{
    Random random(seed ^ 0x47454f435554ull);
    std::vector<int> sites;
    std::optional<cost::GasState> state; // handed from stage to stage: counting every edge again is O(E)
    const bool relocating = values.flag("relocate_data") && values.integer("max_iter") > 0;
    if (startName && relocating)
        notes.push_back(stageOneNote(startName,
                                     cost::evaluateGas(graph, partition, problem.sizes, problem.network).wanUsd,
                                     budgetUsd));
    if (relocating
        && !refinement::mapPartitions(problem, graph, partition, values, random, budgetUsd, range.sub(0.0, 0.1), notes,
                                      &sites, &state))
        return false;
    const bool migrating = values.real("lq_fraction") > 0.0 && values.integer("max_rounds") > 0;
    refinement::ReplicaSearch search;
    search.maxPasses = static_cast<int>(values.integer("replica_passes"));
    // Stages 2b and 3 share one traffic state and one list of each vertex's edges.
    std::optional<refinement::Incidence> incidence;
    if ((migrating || search.maxPasses > 0) && graph.edgeCount() < refinement::Incidence::kMaxEdges)
        incidence.emplace(graph, &range.executor());
    if (!state && (migrating || search.maxPasses > 0 || (startName && !relocating)))
        state.emplace(
            graph, partition, problem.sizes, problem.network, [&range] { return range.isCanceled(); },
            &range.executor());
    if (state && !state->complete())
        return false;
    if (startName && !relocating)
        notes.push_back(stageOneNote(startName, state->wanUsd(), budgetUsd));
    // One search budget covers stages 2b and 3 together, from here.
    const double work = values.real("effort") * static_cast<double>(automaticWorkLimit(graph.edgeCount()));
    const double seconds = values.real("time_limit_s");
    refinement::SearchBudget budget(work >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max()
                                                   : static_cast<std::uint64_t>(work),
                                    seconds > 0.0 ? std::optional<double>(seconds) : std::nullopt);
    search.budget = &budget;
    range.setProgress(0.1, "edge migration");
    if (!refinement::migrateEdges(problem, graph, partition, values, budgetUsd, range.sub(0.1, 0.2), notes, &state,
                                  incidence ? &*incidence : nullptr, &budget))
        return false;
    refinement::ReplicaReport report;
    if (!refinement::refineReplicas(problem, graph, partition, search, budgetUsd, seed, range.sub(0.2, 1.0), report,
                                    &state, incidence ? &*incidence : nullptr))
        return false;
    if (search.maxPasses > 0) {
        std::string text = "replica refinement: " + std::to_string(report.mirrorsRemoved) + " of "
            + std::to_string(report.mirrorsTried) + " mirror(s) tried removed, " + std::to_string(report.mirrorsAdded)
            + " mirror(s) added, in " + std::to_string(report.passes) + " pass(es)"
            + (report.outOfBudget ? " (search budget spent)" : "")
            + (report.capped ? " (the cost stopped falling above the budget; then the time was shortened at that cost)"
                             : "")
            + ", transfer time " + readableSeconds(report.before.transferSeconds()) + " \u2192 "
            + readableSeconds(report.after.transferSeconds()) + ", cost " + readableUsd(report.before.usd) + " \u2192 "
            + readableUsd(report.after.usd) + "; stages 2b and 3 took "
            + readableCount(static_cast<double>(budget.spent())) + " search steps";
        notes.emplace_back(text);
    }
    if (mapping)
        *mapping = std::move(sites);
    if (metrics && state)
        *metrics = state->metrics();
    return true;
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

/// Stage 1 in batches (EdgeBatches): the stream in file order, each batch's blocks placed side by side by the same
/// rule, as meridian-cli places it over MPI ranks.
Expected<PartitionResult> costAwareInBatches(const PartitionProblem& problem, std::uint64_t batch, bool refined,
                                             const FeedbackRange& range)
{
    const auto start = std::chrono::steady_clock::now();
    GeoCutBlock block(problem.network.usdPerByte, problem.sizes.gather, problem.sizes.binds);
    auto sites = placeInBatches(*problem.graph, problem.home, problem.sizes.apply, problem.siteCount(), batch, block,
                                range);
    if (!sites)
        return sites.error();
    PartitionResult result;
    result.streamingSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.partition.edgeSite = std::move(*sites);
    result.partition.masterSite = problem.home;
    result.notes.push_back(EdgeBatches(problem.graph->edgeCount(), batch).note("Geo-Cut's stage 1", !refined));
    return result;
}

/// Meridian's cheapest start: each edge at the home of its endpoint with fewer edges (the target's on ties), as
/// degree-based hashing places an edge with its lower-degree endpoint (Xie et al., NIPS'14), so a low-degree
/// vertex keeps its edges home and hubs, which are replicated anyway, take the mirrors. O(E), no stream state.
Expected<PartitionResult> degreeStart(const PartitionProblem& problem, const FeedbackRange& range)
{
    const auto& g = *problem.graph;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::uint32_t> degree(g.vertexCount, 0);
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        ++degree[g.src[e]];
        ++degree[g.dst[e]];
    }
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    PartitionResult result;
    result.partition.edgeSite.resize(g.edgeCount());
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        constexpr std::size_t kAhead = 16; // the vertices are random: load their degrees and homes ahead
        if (e + kAhead < g.edgeCount()) {
            __builtin_prefetch(degree.data() + g.src[e + kAhead]);
            __builtin_prefetch(degree.data() + g.dst[e + kAhead]);
            __builtin_prefetch(problem.home.data() + g.src[e + kAhead]);
            __builtin_prefetch(problem.home.data() + g.dst[e + kAhead]);
        }
        const std::uint32_t u = g.src[e], v = g.dst[e];
        result.partition.edgeSite[e] = problem.home[degree[u] < degree[v] ? u : v];
    }
    result.partition.masterSite = problem.home;
    result.streamingSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace

bool GeoCutPartitioner::refineStart(const PartitionProblem& problem, const ParamValues& values, std::uint64_t seed,
                                    const FeedbackRange& range, PartitionResult& result, const char* startName)
{
    const double budget = problem.budgetUsd.value_or(std::numeric_limits<double>::infinity());
    return refine(problem, *problem.graph, result.partition, values, seed, range, result.notes, budget,
                  &result.siteMapping, startName, &result.metrics);
}

Expected<PartitionResult> GeoCutPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const std::string& start = values.choice("start");
    // `best`: the degree-based start, which replica refinement takes furthest in the least time (see the README).
    const std::string chosen = start == "best" ? "degree" : start;
    const FeedbackRange streaming = range.sub(0.0, 0.3);
    Expected<PartitionResult> result = makeError(ErrorCode::Internal, "no start");
    const char* name = "degree-based start";
    const auto batch = static_cast<std::uint64_t>(values.integer("batch"));
    if (batch > 0 && chosen != "cost")
        return makeError(ErrorCode::InvalidInput,
                         "batch places Geo-Cut's cost-aware streaming in batches: give it with start=cost");
    if (chosen == "cost" && batch > 0) {
        result = costAwareInBatches(problem, batch, refines(values), streaming);
        name = kCostInBatches;
    } else if (chosen == "cost") {
        result = costAwareStream(problem, seed, streaming);
        name = "cost-aware streaming";
    } else if (chosen == "bandwidth") {
        // Under a budget, the stream keeps its dollars pro rata of the budget (then the refinement stays within it).
        result = bandwidthAwareStream(problem, 0.0, problem.budgetUsd.value_or(0.0), seed, streaming);
        name = "bandwidth-aware streaming";
    } else {
        result = degreeStart(problem, streaming);
    }
    if (!result)
        return result.error();
    if (!refineStart(problem, values, seed, range.sub(0.3, 1.0), *result, name))
        return makeError(ErrorCode::Canceled, "canceled");
    return result;
}

} // namespace meridian::partition
