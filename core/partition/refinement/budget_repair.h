#pragma once

#include "core/partition/partitioner.h"

#include <string>
#include <vector>

namespace meridian::partition::refinement {

/// Budget repair (Meridian's addition to Geo-Cut, run before its stage 2): when the partition costs more than
/// `budgetUsd` per iteration, the vertices that upload the most dollars are visited in that order and each of
/// their edge groups (at most `groups` per vertex, see groupEdges) moves to the site that cuts the WAN cost
/// most (ties by transfer time), until the budget holds or every vertex was visited. When that stops above the
/// budget (a local minimum), sites are emptied whole (edges and masters) into others, the one uploading the most
/// dollars first, each into the site that leaves the partition fastest within the budget (or cheapest when
/// none is), until the budget holds: one site holding everything sends nothing over the WAN, so every budget is
/// met. Adds notes when it ran; does nothing when the budget is infinite or already holds. Stops early, keeping
/// its moves, when canceled. Returns whether it emptied a site (then masters may be off their homes).
bool repairBudget(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                  int groups, double budgetUsd, const FeedbackRange& range, std::vector<std::string>& notes);

} // namespace meridian::partition::refinement
