#include "app/jobs/job_runner.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

namespace meridian::jobs {

namespace {

constexpr int kProgressSteps = 1000;

} // namespace

JobRunner::JobRunner(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<JobEnd>();
    m_pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
}

JobRunner::~JobRunner()
{
    cancelAll();
    m_pool.waitForDone();
    for (auto& [id, job] : m_jobs)
        job.watcher->disconnect(this);
}

int JobRunner::start(const QString& title, Work work, Completion done)
{
    const int id = m_nextId++;
    Job& job = m_jobs[id];
    job.title = title;
    job.done = std::move(done);
    job.watcher = new QFutureWatcher<std::shared_ptr<JobOutput>>(this);
    job.clock.start();
    auto* watcher = job.watcher;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, id, watcher](int value) {
        Q_EMIT jobProgress(id, double(value) / kProgressSteps, watcher->progressText());
    });
    connect(watcher, &QFutureWatcherBase::progressTextChanged, this, [this, id, watcher](const QString& text) {
        Q_EMIT jobProgress(id, double(watcher->progressValue()) / kProgressSteps, text);
    });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, id] { finish(id); });

    auto future = QtConcurrent::run(&m_pool, [work = std::move(work)](QPromise<std::shared_ptr<JobOutput>>& promise) {
        promise.setProgressRange(0, kProgressSteps);
        Feedback feedback(
            [&promise](double fraction, std::string_view stage) {
                promise.setProgressValueAndText(static_cast<int>(fraction * kProgressSteps),
                                                QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size())));
            },
            [&promise] { return promise.isCanceled(); });
        std::shared_ptr<JobOutput> output;
        try {
            output = std::make_shared<JobOutput>(work(feedback));
        } catch (const std::exception& e) {
            output = std::make_shared<JobOutput>(
                makeError(ErrorCode::Internal, std::string("the job failed: ") + e.what()));
        } catch (...) {
            output = std::make_shared<JobOutput>(
                makeError(ErrorCode::Internal, "the job failed with an unknown exception"));
        }
        promise.addResult(std::move(output));
    });
    watcher->setFuture(future);
    Q_EMIT jobStarted(id, title);
    return id;
}

void JobRunner::cancel(int id)
{
    if (auto it = m_jobs.find(id); it != m_jobs.end())
        it->second.watcher->cancel();
}

void JobRunner::cancelAll()
{
    for (auto& [id, job] : m_jobs)
        job.watcher->cancel();
}

void JobRunner::waitForAll()
{
    while (!m_jobs.empty()) {
        m_pool.waitForDone();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    }
}

QString JobRunner::title(int id) const
{
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? QString() : it->second.title;
}

qint64 JobRunner::elapsedMs(int id) const
{
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? -1 : it->second.clock.elapsed();
}

void JobRunner::finish(int id)
{
    auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    Job job = std::move(it->second);
    m_jobs.erase(it);
    job.watcher->deleteLater();
    const auto future = job.watcher->future();
    // `finished` fires on cancel too: a canceled job's result is never applied.
    std::shared_ptr<JobOutput> output;
    if (future.resultCount() > 0)
        output = future.resultAt(0);
    const bool canceled = future.isCanceled() || (output && !*output && output->error().code == ErrorCode::Canceled);
    if (canceled || !output) {
        Q_EMIT jobEnded(id, JobEnd::Canceled, tr("canceled"));
        return;
    }
    const bool ok = output->hasValue();
    const QString message = ok ? QString() : QString::fromStdString(output->error().toString());
    if (job.done)
        job.done(std::move(*output));
    Q_EMIT jobEnded(id, ok ? JobEnd::Finished : JobEnd::Failed, message);
}

} // namespace meridian::jobs
