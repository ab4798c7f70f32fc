#include "core/io/file_lock.h"

#include "core/common/utc_date.h"
#include "core/io/text_file.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace meridian::io {

namespace {

std::mutex& heldMutex()
{
    static std::mutex mutex;
    return mutex;
}

std::set<std::string>& heldPaths()
{
    static std::set<std::string> paths;
    return paths;
}

std::string absolutePath(const std::string& path)
{
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(path, ec);
    return (ec ? std::filesystem::path(path) : absolute).lexically_normal().string();
}

// What the lock file says of its holder, on one line, at most 300 bytes.
std::string holderText(int fd)
{
    char text[301] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    std::string out(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    if (const auto end = out.find('\n'); end != std::string::npos)
        out.resize(end);
    // Another process's text: control characters and bytes outside ASCII are shown as '?', never sent raw.
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F)
            c = '?';
    return out;
}

void writeHolder(int fd, const std::string& holder)
{
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const auto now = static_cast<std::int64_t>(
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
    const std::string text = "process " + std::to_string(::getpid()) + " on " + host + " (" + holder + "), since "
        + formatUtcDate(now) + "\n";
    if (::ftruncate(fd, 0) == 0)
        (void)::pwrite(fd, text.data(), text.size(), 0);
}

} // namespace

FileLock::FileLock(std::string path, int fd, bool created)
    : m_path(std::move(path))
    , m_fd(fd)
    , m_created(created)
{}

FileLock::FileLock(FileLock&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_fd(std::exchange(other.m_fd, -1))
    , m_created(other.m_created)
{}

FileLock& FileLock::operator=(FileLock&& other) noexcept
{
    if (this != &other) {
        release();
        m_path = std::move(other.m_path);
        m_fd = std::exchange(other.m_fd, -1);
        m_created = other.m_created;
    }
    return *this;
}

void FileLock::discard()
{
    if (m_fd < 0)
        return;
    if (m_created)
        ::unlink(m_path.c_str()); // still under the lock: a process waiting for it finds the file gone and retries
    release();
}

FileLock::~FileLock() { release(); }

void FileLock::release()
{
    if (m_fd < 0)
        return;
    {
        const std::lock_guard guard(heldMutex());
        heldPaths().erase(m_path);
    }
    if (::ftruncate(m_fd, 0) != 0) {
        // The holder's line stays; the lock itself is released below all the same.
    }
    ::close(std::exchange(m_fd, -1)); // closing the descriptor releases the flock
}

bool FileLock::heldHere(const std::string& lockPath)
{
    const std::lock_guard guard(heldMutex());
    return heldPaths().count(absolutePath(lockPath)) > 0;
}

double FileLock::waitSeconds(double fallback)
{
    if (const char* text = std::getenv("MERIDIAN_LOCK_WAIT_S")) {
        char* end = nullptr;
        const double value = std::strtod(text, &end);
        if (end != text && *end == '\0' && value >= 0 && value <= 86400)
            return value;
    }
    return fallback;
}

Expected<FileLock> FileLock::acquire(const std::string& lockPath, double waitSeconds, const std::string& holder)
{
    const std::string path = absolutePath(lockPath);
    {
        const std::lock_guard guard(heldMutex());
        if (heldPaths().count(path))
            return makeError(ErrorCode::Busy, "this process holds the lock already", {lockPath});
    }
    bool created = true;
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    if (fd < 0 && errno == EEXIST) {
        created = false;
        fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    }
    if (fd < 0)
        return makeError(ErrorCode::Io, std::string("cannot create the lock file: ") + std::strerror(errno), {lockPath});
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        ::close(fd);
        return makeError(ErrorCode::Io,
                         "the lock file is not a plain file of its own (a link or a device); move it away", {lockPath});
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(waitSeconds);
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            const int error = errno;
            ::close(fd);
            return makeError(ErrorCode::Io, std::string("cannot lock the file: ") + std::strerror(error), {lockPath});
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            const std::string who = holderText(fd);
            ::close(fd);
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%g", waitSeconds);
            return makeError(ErrorCode::Busy,
                             "another program is changing this project: "
                                 + (who.empty() ? std::string("a process that has not said who it is") : who)
                                 + "; waited " + seconds + " s. Try again when it has finished",
                             {lockPath});
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // A lock file removed by discard() while this process waited: the lock taken is on a file no longer there, so
    // the lock is taken again on the file now at the path.
    struct stat now {};
    if (::stat(path.c_str(), &now) != 0 || now.st_ino != st.st_ino || now.st_dev != st.st_dev) {
        ::close(fd);
        return acquire(lockPath, waitSeconds, holder);
    }
    writeHolder(fd, holder);
    {
        const std::lock_guard guard(heldMutex());
        heldPaths().insert(path);
    }
    return FileLock(path, fd, created);
}

} // namespace meridian::io
