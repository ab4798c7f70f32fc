#include "app/actions/run_controller.h"

#include "app/jobs/mapping_job.h"

#include <QUndoStack>

namespace meridian::actions {

RunController::RunController(document::ProjectDocument* document, jobs::JobRunner* runner,
                             const Registry<mapping::Mapper>* mappers, QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_runner(runner)
    , m_mappers(mappers)
{
    qRegisterMetaType<jobs::SweepResult>();
}

std::vector<int> RunController::submit(const std::vector<RunRequest>& requests)
{
    std::vector<int> ids;
    for (const auto& r : requests)
        ids.push_back(submitOne(r, -1));
    return ids;
}

int RunController::submitOne(const RunRequest& r, int replaces)
{
    jobs::MappingRequest request;
    request.project = m_document->project();
    request.completeNetwork = m_document->completeNetwork();
    request.application = r.application;
    request.algorithm = r.algorithm;
    request.params = r.params;
    request.seed = r.seed;
    request.start = r.start;
    request.fingerprint = m_document->fingerprint(r.application);
    const QString title = tr("%1 on %2, seed %3")
                              .arg(QString::fromStdString(r.algorithm), QString::fromStdString(r.application))
                              .arg(r.seed);
    const Registry<mapping::Mapper>* mappers = m_mappers;
    return m_runner->start<document::Run>(
        title,
        [request = std::move(request), mappers](const Feedback& feedback) {
            return jobs::runMapping(request, *mappers, feedback);
        },
        [this, title, replaces](Expected<document::Run> output) {
            if (!output) {
                Q_EMIT runFailed(title, QString::fromStdString(output.error().toString()));
                return;
            }
            document::Run run = std::move(*output);
            const bool stale = m_document->isStale(run);
            QString text = tr("Run %1").arg(title);
            m_document->undoStack()->beginMacro(text);
            const auto ids = m_document->addRuns({std::move(run)}, text);
            if (replaces >= 0 && m_document->run(replaces))
                m_document->removeRuns({replaces});
            m_document->undoStack()->endMacro();
            Q_EMIT runLanded(ids.front(), stale);
        });
}

namespace {

// The same algorithm, parameters and seed on the same application, for the current inputs.
RunRequest requestOf(const document::Run& run)
{
    return {run.application, run.algorithm, run.params, run.seed, std::nullopt};
}

} // namespace

std::vector<int> RunController::rerun(const std::vector<int>& runIds)
{
    std::vector<int> jobs;
    for (int id : runIds)
        if (auto run = m_document->run(id))
            jobs.push_back(submitOne(requestOf(*run), -1));
    return jobs;
}

std::vector<int> RunController::rerunStale()
{
    std::vector<int> jobs;
    for (int id : m_document->staleRuns()) {
        auto run = m_document->run(id);
        jobs.push_back(submitOne(requestOf(*run), id));
    }
    return jobs;
}

jobs::SweepRequest RunController::sweepRequest() const
{
    jobs::SweepRequest request;
    request.project = m_document->project();
    request.completeNetwork = m_document->completeNetwork();
    return request;
}

int RunController::startSweep(jobs::SweepRequest request)
{
    const QString title = request.kind == jobs::SweepKind::ConstraintRatio
        ? tr("Sweep of the constraint ratio on %1").arg(QString::fromStdString(request.application))
        : tr("Sweep of the process count (%1)").arg(QString::fromStdString(request.pattern));
    const Registry<mapping::Mapper>* mappers = m_mappers;
    return m_runner->start<jobs::SweepResult>(
        title,
        [request = std::move(request), mappers](const Feedback& feedback) {
            return jobs::runSweep(request, *mappers, feedback);
        },
        [this, title](Expected<jobs::SweepResult> output) {
            if (!output) {
                Q_EMIT runFailed(title, QString::fromStdString(output.error().toString()));
                return;
            }
            Q_EMIT sweepFinished(*output);
        });
}

} // namespace meridian::actions
