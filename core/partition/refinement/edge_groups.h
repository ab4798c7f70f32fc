#pragma once

#include "core/cost/gas_cost.h"
#include "core/model/graph.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace meridian::partition::refinement {

/// The incident edge ids of each of `vertices`, found by one scan of the edge list (memory stays at O(E) bytes
/// instead of an 8-bytes-per-edge adjacency index). Every listed vertex has an entry, possibly empty.
std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> incidentEdges(const model::Graph& graph,
                                                                            const std::vector<std::uint32_t>& vertices);

/// Groups vertex `v`'s edges (all of `incident`, or only those on `onlySite` when it is >= 0) into at most
/// `groups` groups by the replica sites of their other endpoints (Geo-Cut Section 4.2.2: the distance between
/// two edges is |R(u) ∩ R(w)|). Larger groups come first; edges of a group move together.
std::vector<std::vector<std::uint32_t>> groupEdges(const model::Graph& graph, const model::EdgePartition& partition,
                                                   const cost::GasState& state, std::uint32_t v,
                                                   const std::vector<std::uint32_t>& incident, int onlySite,
                                                   int groups);

/// Moves every edge of `group` to `site` in `state`.
void moveGroup(cost::GasState& state, const std::vector<std::uint32_t>& group, int site);

/// The sites `group`'s edges are on now, to move them back with restoreGroup().
std::vector<std::uint8_t> sitesOf(const model::EdgePartition& partition, const std::vector<std::uint32_t>& group);
void restoreGroup(cost::GasState& state, const std::vector<std::uint32_t>& group, const std::vector<std::uint8_t>& from);

/// Vertices ordered by a weight, heaviest first, ties by id (so the order does not depend on the sort).
using WeightedQueue = std::vector<std::pair<double, std::uint32_t>>;
void sortHeaviestFirst(WeightedQueue& queue);

} // namespace meridian::partition::refinement
