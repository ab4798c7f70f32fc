#pragma once

#include "core/common/expected.h"

#include <string>

namespace meridian::io {

/// An exclusive advisory lock (flock) on a lock file, held while the object lives, so that two writers of one
/// project never interleave their load, edit and save. The holder writes who it is into the lock file (process,
/// host, command, since when), so that a process that has to wait can say who holds the lock. The lock file is
/// never removed (removing a lock file races with a process about to lock it); the lock itself goes with the
/// process that held it, however it ends.
class FileLock {
public:
    /// Takes the lock of `lockPath` (the file is created if missing), waiting at most `waitSeconds` while another
    /// process holds it. `holder` says what takes it ("meridian-cli project add-application"). Errors: Busy,
    /// naming the holder, when the wait ran out; Io when the lock file cannot be created or opened (a read-only
    /// folder).
    static Expected<FileLock> acquire(const std::string& lockPath, double waitSeconds, const std::string& holder);
    /// Returns true when this process holds the lock of `lockPath` (through a FileLock alive somewhere in it).
    static bool heldHere(const std::string& lockPath);
    /// The seconds a writer waits for a lock: MERIDIAN_LOCK_WAIT_S when set to a number >= 0, else `fallback`.
    static double waitSeconds(double fallback);

    FileLock(FileLock&& other) noexcept;
    FileLock& operator=(FileLock&& other) noexcept;
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;
    ~FileLock();

    const std::string& path() const { return m_path; }
    /// Releases the lock and removes the lock file if taking the lock created it (a project that failed to open
    /// leaves no lock file behind).
    void discard();

private:
    FileLock(std::string path, int fd, bool created);
    void release();
    std::string m_path; ///< absolute, as registered in the process's list of held locks
    int m_fd = -1;
    bool m_created = false;
};

} // namespace meridian::io
