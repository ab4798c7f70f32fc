#pragma once

#include "core/common/executor.h"
#include "core/common/ranks.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace meridian {

/// Progress and cancellation for a long computation, without Qt (QGIS's QgsFeedback, polled).
///
/// An algorithm calls setProgress() with a fraction in [0, 1] and a stage name, and polls isCanceled() at
/// loop boundaries (at least every few milliseconds of work, so that cancelling takes effect within
/// 100 ms). The owner, usually on another thread, calls cancel() or supplies a cancel predicate.
/// Progress callbacks are throttled to one per 20 ms unless the stage changes. All members are
/// thread-safe; the progress callback runs on the algorithm's thread. The Feedback also names the Executor
/// the computation's parallel workers run on (Executor::standard() unless the owner gives another) and the ranks
/// it is split over (Ranks::single() unless the command was started by an MPI launcher).
class Feedback {
public:
    using ProgressCallback = std::function<void(double fraction, std::string_view stage)>;
    using CancelPredicate = std::function<bool()>;
    /// Receives the best objective value a search has found so far (lower is better).
    using BestCallback = std::function<void(double best)>;

    Feedback() = default;
    explicit Feedback(ProgressCallback progress, CancelPredicate canceled = {});
    Feedback(const Feedback&) = delete;
    Feedback& operator=(const Feedback&) = delete;

    /// Asks the computation to stop. Cancelling is an outcome, not an error.
    void cancel() { m_canceled.store(true, std::memory_order_relaxed); }
    /// Returns true once cancel() was called or the cancel predicate returned true.
    bool isCanceled() const;

    /// Reports progress of the current stage; `fraction` is clamped to [0, 1].
    void setProgress(double fraction, std::string_view stage) const;
    /// Returns the last fraction reported (not throttled).
    double progress() const { return m_progress.load(std::memory_order_relaxed); }

    /// Reports the best objective value found so far by an anytime search (not throttled; searches report
    /// improvements only). Thread-safe; the callback runs on the reporting thread.
    void setBest(double best) const;
    /// Sets who receives setBest(); set before the computation starts.
    void setBestCallback(BestCallback callback) { m_bestCallback = std::move(callback); }

    /// Where the computation's parallel workers run; set before the computation starts.
    Executor& executor() const { return *m_executor; }
    void setExecutor(Executor& executor) { m_executor = &executor; }
    /// The processes the computation is split over: a computation that shards its work takes its share and gathers
    /// the result on rank 0; any other runs whole on each. Set before the computation starts.
    const Ranks& ranks() const { return *m_ranks; }
    void setRanks(const Ranks& ranks) { m_ranks = &ranks; }

private:
    ProgressCallback m_progressCallback;
    CancelPredicate m_cancelPredicate;
    BestCallback m_bestCallback;
    Executor* m_executor = &Executor::standard();
    const Ranks* m_ranks = &Ranks::single();
    std::atomic<bool> m_canceled{false};
    mutable std::atomic<double> m_progress{0.0};
    mutable std::mutex m_mutex;
    mutable std::string m_lastStage;
    mutable std::chrono::steady_clock::time_point m_lastReport{};
};

/// Maps the progress of a sub-computation onto [from, to] of a parent Feedback, with a stage prefix.
/// Cancellation is the parent's.
class FeedbackRange {
public:
    FeedbackRange(const Feedback& parent, double from, double to)
        : m_parent(parent)
        , m_from(from)
        , m_to(to)
    {}
    bool isCanceled() const { return m_parent.isCanceled(); }
    void setProgress(double fraction, std::string_view stage) const
    {
        m_parent.setProgress(m_from + (m_to - m_from) * fraction, stage);
    }
    /// Returns the range [a, b] of this range (fractions of it), for a nested stage.
    FeedbackRange sub(double a, double b) const
    {
        return FeedbackRange(m_parent, m_from + (m_to - m_from) * a, m_from + (m_to - m_from) * b);
    }
    void setBest(double best) const { m_parent.setBest(best); }
    const Feedback& parent() const { return m_parent; }
    Executor& executor() const { return m_parent.executor(); }
    const Ranks& ranks() const { return m_parent.ranks(); }

private:
    const Feedback& m_parent;
    double m_from;
    double m_to;
};

} // namespace meridian
