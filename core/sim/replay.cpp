#include "core/sim/replay.h"

#include "core/cost/bottleneck_cost.h"
#include "core/io/ti_trace.h"
#include "core/sim/child_process.h"
#include "core/sim/simulator.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>

extern char** environ;

namespace meridian::sim {

namespace {

/// A pair's messages in step k of S: how many of its m messages the even spreading puts there.
std::int64_t messagesInStep(double m, double steps, std::int64_t k)
{
    return static_cast<std::int64_t>(std::floor(static_cast<double>(k + 1) * m / steps))
        - static_cast<std::int64_t>(std::floor(static_cast<double>(k) * m / steps));
}

/// A pair's message count: its captured count (at least one for a non-zero volume), or one without counts.
double pairMessages(const model::CommMatrix& comm, double countValue)
{
    return comm.hasMessages() ? std::max(1.0, std::round(countValue)) : 1.0;
}

/// The line the replay's log format prints with the simulated date when the last rank has finished.
constexpr const char* kTimeMarker = "SIMTIME=";

} // namespace

std::int64_t replayedSteps(const model::CommMatrix& comm, double steps)
{
    const auto& volume = comm.volume();
    const auto& messages = comm.messages();
    double linesPerStep = comm.processCount();
    for (int i = 0; i < volume.outerSize(); ++i)
        for (auto [v, m] = std::pair{model::CommMatrix::Sparse::InnerIterator(volume, i),
                                     model::CommMatrix::Sparse::InnerIterator(messages, i)};
             v; ++v, ++m)
            if (v.col() != i && v.value() > 0.0)
                linesPerStep += 2.0 * std::min(pairMessages(comm, m.value()), steps) / steps;
    const auto fit = static_cast<std::int64_t>(static_cast<double>(kMaxReplayLines) / std::max(1.0, linesPerStep));
    return std::clamp<std::int64_t>(fit, 1, static_cast<std::int64_t>(steps));
}

std::string bulkSynchronousTrace(const model::CommMatrix& comm, double steps, std::int64_t replayed, std::int64_t& lines)
{
    const int n = comm.processCount();
    const model::CommMatrix transposed = comm.transposed();
    // Per rank its senders and receivers with (bytes, messages).
    struct Peer {
        int rank;
        double bytes;
        double messages;
    };
    const auto peers = [&](const model::CommMatrix& c) {
        std::vector<std::vector<Peer>> out(static_cast<std::size_t>(n));
        const auto& volume = c.volume();
        const auto& messages = c.messages();
        for (int i = 0; i < n; ++i)
            for (auto [v, m] = std::pair{model::CommMatrix::Sparse::InnerIterator(volume, i),
                                         model::CommMatrix::Sparse::InnerIterator(messages, i)};
                 v; ++v, ++m)
                if (v.col() != i && v.value() > 0.0)
                    out[static_cast<std::size_t>(i)].push_back(
                        {static_cast<int>(v.col()), v.value(), pairMessages(c, m.value())});
        return out;
    };
    const auto receivers = peers(comm);
    const auto senders = peers(transposed);
    std::string out;
    lines = 0;
    const auto line = [&](int rank, const char* what, int peer, double bytes) {
        out += std::to_string(rank);
        out += what;
        if (peer >= 0) {
            out += std::to_string(peer);
            out += " 0 ";
            out += std::to_string(static_cast<std::int64_t>(std::max(1.0, std::round(bytes))));
        }
        out += '\n';
        ++lines;
    };
    for (int r = 0; r < n; ++r)
        line(r, " init", -1, 0.0);
    for (std::int64_t k = 0; k < replayed; ++k)
        for (int r = 0; r < n; ++r) {
            bool any = false;
            for (const Peer& s : senders[static_cast<std::size_t>(r)])
                if (const std::int64_t c = messagesInStep(s.messages, steps, k); c > 0) {
                    line(r, " irecv ", s.rank, s.bytes * static_cast<double>(c) / s.messages);
                    any = true;
                }
            for (const Peer& d : receivers[static_cast<std::size_t>(r)])
                if (const std::int64_t c = messagesInStep(d.messages, steps, k); c > 0) {
                    line(r, " isend ", d.rank, d.bytes * static_cast<double>(c) / d.messages);
                    any = true;
                }
            if (any)
                line(r, " waitall", -1, 0.0);
        }
    for (int r = 0; r < n; ++r)
        line(r, " finalize", -1, 0.0);
    return out;
}

std::vector<std::string> smpiArguments()
{
    std::vector<std::string> out;
    for (const std::string& setting : simgridConfiguration())
        out.push_back("--cfg=" + setting);
    out.emplace_back("--cfg=surf/precision:1e-9");
    return out;
}

SimPlatform replayPlatform(const SimPlatform& platform)
{
    SimPlatform out = platform;
    for (std::size_t h = 0; h < out.hostNames.size(); ++h)
        out.hostNames[h] = std::string(1, 'h').append(std::to_string(h));
    for (std::size_t s = 0; s < out.siteNames.size(); ++s)
        out.siteNames[s] = std::string(1, 's').append(std::to_string(s));
    return out;
}

std::string replayHostFile(const model::Placement& placement)
{
    std::string out;
    for (int h : placement.host) {
        out += 'h';
        out += std::to_string(h);
        out += '\n';
    }
    return out;
}

namespace {

/// Starts `smpirun` with `arguments` in `folder` (the trace list's, against which its relative names resolve), in
/// a process group of its own, its standard output and error on the pipes.
pid_t spawnSmpirun(const std::vector<std::string>& arguments, const std::string& folder, int outFd, int errorFd)
{
    std::vector<std::string> args = arguments;
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outFd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errorFd, STDERR_FILENO);
    posix_spawn_file_actions_addchdir_np(&actions, folder.c_str());
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = -1;
    if (::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ) != 0)
        pid = -1;
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

/// The simulated time the replay logged last, or a negative value.
double loggedTime(const std::string& errors)
{
    const std::size_t at = errors.rfind(kTimeMarker);
    if (at == std::string::npos)
        return -1.0;
    const char* start = errors.c_str() + at + std::char_traits<char>::length(kTimeMarker);
    char* end = nullptr;
    const double t = std::strtod(start, &end);
    return end != start && std::isfinite(t) ? t : -1.0;
}

} // namespace

Expected<double> replayTrace(const SimPlatform& platform, const std::string& traceList,
                             const model::Placement& placement, const FeedbackRange& range)
{
    if (!placement.hasHosts())
        return makeError(ErrorCode::InvalidInput, "predict: the placement must name hosts");
    TemporaryFiles files;
    auto platformFile = writeTemporaryFile("predict", "platform", ".xml", platformXml(replayPlatform(platform)));
    if (!platformFile)
        return platformFile.error();
    files.add(*platformFile);
    auto hostFile = writeTemporaryFile("predict", "hosts", ".txt", replayHostFile(placement));
    if (!hostFile)
        return hostFile.error();
    files.add(*hostFile);
    std::vector<std::string> arguments = {"smpirun",   "-no-privatize",
                                          "-np",       std::to_string(placement.host.size()),
                                          "-platform", *platformFile,
                                          "-hostfile", *hostFile,
                                          "-replay",   std::filesystem::absolute(traceList).string()};
    for (const std::string& a : smpiArguments())
        arguments.push_back(a);
    arguments.emplace_back("--log=root.thresh:warning");
    arguments.emplace_back("--log=smpi_replay.thresh:info");
    arguments.push_back(std::string("--log=smpi_replay.fmt:") + kTimeMarker + "%.12d%n");
    const std::string folder = std::filesystem::absolute(traceList).parent_path().string();
    auto ran = runChild(
        "smpirun", [&](int outFd, int errorFd) { return spawnSmpirun(arguments, folder, outFd, errorFd); }, range);
    if (!ran && ran.error().code == ErrorCode::Canceled)
        return ran.error();
    if (!ran && !ran.error().message.starts_with("cannot start"))
        return makeError(ran.error().code, "predict: " + ran.error().message);
    if (!ran)
        return makeError(
            ErrorCode::Io,
            "predict: cannot start smpirun (SimGrid's SMPI; Debian package libsimgrid-dev): is it installed?");
    const int status = ran->status;
    const double t = loggedTime(ran->second);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || t < 0.0) {
        const std::string tail = errorTail(ran->second + ran->first);
        return makeError(ErrorCode::Internal,
                         "predict: smpirun " + exitDescription(status) + (t < 0.0 ? " without a simulated time" : "")
                             + (tail.empty() ? "" : ": " + tail));
    }
    return t;
}

Expected<Prediction> predictTrace(const SimPlatform& platform, const io::TiTrace& trace,
                                  const model::Placement& placement, const FeedbackRange& range)
{
    const auto started = std::chrono::steady_clock::now();
    if (static_cast<int>(placement.host.size()) != trace.ranks)
        return makeError(ErrorCode::InvalidInput,
                         "predict: the trace has " + std::to_string(trace.ranks) + " ranks and the mapping "
                             + std::to_string(placement.host.size()) + " processes",
                         {trace.list});
    Prediction p;
    p.model = "trace";
    p.traceLines = trace.lines;
    // SMPI's -replay takes a list of files; a list of one names a merged trace, which every rank reads.
    TemporaryFiles files;
    std::string list = trace.list;
    if (trace.files.empty()) {
        auto written = writeTemporaryFile("predict", "trace-list", ".txt",
                                          std::filesystem::absolute(trace.list).string() + "\n");
        if (!written)
            return written.error();
        files.add(*written);
        list = *written;
    }
    auto t = replayTrace(platform, list, placement, range);
    if (!t)
        return t.error();
    p.seconds = *t;
    p.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return p;
}

Expected<Prediction> predictTrace(const SimPlatform& platform, const io::StoredTrace& trace,
                                  const model::Placement& placement, const FeedbackRange& range)
{
    TemporaryFiles files;
    auto merged = writeTemporaryFile("predict", "trace", ".txt", trace.text);
    if (!merged)
        return merged.error();
    files.add(*merged);
    io::TiTrace onDisk;
    onDisk.list = *merged;
    onDisk.ranks = trace.ranks;
    onDisk.lines = trace.lines;
    return predictTrace(platform, onDisk, placement, range);
}

Expected<Prediction> predictBulkSynchronous(const SimPlatform& platform, const model::CommMatrix& comm,
                                            const model::Placement& placement, const FeedbackRange& range)
{
    const auto started = std::chrono::steady_clock::now();
    Prediction p;
    p.model = "bulk-synchronous";
    p.steps = cost::bulkSynchronousSteps(comm);
    p.replayedSteps = replayedSteps(comm, p.steps);
    TemporaryFiles files;
    auto trace = writeTemporaryFile("predict", "trace", ".txt",
                                    bulkSynchronousTrace(comm, p.steps, p.replayedSteps, p.traceLines));
    if (!trace)
        return trace.error();
    files.add(*trace);
    auto list = writeTemporaryFile("predict", "trace-list", ".txt", *trace + "\n");
    if (!list)
        return list.error();
    files.add(*list);
    auto t = replayTrace(platform, *list, placement, range);
    if (!t)
        return t.error();
    p.seconds = *t * p.steps / static_cast<double>(p.replayedSteps);
    p.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return p;
}

mapping::MappingProblem::Judge replayJudge(const mapping::MappingProblem& problem,
                                           const std::shared_ptr<const io::StoredTrace>& trace)
{
    // The problem is shared state: copying it keeps the topology, network and matrix alive for the judge.
    return [problem, trace](const model::Placement& placement, const FeedbackRange& range) -> Expected<double> {
        if (problem.processCount() > kMaxJudgedRanks)
            return makeError(ErrorCode::InvalidInput,
                             "SMPI would run " + std::to_string(problem.processCount())
                                 + " ranks (a judge replays at most " + std::to_string(kMaxJudgedRanks) + ")");
        auto platform = buildPlatform(problem.topology(), problem.network());
        if (!platform)
            return platform.error();
        auto predicted = trace ? predictTrace(*platform, *trace, placement, range)
                               : predictBulkSynchronous(*platform, problem.comm(), placement, range);
        if (!predicted)
            return predicted.error();
        return predicted->seconds;
    };
}

} // namespace meridian::sim
