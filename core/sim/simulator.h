#pragma once

#include "core/collectives/schedule.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/comm_matrix.h"
#include "core/model/placement.h"
#include "core/sim/platform.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::sim {

/// What one process sends to another in an iteration: `bytes` in `messages` messages, one after the other (each
/// pays the route's latency), concurrently with the process's other transfers.
struct Transfer {
    int process = 0; ///< the sender
    int peer = 0;    ///< the receiver
    int fromHost = 0;
    int toHost = 0;
    double bytes = 0.0;
    std::int64_t messages = 1;
    /// The step of the iteration it belongs to: phases 0, 1, ... run one after another, each ending with a
    /// barrier (a captured application's MPI_Pcontrol phases); 0 for a bulk-synchronous iteration.
    int phase = 0;
    /// Transfers (indices into the list) that must have arrived before this one starts. When any transfer of a
    /// list has some, the list is a schedule (a collective's): each process sends its transfers one after the
    /// other, in list order, each once what it waits for has arrived, and receives all along; phases are not used,
    /// and the list is simulated once (one iteration).
    std::vector<int> after;
};

/// The transfers of one bulk-synchronous iteration: every process sends its row of the volume matrix, each
/// entry split into its message count (rounded, at least one message for a non-zero entry; one per entry when
/// the matrix has no counts). A process's entry to itself is left out: it costs nothing, as in the alpha-beta cost.
/// The placement must name hosts.
std::vector<Transfer> iterationTransfers(const model::CommMatrix& comm, const model::Placement& placement);
/// The transfers of an iteration made of phases, in order: phase k's transfers are iterationTransfers(phases[k])
/// with `phase` k.
std::vector<Transfer> phaseTransfers(const std::vector<model::CommMatrix>& phases, const model::Placement& placement);

/// A collective's schedule as transfers: one per message (one message each), waiting for what the message waits
/// for. The placement must have hosts (model::withHosts).
std::vector<Transfer> scheduleTransfers(const collectives::Schedule& schedule, const model::Placement& placement);

/// The most messages one simulation may carry (all iterations); larger ones are refused before they start.
constexpr std::int64_t kMaxSimulatedMessages = 20'000'000;

struct SimOptions {
    int iterations = 1;
};

/// One link's share of an iteration (the mean over the iterations).
struct LinkLoad {
    double bytes = 0.0;
    /// Seconds during which at least one transfer crossing the link was under way.
    double busySeconds = 0.0;
};

/// What a simulation found.
struct SimResult {
    std::vector<double> iterationSeconds; ///< simulated time of each iteration (transfers, then the barrier)
    double meanIterationSeconds = 0.0;
    /// Per phase (0 to the largest phase of the transfers), its mean simulated time per iteration; the phases
    /// add up to the iteration.
    std::vector<double> phaseSeconds;
    std::vector<LinkLoad> links; ///< per link of the platform, per iteration
    std::int64_t messages = 0;   ///< messages simulated, all iterations
    double wallSeconds = 0.0;    ///< how long the simulation took (this machine, wall clock)

    /// The fraction of its bandwidth a link carried over an iteration: bytes / (bandwidth x iteration time).
    double utilisation(const SimPlatform& platform, int link) const;
    /// The shared links by decreasing utilisation (fat pipes never limit, so they are left out).
    std::vector<int> bottlenecks(const SimPlatform& platform) const;
};

/// "SimGrid 3.32": the version this build simulates with.
std::string simgridVersion();

/// Simulates `iterations` bulk-synchronous iterations of `transfers` on `platform` with SimGrid: per iteration
/// (and per phase of it, in order) every process starts its transfers at once (each a chain of messages), and the
/// phase ends when its last message has arrived (the barrier). SimGrid runs once per process, so each simulation
/// runs in a new process of the caller's own executable, started for it (any executable that links this library
/// can be that worker); a SimGrid failure there is reported as an error, never a crash of the caller. Refuses more
/// than kMaxSimulatedMessages messages before starting. Cancellation through `range` stops the worker.
///
/// How: the platform's XML and the transfers with their routes go to temporary files, and /proc/self/exe is started
/// again (posix_spawn) with MERIDIAN_SIMULATION_PLATFORM and MERIDIAN_SIMULATION_INPUT set; that process runs the
/// simulation during static initialisation, before main starts Qt or any thread, and exits. (Forking the
/// multi-threaded caller instead left children waiting forever on locks other threads held, under
/// AddressSanitizer.) In the worker, each process is an actor and each transfer a chain of messages through a mailbox
/// of its own (SimGrid 3.32's host-to-host Comm::sendto searched one list of every message in flight at each
/// completion, which was quadratic); a controller actor is the barrier. A schedule's process has a sender actor,
/// which puts its transfers in order once what each waits for has arrived, and a receiver actor, which marks
/// arrivals under a condition variable. The worker sends the iteration and phase times and each link's busy seconds
/// back on fd 3; the caller adds each link's bytes from the routes and polls cancellation meanwhile (runChild).
Expected<SimResult> simulate(const SimPlatform& platform, const std::vector<Transfer>& transfers,
                             const SimOptions& options, const FeedbackRange& range);

} // namespace meridian::sim
