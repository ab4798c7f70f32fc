#pragma once

#include "core/collectives/planner.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/network.h"
#include "core/model/topology.h"

#include <memory>
#include <utility>
#include <vector>

// A collective planned on a mapping run's network: the workbench's Collectives tab shows it, meridian-cli collective
// prints the same planner's rankings, sweeps and coll_tuned rules.

namespace meridian::ops {

/// The sizes a plan sweeps: 1 KiB to 4 GiB.
constexpr double kCollectiveSweepMin = 1024.0;
constexpr double kCollectiveSweepMax = 4294967296.0;

/// What the planner found for a mapping run: the ranking at every size from 1 KiB to 4 GiB, at the chosen size,
/// against the process count at the chosen size, and the fastest algorithm's schedule at the chosen size.
struct CollectivePlan {
    int run = -1;
    collectives::PlanRequest request;
    collectives::SizeSweep sweep;
    collectives::Ranking atSize;
    std::vector<std::pair<int, collectives::Ranking>> byCount;
    collectives::Schedule bestSchedule;
    collectives::Layout layout;
};

/// Plans `plan`'s request on its layout (run, request and layout set; the rest is filled): the size sweep, the
/// ranking at the chosen size and against the process count, and the fastest algorithm's schedule. Cancellable
/// between the stages.
Expected<std::shared_ptr<const CollectivePlan>> planCollective(CollectivePlan plan, const model::Topology& topology,
                                                               const model::Network& network, const Feedback& feedback);

} // namespace meridian::ops
