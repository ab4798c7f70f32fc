// The SNAP edge-list reader, in parallel: the file is cut into chunks of whole lines that the Feedback's
// executor's workers parse at once into raw id pairs; the pairs are then renumbered in file order on the calling
// thread, so dense ids follow first appearance exactly as a sequential read would give them.
#include "core/io/edge_list_parsing.h"
#include "core/io/graph_io.h"
#include "core/io/text_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

namespace meridian::io {

using namespace detail;

namespace {

/// Reads `count` bytes at `offset` (fewer at the end of the file).
bool readAt(int fd, std::uint64_t offset, std::size_t count, std::vector<char>& into)
{
    into.resize(count);
    std::size_t got = 0;
    while (got < count) {
        const ssize_t n = ::pread(fd, into.data() + got, count - got, static_cast<off_t>(offset + got));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    into.resize(got);
    return true;
}

/// Parses an id at text[pos] when it is plain digits below 2^32 followed by a blank or the line's end; returns
/// false for anything else (the slow path then says what is wrong).
inline bool fastId(const char* text, std::size_t size, std::size_t& pos, std::uint32_t& out)
{
    std::uint64_t value = 0;
    const std::size_t begin = pos;
    while (pos < size && static_cast<unsigned char>(text[pos] - '0') < 10) {
        value = value * 10 + static_cast<unsigned>(text[pos] - '0');
        if (value > kMaxId)
            return false;
        ++pos;
    }
    if (pos == begin || (pos < size && !isSpace(text[pos])))
        return false;
    out = static_cast<std::uint32_t>(value);
    return true;
}

/// Parses the lines that start in [begin, end) of the file; `data` holds the file from `base` on, and at least
/// up to the end of the last such line (or of the file).
void parseLines(const std::string& path, const char* data, std::size_t size, std::size_t from, std::size_t to,
                SnapChunk& chunk)
{
    std::size_t start = from;
    while (start < to && start < size) {
        const void* nl = std::memchr(data + start, '\n', size - start);
        const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - data) : size;
        const char* line = data + start;
        const std::size_t length = end - start;
        ++chunk.lines;
        std::size_t pos = 0;
        while (pos < length && isSpace(line[pos]))
            ++pos;
        if (pos < length && line[pos] != '#') {
            std::uint32_t a = 0, b = 0;
            bool ok = fastId(line, length, pos, a);
            if (ok) {
                while (pos < length && isSpace(line[pos]))
                    ++pos;
                ok = fastId(line, length, pos, b);
            }
            if (!ok) {
                std::size_t at = 0;
                auto parsed = parseEdgeIds(path, chunk.lines, std::string_view(line, length), at);
                chunk.error = parsed ? parseError(path, static_cast<int>(chunk.lines), 1, "unreadable edge line")
                                     : parsed.error();
                return;
            }
            chunk.pairs.push_back(a);
            chunk.pairs.push_back(b);
        }
        start = end + 1;
    }
}

/// Reads chunk `k` (the lines that start in its byte range) from the file and parses them.
Status readChunk(const std::string& path, int fd, std::uint64_t fileSize, std::size_t chunkBytes, std::size_t k,
                 SnapChunk& chunk)
{
    const std::uint64_t begin = k * chunkBytes;
    const std::uint64_t end = std::min<std::uint64_t>(fileSize, begin + chunkBytes);
    // One byte before the range tells whether its first line starts at `begin` or in the chunk before.
    const std::uint64_t base = begin == 0 ? 0 : begin - 1;
    std::vector<char> buffer;
    std::size_t want = static_cast<std::size_t>(end - base) + 4096;
    while (true) {
        if (!readAt(fd, base, want, buffer))
            return ioError(path, "cannot read");
        // The last line starting before `end` must be whole (or end the file).
        const std::size_t rangeEnd = static_cast<std::size_t>(end - base);
        const bool whole = base + buffer.size() >= fileSize
            || std::memchr(buffer.data() + rangeEnd - 1, '\n', buffer.size() - rangeEnd + 1) != nullptr;
        if (whole)
            break;
        want *= 2; // a line longer than what was read past the range
    }
    std::size_t from = 0;
    if (const std::string_view text(buffer.data(), buffer.size()); begin == 0)
        from = text.size() - withoutByteOrderMark(text).size(); // a UTF-8 byte-order mark is no part of line 1
    if (begin > 0) {
        const void* nl = std::memchr(buffer.data(), '\n', buffer.size());
        from = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - buffer.data()) + 1 : buffer.size();
    }
    parseLines(path, buffer.data(), buffer.size(), from, static_cast<std::size_t>(end - base), chunk);
    return {};
}

} // namespace

SnapChunks::SnapChunks(std::string path, int fd, std::uint64_t size, std::size_t chunkBytes)
    : m_path(std::move(path))
    , m_fd(fd)
    , m_size(size)
    , m_chunkBytes(chunkBytes)
    , m_count(std::max<std::size_t>(1, static_cast<std::size_t>((size + chunkBytes - 1) / chunkBytes)))
{}

SnapChunks::SnapChunks(SnapChunks&& other) noexcept
    : m_path(std::move(other.m_path))
    , m_fd(std::exchange(other.m_fd, -1))
    , m_size(other.m_size)
    , m_chunkBytes(other.m_chunkBytes)
    , m_count(other.m_count)
{}

SnapChunks::~SnapChunks()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

Expected<SnapChunks> SnapChunks::open(const std::string& path, std::size_t chunkBytes)
{
    std::uint64_t size = 0;
    auto fd = openRegularFile(path, kMaxGraphFileBytes, &size);
    if (!fd)
        return fd.error();
    return SnapChunks(path, *fd, size, chunkBytes);
}

Status SnapChunks::parse(std::size_t k, SnapChunk& out) const
{
    out.pairs.clear();
    out.lines = 0;
    out.error.reset();
    return readChunk(m_path, m_fd, m_size, m_chunkBytes, k, out);
}

Error SnapChunks::located(const SnapChunk& chunk, std::int64_t linesBefore)
{
    Error e = *chunk.error;
    e.where.line = static_cast<int>(linesBefore + e.where.line);
    return e;
}

Expected<model::Graph> readSnapGraph(const std::string& path, const Feedback& feedback)
{
    return detail::readSnapGraphInChunks(path, feedback, 16u << 20);
}

Expected<model::Graph> detail::readSnapGraphInChunks(const std::string& path, const Feedback& feedback,
                                                     std::size_t chunkBytes)
{
    auto file = SnapChunks::open(path, chunkBytes);
    if (!file)
        return file.error();
    const std::uint64_t fileSize = file->fileBytes();
    const std::size_t chunkCount = file->count();
    std::vector<SnapChunk> chunks(chunkCount);
    std::vector<std::optional<Error>> ioErrors(chunkCount);
    std::atomic<std::size_t> next{0}, done{0};
    const int workers = static_cast<int>(
        std::min<std::size_t>(chunkCount, static_cast<std::size_t>(feedback.executor().concurrency())));
    feedback.executor().shareWork(workers, [&](int worker) {
        for (std::size_t k = next++; k < chunkCount; k = next++) {
            if (feedback.isCanceled())
                return;
            if (auto s = file->parse(k, chunks[k]); !s)
                ioErrors[k] = s.error();
            const std::size_t finished = ++done;
            if (worker == 0) // progress is reported from the calling thread only
                feedback.setProgress(0.8 * static_cast<double>(finished) / static_cast<double>(chunkCount),
                                     "reading the graph");
        }
    });
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    // The first error in file order wins; its line is counted from the start of the file.
    std::int64_t linesBefore = 0;
    std::size_t pairs = 0;
    for (std::size_t k = 0; k < chunkCount; ++k) {
        if (ioErrors[k])
            return *ioErrors[k];
        if (chunks[k].error)
            return SnapChunks::located(chunks[k], linesBefore);
        linesBefore += chunks[k].lines;
        pairs += chunks[k].pairs.size() / 2;
    }
    model::Graph g;
    g.src.resize(pairs);
    g.dst.resize(pairs);
    DenseIdMap ids(g, fileSize);
    std::size_t edges = 0;
    for (std::size_t k = 0; k < chunkCount; ++k) {
        auto& raw = chunks[k].pairs;
        constexpr std::size_t kAhead = 64; // ids are looked up ahead of use: the map is larger than the caches
        const std::size_t n = raw.size();
        for (std::size_t i = 0; i < n; i += 2) {
            if (i + kAhead < n) {
                ids.prefetch(raw[i + kAhead]);
                ids.prefetch(raw[i + kAhead + 1]);
            }
            const std::uint32_t a = raw[i], b = raw[i + 1];
            const std::uint32_t u = ids.get(a);
            if (a == b) {
                ++g.selfLoopsDropped;
                continue;
            }
            g.src[edges] = u;
            g.dst[edges] = ids.get(b);
            ++edges;
        }
        std::vector<std::uint32_t>().swap(raw); // keeps the peak at the edge list plus the chunks not yet renumbered
        if (feedback.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
    }
    g.src.resize(edges);
    g.dst.resize(edges);
    feedback.setProgress(1.0, "reading the graph");
    if (g.src.empty())
        return makeError(ErrorCode::InvalidInput, "the graph has no edges (self-loops are dropped)",
                         SourceLocation{path, 0, 0});
    return g;
}

} // namespace meridian::io
