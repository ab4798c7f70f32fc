#include "core/io/graph_io.h"

#include "core/io/edge_list_parsing.h"
#include "core/io/text_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

namespace meridian::io {

using namespace detail;

namespace {

Error emptyGraph(const std::string& path)
{
    return makeError(ErrorCode::InvalidInput, "the graph has no edges (self-loops are dropped)",
                     SourceLocation{path, 0, 0});
}

// The cache file: this header, then originalId (8 bytes per vertex), src and dst (4 bytes per edge each).
// The source is identified by size, inode, and modification and change times in nanoseconds (a file
// rewritten within the same second is told apart); the arrays carry a checksum. Version 2.
struct CacheHeader {
    char magic[8];
    std::uint64_t version;
    std::uint64_t sourceSize;
    std::int64_t sourceMtimeNs;
    std::int64_t sourceCtimeNs;
    std::uint64_t sourceInode;
    std::uint64_t vertexCount;
    std::uint64_t edgeCount;
    std::uint64_t selfLoops;
    std::uint64_t checksum;
};

constexpr char kCacheMagic[8] = {'M', 'R', 'D', 'N', 'G', 'R', 'F', '2'};
constexpr std::uint64_t kCacheVersion = 2;

std::int64_t nanoseconds(const struct timespec& t)
{
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

// A word-wise multiplicative hash of a byte range (about 1 GB/s): detects a cache damaged on disk.
std::uint64_t checksum(const void* data, std::size_t bytes, std::uint64_t h)
{
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < bytes; ++i)
        h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

std::uint64_t graphChecksum(const model::Graph& g)
{
    std::uint64_t h = 0xcbf29ce484222325ULL;
    h = checksum(g.originalId.data(), g.originalId.size() * 8, h);
    h = checksum(g.src.data(), g.src.size() * 4, h);
    return checksum(g.dst.data(), g.dst.size() * 4, h);
}

bool sameSource(const CacheHeader& h, const struct stat& st)
{
    return h.sourceSize == static_cast<std::uint64_t>(st.st_size) && h.sourceMtimeNs == nanoseconds(st.st_mtim)
        && h.sourceCtimeNs == nanoseconds(st.st_ctim) && h.sourceInode == static_cast<std::uint64_t>(st.st_ino);
}

// Reads a cache entry and checks every field against the file's size and the arrays against the vertex
// count and the checksum; returns nothing for a missing, stale or corrupt entry (then it is rewritten).
std::optional<model::Graph> readCacheEntry(const std::string& cachePath, const struct stat& source)
{
    File f{std::fopen(cachePath.c_str(), "rb")};
    if (!f)
        return std::nullopt;
    struct stat cache {};
    CacheHeader h{};
    if (::fstat(::fileno(f.get()), &cache) != 0 || std::fread(&h, sizeof h, 1, f.get()) != 1
        || std::memcmp(h.magic, kCacheMagic, 8) != 0 || h.version != kCacheVersion || !sameSource(h, source))
        return std::nullopt;
    // Sizes must fit the id types and add up to the cache file's size exactly, before anything is allocated.
    if (h.vertexCount > std::numeric_limits<std::uint32_t>::max() || h.edgeCount > (std::uint64_t{1} << 40))
        return std::nullopt;
    if (static_cast<std::uint64_t>(cache.st_size) != sizeof h + 8 * h.vertexCount + 8 * h.edgeCount)
        return std::nullopt;
    model::Graph g;
    g.vertexCount = static_cast<std::uint32_t>(h.vertexCount);
    g.selfLoopsDropped = h.selfLoops;
    g.originalId.resize(h.vertexCount);
    g.src.resize(h.edgeCount);
    g.dst.resize(h.edgeCount);
    if (std::fread(g.originalId.data(), 8, h.vertexCount, f.get()) != h.vertexCount
        || std::fread(g.src.data(), 4, h.edgeCount, f.get()) != h.edgeCount
        || std::fread(g.dst.data(), 4, h.edgeCount, f.get()) != h.edgeCount || graphChecksum(g) != h.checksum)
        return std::nullopt;
    std::uint32_t largest = 0;
    for (std::size_t e = 0; e < g.src.size(); ++e)
        largest = std::max({largest, g.src[e], g.dst[e]});
    if (!g.src.empty() && largest >= g.vertexCount)
        return std::nullopt;
    return g;
}

} // namespace

Expected<GraphFormat> graphFormatFromId(std::string_view id)
{
    if (id == "snap")
        return GraphFormat::Snap;
    if (id == "metis")
        return GraphFormat::Metis;
    if (id == "mtx")
        return GraphFormat::MatrixMarket;
    return makeError(ErrorCode::InvalidInput,
                     "unknown graph format '" + std::string(id) + "' (known: snap, metis, mtx)");
}

std::string_view graphFormatId(GraphFormat format)
{
    switch (format) {
    case GraphFormat::Metis:
        return "metis";
    case GraphFormat::MatrixMarket:
        return "mtx";
    case GraphFormat::Snap:
        break;
    }
    return "snap";
}

GraphFormat guessGraphFormat(std::string_view path)
{
    const std::string name = toLower(std::filesystem::path(std::string(path)).filename().string());
    const auto endsWith = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (endsWith(".mtx"))
        return GraphFormat::MatrixMarket;
    if (endsWith(".graph") || endsWith(".metis"))
        return GraphFormat::Metis;
    return GraphFormat::Snap;
}

Expected<std::uint64_t> fileChecksum(const std::string& path)
{
    // Only a regular file of at most the largest graph read: a FIFO or /dev/zero put in a graph's place would make
    // the checksum (that every load of the project computes) wait or read forever.
    auto opened = openRegularFile(path, kMaxGraphFileBytes);
    if (!opened)
        return opened.error();
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(::fdopen(*opened, "rb"), &std::fclose);
    if (!f) {
        ::close(*opened);
        return makeError(ErrorCode::Io, std::string("cannot open: ") + std::strerror(errno), SourceLocation{path, 0, 0});
    }
    std::vector<unsigned char> block(std::size_t(1) << 20);
    std::uint64_t h = 0xcbf29ce484222325ULL;
    std::uint64_t total = 0;
    for (;;) {
        const std::size_t n = std::fread(block.data(), 1, block.size(), f.get());
        // Each block hashes from a whole word boundary, so a block's tail bytes never shift the next block.
        h = checksum(block.data(), n, h);
        total += n;
        if (total > kMaxGraphFileBytes)
            return makeError(ErrorCode::Io, "the file grew past the largest graph read while it was read", {path});
        if (n < block.size())
            break;
    }
    if (std::ferror(f.get()))
        return makeError(ErrorCode::Io, "cannot read the file", SourceLocation{path, 0, 0});
    return h ^ total;
}

namespace {

/// The numbers of one METIS line, each with its column.
using MetisFields = std::vector<std::pair<std::uint64_t, int>>;

Expected<MetisFields> metisFields(const std::string& path, int lineNumber, std::string_view line)
{
    MetisFields fields;
    std::size_t pos = 0;
    while (true) {
        skipSpaces(line, pos);
        if (pos >= line.size())
            return fields;
        const int column = static_cast<int>(pos) + 1;
        auto v = parseId(path, lineNumber, line, pos, "a non-negative integer");
        if (!v)
            return v.error();
        fields.emplace_back(*v, column);
    }
}

struct MetisHeader {
    std::uint64_t n = 0, m = 0;
    bool vertexWeights = false, edgeWeights = false;
    int ncon = 1;
};

/// 'vertices edges [fmt [ncon]]', its claims checked against what the rest of the file can hold (one adjacency
/// line per vertex, at least a byte per edge) before `g` is sized.
Expected<MetisHeader> readMetisHeader(const std::string& path, const LineReader& lines, const MetisFields& fields,
                                      model::Graph& g)
{
    if (fields.size() < 2 || fields.size() > 4)
        return parseError(path, lines.number(), 1, "expected the METIS header 'vertices edges [fmt [ncon]]'");
    MetisHeader h;
    h.n = fields[0].first;
    h.m = fields[1].first;
    if (fields.size() >= 3) {
        const std::uint64_t fmt = fields[2].first;
        if (fmt % 10 > 1 || (fmt / 10) % 10 > 1 || fmt / 100 > 1)
            return parseError(path, lines.number(), fields[2].second, "fmt must be 0, 1, 10, 11, 100, 101, 110 or 111");
        h.edgeWeights = fmt % 10 == 1;
        h.vertexWeights = (fmt / 10) % 10 == 1;
    }
    if (fields.size() == 4)
        h.ncon = static_cast<int>(fields[3].first);
    if (h.n == 0 || h.n > kMaxId)
        return parseError(path, lines.number(), fields[0].second, "the vertex count must be from 1 to 2^32 - 1");
    if (h.n > lines.remaining() + 1)
        return parseError(path, lines.number(), fields[0].second,
                          "the header claims " + std::to_string(h.n) + " vertices but the rest of the file ("
                              + std::to_string(lines.remaining()) + " bytes) can hold at most "
                              + std::to_string(lines.remaining() + 1) + " adjacency lines");
    if (h.m > lines.remaining() + 1)
        return parseError(path, lines.number(), fields[1].second,
                          "the header claims " + std::to_string(h.m) + " edges but the rest of the file ("
                              + std::to_string(lines.remaining()) + " bytes) cannot hold that many");
    g.vertexCount = static_cast<std::uint32_t>(h.n);
    g.originalId.resize(h.n);
    for (std::uint64_t i = 0; i < h.n; ++i)
        g.originalId[i] = i + 1;
    g.src.reserve(h.m);
    g.dst.reserve(h.m);
    return h;
}

/// Vertex `vertex`'s adjacency line: its weights, then neighbours (with weights); each edge is kept once, from
/// its lower end. Counts the entries read.
Status readMetisAdjacency(const std::string& path, int lineNumber, const MetisFields& fields, const MetisHeader& h,
                          std::uint64_t vertex, model::Graph& g, std::uint64_t& entries)
{
    std::size_t i = h.vertexWeights ? static_cast<std::size_t>(h.ncon) : 0;
    if (fields.size() < i)
        return parseError(path, lineNumber, 1, "expected " + std::to_string(h.ncon) + " vertex weight(s)");
    const std::size_t step = h.edgeWeights ? 2 : 1;
    if ((fields.size() - i) % step != 0)
        return parseError(path, lineNumber, fields.back().second, "expected neighbour and weight pairs");
    for (; i < fields.size(); i += step) {
        const std::uint64_t u = fields[i].first;
        if (u < 1 || u > h.n)
            return parseError(path, lineNumber, fields[i].second,
                              "neighbour " + std::to_string(u) + " is not a vertex (1.." + std::to_string(h.n) + ")");
        ++entries;
        if (u - 1 == vertex) {
            ++g.selfLoopsDropped;
        } else if (u - 1 > vertex) {
            g.src.push_back(static_cast<std::uint32_t>(vertex));
            g.dst.push_back(static_cast<std::uint32_t>(u - 1));
        }
    }
    return {};
}

} // namespace

Expected<model::Graph> readMetisGraph(const std::string& path)
{
    auto text = readTextFile(path, kMaxGraphFileBytes);
    if (!text)
        return text.error();
    LineReader lines(*text);
    model::Graph g;
    std::optional<MetisHeader> header;
    std::uint64_t vertex = 0;
    std::uint64_t entries = 0;
    while (lines.next()) {
        std::string_view line = lines.line();
        if (!line.empty() && line[0] == '%')
            continue;
        auto fields = metisFields(path, lines.number(), line);
        if (!fields)
            return fields.error();
        if (fields->empty() && (!header || vertex >= header->n))
            continue;
        if (!header) {
            auto read = readMetisHeader(path, lines, *fields, g);
            if (!read)
                return read.error();
            header = *read;
            continue;
        }
        if (vertex >= header->n)
            return parseError(path, lines.number(), 1,
                              "more adjacency lines than the " + std::to_string(header->n)
                                  + " vertices the header declares");
        if (auto ok = readMetisAdjacency(path, lines.number(), *fields, *header, vertex, g, entries); !ok)
            return ok.error();
        ++vertex;
    }
    if (!header)
        return parseError(path, 1, 1, "expected the METIS header 'vertices edges [fmt [ncon]]'");
    if (vertex < header->n)
        return parseError(path, lines.number(), 1,
                          "the header declares " + std::to_string(header->n) + " vertices but the file has "
                              + std::to_string(vertex) + " adjacency lines");
    if (entries != 2 * header->m)
        return parseError(path, lines.number(), 1,
                          "the header declares " + std::to_string(header->m) + " edges (" + std::to_string(2 * header->m)
                              + " adjacency entries) but the lists hold " + std::to_string(entries));
    if (g.src.empty())
        return emptyGraph(path);
    return g;
}

namespace {

/// A graph's Matrix Market banner: a coordinate matrix, real, integer or pattern, general or symmetric.
Status checkGraphBanner(const std::string& path, std::int64_t number, std::string_view line)
{
    if (line.rfind("%%MatrixMarket", 0) != 0)
        return parseError(path, static_cast<int>(number), 1,
                          "expected the '%%MatrixMarket matrix coordinate ...' banner");
    std::string lower(line);
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("coordinate") == std::string::npos)
        return parseError(path, static_cast<int>(number), 1, "a graph must be a 'coordinate' matrix");
    if (lower.find("complex") != std::string::npos || lower.find("hermitian") != std::string::npos
        || lower.find("skew") != std::string::npos)
        return parseError(path, static_cast<int>(number), 1,
                          "expected a real, integer or pattern matrix, general or symmetric");
    return {};
}

/// The size line 'rows columns entries' of a graph, its claims checked before `g` is sized: an entry takes at
/// least 4 bytes ("1 2\n"), and vertices beyond two per entry would be isolated: a few are fine, billions are
/// a bad header.
Status readGraphSizeLine(const std::string& path, std::int64_t number, std::uint64_t rows, std::uint64_t columns,
                         std::uint64_t entries, std::uint64_t fileBytes, model::Graph& g)
{
    constexpr std::uint64_t kIsolatedAllowance = 1 << 16;
    if (rows != columns || rows == 0)
        return parseError(path, static_cast<int>(number), 1, "a graph's matrix must be square and non-empty");
    if (entries > fileBytes / 4)
        return parseError(path, static_cast<int>(number), 1,
                          "the size line claims " + std::to_string(entries) + " entries but the file ("
                              + std::to_string(fileBytes) + " bytes) can hold at most " + std::to_string(fileBytes / 4));
    if (rows > kMaxId || rows > 2 * entries + kIsolatedAllowance)
        return parseError(path, static_cast<int>(number), 1,
                          "the size line claims " + std::to_string(rows) + " vertices for " + std::to_string(entries)
                              + " entries; at most 2 x entries + " + std::to_string(kIsolatedAllowance)
                              + " (isolated vertices included) and 2^32 - 1 are accepted");
    g.vertexCount = static_cast<std::uint32_t>(rows);
    g.originalId.resize(rows);
    for (std::uint64_t i = 0; i < rows; ++i)
        g.originalId[i] = i + 1;
    g.src.reserve(std::min<std::uint64_t>(entries, 1u << 26));
    g.dst.reserve(std::min<std::uint64_t>(entries, 1u << 26));
    return {};
}

} // namespace

Expected<model::Graph> readMatrixMarketGraph(const std::string& path)
{
    std::error_code sizeError;
    const std::uint64_t fileBytes = std::filesystem::file_size(path, sizeError);
    if (sizeError)
        return makeError(ErrorCode::Io, "cannot read the file: " + sizeError.message(), {path});
    model::Graph g;
    bool banner = false, sizeLine = false;
    std::uint64_t rows = 0, nnz = 0, seen = 0;
    auto ok = forEachLine(path, [&](std::string_view line, std::int64_t number) -> Status {
        if (!banner) {
            banner = true;
            return checkGraphBanner(path, number, line);
        }
        std::size_t pos = 0;
        skipSpaces(line, pos);
        if (pos == line.size() || line[pos] == '%')
            return {};
        auto a = parseId(path, number, line, pos, sizeLine ? "a row index" : "the row count");
        if (!a)
            return a.error();
        skipSpaces(line, pos);
        auto b = parseId(path, number, line, pos, sizeLine ? "a column index" : "the column count");
        if (!b)
            return b.error();
        if (!sizeLine) {
            skipSpaces(line, pos);
            auto c = parseId(path, number, line, pos, "the entry count");
            if (!c)
                return c.error();
            rows = *a;
            nnz = *c;
            sizeLine = true;
            return readGraphSizeLine(path, number, *a, *b, *c, fileBytes, g);
        }
        if (*a < 1 || *a > rows || *b < 1 || *b > rows)
            return parseError(path, static_cast<int>(number), 1, "index out of range 1.." + std::to_string(rows));
        if (++seen > nnz)
            return parseError(path, static_cast<int>(number), 1,
                              "more entries than the " + std::to_string(nnz) + " the size line declares");
        if (*a == *b) {
            ++g.selfLoopsDropped;
            return {};
        }
        g.src.push_back(static_cast<std::uint32_t>(*a - 1));
        g.dst.push_back(static_cast<std::uint32_t>(*b - 1));
        return {};
    });
    if (!ok)
        return ok.error();
    if (!sizeLine)
        return parseError(path, 1, 1, "expected the size line 'rows columns entries'");
    if (seen < nnz)
        return parseError(path, 0, 0,
                          "the size line declares " + std::to_string(nnz) + " entries but the file has "
                              + std::to_string(seen));
    if (g.src.empty())
        return emptyGraph(path);
    return g;
}

std::string defaultGraphCacheDir()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::string(xdg) + "/meridian/graphs";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.cache/meridian/graphs";
    return {};
}

Expected<model::Graph> loadGraph(const std::string& path, GraphFormat format, const std::string& cacheDir,
                                 bool* fromCache, const Feedback& feedback)
{
    if (fromCache)
        *fromCache = false;
    const auto read = [&]() -> Expected<model::Graph> {
        switch (format) {
        case GraphFormat::Snap:
            return readSnapGraph(path, feedback);
        case GraphFormat::Metis:
            return readMetisGraph(path);
        case GraphFormat::MatrixMarket:
            return readMatrixMarketGraph(path);
        }
        return readSnapGraph(path);
    };
    struct stat st {};
    if (cacheDir.empty() || ::stat(path.c_str(), &st) != 0)
        return read();
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(path, ec).string();
    const std::size_t key = std::hash<std::string>{}(absolute + "|" + std::to_string(static_cast<int>(format)));
    char name[40];
    std::snprintf(name, sizeof name, "%016zx.edges", key);
    const std::string cachePath = cacheDir + "/" + name;

    // Try the cache: header, then the arrays straight into place, every field checked.
    if (auto cached = readCacheEntry(cachePath, st)) {
        if (fromCache)
            *fromCache = true;
        return std::move(*cached);
    }
    auto g = read();
    if (!g)
        return g;
    std::filesystem::create_directories(cacheDir, ec);
    const std::string temp = cachePath + ".tmp" + std::to_string(::getpid());
    if (File f{std::fopen(temp.c_str(), "wb")}) {
        CacheHeader h{};
        std::memcpy(h.magic, kCacheMagic, 8);
        h.version = kCacheVersion;
        h.sourceSize = static_cast<std::uint64_t>(st.st_size);
        h.sourceMtimeNs = nanoseconds(st.st_mtim);
        h.sourceCtimeNs = nanoseconds(st.st_ctim);
        h.sourceInode = static_cast<std::uint64_t>(st.st_ino);
        h.vertexCount = g->vertexCount;
        h.edgeCount = g->edgeCount();
        h.selfLoops = g->selfLoopsDropped;
        h.checksum = graphChecksum(*g);
        bool written = std::fwrite(&h, sizeof h, 1, f.get()) == 1
            && std::fwrite(g->originalId.data(), 8, g->vertexCount, f.get()) == g->vertexCount
            && std::fwrite(g->src.data(), 4, g->edgeCount(), f.get()) == g->edgeCount()
            && std::fwrite(g->dst.data(), 4, g->edgeCount(), f.get()) == g->edgeCount();
        written = std::fclose(f.release()) == 0 && written;
        if (written)
            std::filesystem::rename(temp, cachePath, ec);
        if (!written || ec)
            std::filesystem::remove(temp, ec);
    }
    return g;
}

} // namespace meridian::io
