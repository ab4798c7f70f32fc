#pragma once

#include <exception>
#include <functional>
#include <mutex>

namespace meridian {

/// Where a computation's parallel workers run. The engine starts no thread of its own: a computation that
/// can use several cores hands its workers to the Executor of its Feedback. The workbench gives every job
/// the executor of its one thread pool (so several runs share the cores); a computation given none gets
/// standard(), which starts a thread per worker for the call (the command line runs one thing at a time).
///
/// shareWork(n, worker) calls worker(0) on the calling thread and offers worker(1) ... worker(n - 1) to
/// other threads. It returns once worker(0) has returned and every offered worker has either returned or
/// been withdrawn before it started. So a worker takes its share from work common to all of them (a chunk
/// counter) until none is left and never counts on another worker running: then shareWork() cannot
/// deadlock, even on a pool whose every thread is busy (the calling thread does all the work). The first
/// exception a worker throws is rethrown by shareWork() once the others have stopped.
class Executor {
public:
    using Worker = std::function<void(int worker)>;

    virtual ~Executor() = default;

    /// How many workers can run at once, the calling thread included (at least 1).
    virtual int concurrency() const = 0;
    virtual void shareWork(int workers, const Worker& worker) = 0;

    /// The executor of computations that were given none.
    static Executor& standard();
};

/// Keeps the first exception of several workers for the thread that waits for them.
class FirstException {
public:
    /// Runs `work`, keeping its exception (the first one of all) instead of letting it escape.
    void run(const std::function<void()>& work) noexcept;
    /// Rethrows the exception kept, if any.
    void rethrow();

private:
    std::mutex m_mutex;
    std::exception_ptr m_first;
};

} // namespace meridian
