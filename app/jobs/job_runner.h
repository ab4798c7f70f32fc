#pragma once

#include "app/jobs/handoff.h"
#include "core/common/executor.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <QElapsedTimer>
#include <QFutureInterface>
#include <QFutureWatcher>
#include <QObject>
#include <QRunnable>
#include <QString>
#include <QThreadPool>

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace meridian::jobs {

/// How a job ended.
enum class JobEnd { Finished, Failed, Canceled };

/// The engine's Executor on a QThreadPool: offered workers are queued on the pool and withdrawn
/// (QThreadPool::tryTake) if they have not started when the calling thread's worker returns.
class PoolExecutor final : public Executor {
public:
    explicit PoolExecutor(QThreadPool& pool)
        : m_pool(pool)
    {}
    int concurrency() const override;
    void shareWork(int workers, const Worker& worker) override;

private:
    QThreadPool& m_pool;
};

namespace detail {

/// What a finished job's outcome was, once its completion ran.
struct Outcome {
    JobEnd end = JobEnd::Canceled;
    QString error;
};

/// The stage a job's work reports, shared by its task (which writes it) and the runner (which reads it when
/// the progress value changes). Kept apart from QFuture's progress text, so that no string is shared
/// between threads behind a lock ThreadSanitizer cannot see.
class Stage {
public:
    Stage() { m_clock.start(); }
    void set(std::string_view stage)
    {
        const std::lock_guard lock(m_mutex);
        if (stage != m_text)
            m_text.assign(stage);
    }
    QString text() const
    {
        const std::lock_guard lock(m_mutex);
        return QString::fromStdString(m_text);
    }
    /// Records an anytime search's best value so far, with the seconds since the job was created.
    void addBest(double best)
    {
        const std::lock_guard lock(m_mutex);
        m_best.emplace_back(static_cast<double>(m_clock.nsecsElapsed()) * 1e-9, best);
    }
    std::vector<std::pair<double, double>> bestCurve() const
    {
        const std::lock_guard lock(m_mutex);
        return m_best;
    }

private:
    mutable std::mutex m_mutex;
    std::string m_text;
    QElapsedTimer m_clock;
    std::vector<std::pair<double, double>> m_best;
};

/// A job as the runner keeps it, whatever its result type.
class Job {
public:
    virtual ~Job();
    virtual QFutureWatcherBase& watcher() = 0;
    /// Hands a finished job's output to its completion (unless it was canceled) and says how it ended.
    virtual Outcome deliver() = 0;

    QString title;
    QElapsedTimer clock;
    std::shared_ptr<Stage> stage = std::make_shared<Stage>();
};

/// Turns an exception thrown by a job's work into the error it fails with.
Error errorOf(const std::exception_ptr& exception);
bool isCancellation(const Error& error);
/// A job's progress travels as a whole number of steps out of these.
inline constexpr int kProgressSteps = 1000;

/// A job whose work returns Expected<Result>. The output travels through the QFuture behind a shared
/// pointer (Expected has no default value) and reaches the completion on the main thread, still typed.
template <typename Result>
class TypedJob final : public Job {
public:
    using Output = std::shared_ptr<Expected<Result>>;

    TypedJob(QObject* parent, std::function<void(Expected<Result>)> done)
        : m_watcher(new QFutureWatcher<Output>(parent))
        , m_done(std::move(done))
    {}
    ~TypedJob() override { m_watcher->deleteLater(); }
    QFutureWatcherBase& watcher() override { return *m_watcher; }
    void setFuture(const QFuture<Output>& future) { m_watcher->setFuture(future); }

    Outcome deliver() override
    {
        // `finished` fires on cancel too: a canceled job's result is never applied.
        const QFuture<Output> future = m_watcher->future();
        Output output;
        if (future.resultCount() > 0)
            output = future.resultAt(0);
        handoffAcquire(this);
        if (future.isCanceled() || !output || (!*output && isCancellation(output->error())))
            return {JobEnd::Canceled, {}};
        const bool ok = output->hasValue();
        QString error = ok ? QString() : QString::fromStdString(output->error().toString());
        if (m_done)
            m_done(std::move(*output));
        return {ok ? JobEnd::Finished : JobEnd::Failed, error};
    }

private:
    QFutureWatcher<Output>* m_watcher;
    std::function<void(Expected<Result>)> m_done;
};

/// What runs on the pool for a TypedJob: the work with a Feedback whose progress and cancellation are the
/// job's future, its output (or the exception it threw, as an error) reported as the future's one result.
template <typename Result>
class TypedTask final : public QRunnable {
public:
    using Output = typename TypedJob<Result>::Output;

    TypedTask(std::function<Expected<Result>(const Feedback&)> work, QFutureInterface<Output> promise,
              std::shared_ptr<Stage> stage, Executor& executor, const void* token)
        : m_work(std::move(work))
        , m_promise(std::move(promise))
        , m_stage(std::move(stage))
        , m_executor(executor)
        , m_token(token)
    {}

    void run() override
    {
        handoffAcquire(this); // the task's own address: nothing of it is read before this

        Output output;
        if (m_promise.isCanceled()) {
            output = std::make_shared<Expected<Result>>(makeError(ErrorCode::Canceled, "canceled"));
        } else {
            QFutureInterface<Output>& promise = m_promise;
            Stage& stage = *m_stage;
            Feedback feedback(
                [&promise, &stage](double fraction, std::string_view name) {
                    stage.set(name);
                    promise.setProgressValue(static_cast<int>(fraction * kProgressSteps));
                },
                [&promise] { return promise.isCanceled(); });
            feedback.setExecutor(m_executor);
            feedback.setBestCallback([&stage](double best) { stage.addBest(best); });
            try {
                output = std::make_shared<Expected<Result>>(m_work(feedback));
            } catch (...) {
                output = std::make_shared<Expected<Result>>(errorOf(std::current_exception()));
            }
        }
        handoffRelease(m_token);
        m_promise.reportAndMoveResult(std::move(output));
        m_promise.reportFinished();
    }

private:
    std::function<Expected<Result>(const Feedback&)> m_work;
    QFutureInterface<Output> m_promise;
    std::shared_ptr<Stage> m_stage;
    Executor& m_executor;
    const void* m_token;
};

} // namespace detail

/// The one place in the application that starts threads: one QThreadPool, and the PoolExecutor on it
/// that every job's Feedback names, so a mapper's parallel workers share the cores with the other jobs.
///
/// A job is a function of a Feedback returning Expected<Result>, typed as Qt Creator's Async<ResultType>
/// is: it runs on the pool as a TypedTask; the Feedback's progress goes to the job's QFutureInterface and its
/// cancel predicate polls isCanceled(); a QFutureWatcher brings progress and the outcome back to the main
/// thread. The completion runs on the main thread, with the Expected<Result>, and
/// only for a job that was not canceled. Exceptions thrown by a job become a failed outcome. The destructor
/// cancels every job and waits for all of them. A job's inputs and output cross threads through handoff.h's
/// release and acquire, which tell ThreadSanitizer what Qt's uninstrumented queue guarantees.
///
/// meridian-cli has no JobRunner: it runs one operation on its own thread, and a computation's workers get
/// Executor::standard() (a thread per worker for the call).
class JobRunner : public QObject {
    Q_OBJECT
public:
    template <typename Result>
    using Work = std::function<Expected<Result>(const Feedback& feedback)>;
    template <typename Result>
    using Completion = std::function<void(Expected<Result> output)>;

    /// `threads` is the pool's size: 0 for one per core (at least 2).
    explicit JobRunner(QObject* parent = nullptr, int threads = 0);
    ~JobRunner() override;

    /// Starts a job; returns its id. `done` runs on the main thread with the output unless the job was
    /// canceled (a job that fails still calls `done` with the error).
    template <typename Result>
    int start(const QString& title, Work<Result> work, Completion<Result> done = {});
    /// Asks a job to stop; jobEnded(id, Canceled) follows once its work has returned.
    void cancel(int id);
    void cancelAll();
    /// Blocks until every job has ended and its signals were delivered (tests and shutdown).
    void waitForAll();

    int runningCount() const { return static_cast<int>(m_jobs.size()); }
    QString title(int id) const;
    /// Returns the stage the job's work reported last (empty for an unknown job or none yet). The jobProgress
    /// signal follows the progress value; a stage that changes while the value stays (a command's output
    /// lines) is read here.
    QString stage(int id) const;
    /// Returns what an anytime search in the job reported: (seconds since the job started, best value so
    /// far), in order; empty for an unknown job or one that reports none.
    std::vector<std::pair<double, double>> bestCurve(int id) const;
    /// Returns the milliseconds since the job started, or -1 for an unknown job.
    qint64 elapsedMs(int id) const;
    /// The executor every job's Feedback names.
    Executor& executor() { return m_executor; }

Q_SIGNALS:
    void jobStarted(int id, const QString& title);
    /// Progress of a job: fraction in [0, 1] and the current stage.
    void jobProgress(int id, double fraction, const QString& stage);
    void jobEnded(int id, meridian::jobs::JobEnd end, const QString& message);

private:
    /// Registers a job and connects its watcher (before its future is set, so that no signal is missed).
    int add(std::unique_ptr<detail::Job> job);
    void finish(int id);

    QThreadPool m_pool;
    PoolExecutor m_executor{m_pool};
    std::map<int, std::unique_ptr<detail::Job>> m_jobs;
    int m_nextId = 1;
};

template <typename Result>
int JobRunner::start(const QString& title, Work<Result> work, Completion<Result> done)
{
    auto owned = std::make_unique<detail::TypedJob<Result>>(this, std::move(done));
    detail::TypedJob<Result>* job = owned.get();
    job->title = title;
    const int id = add(std::move(owned));
    QFutureInterface<typename detail::TypedJob<Result>::Output> promise;
    promise.reportStarted();
    promise.setProgressRange(0, detail::kProgressSteps);
    job->setFuture(promise.future());
    // The task is built here, before the hand-off, so everything it reads was written before it.
    auto* task = new detail::TypedTask<Result>(std::move(work), std::move(promise), job->stage, m_executor, job);
    handoffRelease(task);
    m_pool.start(task);
    Q_EMIT jobStarted(id, title);
    return id;
}

} // namespace meridian::jobs

Q_DECLARE_METATYPE(meridian::jobs::JobEnd)
