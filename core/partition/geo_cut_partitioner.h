#pragma once

#include "core/cost/gas_cost.h"
#include "core/partition/partitioner.h"

#include <cstdint>

namespace meridian::partition {

/// `geo-cut`: Geo-Cut (TPDS'19) in full, then Meridian's replica refinement.
///
/// Every vertex's data stays at its home site and its master with it (Section 1: data that cannot leave its DC),
/// so the home is always one of its replicas. Under eq. 1-4 alone, moving masters would let a partitioner empty
/// sites and gather everything in one, which sends nothing; keeping masters home rules that out, and makes the
/// cheapest reachable cost a real bound (partition::costLowerBound).
///
/// Stage 1, cost-aware streaming (Section 4.1, eq. 7-9): an edge (u, v) goes to the site of R_u and R_v's
/// intersection with the smallest gather cost (1 - I_v^r) P_r dg, or, when they share none, to the site
/// with the smallest gather plus synchronisation cost; ties go to the least-loaded site.
///
/// Stage 2a, partition mapping by the power of d choices (Algorithms 1-2), only with `relocate_data`: it moves a
/// whole partition, its vertices' data included, to another site. d random pairs of partitions are sampled, each
/// swap of their sites is costed with eq. 1 and eq. 4 from M x M aggregated traffic tables (O(M^2) per estimate),
/// and the best swap that gains time within the budget is applied. Algorithm 1 stops at the first sample without
/// gain; `patience` allows that many fruitless samples in a row (1 = the paper).
///
/// Stage 2b, edge migration (Section 4.2.2): the bottlenecked link is found from eq. 1-3 (the gather and
/// apply bottlenecks, or the one with more possible reduction); the replicas it carries are queued by their
/// traffic on that link (mirrors by g_v^r for a gather uplink, masters by non-local gather for a gather
/// downlink, masters or mirrors by a_v for the apply stage), the queue is cut to L_Q = `lq_fraction` of its
/// length, and each queued vertex's edges in that site, grouped into C = `groups` groups by the replica
/// sites of their other endpoints, move to the site giving the shortest transfer time, if that time is
/// shorter and the budget holds. Rounds repeat until one improves nothing.
///
/// Stage 3, replica refinement (Meridian's; refinement::refineReplicas): a local search that removes mirrors while
/// that shortens the transfer time within the budget, or, over the budget, lowers the cost. `replica_passes=0`
/// leaves the paper's Geo-Cut alone.
///
/// The budget B (USD per iteration) is honoured whenever the stage-1 cost fits it; when it does not, no stage may
/// raise the cost and stage 3 lowers it first, and a partition still over the budget is reported over by the
/// difference.
///
/// Where refinement starts (`start`): each edge at the home of its endpoint with fewer edges (`degree`, and `best`,
/// the default), the paper's stage 1 (`cost`), or G-Cut's bandwidth-aware streaming (`bandwidth`); Section 4.2.1
/// lets refinement start from "an optimized solution given by any other graph partitioning method". Stages 2b and 3
/// share one search budget (`effort`, optionally `time_limit_s`; see automaticWorkLimit), one traffic state
/// (cost::GasState, handed from stage to stage instead of counting every edge again) and one refinement::Incidence
/// (each vertex's edge ids, 8 bytes per edge).
class GeoCutPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "geo-cut"; }
    std::string_view description() const override
    {
        return "Geo-Cut: cost-aware streaming, partition mapping, edge migration and replica refinement under a WAN "
               "budget";
    }
    std::vector<ParamSpec> parameters() const override;

    /// Runs stages 2a (with `relocate_data`), 2b and 3 on an existing partition of `graph` (also used for dynamic
    /// graphs) with `budgetUsd` (infinity = none); returns false when canceled. Notes say what each stage achieved.
    /// `startName`, when given, names the start: a note then says what it cost. `metrics`, when given, gets the
    /// refined partition's metrics from the refinement's traffic state (when one was built).
    static bool refine(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                       const ParamValues& values, std::uint64_t seed, const FeedbackRange& range,
                       std::vector<std::string>& notes, double budgetUsd, std::vector<int>* mapping = nullptr,
                       const char* startName = nullptr, std::optional<cost::GasMetrics>* metrics = nullptr);

    /// The note of what stage 1 (`startName`) cost, and whether it is over the budget (infinity: none).
    static std::string stageOneNote(const char* startName, double usd, double budgetUsd);
    /// Stage 1's name when it ran in batches (`start=cost`, `batch` above 0), in one process or over ranks.
    static constexpr const char* kCostInBatches = "cost-aware streaming in batches";

    /// Whether `values` run any of stages 2a, 2b and 3 (relocate_data with max_iter, lq_fraction with max_rounds,
    /// replica_passes); without them a run is stage 1 alone, which splits over MPI ranks in batches.
    static bool refines(const ParamValues& values);

    /// How much stages 2b and 3 may search together at `effort=1`, in search steps (edges examined plus the traffic
    /// state's steps, see SearchBudget): kStepsPerEdge per edge, at least kMinimumWork. On this project's build
    /// machine a step takes about 30 ns on Wiki-Vote and 150 ns on 2 x 10^7 edges (the caches miss): Wiki-Vote under
    /// PageRank converges within the minimum, and on larger graphs the limit buys a partition ahead of G-Cut's and
    /// HDRF's in transfer time (the README has the figures).
    static std::uint64_t automaticWorkLimit(std::size_t edges);
    static constexpr std::uint64_t kMinimumWork = 10'000'000;
    static constexpr std::uint64_t kStepsPerEdge = 2;

private:
    /// Notes the start's stage-1 cost and refines it under the budget; false when canceled.
    static bool refineStart(const PartitionProblem& problem, const ParamValues& values, std::uint64_t seed,
                            const FeedbackRange& range, PartitionResult& result, const char* startName);
    Expected<PartitionResult> runImpl(const PartitionProblem&, const ParamValues&, std::uint64_t,
                                      const FeedbackRange&) const override;
};

class StreamState;
/// Stage 1 of Geo-Cut for one edge: returns the site eq. 7-9 choose given the current stream state.
int geoCutPlace(const PartitionProblem& problem, const StreamState& state, std::uint32_t u, std::uint32_t v);
/// The same choice from a GasState (dynamic insertions), with the sites' current edge loads.
int geoCutPlace(const PartitionProblem& problem, const cost::GasState& state, const std::vector<std::uint64_t>& load,
                std::uint32_t u, std::uint32_t v);

} // namespace meridian::partition
