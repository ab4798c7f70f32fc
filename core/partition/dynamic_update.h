#pragma once

#include "core/partition/partitioner.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace meridian::partition {

/// What applyUpdates did.
struct UpdateStats {
    std::size_t inserted = 0;
    std::size_t deleted = 0;
    std::size_t newVertices = 0;
    int refinements = 0;
    std::vector<std::string> notes;
};

/// Original id pairs (src, dst), as an insert or delete batch names them.
using EdgeIds = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// A batch checked against a graph before anything changes: which edges the deletions remove, the
/// vertices the insertions add (in order of first appearance) with their seeded random homes, and the
/// inserted edges as vertex indices of the updated graph (self-loops dropped, as readers drop them).
struct ResolvedBatch {
    std::vector<bool> removed; ///< per edge of the graph
    std::size_t removedCount = 0;
    std::vector<std::uint64_t> newIds; ///< original ids of the added vertices, numbered from graph.vertexCount
    std::vector<int> newHomes;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> inserted;
};

/// Resolves a batch against `graph`: each deletion removes one matching edge that is still there. A
/// deletion that finds none is an error naming the edge, at `deletionAt(k)` for the k-th deletion when given
/// (the file and line it was read from).
Expected<ResolvedBatch> resolveBatch(const model::Graph& graph, const EdgeIds& deletions, const EdgeIds& insertions,
                                     int siteCount, std::uint64_t seed,
                                     const std::function<SourceLocation(std::size_t)>& deletionAt = {});

/// Changes `graph` and `home` as the batch says, without a partition: the graph and homes applyUpdates leaves
/// for the same batch and seed (the edges kept in order, then the inserted ones).
void applyBatch(model::Graph& graph, std::vector<int>& home, const ResolvedBatch& batch);

/// Applies a batch of edge deletions, then insertions, resolved against `graph` by resolveBatch with the same
/// `seed`, to a Geo-Cut partition (Section 5).
///
/// Deletions remove the edges the batch marked (resolveBatch already refused an edge that is not there, before
/// anything changed). Inserted edges are placed by Geo-Cut's cost-aware streaming rule (eq. 7-9); a vertex not
/// yet in the graph joins with the home resolveBatch drew for it. Each change adds the traffic it moves, per site, to
/// a counter; when a site's counter passes `threshold` (0.1 = 10%) of that site's traffic at the last
/// refinement, Geo-Cut's refinement (partition mapping, then edge migration, with `geoCutValues`) runs on
/// the whole partition and the counters restart. `graph`, `partition` and `home` are updated in place and
/// stay consistent: evaluateGas on them equals a from-scratch evaluation of the same edges.
/// `problem` gives the sites, profile and budget; its graph pointer is not used.
Expected<UpdateStats> applyUpdates(const PartitionProblem& problem, model::Graph& graph,
                                   model::EdgePartition& partition, std::vector<int>& home, const ResolvedBatch& batch,
                                   const ParamValues& geoCutValues, double threshold, std::uint64_t seed,
                                   const Feedback& feedback);

} // namespace meridian::partition
