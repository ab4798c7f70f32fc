#include "core/io/comm_io.h"

#include "core/io/matrix_csv.h"
#include "core/io/matrix_market.h"
#include "core/io/text_file.h"

#include <map>
#include <set>

namespace meridian::io {

namespace {

// Row pointers alone cost 4 bytes per process: refuse sizes a header merely claims (64 MiB at most).
constexpr int kMaxProcesses = 1 << 24;

struct Cells {
    int size = 0;
    std::map<std::pair<int, int>, double> values;
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

Expected<Cells> readCells(const std::string& path)
{
    Cells cells;
    if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".mtx") == 0) {
        auto m = readMatrixMarket(path, CellRule::NonNegative);
        if (!m)
            return m.error();
        if (m->rows != m->columns)
            return parseError(path, 2, 1,
                              "the matrix is " + std::to_string(m->rows) + " x " + std::to_string(m->columns)
                                  + "; a communication matrix must be square (process x process)");
        if (m->rows > kMaxProcesses)
            return parseError(path, 2, 1,
                              "the matrix has " + std::to_string(m->rows) + " processes; Meridian handles at most "
                                  + std::to_string(kMaxProcesses));
        cells.size = m->rows;
        for (const auto& e : m->entries)
            if (e.value != 0.0)
                cells.values[{e.row, e.column}] += e.value;
        return cells;
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
                cells.values[{rows[r], cols[c]}] = v;
        }
    return cells;
}

} // namespace

Expected<model::CommMatrix> readCommMatrix(const std::string& volumePath, const std::string& messagesPath)
{
    auto volume = readCells(volumePath);
    if (!volume)
        return volume.error();
    std::vector<model::CommEntry> entries;
    entries.reserve(volume->values.size());
    for (const auto& [key, v] : volume->values)
        entries.push_back({key.first, key.second, v, 0.0});
    if (!messagesPath.empty()) {
        auto messages = readCells(messagesPath);
        if (!messages)
            return messages.error();
        if (messages->size != volume->size)
            return makeError(ErrorCode::InvalidInput,
                             "the message counts are " + std::to_string(messages->size) + " x "
                                 + std::to_string(messages->size) + " but the volume is " + std::to_string(volume->size)
                                 + " x " + std::to_string(volume->size),
                             {messagesPath});
        // Volume without messages or messages without volume is kept: each term uses what it has.
        for (auto& e : entries) {
            auto it = messages->values.find({e.from, e.to});
            if (it != messages->values.end()) {
                e.messages = it->second;
                messages->values.erase(it);
            }
        }
        for (const auto& [key, a] : messages->values)
            entries.push_back({key.first, key.second, 0.0, a});
    }
    auto comm = model::CommMatrix::fromEntries(volume->size, entries, !messagesPath.empty());
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
