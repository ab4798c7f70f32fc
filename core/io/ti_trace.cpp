#include "core/io/ti_trace.h"

#include "core/io/edge_list_parsing.h"
#include "core/io/text_file.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <string_view>

namespace meridian::io {

namespace {

namespace fs = std::filesystem;

/// An action's numeric fields after the rank and the name: how many it needs at least, at most, and which of
/// them name a peer rank (bit k: field k).
struct Grammar {
    const char* name;
    int least;
    int most;
    unsigned peers;
};

constexpr Grammar kActions[] = {
    {"init", 0, 1, 0},     {"finalize", 0, 0, 0}, {"compute", 1, 1, 0},   {"sleep", 1, 1, 0},   {"send", 3, 4, 1},
    {"isend", 3, 4, 1},    {"recv", 3, 4, 1},     {"irecv", 3, 4, 1},     {"wait", 3, 3, 3},    {"waitall", 0, 1, 0},
    {"test", 3, 3, 3},     {"barrier", 0, 0, 0},  {"bcast", 1, 3, 2},     {"reduce", 2, 4, 4},  {"allreduce", 2, 3, 0},
    {"alltoall", 2, 4, 0}, {"gather", 2, 5, 4},   {"allgather", 2, 4, 0}, {"scatter", 2, 5, 4},
};

const Grammar* grammarOf(std::string_view name)
{
    for (const Grammar& g : kActions)
        if (name == g.name)
            return &g;
    return nullptr;
}

bool isDataCollective(std::string_view name)
{
    for (const char* c : {"bcast", "reduce", "allreduce", "alltoall", "gather", "allgather", "scatter"})
        if (name == c)
            return true;
    return false;
}

/// The white-space separated words of a line.
std::vector<std::pair<std::string_view, int>> words(std::string_view line)
{
    std::vector<std::pair<std::string_view, int>> out;
    std::size_t pos = 0;
    while (true) {
        detail::skipSpaces(line, pos);
        if (pos >= line.size())
            return out;
        const std::size_t start = pos;
        while (pos < line.size() && !detail::isSpace(line[pos]))
            ++pos;
        out.emplace_back(line.substr(start, pos - start), static_cast<int>(start) + 1);
    }
}

bool number(std::string_view word, double& value)
{
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
    return ec == std::errc() && end == word.data() + word.size() && std::isfinite(value);
}

/// Checks action lines of a trace of `ranks` ranks, one rank's file or every rank's merged, adding the sends to
/// `trace`; remembers which ranks have finished (finalize) and each rank's last line.
class ActionChecker {
public:
    ActionChecker(int ranks, TiTrace& trace)
        : ranks_(ranks)
        , trace_(trace)
        , finalized_(static_cast<std::size_t>(ranks), 0)
        , last_(static_cast<std::size_t>(ranks), 0)
    {}

    /// Checks one line of `path`; `rank` is the rank its file holds, or -1 for a merged trace (any rank).
    Status line(const std::string& path, std::string_view line, int lineNumber, int rank)
    {
        const auto w = words(line);
        if (w.empty())
            return {};
        if (w[0].first.starts_with("#"))
            return comment(path, line, lineNumber, w[0].second);
        double value = 0.0;
        const bool whole = number(w[0].first, value) && value >= 0.0 && value < ranks_ && value == std::floor(value);
        if (rank >= 0 && (!whole || value != static_cast<double>(rank)))
            return parseError(path, lineNumber, w[0].second,
                              "expected the rank " + std::to_string(rank) + " that this file holds, found '"
                                  + std::string(w[0].first) + "'");
        if (!whole)
            return parseError(path, lineNumber, w[0].second,
                              "expected a rank from 0 to " + std::to_string(ranks_ - 1) + ", found '"
                                  + std::string(w[0].first) + "'");
        const auto r = static_cast<std::size_t>(value);
        if (finalized_[r] != 0)
            return parseError(path, lineNumber, w[0].second,
                              "an action of rank " + std::to_string(r) + " after its finalize");
        last_[r] = lineNumber;
        return action(path, line, lineNumber, static_cast<int>(r), w);
    }

    /// Checks that every rank (or only `only`) ended with finalize; `path` and its `lastLine` name where.
    Status finished(const std::string& path, int lastLine, int only = -1) const
    {
        for (std::size_t r = 0; r < finalized_.size(); ++r) {
            if (finalized_[r] != 0 || (only >= 0 && r != static_cast<std::size_t>(only)))
                continue;
            if (last_[r] == 0)
                return parseError(path, std::max(lastLine, 1), 1,
                                  "rank " + std::to_string(r) + " has no actions; expected every rank from 0 to "
                                      + std::to_string(ranks_ - 1));
            return parseError(path, last_[r], 1,
                              "rank " + std::to_string(r)
                                  + "'s actions end without finalize: the run aborted, or the file was cut short");
        }
        return {};
    }

private:
    static Status comment(const std::string& path, std::string_view line, int lineNumber, int column)
    {
        constexpr std::string_view kIncomplete = "# incomplete:";
        const std::string_view text = line.substr(static_cast<std::size_t>(column - 1));
        if (!text.starts_with(kIncomplete))
            return {};
        std::string_view why = text.substr(kIncomplete.size()); // the tracer writes "# incomplete: WHY"
        while (!why.empty() && (why.front() == ' ' || why.front() == '\t'))
            why.remove_prefix(1);
        return parseError(path, lineNumber, column,
                          "the tracer marked this trace incomplete"
                              + (why.empty() ? std::string() : " (" + shown(why) + ")") + "; SMPI cannot replay it");
    }

    Status action(const std::string& path, std::string_view line, int lineNumber, int rank,
                  const std::vector<std::pair<std::string_view, int>>& w)
    {
        if (w.size() < 2)
            return parseError(path, lineNumber, static_cast<int>(line.size()) + 1, "expected an action after the rank");
        const Grammar* g = grammarOf(w[1].first);
        if (!g)
            return parseError(path, lineNumber, w[1].second,
                              "unknown action '" + std::string(w[1].first)
                                  + "'; expected one SMPI replays (send, isend, recv, irecv, wait, waitall, compute, "
                                    "a collective, init, finalize)");
        const int fields = static_cast<int>(w.size()) - 2;
        if (fields < g->least || fields > g->most)
            return parseError(path, lineNumber, w[1].second,
                              std::string(g->name) + " takes " + std::to_string(g->least)
                                  + (g->most > g->least ? " to " + std::to_string(g->most) : std::string())
                                  + " numbers, found " + std::to_string(fields));
        std::vector<double> values(static_cast<std::size_t>(fields));
        for (int k = 0; k < fields; ++k) {
            const auto& [word, column] = w[static_cast<std::size_t>(k) + 2];
            double& v = values[static_cast<std::size_t>(k)];
            if (!number(word, v) || v < 0.0)
                return parseError(path, lineNumber, column,
                                  "expected a number of at least 0, found '" + std::string(word) + "'");
            if ((g->peers >> k & 1u) != 0 && (v >= ranks_ || v != std::floor(v)))
                return parseError(path, lineNumber, column,
                                  "expected a rank from 0 to " + std::to_string(ranks_ - 1) + ", found '"
                                      + std::string(word) + "'");
        }
        const std::string_view name = w[1].first;
        if (name == "send" || name == "isend")
            trace_.sentBytes[{rank, static_cast<int>(values[0])}] += values[2];
        if (isDataCollective(name)) {
            ++trace_.dataCollectives;
            trace_.collectiveBytesBound += values[0] * 8.0 * ranks_;
        }
        finalized_[static_cast<std::size_t>(rank)] = name == "finalize" ? 1 : 0;
        ++trace_.lines;
        return {};
    }

    int ranks_;
    TiTrace& trace_;
    std::vector<char> finalized_;
    std::vector<int> last_;
};

/// Reads rank `rank`'s file of `ranks`, adding its sends to `trace`.
Status readRank(const std::string& path, int rank, int ranks, TiTrace& trace)
{
    ActionChecker checker(ranks, trace);
    int last = 0;
    auto read = detail::forEachLine(path, [&](std::string_view line, std::int64_t number_) -> Status {
        last = static_cast<int>(number_);
        return checker.line(path, line, last, rank);
    });
    if (!read)
        return read;
    return checker.finished(path, last, rank);
}

/// The rank count of a merged trace: one more than the largest rank that starts an action line (0 when none).
int mergedRanks(std::string_view text)
{
    int ranks = 0;
    LineReader lines(text);
    while (lines.next()) {
        const auto w = words(lines.line());
        double value = 0.0;
        if (!w.empty() && number(w[0].first, value) && value >= 0.0 && value < 1e7 && value == std::floor(value))
            ranks = std::max(ranks, static_cast<int>(value) + 1);
    }
    return ranks;
}

/// True when the first line that is not blank or a comment starts with a number: every rank's actions in one
/// file, rather than a list of per-rank files.
bool isMergedTrace(std::string_view text)
{
    LineReader lines(text);
    while (lines.next()) {
        if (isBlankOrComment(lines.line()))
            continue;
        const auto w = words(lines.line());
        double value = 0.0;
        return !w.empty() && number(w[0].first, value);
    }
    return false;
}

Expected<TiTrace> readMergedTrace(const std::string& path, std::string_view text)
{
    TiTrace trace;
    trace.list = path;
    trace.ranks = mergedRanks(text);
    ActionChecker checker(trace.ranks, trace);
    LineReader lines(text);
    int last = 0;
    while (lines.next()) {
        last = lines.number();
        if (auto s = checker.line(path, lines.line(), last, -1); !s)
            return s.error();
    }
    if (auto s = checker.finished(path, last); !s)
        return s.error();
    return trace;
}

} // namespace

Expected<TiTrace> readTiTrace(const std::string& listPath)
{
    auto text = readTextFile(listPath);
    if (!text)
        return text.error();
    if (isMergedTrace(*text))
        return readMergedTrace(listPath, *text);
    TiTrace trace;
    trace.list = listPath;
    const fs::path folder = fs::path(listPath).parent_path();
    std::vector<std::pair<std::string, int>> names;
    LineReader lines(*text);
    while (lines.next()) {
        if (isBlankOrComment(lines.line()))
            continue;
        const auto w = words(lines.line());
        if (w.size() != 1)
            return parseError(listPath, lines.number(), w.size() > 1 ? w[1].second : 1,
                              "expected one trace file name per line (rank 0's first)");
        names.emplace_back(std::string(w[0].first), lines.number());
    }
    if (names.empty())
        return parseError(listPath, 1, 1, "the list names no trace file; expected one per rank");
    const int ranks = static_cast<int>(names.size());
    trace.ranks = ranks;
    for (int r = 0; r < ranks; ++r) {
        const fs::path file = fs::path(names[static_cast<std::size_t>(r)].first);
        const std::string path = (file.is_absolute() ? file : folder / file).string();
        if (auto read = readRank(path, r, ranks, trace); !read)
            return read.error();
        trace.files.push_back(path);
    }
    return trace;
}

Status checkTraceMatchesMatrix(const TiTrace& trace, const model::CommMatrix& comm)
{
    const int ranks = trace.ranks;
    if (ranks != comm.processCount())
        return makeError(ErrorCode::InvalidInput,
                         "the trace has " + std::to_string(ranks) + " ranks and the application "
                             + std::to_string(comm.processCount()) + " processes: a trace of another program or run",
                         {trace.list});
    std::map<std::pair<int, int>, double> matrix;
    const auto& volume = comm.volume();
    for (int i = 0; i < volume.outerSize(); ++i)
        for (model::CommMatrix::Sparse::InnerIterator it(volume, i); it; ++it)
            if (it.value() > 0.0 && it.col() != i)
                matrix[{i, static_cast<int>(it.col())}] = it.value();
    const auto differ = [](double a, double b) { return std::abs(a - b) > 1e-6 * std::max({1.0, a, b}); };
    const auto mismatch = [&](std::pair<int, int> pair, double traced, double expected) {
        return makeError(ErrorCode::InvalidInput,
                         "the trace's rank " + std::to_string(pair.first) + " sends "
                             + std::to_string(static_cast<long long>(traced)) + " B to rank "
                             + std::to_string(pair.second) + " where the application's volume matrix has "
                             + std::to_string(static_cast<long long>(expected))
                             + " B: a trace of another program or run",
                         {trace.list});
    };
    // With collectives, the matrix may hold their traffic too: the point-to-point bytes are at most its entries.
    const bool collectives = trace.dataCollectives > 0;
    for (const auto& [pair, bytes] : trace.sentBytes) {
        if (pair.first == pair.second)
            continue;
        const auto it = matrix.find(pair);
        const double expected = it == matrix.end() ? 0.0 : it->second;
        if (collectives ? bytes > expected && differ(bytes, expected) : differ(bytes, expected))
            return mismatch(pair, bytes, expected);
    }
    if (!collectives) {
        for (const auto& [pair, bytes] : matrix)
            if (!trace.sentBytes.contains(pair))
                return mismatch(pair, 0.0, bytes);
        return {};
    }
    double excess = 0.0;
    for (const auto& [pair, bytes] : matrix) {
        const auto it = trace.sentBytes.find(pair);
        excess += bytes - (it == trace.sentBytes.end() ? 0.0 : it->second);
    }
    if (excess > trace.collectiveBytesBound * (1.0 + 1e-9))
        return makeError(ErrorCode::InvalidInput,
                         "the application's volume matrix holds " + std::to_string(static_cast<long long>(excess))
                             + " B more than the trace sends point to point, and its collectives carry at most "
                             + std::to_string(static_cast<long long>(trace.collectiveBytesBound))
                             + " B: a trace of another program or run",
                         {trace.list});
    return {};
}

Expected<StoredTrace> storeTiTrace(const TiTrace& trace)
{
    StoredTrace stored;
    stored.ranks = trace.ranks;
    stored.lines = trace.lines;
    const std::vector<std::string> parts = trace.files.empty() ? std::vector<std::string>{trace.list} : trace.files;
    // A merged trace is kept as it is (saving and loading a project never changes it); merged per-rank files
    // start with where they came from.
    if (!trace.files.empty())
        stored.text = "# time-independent trace of " + std::to_string(trace.ranks) + " ranks from "
            + fs::path(trace.list).filename().string() + "\n";
    for (const std::string& part : parts) {
        auto text = readTextFile(part);
        if (!text)
            return text.error();
        stored.text += *text;
        if (!stored.text.empty() && stored.text.back() != '\n')
            stored.text += '\n';
    }
    return stored;
}

Expected<TiTrace> readApplicationTrace(const std::string& listPath, const model::CommMatrix& comm)
{
    auto trace = readTiTrace(listPath);
    if (!trace)
        return trace;
    if (auto matches = checkTraceMatchesMatrix(*trace, comm); !matches)
        return matches.error();
    return trace;
}

} // namespace meridian::io
