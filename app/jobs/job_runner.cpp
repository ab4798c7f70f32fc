#include "app/jobs/job_runner.h"

#include <QCoreApplication>
#include <QRunnable>
#include <QSemaphore>

#include <new>
#include <vector>

namespace meridian::jobs {

int PoolExecutor::concurrency() const { return std::max(1, m_pool.maxThreadCount()); }

namespace {

/// A worker offered to the pool by shareWork(). Not auto-deleted: one that never started is taken back, one
/// that ran is deleted by shareWork() once it has released `returned`.
class OfferedWorker final : public QRunnable {
public:
    OfferedWorker(const Executor::Worker& worker, int index, FirstException& failure, QSemaphore& returned)
        : m_worker(worker)
        , m_index(index)
        , m_failure(failure)
        , m_returned(returned)
    {
        setAutoDelete(false);
    }

    void run() override
    {
        handoffAcquire(this); // its own address: nothing of it is read before this
        m_failure.run([this] { m_worker(m_index); });
        // shareWork() may delete this as soon as `returned` is released: nothing of it is read after.
        QSemaphore& returned = m_returned;
        handoffRelease(&returned);
        returned.release();
    }

private:
    const Executor::Worker& m_worker;
    int m_index;
    FirstException& m_failure;
    QSemaphore& m_returned;
};

} // namespace

void PoolExecutor::shareWork(int workers, const Worker& worker)
{
    FirstException failure;
    QSemaphore returned;
    std::vector<std::unique_ptr<OfferedWorker>> offered;
    for (int w = 1; w < workers; ++w) {
        offered.push_back(std::make_unique<OfferedWorker>(worker, w, failure, returned));
        handoffRelease(offered.back().get());
        m_pool.start(offered.back().get());
    }
    failure.run([&] { worker(0); });
    int started = 0;
    for (const auto& runnable : offered)
        if (!m_pool.tryTake(runnable.get()))
            ++started;
    returned.acquire(started);
    handoffAcquire(&returned);
    failure.rethrow();
}

namespace detail {

Job::~Job() = default;

Error errorOf(const std::exception_ptr& exception)
{
    try {
        std::rethrow_exception(exception);
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::Internal, "out of memory: the job needs more memory than the machine could give it");
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("the job failed: ") + e.what());
    } catch (...) {
        return makeError(ErrorCode::Internal, "the job failed with an unknown exception");
    }
}

bool isCancellation(const Error& error) { return error.code == ErrorCode::Canceled; }

} // namespace detail

JobRunner::JobRunner(QObject* parent, int threads)
    : QObject(parent)
{
    qRegisterMetaType<JobEnd>();
    m_pool.setMaxThreadCount(threads > 0 ? threads : std::max(2, QThread::idealThreadCount()));
}

JobRunner::~JobRunner()
{
    cancelAll();
    m_pool.waitForDone();
    for (auto& [id, job] : m_jobs)
        job->watcher().disconnect(this);
}

int JobRunner::add(std::unique_ptr<detail::Job> job)
{
    const int id = m_nextId++;
    job->clock.start();
    QFutureWatcherBase* watcher = &job->watcher();
    const double steps = detail::kProgressSteps;
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this,
            [this, id, stage = job->stage, steps](int value) { Q_EMIT jobProgress(id, value / steps, stage->text()); });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, id] { finish(id); });
    m_jobs.emplace(id, std::move(job));
    return id;
}

void JobRunner::cancel(int id)
{
    if (auto it = m_jobs.find(id); it != m_jobs.end())
        it->second->watcher().cancel();
}

void JobRunner::cancelAll()
{
    for (auto& [id, job] : m_jobs)
        job->watcher().cancel();
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
    return it == m_jobs.end() ? QString() : it->second->title;
}

QString JobRunner::stage(int id) const
{
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? QString() : it->second->stage->text();
}

std::vector<std::pair<double, double>> JobRunner::bestCurve(int id) const
{
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? std::vector<std::pair<double, double>>() : it->second->stage->bestCurve();
}

qint64 JobRunner::elapsedMs(int id) const
{
    auto it = m_jobs.find(id);
    return it == m_jobs.end() ? -1 : it->second->clock.elapsed();
}

void JobRunner::finish(int id)
{
    auto it = m_jobs.find(id);
    if (it == m_jobs.end())
        return;
    const std::unique_ptr<detail::Job> job = std::move(it->second);
    m_jobs.erase(it);
    const detail::Outcome outcome = job->deliver();
    Q_EMIT jobEnded(id, outcome.end, outcome.end == JobEnd::Canceled ? tr("canceled") : outcome.error);
}

} // namespace meridian::jobs
