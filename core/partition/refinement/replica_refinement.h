#pragma once

#include "core/common/executor.h"
#include "core/cost/gas_cost.h"
#include "core/partition/partitioner.h"
#include "core/partition/refinement/search_budget.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace meridian::partition::refinement {

/// How long replica refinement searches.
struct ReplicaSearch {
    int maxPasses = 20;        ///< passes over every vertex's mirrors (0 skips the stage)
    double minPassGain = 1e-3; ///< stop after a pass that improves the objective by less than this share
    /// Charged each visited vertex's edges; the stage stops once it is exhausted (none: no limit).
    SearchBudget* budget = nullptr;
    std::size_t maxSlotEdges = 256;        ///< mirrors holding more of their vertex's edges are not tried
    std::uint32_t maxScannedDegree = 4096; ///< nor are the mirrors of vertices with more edges (hubs)
};

/// What the stage did.
struct ReplicaReport {
    int passes = 0;
    std::size_t mirrorsTried = 0, mirrorsRemoved = 0, mirrorsAdded = 0;
    cost::GasState::Summary before, after;
    bool metBudget = false;   ///< the budget holds at the end (true when there is none)
    bool outOfBudget = false; ///< the search budget (work or time limit) stopped it
    bool capped = false;      ///< over the budget, the cost stopped falling and the time was shortened at that cost
};

/// Replica refinement (Meridian's stage 3 of Geo-Cut, after the paper's two refinement stages): a local search over
/// mirrors. Masters stay where they are. For every vertex x (in a seeded random order) and every site s where x has a
/// mirror, the edges of x at s are moved, one at a time, each to the best site among those already holding both of
/// its endpoints and the two endpoints' masters; the whole move is kept only when it improves the objective, else
/// undone. Each kept move removes a mirror of x (and often mirrors of its neighbours), so the WAN bytes fall. The
/// counterpart is tried too: x's edges whose other endpoint's master is at a site h (and that run elsewhere) move to
/// h together, pulling them to the neighbour's home. Vertices are visited in blocks of consecutive ids, the blocks in
/// a seeded random order, so a vertex's records are read in sequence on a large graph. For a combining profile an
/// edge's best site is predicted without moving it (GasState::predictMove); for a binding one it is tried.
///
/// The objective, compared exactly after every trial move with GasState's O(M) summary:
/// - while the partition costs more than `budgetUsd`: the WAN cost, then the transfer time; once a pass no longer
///   lowers the cost, the cost reached becomes the budget (capped) and the transfer time is shortened under it;
/// - within the budget: the transfer time (eq. 1), then the sum of the links' squared times (which falls when
///   traffic leaves the busiest links or the WAN, so moves that do not lower the maximum yet still count), with
///   no move allowed to leave the budget.
///
/// Passes repeat until one improves the objective by less than `minPassGain`, `maxPasses` ran, or the search budget
/// is exhausted. Each pass costs O(sum over mirrors of the mirror's edges x the candidate sites x M). Deterministic for
/// a seed. `state`, when it holds a state, is used (and left updated); otherwise one is built; `incidence` (of
/// `graph`), when given, is used instead of building one. Returns false when canceled (the partition then holds every
/// move kept so far, and is valid).
struct Incidence;
bool refineReplicas(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                    const ReplicaSearch& search, double budgetUsd, std::uint64_t seed, const FeedbackRange& range,
                    ReplicaReport& report, std::optional<cost::GasState>* state = nullptr,
                    const Incidence* incidence = nullptr);

/// The edges incident to each vertex as one array: vertex x's are `ids[offsets[x]] .. ids[offsets[x + 1] - 1]`, each
/// an edge id with kTarget set when x is the edge's target. 8 bytes per edge, 4 per vertex; fewer than 2^31 edges.
struct Incidence {
    static constexpr std::size_t kMaxEdges = std::size_t(1) << 31;
    static constexpr std::uint32_t kTarget = 1u << 31;
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint32_t> ids;
    /// With an `executor`, its workers build it at once.
    explicit Incidence(const model::Graph& graph, Executor* executor = nullptr);
};

} // namespace meridian::partition::refinement
