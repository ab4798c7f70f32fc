#include "core/sim/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace meridian::sim {

bool writeAll(int fd, const void* data, std::size_t size)
{
    const auto* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

Expected<std::string> writeTemporaryFile(const std::string& operation, const std::string& what,
                                         const std::string& suffix, const std::string& text)
{
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/meridian-" + what + "-XXXXXX" + suffix;
    const int fd = ::mkstemps(path.data(), static_cast<int>(suffix.size()));
    if (fd < 0)
        return makeError(ErrorCode::Io, operation + ": cannot create a temporary " + what + " file in " + path);
    const bool ok = writeAll(fd, text.data(), text.size());
    ::close(fd);
    if (!ok) {
        std::remove(path.c_str());
        return makeError(ErrorCode::Io, operation + ": cannot write the temporary " + what + " file " + path);
    }
    return path;
}

TemporaryFiles::~TemporaryFiles()
{
    for (const std::string& path : m_paths)
        std::remove(path.c_str());
}

bool drainChild(int first, int second, pid_t child, std::string& firstText, std::string& secondText,
                const FeedbackRange& range)
{
    pollfd fds[2] = {{first, POLLIN, 0}, {second, POLLIN, 0}};
    bool open[2] = {true, true};
    char buffer[65536];
    while (open[0] || open[1]) {
        if (range.isCanceled()) {
            ::kill(-child, SIGKILL);
            ::kill(child, SIGKILL);
            return false;
        }
        for (int i = 0; i < 2; ++i)
            fds[i].fd = open[i] ? (i == 0 ? first : second) : -1;
        if (::poll(fds, 2, 100) < 0 && errno != EINTR)
            return true;
        for (int i = 0; i < 2; ++i) {
            if (!open[i] || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
            if (n > 0)
                (i == 0 ? firstText : secondText).append(buffer, static_cast<std::size_t>(n));
            else if (n == 0 || errno != EINTR)
                open[i] = false;
        }
    }
    return true;
}

Expected<ChildOutput> runChild(const std::string& what, const std::function<pid_t(int, int)>& spawn,
                               const FeedbackRange& range)
{
    int first[2];
    int second[2];
    if (::pipe2(first, O_CLOEXEC) != 0)
        return makeError(ErrorCode::Internal, "cannot create a pipe to " + what);
    if (::pipe2(second, O_CLOEXEC) != 0) {
        ::close(first[0]);
        ::close(first[1]);
        return makeError(ErrorCode::Internal, "cannot create a pipe to " + what);
    }
    const pid_t child = spawn(first[1], second[1]);
    ::close(first[1]);
    ::close(second[1]);
    ChildOutput out;
    const bool finished = child > 0 && drainChild(first[0], second[0], child, out.first, out.second, range);
    ::close(first[0]);
    ::close(second[0]);
    if (child > 0)
        ::waitpid(child, &out.status, 0);
    if (child <= 0)
        return makeError(ErrorCode::Internal, "cannot start " + what);
    if (!finished)
        return makeError(ErrorCode::Canceled, "canceled");
    return out;
}

std::string exitDescription(int status)
{
    return WIFSIGNALED(status) ? "stopped by signal " + std::to_string(WTERMSIG(status))
                               : "exited with status " + std::to_string(WEXITSTATUS(status));
}

std::string errorTail(const std::string& errors, std::size_t chars)
{
    return errors.size() > chars ? errors.substr(errors.size() - chars) : errors;
}

} // namespace meridian::sim
