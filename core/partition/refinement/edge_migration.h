#pragma once

#include "core/cost/gas_cost.h"
#include "core/partition/partitioner.h"
#include "core/partition/refinement/search_budget.h"

#include <optional>
#include <string>
#include <vector>

namespace meridian::partition::refinement {

/// Geo-Cut's stage 2b, edge migration (Section 4.2.2). Each round finds the bottlenecked link from eq. 1-3
/// (the gather or apply bottleneck, whichever stands further above the next-worst site), queues the replicas
/// it carries by their traffic on that link (mirrors by g_v^r for a gather uplink, masters by non-local
/// gather for a gather downlink, masters or mirrors by a_v for the apply stage), cuts the queue to
/// `lq_fraction` of its length, and moves each queued vertex's edges, in at most `groups` groups, to the
/// site giving the shortest transfer time if that is shorter and the budget holds. Masters stay at their sites
/// (the paper moves a master off a gather-downlink bottleneck; Meridian keeps each vertex's master with its data
/// and moves the master's edges instead). Rounds repeat (at most `max_rounds`) until one improves nothing. Over
/// budget at the start, no move may raise the cost. Adds a note; returns false when canceled (the moves made so
/// far stay). `state`, when given, is the traffic state of `partition` to start from when it holds one, else one is
/// built into it; either way it is left describing the migrated partition, for the next stage.
struct Incidence;
/// `incidence`, when given, lists each vertex's edges (else they are found by scanning the edge list each round).
/// `budget`, when given, is charged each queued vertex's edges and stops it at the first queued vertex once exhausted.
bool migrateEdges(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                  const ParamValues& values, double budgetUsd, const FeedbackRange& range,
                  std::vector<std::string>& notes, std::optional<cost::GasState>* state = nullptr,
                  const Incidence* incidence = nullptr, SearchBudget* budget = nullptr);

} // namespace meridian::partition::refinement
