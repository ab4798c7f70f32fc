#include "core/io/comm_io.h"

#include "core/common/executor.h"
#include "core/io/matrix_csv.h"
#include "core/io/matrix_market.h"
#include "core/io/text_file.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>
#include <set>

namespace meridian::io {

namespace {

// Row pointers alone cost 4 bytes per process: refuse sizes a header merely claims (64 MiB at most).
constexpr int kMaxProcesses = 1 << 24;
// A Matrix Market header's size must be justified by its entries: up to this many processes any size is taken
// (idle ranks are real); beyond it, at least half of the processes must appear in an entry, as a sender or a
// receiver (an entry of value 0 counts), so that three lines cannot make a 16-million-process application.
constexpr int kProcessesAlwaysAccepted = 1024;

/// The non-zero cells of one file in file order (a cell listed twice is summed when the matrix is built).
struct Cells {
    int size = 0;
    std::vector<MarketEntry> values;
};

Expected<std::vector<int>> processIds(const std::vector<std::string>& names, const std::string& path, int line)
{
    std::vector<int> ids;
    std::set<int> seen;
    for (const auto& name : names) {
        // "12", "p12" or "rank12": the trailing digits are the process id.
        const auto digits = name.find_last_not_of("0123456789");
        const auto id = parseInteger(digits == std::string::npos ? name : name.substr(digits + 1));
        if (!id || *id < 0 || *id >= static_cast<long long>(names.size()))
            return parseError(path, line, 0,
                              "expected process ids 0.." + std::to_string(names.size() - 1)
                                  + " as names (12, p12 or rank12), found " + shown(name));
        if (!seen.insert(static_cast<int>(*id)).second)
            return parseError(path, line, 0, "process id " + name + " appears twice");
        ids.push_back(static_cast<int>(*id));
    }
    return ids;
}

/// Refuses a Matrix Market size that its entries do not justify (see kProcessesAlwaysAccepted).
Status checkProcessCount(const std::string& path, const MarketMatrix& m)
{
    if (m.rows <= kProcessesAlwaysAccepted)
        return {};
    std::vector<bool> appears(static_cast<std::size_t>(m.rows), false);
    long long count = 0, highest = -1;
    for (const MarketEntry& e : m.entries)
        for (const int p : {e.row, e.column}) {
            count += appears[static_cast<std::size_t>(p)] ? 0 : 1;
            appears[static_cast<std::size_t>(p)] = true;
            highest = std::max<long long>(highest, p);
        }
    if (2 * count >= m.rows)
        return {};
    return parseError(path, m.sizeLine, 1,
                      "the size line gives " + std::to_string(m.rows) + " processes but only " + std::to_string(count)
                          + " appear in the entries (the highest is "
                          + (highest < 0 ? std::string("none") : std::to_string(highest + 1))
                          + "); expected the application's process count: a matrix of more than "
                          + std::to_string(kProcessesAlwaysAccepted)
                          + " processes must name at least half of them as a sender or a receiver (an entry of value "
                            "0 counts)");
}

/// Reads one matrix file into `cells` (an out-parameter: the messages are read on another thread).
Status readCells(const std::string& path, Cells& cells)
{
    if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".mtx") == 0) {
        auto m = readMatrixMarket(path, CellRule::NonNegative);
        if (!m)
            return m.error();
        if (m->rows != m->columns)
            return parseError(path, m->sizeLine, 1,
                              "the matrix is " + std::to_string(m->rows) + " x " + std::to_string(m->columns)
                                  + "; a communication matrix must be square (process x process)");
        if (m->rows > kMaxProcesses)
            return parseError(path, m->sizeLine, 1,
                              "the matrix has " + std::to_string(m->rows) + " processes; Meridian handles at most "
                                  + std::to_string(kMaxProcesses));
        if (auto ok = checkProcessCount(path, *m); !ok)
            return ok;
        cells.size = m->rows;
        cells.values = std::move(m->entries);
        std::erase_if(cells.values, [](const MarketEntry& e) { return e.value == 0.0; });
        return {};
    }
    auto m = readMatrixCsv(path, CellRule::NonNegative, false);
    if (!m)
        return m.error();
    cells.size = m->size;
    std::vector<int> rows(m->size), cols(m->size);
    for (int i = 0; i < m->size; ++i)
        rows[i] = cols[i] = i;
    if (!m->rowNames.empty()) {
        auto ids = processIds(m->rowNames, path, m->rowLines.front());
        if (!ids)
            return ids.error();
        rows = *ids;
    }
    if (!m->columnNames.empty()) {
        auto ids = processIds(m->columnNames, path, m->headerLine);
        if (!ids)
            return ids.error();
        cols = *ids;
    }
    for (int r = 0; r < m->size; ++r)
        for (int c = 0; c < m->size; ++c) {
            const double v = m->values[static_cast<std::size_t>(r) * m->size + c];
            if (v != 0.0)
                cells.values.push_back({rows[r], cols[c], v, 0});
        }
    return {};
}

} // namespace

Expected<model::CommMatrix> readCommMatrix(const std::string& volumePath, const std::string& messagesPath)
{
    // The two files are read at once: at a million entries each, parsing is most of a mapping command's time.
    // The engine starts no thread of its own; the standard executor's workers take the files from a counter.
    Cells volume;
    std::optional<Cells> messages;
    if (!messagesPath.empty())
        messages.emplace();
    std::array<Status, 2> read;
    const int files = messages ? 2 : 1;
    std::atomic<int> next{0};
    Executor::standard().shareWork(files, [&](int) {
        for (int f = next.fetch_add(1); f < files; f = next.fetch_add(1))
            read[f] = f == 0 ? readCells(volumePath, volume) : readCells(messagesPath, *messages);
    });
    for (const Status& status : read)
        if (!status)
            return status.error();
    std::vector<model::CommEntry> entries;
    entries.reserve(volume.values.size() + (messages ? messages->values.size() : 0));
    for (const auto& e : volume.values)
        entries.push_back({e.row, e.column, e.value, 0.0});
    if (messages) {
        const Cells& counts = *messages;
        if (counts.size != volume.size)
            return makeError(ErrorCode::InvalidInput,
                             "the message counts are " + std::to_string(counts.size) + " x "
                                 + std::to_string(counts.size) + " but the volume is " + std::to_string(volume.size)
                                 + " x " + std::to_string(volume.size),
                             {messagesPath});
        // Volume without messages or messages without volume is kept: each term uses what it has (the matrix
        // sums the entries of one cell, so a cell's bytes and its count meet there).
        for (const auto& e : counts.values)
            entries.push_back({e.row, e.column, 0.0, e.value});
    }
    auto comm = model::CommMatrix::fromEntries(volume.size, entries, !messagesPath.empty());
    if (!comm)
        return inFile(comm.error(), volumePath);
    return comm;
}

Status writeCommMatrix(const std::string& path, const model::CommMatrix& comm, bool messages, const std::string& comment)
{
    return writeTextFileAtomically(path, commMatrixText(comm, messages, comment));
}

std::string commMatrixText(const model::CommMatrix& comm, bool messages, const std::string& comment)
{
    std::vector<MarketEntry> entries;
    for (const auto& e : comm.entries()) {
        const double v = messages ? e.messages : e.bytes;
        if (v != 0.0)
            entries.push_back({e.from, e.to, v, 0});
    }
    return matrixMarketText(comm.processCount(), comm.processCount(), entries, comment);
}

} // namespace meridian::io
