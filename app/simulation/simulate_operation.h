#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/network.h"

#include <optional>
#include <vector>

// What a mapping run adds from SimGrid: its simulated time and links' loads (simulateRun) and its predicted run time
// (predictRun). The simulation runs in a worker process of its own (sim::simulate) and the replay in smpirun's, so
// the workbench's threads and SimGrid's once-per-process engine never meet. ops::mapAndMeasure calls both for runs
// of up to kAutoSimulateMessages messages (a failure is a note on the run); RunController::simulate runs them on
// demand and lands a copy that replaces the run. compareWithSimulation feeds the "Where the time goes" dialog
// (simulation/ui/simulation_details_dialog.h).

namespace meridian::ops {

/// A mapping run whose simulation carries at most this many messages is simulated as soon as it is computed, in
/// its job, before it lands; a larger one on demand (Runs > Simulate). The sample projects' applications (1,260 to
/// 307,200 messages) take 0.02 to 3.7 s here.
constexpr double kAutoSimulateMessages = 500'000;

/// The messages a run's simulation carries: its application's message counts (one per non-zero entry without
/// counts), 0 for a partition run or an application the project does not have.
double simulatedMessages(const document::Run& run, const document::Project& project);

/// Simulates a mapping run's placement with SimGrid (sim::simulate, one bulk-synchronous iteration of the
/// application's matrices) and adds the metric "simulated_s" (Simulated time) and the site-level links' loads
/// (uplinks, downlinks, site pairs) to the run, replacing an earlier simulation's. `network` must be complete.
/// An error leaves the run as it was.
Status simulateRun(document::Run& run, const document::Project& project, const model::Network& network,
                   const Feedback& feedback);

/// Adds the metric "predicted_s" (Predicted time, first among the run's metrics, replacing an earlier one): the
/// SMPI replay of its application's trace when the project keeps one (sim::predictTrace), else of its matrices as
/// a bulk-synchronous program (sim::predictBulkSynchronous), on the project's platform, each rank on the host the
/// placement names; a note says the model and its steps. The instances are then charged for the predicted time
/// (the metrics "instance_usd" and "usd"), not for cost_s, which stood in for it (`meridian-cli map`, which does not
/// predict, says `instance_time: "cost_s"`). `network` must be complete. An error leaves the run as it was.
Status predictRun(document::Run& run, const document::Project& project, const model::Network& network,
                  const Feedback& feedback);

/// One link of a simulated run beside what the alpha-beta cost says of it: a site pair's link (from, to), a site's
/// uplink (to = -1), its downlink (from = -1), or the inside of a site (from = to), which the alpha-beta cost
/// prices but whose per-host links the run does not keep from its simulation (`simulated` false).
struct LinkComparison {
    int from = -1;
    int to = -1;
    double bytes = 0.0;            ///< per iteration (the simulation's; the alpha-beta traffic inside a site)
    double alphaBetaSeconds = 0.0; ///< the pair's part of the alpha-beta cost; 0 for an uplink or downlink
    bool simulated = true;
    double busySeconds = 0.0;  ///< busy fraction x simulated time
    double busyFraction = 0.0; ///< share of the simulated iteration with a transfer under way on it
    double utilisation = 0.0;  ///< bytes / (bandwidth x simulated time)
};

/// Where a simulated run's alpha-beta cost and its simulation put the time.
struct SimulationComparison {
    double alphaBetaSeconds = 0.0;     ///< the run's cost_s: the sum over pairs, as if each had a private link
    double simulatedSeconds = 0.0;     ///< simulated_s: one iteration's time, transfers overlapping and sharing
    std::vector<LinkComparison> links; ///< simulated links by utilisation (most first), then the insides of sites
    int costliest = -1; ///< the link with the largest alpha-beta part (index into links), -1 when none costs
    int busiest = -1;   ///< the simulation's busiest link (utilisation, then busy fraction), -1 when none
};

/// Compares a run's alpha-beta cost with its simulation, link by link; nullopt when the run was not simulated.
std::optional<SimulationComparison> compareWithSimulation(const document::Run& run);

} // namespace meridian::ops
