#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/io/text_file.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// Internal helpers shared by the edge-list readers (graph_io, edge_partition_io): block-wise line reading,
/// vertex-id parsing with located errors, and dense renumbering of sparse ids.
namespace meridian::io::detail {

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

constexpr std::uint64_t kMaxId = 0xFFFFFFFFull; // ids must fit in 32 bits
constexpr std::size_t kBlock = 8u << 20;

/// Maps sparse original ids to dense ids in order of first appearance. A flat array indexed by the id while
/// ids stay small relative to the edge count (the common case, and the fast one); an open-addressing hash
/// table once an id would make the array too large. The array starts allowed up to 2^24 ids, or 64 per
/// byte of input when the input is smaller, so a tiny file never makes a large table.
class DenseIdMap {
public:
    explicit DenseIdMap(model::Graph& graph, std::uint64_t inputBytes = ~0ull)
        : m_graph(graph)
        , m_floor(std::min<std::uint64_t>(1u << 24,
                                          std::max<std::uint64_t>(4096,
                                                                  inputBytes / 4 < (1u << 24) ? 64 * inputBytes
                                                                                              : 1u << 24)))
    {}

    /// Starts loading the slot of `id` into the cache, for a get() a few ids later. Branch-free: GCC 12 drops a
    /// prefetch inside a condition.
    void prefetch(std::uint64_t id) const { __builtin_prefetch(m_direct.data() + (id < m_direct.size() ? id : 0)); }

    std::uint32_t get(std::uint64_t id)
    {
        if (!m_hashed && id < m_direct.size()) [[likely]] {
            std::uint32_t& slot = m_direct[id];
            if (slot == kNone)
                slot = add(id);
            return slot;
        }
        return getSlow(id);
    }

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

    std::uint32_t getSlow(std::uint64_t id)
    {
        if (!m_hashed) {
            const std::uint64_t limit = std::max<std::uint64_t>(m_floor, 8 * m_graph.src.size() + 1024);
            if (id < limit) {
                m_direct.resize(std::min<std::uint64_t>(limit, std::max<std::uint64_t>(id + 1, 2 * m_direct.size())),
                                kNone);
                return get(id);
            }
            switchToHash();
        }
        return hashed(id);
    }
    static constexpr std::uint64_t kEmpty = ~0ull;

    std::uint32_t add(std::uint64_t id)
    {
        m_graph.originalId.push_back(id);
        return m_graph.vertexCount++;
    }

    void switchToHash()
    {
        m_hashed = true;
        m_direct.clear();
        m_direct.shrink_to_fit();
        rehash(std::max<std::size_t>(1u << 16, 4 * m_graph.originalId.size()));
    }

    void rehash(std::size_t capacity)
    {
        m_keys.assign(capacity, kEmpty);
        m_values.assign(capacity, 0);
        m_mask = capacity - 1;
        for (std::uint32_t v = 0; v < m_graph.vertexCount; ++v)
            insert(m_graph.originalId[v], v);
    }

    void insert(std::uint64_t id, std::uint32_t value)
    {
        std::size_t i = (id * 0x9E3779B97F4A7C15ull) >> 20 & m_mask;
        while (m_keys[i] != kEmpty)
            i = (i + 1) & m_mask;
        m_keys[i] = id;
        m_values[i] = value;
    }

    std::uint32_t hashed(std::uint64_t id)
    {
        std::size_t i = (id * 0x9E3779B97F4A7C15ull) >> 20 & m_mask;
        while (m_keys[i] != kEmpty) {
            if (m_keys[i] == id)
                return m_values[i];
            i = (i + 1) & m_mask;
        }
        if (2 * (static_cast<std::size_t>(m_graph.vertexCount) + 1) > m_keys.size()) {
            const std::uint32_t v = add(id);
            rehash(2 * m_keys.size());
            return v;
        }
        const std::uint32_t v = add(id);
        m_keys[i] = id;
        m_values[i] = v;
        return v;
    }

    model::Graph& m_graph;
    std::uint64_t m_floor;
    bool m_hashed = false;
    std::vector<std::uint32_t> m_direct;
    std::vector<std::uint64_t> m_keys;
    std::vector<std::uint32_t> m_values;
    std::size_t m_mask = 0;
};

Error ioError(const std::string& path, const std::string& what);

/// Calls `onLine(line, number)` for every line of a file read in blocks (LF or CRLF; the CR is kept for the
/// parser to treat as white space). Stops at the first error the callback returns.
Status forEachLine(const std::string& path, const std::function<Status(std::string_view, std::int64_t)>& onLine,
                   std::uint64_t* fileSize = nullptr);

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

inline void skipSpaces(std::string_view line, std::size_t& pos)
{
    while (pos < line.size() && isSpace(line[pos]))
        ++pos;
}

/// Parses a non-negative id below 2^32 at line[pos]; on success advances pos past it. `what` names the field.
inline Expected<std::uint64_t> parseId(const std::string& path, std::int64_t number, std::string_view line,
                                       std::size_t& pos, const char* what)
{
    const auto at = [&](const std::string& message) {
        return parseError(path, static_cast<int>(number), static_cast<int>(pos) + 1, message);
    };
    if (pos >= line.size())
        return at(std::string("expected ") + what + " (the line ends early)");
    if (line[pos] == '-')
        return at(std::string(what) + " is negative");
    if (line[pos] < '0' || line[pos] > '9')
        return at(std::string("expected ") + what + ", a non-negative integer");
    std::uint64_t value = 0;
    const std::size_t begin = pos;
    while (pos < line.size() && line[pos] >= '0' && line[pos] <= '9') {
        value = value * 10 + static_cast<unsigned>(line[pos] - '0');
        if (value > kMaxId) {
            pos = begin;
            return at(std::string(what) + " is 2^32 or more");
        }
        ++pos;
    }
    if (pos < line.size() && !isSpace(line[pos]))
        return at(std::string("expected ") + what + ", a non-negative integer");
    return value;
}

/// Parses `src dst` ids at the start of a line (after blanks); leaves `pos` after the second id. Returns no
/// pair for blank and `#` comment lines.
inline Expected<std::optional<std::pair<std::uint64_t, std::uint64_t>>> parseEdgeIds(const std::string& path,
                                                                                     std::int64_t number,
                                                                                     std::string_view line,
                                                                                     std::size_t& pos)
{
    pos = 0;
    skipSpaces(line, pos);
    if (pos == line.size() || line[pos] == '#')
        return std::optional<std::pair<std::uint64_t, std::uint64_t>>();
    auto a = parseId(path, number, line, pos, "a source vertex id");
    if (!a)
        return a.error();
    skipSpaces(line, pos);
    auto b = parseId(path, number, line, pos, "a target vertex id");
    if (!b)
        return b.error();
    return std::optional(std::make_pair(*a, *b));
}

/// Calls `onEdge(src, dst, line, pos, number)` for every `src dst` line of a file (blank and `#` lines
/// skipped); `pos` points after the second id, for readers with more columns.
template <typename OnEdge>
Status forEachEdgeLine(const std::string& path, const OnEdge& onEdge)
{
    return forEachLine(path, [&](std::string_view line, std::int64_t number) -> Status {
        std::size_t pos = 0;
        auto pair = parseEdgeIds(path, number, line, pos);
        if (!pair)
            return pair.error();
        if (!*pair)
            return {};
        return onEdge((*pair)->first, (*pair)->second, line, pos, number);
    });
}

/// readSnapGraph with chunks of `chunkBytes` (tests cut small files into many chunks with it).
Expected<model::Graph> readSnapGraphInChunks(const std::string& path, const Feedback& feedback, std::size_t chunkBytes);

/// What one chunk of a SNAP file holds: the raw (src, dst) ids of the lines that start in it, how many lines
/// start in it, and its first bad line (numbered from the chunk's first line).
struct SnapChunk {
    std::vector<std::uint32_t> pairs;
    std::int64_t lines = 0;
    std::optional<Error> error;
};

/// A SNAP file cut into chunks of whole lines: chunk k holds the lines that start in bytes [k c, (k + 1) c) of
/// the file. Each chunk is read (with a read of its own) and parsed independently, so several threads may parse
/// chunks at once; the caller puts them back in order.
class SnapChunks {
public:
    /// Opens a regular file; an error names it.
    static Expected<SnapChunks> open(const std::string& path, std::size_t chunkBytes);
    SnapChunks(SnapChunks&& other) noexcept;
    SnapChunks& operator=(SnapChunks&&) = delete;
    SnapChunks(const SnapChunks&) = delete;
    ~SnapChunks();

    std::size_t count() const { return m_count; }
    std::uint64_t fileBytes() const { return m_size; }
    const std::string& path() const { return m_path; }
    /// Reads and parses chunk k into `out` (cleared first); an I/O error is returned, a bad line is kept in
    /// out.error.
    Status parse(std::size_t k, SnapChunk& out) const;
    /// The error of a chunk's bad line with its line counted from the start of the file (`linesBefore` lines
    /// start in the chunks before it).
    static Error located(const SnapChunk& chunk, std::int64_t linesBefore);

private:
    SnapChunks(std::string path, int fd, std::uint64_t size, std::size_t chunkBytes);
    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_size = 0;
    std::size_t m_chunkBytes = 0;
    std::size_t m_count = 0;
};

/// Parses a site name at line[pos] (after blanks) and returns its index; an empty or unknown name is an
/// error located at its column.
Expected<int> parseSiteName(const std::string& path, std::int64_t number, std::string_view line, std::size_t& pos,
                            const model::Topology& topology);

} // namespace meridian::io::detail
