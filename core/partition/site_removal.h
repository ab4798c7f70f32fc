#pragma once

#include "core/partition/partitioner.h"

#include <string>
#include <vector>

namespace meridian::partition {

/// What removeSites did.
struct RemovalStats {
    std::size_t movedEdges = 0;   ///< edges that were in a removed site
    std::size_t movedMasters = 0; ///< masters that were in a removed site
    std::vector<std::string> notes;
};

/// Geo-Cut's removal of data centres (Section 6.4, 20 -> 15 sites): the sites in `removed` leave; each master in
/// one of them moves to the remaining site holding most of its vertex's edges (the cheapest remaining site when
/// none does), each edge in one of them is placed again among the remaining sites, by Geo-Cut's streaming rule
/// (eq. 7-9) under a budget and where it keeps the transfer time lowest without one (as Geo-Cut's default start),
/// and Geo-Cut's refinement (`geoCutValues`, the problem's budget) then runs on the remaining sites. The partition keeps the problem's site indices; the removed sites end with no edge and no master.
/// Errors: a site index out of range or listed twice, or no site left. O(E M) (O(E M^2) for the moved edges
/// without a budget) plus the refinement.
Expected<RemovalStats> removeSites(const PartitionProblem& problem, model::EdgePartition& partition,
                                   const std::vector<int>& removed, const ParamValues& geoCutValues, std::uint64_t seed,
                                   const Feedback& feedback);

} // namespace meridian::partition
