#include "core/common/executor.h"

#include <sched.h>

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

namespace meridian {

namespace {

/// The cores this process may run on: those of its affinity mask (an MPI launcher binds each rank to its own
/// cores, a batch scheduler gives a job its cores), else the machine's.
int coresAllowed()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        return std::max(1, CPU_COUNT(&set));
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

/// A thread per offered worker, started and joined within the call.
class ThreadPerWorker final : public Executor {
public:
    int concurrency() const override
    {
        static const int cores = coresAllowed();
        return cores;
    }

    void shareWork(int workers, const Worker& worker) override
    {
        FirstException failure;
        std::vector<std::thread> threads;
        threads.reserve(static_cast<std::size_t>(std::max(0, workers - 1)));
        for (int w = 1; w < workers; ++w)
            threads.emplace_back([&failure, &worker, w] { failure.run([&] { worker(w); }); });
        failure.run([&] { worker(0); });
        for (auto& t : threads)
            t.join();
        failure.rethrow();
    }
};

} // namespace

Executor& Executor::standard()
{
    static ThreadPerWorker executor;
    return executor;
}

void FirstException::run(const std::function<void()>& work) noexcept
{
    try {
        work();
    } catch (...) {
        const std::lock_guard lock(m_mutex);
        if (!m_first)
            m_first = std::current_exception();
    }
}

void FirstException::rethrow()
{
    std::exception_ptr first;
    {
        const std::lock_guard lock(m_mutex);
        first = std::exchange(m_first, nullptr);
    }
    if (first)
        std::rethrow_exception(first);
}

} // namespace meridian
