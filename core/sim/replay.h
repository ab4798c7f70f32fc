#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/io/ti_trace.h"
#include "core/mapping/mapping_problem.h"
#include "core/model/comm_matrix.h"
#include "core/model/placement.h"
#include "core/sim/platform.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace meridian::sim {

/// A predicted run time and the model it came from.
struct Prediction {
    double seconds = 0.0; ///< the predicted run time of the application's communication
    /// "bulk-synchronous": an application known by its matrices; "trace": a captured time-independent trace.
    std::string model;
    double steps = 0.0;             ///< bulk-synchronous: S, the steps of the model
    std::int64_t replayedSteps = 0; ///< bulk-synchronous: how many of them SMPI replayed (the time is scaled by S/K)
    std::int64_t traceLines = 0;    ///< the lines of the replayed trace
    double wallSeconds = 0.0;       ///< how long the replay took (this machine, wall clock)
};

/// The most trace lines one bulk-synchronous prediction replays (about 5 us each): the steps are identical in the
/// model, so fewer of them are replayed and the time scaled.
constexpr std::int64_t kMaxReplayLines = 400'000;

/// How many of `steps` steps a bulk-synchronous replay of `comm` runs: all of them when their trace fits
/// kMaxReplayLines, else as many as fit (at least one).
std::int64_t replayedSteps(const model::CommMatrix& comm, double steps);

/// The time-independent trace (SimGrid's format, all ranks in one file) of the first `replayed` of `steps`
/// bulk-synchronous steps: the messages of each pair spread evenly over the steps (a pair of m messages sends in
/// the steps where floor(k m / S) increases; a step's messages of one pair go as one message of their bytes);
/// every step each rank posts its receives, then its sends, then waits for all of them. `lines` gets the line
/// count.
std::string bulkSynchronousTrace(const model::CommMatrix& comm, double steps, std::int64_t replayed,
                                 std::int64_t& lines);

/// The SimGrid settings of every prediction (simgridConfiguration's network model, and a precision fine enough
/// for microsecond latencies), as `--cfg=` arguments.
std::vector<std::string> smpiArguments();

/// The platform as SMPI runs it: hosts and sites renamed h0, h1, ... and s0, s1, ... (names a host file can
/// hold), the links and routes unchanged.
SimPlatform replayPlatform(const SimPlatform& platform);

/// The host file of a placement on a replay platform: rank r's line names host placement.host[r].
std::string replayHostFile(const model::Placement& placement);

/// Predicts the run time of `comm` placed by `placement` (with hosts) on `platform`: replays its bulk-synchronous
/// trace (bulkSynchronousTrace with S = cost::bulkSynchronousSteps) with SimGrid's SMPI (`smpirun -replay`, a
/// child process in a process group of its own, killed when `range` is canceled). Fails with the reason when
/// smpirun is missing or fails.
Expected<Prediction> predictBulkSynchronous(const SimPlatform& platform, const model::CommMatrix& comm,
                                            const model::Placement& placement, const FeedbackRange& range);

/// Predicts the run time of a captured application from its time-independent trace (read and checked by
/// io::readTiTrace): SMPI replays every rank's actions, with the computation between MPI calls as measured when
/// it was captured, each rank on the host `placement` names.
Expected<Prediction> predictTrace(const SimPlatform& platform, const io::TiTrace& trace,
                                  const model::Placement& placement, const FeedbackRange& range);

/// predictTrace of a trace held in memory (a project's): written to a temporary file for SMPI, removed after.
Expected<Prediction> predictTrace(const SimPlatform& platform, const io::StoredTrace& trace,
                                  const model::Placement& placement, const FeedbackRange& range);

/// The most ranks a judge replays: SMPI runs one actor per rank, and refine's judge must stay seconds long.
constexpr int kMaxJudgedRanks = 4096;

/// A judge for refine's last candidates (mapping::MappingProblem::withJudge): the predicted run time on the
/// platform of the problem's topology and network (built at each call), replaying `trace` when given
/// (predictTrace), else the problem's matrix as a bulk-synchronous program (predictBulkSynchronous). When the
/// platform cannot be built (too many routes), or the application has more than kMaxJudgedRanks processes, the judge
/// fails with that reason, which refine notes.
mapping::MappingProblem::Judge replayJudge(const mapping::MappingProblem& problem,
                                           const std::shared_ptr<const io::StoredTrace>& trace = nullptr);

/// Replays the time-independent trace listed in `traceList` (SimGrid's -replay argument: a list naming one merged
/// trace, which every rank reads, or one file per rank) on `platform` with `placement`'s hosts; the simulated time in
/// seconds, read from the replay's log line. smpirun runs on replayPlatform's host names in a process group of its
/// own, killed whole when `range` is canceled.
Expected<double> replayTrace(const SimPlatform& platform, const std::string& traceList,
                             const model::Placement& placement, const FeedbackRange& range);

} // namespace meridian::sim
