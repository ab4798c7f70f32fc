#pragma once

#include "core/collectives/planner.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/network.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

#include <QJsonObject>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// A collective planned on a placement's network: the workbench's Collectives tab shows a plan (planCollective), and
// meridian-cli collective prints an answer to its query (answerCollective, collectiveJson); both are made of the
// same stages, and both write Open MPI's coll_tuned rules with writeTunedRules.

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

/// What to ask the planner of a collective on a placement.
struct CollectiveQuery {
    collectives::PlanRequest request; ///< bytes: the size to rank at
    bool rankAtSize = true;           ///< rank the algorithms at request.bytes
    bool simulate = false;            ///< also simulate each ranked algorithm's schedule with SimGrid (rankAtSize)
    std::optional<std::pair<double, double>> sweepBytes; ///< rank every power of two in this range; the bands
    bool sweepProcesses = false;                         ///< rank for the first 2, 4, 8, ... processes
    double sweepProcessesBytes = 0;                      ///< at this size
};

/// The planner's answers to a query.
struct CollectiveAnswer {
    std::optional<collectives::Ranking> atSize;
    std::vector<double> simulatedSeconds; ///< with simulate: per result of atSize, its simulated time
    std::optional<collectives::SizeSweep> sweep;
    std::vector<std::pair<int, collectives::Ranking>> byCount;
};

/// Answers a query for the processes `placement` places (with hosts) on `network` (complete): the ranking at the
/// size, each ranked schedule simulated (sim::simulate on the platform of the topology and network), the size sweep
/// and the process sweep. Cancellable between the stages.
Expected<CollectiveAnswer> answerCollective(const CollectiveQuery& query, const model::Placement& placement,
                                            const model::Topology& topology, const model::Network& network,
                                            const Feedback& feedback);

/// The JSON `meridian-cli collective` prints of an answer (network and rules apart): operation, processes, root,
/// model, results fastest first (each with its bytes; the sweep's every size when `listSweep`), skipped algorithms,
/// notes, bands and by_processes.
QJsonObject collectiveJson(const CollectiveQuery& query, const CollectiveAnswer& answer, int processes, bool listSweep);

/// Writes Open MPI's coll_tuned dynamic rules for the fastest algorithm per size band of `sweep`, for a communicator
/// of `processes`, atomically to `path`, and returns what to say of them: the file, the communicator size, the
/// rules' notes and the mpirun options that load them.
Expected<QJsonObject> writeTunedRules(const std::string& path, collectives::Operation operation,
                                      const collectives::SizeSweep& sweep, int processes);

/// Plans `plan`'s request on its layout (run, request and layout set; the rest is filled): the size sweep, the
/// ranking at the chosen size and against the process count, and the fastest algorithm's schedule. Cancellable
/// between the stages.
Expected<std::shared_ptr<const CollectivePlan>> planCollective(CollectivePlan plan, const model::Topology& topology,
                                                               const model::Network& network, const Feedback& feedback);

} // namespace meridian::ops
