#pragma once

// Tells ThreadSanitizer where data passes from one thread to another through Qt's thread pool.
//
// Debian's Qt is not built with ThreadSanitizer, and QMutex, QSemaphore and the pool's queue wait on futexes
// it cannot see: to it, a job's inputs written on the main thread and read on a pool thread look unordered.
// handoffRelease(token) on the sending side, before the data is handed over, and handoffAcquire(token) on
// the receiving side, after it was received, record the order Qt guarantees. Outside a ThreadSanitizer
// build both are empty.

#if defined(__SANITIZE_THREAD__)
#    define MERIDIAN_TSAN 1
#elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#        define MERIDIAN_TSAN 1
#    endif
#endif

#ifdef MERIDIAN_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace meridian::jobs {

inline void handoffRelease([[maybe_unused]] const void* token)
{
#ifdef MERIDIAN_TSAN
    __tsan_release(const_cast<void*>(token));
#endif
}

inline void handoffAcquire([[maybe_unused]] const void* token)
{
#ifdef MERIDIAN_TSAN
    __tsan_acquire(const_cast<void*>(token));
#endif
}

} // namespace meridian::jobs
