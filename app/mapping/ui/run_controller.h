#pragma once

#include "app/jobs/job_runner.h"
#include "app/mapping/launched_mapping.h"
#include "app/mapping/sweep_operation.h"
#include "app/partitioning/partition_operation.h"
#include "app/project/ui/project_document.h"
#include "core/common/registry.h"
#include "core/mapping/mapper.h"
#include "core/partition/partitioner.h"

#include <QObject>

#include <optional>
#include <vector>

namespace meridian::actions {

/// The partition settings of a run on a graph (Geo-Cut's traffic profile and WAN budget).
struct PartitionSettings {
    std::string profile = "pagerank";
    double activeFraction = 0.1;
    std::optional<double> budgetUsd;
};

/// One run the user asked for: a mapper on an application, or a partitioner on a graph (`partition` set).
struct RunRequest {
    std::string application; ///< or the graph's name
    std::string algorithm;
    ParamValues params;
    std::uint64_t seed = 1;
    std::optional<model::Placement> start; ///< for refine with start=input
    std::optional<PartitionSettings> partition;
};

/// Submits mapping runs and sweeps to the JobRunner and lands their results in the document.
///
/// A job gets an immutable snapshot of the project taken at submission, so the user may keep editing.
/// When a run finishes it is added to the run list as an undoable command; if its inputs changed while
/// it ran, it lands marked stale (its fingerprint is the one it was computed from) and a message says so.
/// A canceled run adds nothing. Lives on the main thread.
class RunController : public QObject {
    Q_OBJECT
public:
    RunController(document::ProjectDocument* document, jobs::JobRunner* runner,
                  const Registry<mapping::Mapper>* mappers, QObject* parent = nullptr);

    const Registry<mapping::Mapper>& mappers() const { return *m_mappers; }
    /// The partitioners (hash, greedy, hdrf, graph-h, g-cut, geo-cut), owned by the controller.
    const Registry<partition::Partitioner>& partitioners() const { return m_partitioners; }
    /// Starts one job per request; returns the job ids.
    std::vector<int> submit(const std::vector<RunRequest>& requests);
    /// Starts one job per request that computes its run through an MPI launcher (meridian-cli under `mpirun`,
    /// `srun`, ... on the project as it is now: ops::runMappingLaunched, ops::runPartitionLaunched); each lands as a
    /// run computed here would. A run that does not split its work over ranks is launched on 1. Returns the job ids.
    std::vector<int> submitLaunched(const std::vector<RunRequest>& requests, const jobs::LauncherSettings& settings);
    /// The partition request of a run request with partition settings, on `project` (its inputs' fingerprint).
    static ops::PartitionRequest partitionRequest(const RunRequest& request,
                                                  std::shared_ptr<const document::Project> project,
                                                  std::uint64_t fingerprint);
    /// Runs again with the same algorithm, parameters and seed on the current inputs. A what-if derived from
    /// another run is not re-run (runFailed says to re-run its source).
    std::vector<int> rerun(const std::vector<int>& runIds);
    /// Re-runs every stale run; the stale runs are replaced by the new ones when these land.
    std::vector<int> rerunStale();
    /// Simulates mapping runs with SimGrid in the background (the metric "simulated_s" and the links' loads); each
    /// lands as a copy that replaces the run. A stale run or a partition run is refused (runFailed says why).
    /// Returns the job ids.
    std::vector<int> simulate(const std::vector<int>& runIds);
    /// Starts a Pareto sweep of `application`: refine between time and dollars at `points` weights from 0 to 1
    /// (objective=weighted), in one job whose runs land together on the skyline. Returns the job id.
    int startParetoSweep(const std::string& application, int points, std::uint64_t seed = 1);
    /// Starts a sweep; the result is delivered by sweepFinished.
    int startSweep(ops::SweepRequest request);

    /// Returns a sweep request for the current project (snapshot and network filled in).
    ops::SweepRequest sweepRequest() const;
    /// Removes sites from a copy of a partition run's partition in the background (Geo-Cut's data-centre
    /// removal); the result lands as a new run derived from it. Returns the job id, or -1 (runFailed says why).
    int removeSites(int runId, const std::vector<int>& sites);
    /// Applies an insert/delete batch (files of `src dst` lines; either may be empty) to a copy of a partition
    /// run's partition in the background (Geo-Cut's dynamic update, refined when a site's traffic changes by
    /// `threshold`); the result lands as a new run derived from it. Returns the job id, or -1.
    int applyBatch(int runId, const QString& insertPath, const QString& deletePath, double threshold);
    /// Computes GrapH's WAN cost on a graph in the background (Geo-Cut's budget B) and delivers it by
    /// graphHCostReady; returns the job id.
    int computeGraphHCost(const std::string& graph, const PartitionSettings& settings, std::uint64_t seed);
    /// Computes the lowest WAN cost any partition of a graph can reach under the settings' profile
    /// (partition::costLowerBound) in the background and delivers it by costBoundReady, with the settings' key;
    /// returns the job id. A failure goes to runFailed.
    int computeCostBound(const std::string& graph, const PartitionSettings& settings);
    /// What a cost bound depends on besides the project: the graph and the profile.
    static QString costBoundKey(const std::string& graph, const PartitionSettings& settings);
Q_SIGNALS:
    /// A run landed in the document (id in the run list); `stale` when its inputs changed meanwhile.
    void runLanded(int runId, bool stale);
    /// A run replaced another (a simulation of it, a re-run in place): `newId` holds what `oldId` held and more.
    void runReplaced(int oldId, int newId);
    /// simulate() left a run as it is: it is simulated and predicted already (nothing was queued).
    void alreadySimulated(int runId);
    void runFailed(const QString& title, const QString& message);
    void sweepFinished(const meridian::ops::SweepResult& result);
    void graphHCostReady(const QString& graph, double usd);
    /// A cost bound computed for `key` (costBoundKey) on the project snapshot with `fingerprint`.
    void costBoundReady(const QString& key, std::uint64_t fingerprint, double usd);

private:
    int submitOne(const RunRequest& request, int replaces);
    /// A mapping request for a run request on the current project.
    ops::MappingRequest mappingRequest(const RunRequest& request) const;
    int submitPartition(const RunRequest& request, int replaces);
    /// Says why a derived run is not re-run; true for a derived run.
    bool refuseDerived(const document::Run& run);
    /// Starts a job computing one run; its result lands (land), its error goes to runFailed.
    int startRun(const QString& title, jobs::JobRunner::Work<document::Run> work, int replaces);
    /// Adds finished runs to the document as one undoable step (replacing run `replaces` when it still exists)
    /// and says so for each.
    void land(std::vector<document::Run> runs, const QString& title, int replaces);

    document::ProjectDocument* m_document;
    jobs::JobRunner* m_runner;
    const Registry<mapping::Mapper>* m_mappers;
    Registry<partition::Partitioner> m_partitioners;
};

} // namespace meridian::actions

Q_DECLARE_METATYPE(meridian::ops::SweepResult)
