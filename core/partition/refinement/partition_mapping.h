#pragma once

#include "core/common/random.h"
#include "core/cost/gas_cost.h"
#include "core/partition/partitioner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace meridian::partition::refinement {

/// Geo-Cut's stage 2a, partition mapping: a partition (all that stage 1 put on one site, masters included) moves
/// to another site whole. Up to `exhaustive_sites` sites every mapping is tried, as the paper suggests for small
/// M; beyond, the power of d choices (Algorithms 1-2): `d` random pairs of
/// partitions are sampled per step, each swap of their sites is costed with eq. 1 and eq. 4 from M x M
/// aggregated traffic tables (O(M^2) per estimate), and the best swap that gains transfer time within the
/// budget is applied; stops after `max_iter` steps or `patience` fruitless samples in a row (0 = the number
/// of sites). Over budget at the start, no swap may raise the cost. Relabels `partition`'s edges and adds a
/// note; returns false when canceled (the partition is then unchanged).
/// `mapping`, when given, gets the site each partition moved to. `unmoved`, when given, gets the traffic state the
/// mapping was costed from when no partition moved (it then still describes `partition`), for the next stage
/// to start from instead of counting every edge again.
bool mapPartitions(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                   const ParamValues& values, Random& random, double budgetUsd, const FeedbackRange& range,
                   std::vector<std::string>& notes, std::vector<int>* mapping = nullptr,
                   std::optional<cost::GasState>* unmoved = nullptr);

} // namespace meridian::partition::refinement
