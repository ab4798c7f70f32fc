#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QThreadPool>

#include <any>
#include <functional>
#include <map>
#include <memory>

namespace meridian::jobs {

/// What a job's work returns: any value on success (the caller knows its type), or an Error
/// (ErrorCode::Canceled when it stopped because it was asked to).
using JobOutput = Expected<std::any>;

/// How a job ended.
enum class JobEnd { Finished, Failed, Canceled };

/// The one place in the application that starts threads. A job is a function of a Feedback
/// that runs on the runner's thread pool through QtConcurrent::run in promise mode: the Feedback's
/// progress goes to the QPromise and its cancel predicate polls QPromise::isCanceled(), and a
/// QFutureWatcher brings progress and the outcome back to the main thread. The completion callback runs
/// on the main thread and only for a job that finished without being canceled. Exceptions thrown by a
/// job become a failed outcome. The destructor cancels every job and waits for all of them.
class JobRunner : public QObject {
    Q_OBJECT
public:
    using Work = std::function<JobOutput(const Feedback& feedback)>;
    using Completion = std::function<void(JobOutput output)>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;

    /// Starts a job; returns its id. `done` runs on the main thread with the output unless the job was
    /// canceled (a job that fails still calls `done` with the error).
    int start(const QString& title, Work work, Completion done = {});
    /// Asks a job to stop; jobEnded(id, Canceled) follows once its work has returned.
    void cancel(int id);
    void cancelAll();
    /// Blocks until every job has ended and its signals were delivered (tests and shutdown).
    void waitForAll();

    int runningCount() const { return static_cast<int>(m_jobs.size()); }
    QString title(int id) const;
    /// Returns the milliseconds since the job started, or -1 for an unknown job.
    qint64 elapsedMs(int id) const;
    QThreadPool* pool() { return &m_pool; }

Q_SIGNALS:
    void jobStarted(int id, const QString& title);
    /// Progress of a job: fraction in [0, 1] and the current stage.
    void jobProgress(int id, double fraction, const QString& stage);
    void jobEnded(int id, meridian::jobs::JobEnd end, const QString& message);

private:
    struct Job {
        QString title;
        QElapsedTimer clock;
        QFutureWatcher<std::shared_ptr<JobOutput>>* watcher = nullptr;
        Completion done;
        QString stage;
    };
    void finish(int id);

    QThreadPool m_pool;
    std::map<int, Job> m_jobs;
    int m_nextId = 1;
};

} // namespace meridian::jobs

Q_DECLARE_METATYPE(meridian::jobs::JobEnd)
