#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

// What the simulator's worker process and the SMPI replays share: temporary input files, reading a child's two
// pipes under cancellation, and how a child ended.

namespace meridian::sim {

/// Writes all of `size` bytes to `fd`, retrying interrupted and partial writes. False on an error.
bool writeAll(int fd, const void* data, std::size_t size);

/// Writes `text` to a new file in the temporary directory ($TMPDIR, else /tmp; named
/// "meridian-<what>-XXXXXX<suffix>") and returns its path. Errors name `operation` ("simulate", "predict").
Expected<std::string> writeTemporaryFile(const std::string& operation, const std::string& what,
                                         const std::string& suffix, const std::string& text);

/// Removes the files when it goes out of scope (the temporary inputs of a child process).
class TemporaryFiles {
public:
    TemporaryFiles() = default;
    TemporaryFiles(const TemporaryFiles&) = delete;
    TemporaryFiles& operator=(const TemporaryFiles&) = delete;
    ~TemporaryFiles();
    void add(std::string path) { m_paths.push_back(std::move(path)); }

private:
    std::vector<std::string> m_paths;
};

/// Reads a child's two pipes to their ends (`first` into `firstText`, `second` into `secondText`), polling
/// `range`'s cancellation every 100 ms; when canceled, kills the child's process group (`child` leads one) and
/// returns false.
bool drainChild(int first, int second, pid_t child, std::string& firstText, std::string& secondText,
                const FeedbackRange& range);

/// What a child process left: its two outputs and its waitpid status.
struct ChildOutput {
    std::string first;  ///< what it wrote on the first pipe
    std::string second; ///< what it wrote on the second pipe (its standard error)
    int status = 0;
};

/// Creates two pipes, starts a child with `spawn(firstWriteEnd, secondWriteEnd)` (which returns its pid, or -1),
/// reads both pipes to their ends under `range`'s cancellation (drainChild) and waits for it. Errors: the pipes
/// or the child cannot be created (Internal, naming `what`), or the range was canceled (Canceled). A child that
/// failed is an output: read its status.
Expected<ChildOutput> runChild(const std::string& what, const std::function<pid_t(int, int)>& spawn,
                               const FeedbackRange& range);

/// "exited with status N" or "stopped by signal N", from a waitpid status.
std::string exitDescription(int status);

/// The last `chars` characters of a child's standard error (all of it when shorter).
std::string errorTail(const std::string& errors, std::size_t chars = 2000);

} // namespace meridian::sim
