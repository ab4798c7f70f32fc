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

/// Reads rank `rank`'s file of `ranks`, adding its sends to `trace`.
Status readRank(const std::string& path, int rank, int ranks, TiTrace& trace)
{
    bool finalized = false;
    std::int64_t last = 0;
    auto read = detail::forEachLine(path, [&](std::string_view line, std::int64_t number_) -> Status {
        const int lineNumber = static_cast<int>(number_);
        last = number_;
        const auto w = words(line);
        if (w.empty())
            return {};
        if (w[0].first.starts_with("#")) {
            const std::string_view text = line.substr(static_cast<std::size_t>(w[0].second - 1));
            if (text.starts_with("# incomplete:"))
                return parseError(path, lineNumber, w[0].second,
                                  "the tracer marked this trace incomplete (" + std::string(text.substr(14))
                                      + "); SMPI cannot replay it");
            return {};
        }
        if (finalized)
            return parseError(path, lineNumber, w[0].second, "an action after finalize");
        double value = 0.0;
        if (!number(w[0].first, value) || value != static_cast<double>(rank))
            return parseError(path, lineNumber, w[0].second,
                              "expected the rank " + std::to_string(rank) + " that this file holds, found '"
                                  + std::string(w[0].first) + "'");
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
            if (!number(word, values[static_cast<std::size_t>(k)]) || values[static_cast<std::size_t>(k)] < 0.0)
                return parseError(path, lineNumber, column,
                                  "expected a number of at least 0, found '" + std::string(word) + "'");
            if ((g->peers >> k & 1u) != 0
                && (values[static_cast<std::size_t>(k)] >= ranks
                    || values[static_cast<std::size_t>(k)] != std::floor(values[static_cast<std::size_t>(k)])))
                return parseError(path, lineNumber, column,
                                  "expected a rank from 0 to " + std::to_string(ranks - 1) + ", found '"
                                      + std::string(word) + "'");
        }
        const std::string_view action = w[1].first;
        if (action == "send" || action == "isend")
            trace.sentBytes[{rank, static_cast<int>(values[0])}] += values[2];
        finalized = action == "finalize";
        ++trace.lines;
        return {};
    });
    if (!read)
        return read;
    if (!finalized)
        return parseError(path, static_cast<int>(last), 1,
                          "the trace ends without finalize: the run aborted, or the file was cut short");
    return {};
}

} // namespace

Expected<TiTrace> readTiTrace(const std::string& listPath)
{
    auto text = readTextFile(listPath);
    if (!text)
        return text.error();
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
    const int ranks = static_cast<int>(trace.files.size());
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
    for (const auto& [pair, bytes] : trace.sentBytes) {
        if (pair.first == pair.second)
            continue;
        const auto it = matrix.find(pair);
        if (differ(bytes, it == matrix.end() ? 0.0 : it->second))
            return mismatch(pair, bytes, it == matrix.end() ? 0.0 : it->second);
    }
    for (const auto& [pair, bytes] : matrix)
        if (!trace.sentBytes.contains(pair))
            return mismatch(pair, 0.0, bytes);
    return {};
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
