#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/cost/instance_metrics.h"
#include "core/model/network.h"
#include "core/model/network_estimator.h"
#include "core/sim/platform.h"
#include "core/sim/replay.h"
#include "core/sim/simulator.h"

#include <QJsonObject>

#include <optional>
#include <string>
#include <vector>

// A placement of one of a project's applications simulated with SimGrid (simulatePlacement: links' loads, time per
// iteration) and its run time predicted by SMPI replay (predictPlacement), each with its JSON (`meridian-cli simulate`
// and `predict` print it); and what a mapping run adds from them: its simulated time and links' loads (simulateRun)
// and its predicted run time (predictRun). The simulation runs in a worker process of its own (sim::simulate) and the replay in smpirun's, so
// the workbench's threads and SimGrid's once-per-process engine never meet. ops::mapAndMeasure calls both for runs
// of up to kAutoSimulateMessages messages (a failure is a note on the run); RunController::simulate runs them on
// demand and lands a copy that replaces the run. compareWithSimulation feeds the "Where the time goes" dialog
// (simulation/ui/simulation_details_dialog.h).

namespace meridian::ops {

/// One of a project's applications placed on the project's hosts, on the platform of its complete network: where a
/// simulation and a prediction start. Points into the project it was placed from, which must outlive it.
struct PlacedApplication {
    const document::Project* project = nullptr;
    const document::Application* application = nullptr;
    model::Placement placement;     ///< with hosts
    model::Network network;         ///< complete: the project's, missing entries estimated
    model::DistanceModel distances; ///< how the missing entries were estimated
    sim::SimPlatform platform;
};

/// How placeApplication checks a placement against the project.
enum class FitCheck {
    Full,     ///< capacities, slots and pins: a mapping file given to `simulate` or `predict`
    Processes ///< the process count only: a run, which keeps its violations as notes (an imported mapping may break
              ///< pins) and is simulated as it is
};

/// Places application `application` (an index) of `project` as `placement` says, hosts filled in, and builds the
/// platform. A placement that does not fit the project as `check` says is refused, the error naming `source` (the
/// mapping file) when given. `completeNetwork`: the project's complete network when the caller already has it (the
/// distance model is then left empty), else it is completed here.
Expected<PlacedApplication> placeApplication(const document::Project& project, int application,
                                             const model::Placement& placement, FitCheck check,
                                             const std::string& source = {},
                                             const model::Network* completeNetwork = nullptr);

/// What to simulate of a placed application.
struct SimulationRequest {
    int iterations = 1;
    /// A captured application's phases to replay in order, each ending with a barrier; empty: one bulk-synchronous
    /// exchange of the application's matrices per iteration.
    std::vector<model::CommMatrix> phases;
    std::vector<int> phaseNumbers; ///< each phase's N (PREFIX.phaseN), for the JSON
};

/// A placement's simulation beside the analytic measures of it.
struct PlacementSimulation {
    sim::SimResult result;
    double alphaBetaSeconds = 0.0;  ///< SC17 eq. 3
    double bottleneckSeconds = 0.0; ///< the busiest link's bytes over its bandwidth
    std::optional<cost::InstanceMetrics> instance;
    std::vector<double> phaseAlphaBetaSeconds; ///< per phase of the request
};

/// Simulates a placed application (sim::simulate in a worker process), with its alpha-beta cost, bottleneck
/// bound and CloudMap's instance metrics beside it.
Expected<PlacementSimulation> simulatePlacement(const PlacedApplication& placed, const SimulationRequest& request,
                                                const Feedback& feedback);

/// The JSON `meridian-cli simulate` prints: time_s, the phases, the analytic measures, each loaded link (estimated or
/// derived values marked) and the bottlenecks, the platform's size, SimGrid's settings and how the network was
/// completed.
QJsonObject simulationJson(const PlacedApplication& placed, const SimulationRequest& request,
                           const PlacementSimulation& simulation);

/// The platform's size for the JSON: hosts, links, routes, and host links left out.
QJsonObject platformJson(const sim::SimPlatform& platform);

/// Writes the platform of a project's complete network as SimGrid XML for smpirun (atomically) and returns what
/// `meridian-cli simulate --export-platform` prints: the file, the platform's size and how the network was
/// completed.
Expected<QJsonObject> exportPlatform(const document::Project& project, const std::string& path);

/// A placement's predicted run time, with the step-time estimate refine minimises and the alpha-beta cost beside it.
struct PlacementPrediction {
    sim::Prediction predicted;
    bool fromTrace = false;        ///< the application's captured trace was replayed
    double steps = 0.0;            ///< the bulk-synchronous steps S (of the matrices, also for a trace)
    double surrogateSeconds = 0.0; ///< cost::BottleneckCost over S steps
    double alphaBetaSeconds = 0.0;
};

/// Predicts a placed application's run time by SMPI replay: of its captured trace when it has one
/// (sim::predictTrace), else of its matrices as a bulk-synchronous program (sim::predictBulkSynchronous).
Expected<PlacementPrediction> predictPlacement(const PlacedApplication& placed, const Feedback& feedback);

/// The JSON `meridian-cli predict` prints: predicted_s, the model and its steps or trace, surrogate_s, alpha_beta_s,
/// the replay's wall time, SMPI's settings and how the network was completed.
QJsonObject predictionJson(const PlacedApplication& placed, const PlacementPrediction& prediction);

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
