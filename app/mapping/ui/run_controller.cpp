#include "app/mapping/ui/run_controller.h"

#include "app/mapping/launched_mapping.h"
#include "app/mapping/map_operation.h"
#include "app/partitioning/launched_partition.h"
#include "app/partitioning/partition_operation.h"
#include "app/simulation/simulate_operation.h"
#include "core/partition/builtin_partitioners.h"

#include <QFileInfo>
#include <QUndoStack>

namespace meridian::actions {

RunController::RunController(document::ProjectDocument* document, jobs::JobRunner* runner,
                             const Registry<mapping::Mapper>* mappers, QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_runner(runner)
    , m_mappers(mappers)
{
    qRegisterMetaType<ops::SweepResult>();
    partition::registerBuiltinPartitioners(m_partitioners);
}

std::vector<int> RunController::submit(const std::vector<RunRequest>& requests)
{
    std::vector<int> ids;
    ids.reserve(requests.size());
    for (const auto& r : requests)
        ids.push_back(submitOne(r, -1));
    return ids;
}

ops::MappingRequest RunController::mappingRequest(const RunRequest& r) const
{
    ops::MappingRequest request;
    request.project = m_document->project();
    request.completeNetwork = m_document->completeNetwork();
    request.application = r.application;
    request.algorithm = r.algorithm;
    request.params = r.params;
    request.seed = r.seed;
    request.start = r.start;
    request.fingerprint = m_document->fingerprint(r.application);
    return request;
}

std::vector<int> RunController::submitLaunched(const std::vector<RunRequest>& requests,
                                               const jobs::LauncherSettings& settings)
{
    std::vector<int> ids;
    for (const auto& r : requests) {
        const QString title = tr("%1 on %2, seed %3, by %4")
                                  .arg(QString::fromStdString(r.algorithm), QString::fromStdString(r.application))
                                  .arg(r.seed)
                                  .arg(QFileInfo(settings.launcher.section(' ', 0, 0)).fileName());
        jobs::LauncherSettings one = settings;
        if (r.partition) {
            ops::PartitionRequest request = partitionRequest(r, m_document->project(),
                                                             m_document->fingerprint(r.application));
            if (!ops::partitionRunSplitsOverRanks(request))
                one.ranks = 1; // the other partition runs are whole in one process
            ids.push_back(startRun(
                title,
                [request = std::move(request), one](const Feedback& feedback) {
                    return ops::runPartitionLaunched(request, one, feedback);
                },
                -1));
            continue;
        }
        if (!ops::splitsOverRanks(r.algorithm, r.params))
            one.ranks = 1; // the other mappers run whole in one process
        ids.push_back(startRun(
            title,
            [request = mappingRequest(r), one](const Feedback& feedback) {
                return ops::runMappingLaunched(request, one, feedback);
            },
            -1));
    }
    return ids;
}

int RunController::submitOne(const RunRequest& r, int replaces)
{
    if (r.partition)
        return submitPartition(r, replaces);
    ops::MappingRequest request = mappingRequest(r);
    const QString title = tr("%1 on %2, seed %3")
                              .arg(QString::fromStdString(r.algorithm), QString::fromStdString(r.application))
                              .arg(r.seed);
    const Registry<mapping::Mapper>* mappers = m_mappers;
    return startRun(
        title,
        [request = std::move(request), mappers](const Feedback& feedback) {
            return ops::runMapping(request, *mappers, feedback);
        },
        replaces);
}

ops::PartitionRequest RunController::partitionRequest(const RunRequest& r,
                                                      std::shared_ptr<const document::Project> project,
                                                      std::uint64_t fingerprint)
{
    ops::PartitionRequest request;
    request.project = std::move(project);
    request.graph = r.application;
    request.algorithm = r.algorithm;
    request.params = r.params;
    request.seed = r.seed;
    request.profile = r.partition->profile;
    request.activeFraction = r.partition->activeFraction;
    request.budgetUsd = r.partition->budgetUsd;
    request.fingerprint = fingerprint;
    return request;
}

int RunController::submitPartition(const RunRequest& r, int replaces)
{
    ops::PartitionRequest request = partitionRequest(r, m_document->project(), m_document->fingerprint(r.application));
    const QString title = tr("%1 on %2, seed %3")
                              .arg(QString::fromStdString(r.algorithm), QString::fromStdString(r.application))
                              .arg(r.seed);
    const Registry<partition::Partitioner>* partitioners = &m_partitioners;
    return startRun(
        title,
        [request = std::move(request), partitioners](const Feedback& feedback) {
            return ops::runPartition(request, *partitioners, feedback);
        },
        replaces);
}

int RunController::startRun(const QString& title, jobs::JobRunner::Work<document::Run> work, int replaces)
{
    return m_runner->start<document::Run>(title, std::move(work),
                                          [this, title, replaces](Expected<document::Run> output) {
                                              if (!output) {
                                                  Q_EMIT runFailed(title,
                                                                   QString::fromStdString(output.error().toString()));
                                                  return;
                                              }
                                              std::vector<document::Run> runs;
                                              runs.push_back(std::move(*output)); // a braced list would copy it
                                              land(std::move(runs), title, replaces);
                                          });
}

void RunController::land(std::vector<document::Run> runs, const QString& title, int replaces)
{
    if (runs.empty())
        return;
    const bool stale = m_document->isStale(runs.front());
    QString text = tr("Run %1").arg(title);
    m_document->undoStack()->beginMacro(text);
    const auto ids = m_document->addRuns(std::move(runs), text);
    const bool replaced = replaces >= 0 && m_document->run(replaces) && !ids.empty();
    const bool wasCurrent = replaced && m_document->currentRun() == replaces;
    if (replaced)
        m_document->removeRuns({replaces});
    m_document->undoStack()->endMacro();
    // The replacement keeps the selection the replaced run had (the details, the map and the Collectives tab).
    if (wasCurrent)
        m_document->setCurrentRun(ids.front());
    for (int id : ids)
        Q_EMIT runLanded(id, stale);
    if (replaced)
        Q_EMIT runReplaced(replaces, ids.front());
}

int RunController::removeSites(int runId, const std::vector<int>& sites)
{
    auto run = m_document->run(runId);
    const QString title = tr("Run %1 without %n site(s)", nullptr, static_cast<int>(sites.size())).arg(runId);
    if (!run || run->kind != document::RunKind::Partition || sites.empty()) {
        Q_EMIT runFailed(title, tr("Select a partition run and at least one site to remove."));
        return -1;
    }
    ops::SiteRemovalRequest request{m_document->project(), run, sites, m_document->fingerprint(run->application)};
    return startRun(
        title,
        [request = std::move(request)](const Feedback& feedback) { return ops::runSiteRemoval(request, feedback); },
        -1);
}

int RunController::applyBatch(int runId, const QString& insertPath, const QString& deletePath, double threshold)
{
    auto run = m_document->run(runId);
    const QString title = tr("Run %1 with an insert/delete batch").arg(runId);
    if (!run || run->kind != document::RunKind::Partition || (insertPath.isEmpty() && deletePath.isEmpty())) {
        Q_EMIT runFailed(title, tr("Select a partition run and a file of edges to insert, to delete, or both."));
        return -1;
    }
    ops::BatchRequest request{m_document->project(),    run,       insertPath.toStdString(),
                              deletePath.toStdString(), threshold, m_document->fingerprint(run->application)};
    return startRun(
        title,
        [request = std::move(request)](const Feedback& feedback) { return ops::runBatchUpdate(request, feedback); },
        -1);
}

int RunController::computeGraphHCost(const std::string& graph, const PartitionSettings& settings, std::uint64_t seed)
{
    ops::PartitionRequest request;
    request.project = m_document->project();
    request.graph = graph;
    request.algorithm = "graph-h";
    request.seed = seed;
    request.profile = settings.profile;
    request.activeFraction = settings.activeFraction;
    const QString name = QString::fromStdString(graph);
    const QString title = tr("GrapH's WAN cost on %1").arg(name);
    const Registry<partition::Partitioner>* partitioners = &m_partitioners;
    return m_runner->start<double>(
        title,
        [request = std::move(request), partitioners](const Feedback& feedback) {
            return ops::graphHCost(request, *partitioners, feedback);
        },
        [this, title, name](Expected<double> output) {
            if (!output) {
                Q_EMIT runFailed(title, QString::fromStdString(output.error().toString()));
                return;
            }
            Q_EMIT graphHCostReady(name, *output);
        });
}

QString RunController::costBoundKey(const std::string& graph, const PartitionSettings& settings)
{
    return QString::fromStdString(graph) + '\n' + QString::fromStdString(settings.profile)
        + (settings.profile == "sssp" ? '\n' + QString::number(settings.activeFraction, 'g', 12) : QString());
}

int RunController::computeCostBound(const std::string& graph, const PartitionSettings& settings)
{
    ops::PartitionRequest request;
    request.project = m_document->project();
    request.graph = graph;
    request.profile = settings.profile;
    request.activeFraction = settings.activeFraction;
    const QString key = costBoundKey(graph, settings);
    const std::uint64_t fingerprint = m_document->fingerprint(graph);
    const QString title = tr("Lowest possible WAN cost on %1").arg(QString::fromStdString(graph));
    return m_runner->start<double>(
        title, [request = std::move(request)](const Feedback& feedback) { return ops::costBound(request, feedback); },
        [this, title, key, fingerprint](Expected<double> output) {
            if (!output) {
                Q_EMIT runFailed(title, QString::fromStdString(output.error().toString()));
                return;
            }
            Q_EMIT costBoundReady(key, fingerprint, *output);
        });
}

namespace {

// The same algorithm, parameters and seed on the same application, for the current inputs.
RunRequest requestOf(const document::Run& run)
{
    RunRequest request{run.application, run.algorithm, run.params, run.seed, std::nullopt, std::nullopt};
    if (run.kind == document::RunKind::Partition)
        request.partition = PartitionSettings{run.profile, run.activeFraction, run.budgetUsd};
    return request;
}

} // namespace

std::vector<int> RunController::rerun(const std::vector<int>& runIds)
{
    std::vector<int> jobs;
    for (int id : runIds)
        if (auto run = m_document->run(id); run && !refuseDerived(*run))
            jobs.push_back(submitOne(requestOf(*run), -1));
    return jobs;
}

std::vector<int> RunController::rerunStale()
{
    std::vector<int> jobs;
    for (int id : m_document->staleRuns()) {
        auto run = m_document->run(id);
        if (!refuseDerived(*run))
            jobs.push_back(submitOne(requestOf(*run), id));
    }
    return jobs;
}

std::vector<int> RunController::simulate(const std::vector<int>& runIds)
{
    std::vector<int> jobs;
    for (int id : runIds) {
        auto run = m_document->run(id);
        if (!run)
            continue;
        if (run->kind != document::RunKind::Mapping || m_document->isStale(*run)) {
            Q_EMIT runFailed(tr("Run %1 is not simulated").arg(id),
                             run->kind != document::RunKind::Mapping
                                 ? tr("Only mapping runs are simulated; %1 partitions a graph.")
                                       .arg(QString::fromStdString(run->label()))
                                 : tr("The inputs of %1 changed since it ran: re-run it, then simulate the new run.")
                                       .arg(QString::fromStdString(run->label())));
            continue;
        }
        if (run->metric("simulated_s") && run->metric("predicted_s")) {
            Q_EMIT alreadySimulated(id); // simulating again would give the same numbers under a new run number
            continue;
        }
        const QString title = tr("Simulate %1").arg(QString::fromStdString(run->label()));
        jobs.push_back(startRun(
            title,
            [copy = *run, project = m_document->project(),
             network = m_document->completeNetwork()](const Feedback& feedback) mutable -> Expected<document::Run> {
                if (auto s = ops::simulateRun(copy, *project, network, feedback); !s)
                    return s.error();
                if (auto p = ops::predictRun(copy, *project, network, feedback); !p)
                    return p.error();
                return std::move(copy);
            },
            id));
    }
    return jobs;
}

bool RunController::refuseDerived(const document::Run& run)
{
    if (run.derivedFrom == 0)
        return false;
    Q_EMIT runFailed(tr("Run %1 is a what-if").arg(run.id),
                     tr("%1 derives from run %2: re-run that one, then derive the what-if from the new run.")
                         .arg(QString::fromStdString(run.label()))
                         .arg(run.derivedFrom));
    return true;
}

ops::SweepRequest RunController::sweepRequest() const
{
    ops::SweepRequest request;
    request.project = m_document->project();
    request.completeNetwork = m_document->completeNetwork();
    return request;
}

int RunController::startParetoSweep(const std::string& application, int points, std::uint64_t seed)
{
    ops::MappingRequest request;
    request.project = m_document->project();
    request.completeNetwork = m_document->completeNetwork();
    request.application = application;
    request.seed = seed;
    request.fingerprint = m_document->fingerprint(application);
    std::vector<double> weights = ops::paretoWeights(points);
    const QString title = tr("Pareto sweep of %1 between time and dollars (%n weight(s))", nullptr, points)
                              .arg(QString::fromStdString(application));
    const Registry<mapping::Mapper>* mappers = m_mappers;
    return m_runner->start<std::vector<document::Run>>(
        title,
        [request = std::move(request), weights = std::move(weights), mappers](const Feedback& feedback) {
            return ops::runParetoSweep(request, weights, *mappers, feedback);
        },
        [this, title](Expected<std::vector<document::Run>> output) {
            if (!output) {
                Q_EMIT runFailed(title, QString::fromStdString(output.error().toString()));
                return;
            }
            land(std::move(*output), title, -1);
        });
}

int RunController::startSweep(ops::SweepRequest request)
{
    const QString title = request.kind == ops::SweepKind::ConstraintRatio
        ? tr("Sweep of the constraint ratio on %1").arg(QString::fromStdString(request.application))
        : tr("Sweep of the process count (%1)").arg(QString::fromStdString(request.pattern));
    const Registry<mapping::Mapper>* mappers = m_mappers;
    return m_runner->start<ops::SweepResult>(
        title,
        [request = std::move(request), mappers](const Feedback& feedback) {
            return ops::runSweep(request, *mappers, feedback);
        },
        [this, title](Expected<ops::SweepResult> output) {
            if (!output) {
                Q_EMIT runFailed(title, QString::fromStdString(output.error().toString()));
                return;
            }
            Q_EMIT sweepFinished(*output);
        });
}

} // namespace meridian::actions
