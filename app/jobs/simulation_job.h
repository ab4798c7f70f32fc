#pragma once

#include "app/document/project.h"
#include "app/document/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/network.h"

namespace meridian::jobs {

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

} // namespace meridian::jobs
