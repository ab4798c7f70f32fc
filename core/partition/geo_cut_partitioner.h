#pragma once

#include "core/cost/gas_cost.h"
#include "core/partition/partitioner.h"

namespace meridian::partition {

/// `geo-cut`: Geo-Cut (TPDS'19) in full.
///
/// Stage 1, cost-aware streaming (Section 4.1, eq. 7-9): an edge (u, v) goes to the site of R_u and R_v's
/// intersection with the smallest gather cost (1 - I_v^r) P_r dg, or, when they share none, to the site
/// with the smallest gather plus synchronisation cost; ties go to the least-loaded site.
///
/// Stage 2a, partition mapping by the power of d choices (Algorithms 1-2): d random pairs of partitions are
/// sampled, each swap of their sites is costed with eq. 1 and eq. 4 from M x M aggregated traffic tables
/// (O(M^2) per estimate), and the best swap that gains time within the budget is applied. Algorithm 1 stops
/// at the first sample without gain; `patience` allows that many fruitless samples in a row (1 = the paper).
///
/// Stage 2b, edge migration (Section 4.2.2): the bottlenecked link is found from eq. 1-3 (the gather and
/// apply bottlenecks, or the one with more possible reduction); the replicas it carries are queued by their
/// traffic on that link (mirrors by g_v^r for a gather uplink, masters by non-local gather for a gather
/// downlink, masters or mirrors by a_v for the apply stage), the queue is cut to L_Q = `lq_fraction` of its
/// length, and each queued vertex's edges in that site, grouped into C = `groups` groups by the replica
/// sites of their other endpoints, move to the site giving the shortest transfer time, if that time is
/// shorter and the budget holds. For a gather-downlink bottleneck the master may instead move to its
/// replica with the most local edges. Rounds repeat until one improves nothing.
///
/// The budget B (USD per iteration) is honoured whenever the stage-1 cost fits it; when it does not, budget repair
/// moves edge groups to cheaper sites first, no refinement step may raise the cost, and the result is reported
/// over budget by the difference.
///
/// Where refinement starts (`start`): the paper's stage 1, G-Cut's bandwidth-aware streaming (Section 4.2.1 lets
/// partition mapping start from "an optimized solution given by any other graph partitioning method"), or
/// `best` (the default): under a budget both are refined and the faster one within the budget is kept (the cheaper
/// one when neither fits); with no budget the objective is the transfer time alone and refinement starts from the
/// bandwidth-aware stream.
class GeoCutPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "geo-cut"; }
    std::string_view description() const override
    {
        return "Geo-Cut: cost-aware streaming, partition mapping by the power of d choices, edge migration under a WAN "
               "budget";
    }
    std::vector<ParamSpec> parameters() const override;

    /// Runs stages 2a and 2b on an existing partition of `graph` (also used for dynamic graphs) with
    /// `budgetUsd` (infinity = none); returns false when canceled. Notes say what each stage achieved.
    static bool refine(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                       const ParamValues& values, std::uint64_t seed, const FeedbackRange& range,
                       std::vector<std::string>& notes, double budgetUsd, std::vector<int>* mapping = nullptr);

    /// Puts every master on one of its vertex's replicas: its home (moved by `mapping`, the partition mapping's
    /// sites, when not empty) or a site holding one of its edges. Emptying sites in budget repair moves masters
    /// off their homes, and later edge moves can leave one where its vertex has no edge left (refine calls this
    /// after such a repair); each such master goes to the replica that costs least (ties: transfer time).
    static void settleMasters(const PartitionProblem& problem, const model::Graph& graph,
                              model::EdgePartition& partition, const std::vector<int>& mapping);

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
