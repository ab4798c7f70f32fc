#pragma once

#include "core/partition/partitioner.h"

#include <cstdint>
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

/// Applies a batch of edge deletions, then insertions, to a Geo-Cut partition (Section 5).
///
/// Deletions remove one matching edge each (an edge that is not there is an error naming it; nothing is
/// changed then). Inserted edges are placed by Geo-Cut's cost-aware streaming rule (eq. 7-9); a vertex not
/// yet in the graph joins with a random home (seeded). Each change adds the traffic it moves, per site, to
/// a counter; when a site's counter passes `threshold` (0.1 = 10%) of that site's traffic at the last
/// refinement, Geo-Cut's refinement (partition mapping, then edge migration, with `geoCutValues`) runs on
/// the whole partition and the counters restart. `graph`, `partition` and `home` are updated in place and
/// stay consistent: evaluateGas on them equals a from-scratch evaluation of the same edges.
/// `problem` gives the sites, profile and budget; its graph pointer is not used.
Expected<UpdateStats> applyUpdates(const PartitionProblem& problem, model::Graph& graph,
                                   model::EdgePartition& partition, std::vector<int>& home,
                                   const std::vector<std::pair<std::uint64_t, std::uint64_t>>& deletions,
                                   const std::vector<std::pair<std::uint64_t, std::uint64_t>>& insertions,
                                   const ParamValues& geoCutValues, double threshold, std::uint64_t seed,
                                   const Feedback& feedback);

} // namespace meridian::partition
