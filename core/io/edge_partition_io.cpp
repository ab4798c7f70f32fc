#include "core/io/edge_partition_io.h"

#include <filesystem>

#include "core/io/edge_list_parsing.h"
#include "core/io/text_file.h"

#include <charconv>
#include <optional>
#include <unordered_map>

namespace meridian::io {

using namespace detail;

namespace {

Error emptyGraph(const std::string& path)
{
    return makeError(ErrorCode::InvalidInput, "the graph has no edges (self-loops are dropped)",
                     SourceLocation{path, 0, 0});
}

} // namespace

namespace {

/// Returns a lookup from original id to dense id.
std::unordered_map<std::uint64_t, std::uint32_t> idIndex(const model::Graph& graph)
{
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(graph.vertexCount);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        index.emplace(graph.originalId[v], v);
    return index;
}

/// Parses `id<ws>site-name` lines; calls onPair(id, site, line).
Status forEachVertexSite(const std::string& path, const model::Topology& topology,
                         const std::function<Status(std::uint64_t, int, std::int64_t)>& onPair)
{
    return forEachLine(path, [&](std::string_view line, std::int64_t number) -> Status {
        std::size_t pos = 0;
        skipSpaces(line, pos);
        if (pos == line.size() || line[pos] == '#')
            return {};
        auto id = parseId(path, number, line, pos, "a vertex id");
        if (!id)
            return id.error();
        auto site = parseSiteName(path, number, line, pos, topology);
        if (!site)
            return site.error();
        return onPair(*id, *site, number);
    });
}

} // namespace

Expected<std::vector<HomeLine>> readHomeLines(const std::string& path, const model::Topology& topology,
                                              const std::function<bool(std::uint64_t)>& keep)
{
    std::vector<HomeLine> lines;
    auto ok = forEachVertexSite(path, topology, [&](std::uint64_t id, int site, std::int64_t number) -> Status {
        if (!keep || keep(id))
            lines.push_back({id, site, static_cast<int>(number)});
        return {};
    });
    if (!ok)
        return ok.error();
    return lines;
}

Expected<std::vector<int>> homesOf(const std::string& path, const std::vector<HomeLine>& lines,
                                   const std::vector<std::uint64_t>& originalIds)
{
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(originalIds.size());
    for (std::uint32_t v = 0; v < originalIds.size(); ++v)
        index.emplace(originalIds[v], v);
    std::vector<int> home(originalIds.size(), -1);
    const auto slotOf = [&](std::uint64_t id) -> std::int64_t {
        const auto it = index.find(id);
        return it == index.end() ? -1 : std::int64_t{it->second};
    };
    if (auto assigned = assignHomeLines(path, lines, slotOf, home); !assigned)
        return assigned.error();
    return home;
}

Status assignHomeLines(const std::string& path, const std::vector<HomeLine>& lines,
                       const std::function<std::int64_t(std::uint64_t)>& slotOf, std::vector<int>& home)
{
    for (const auto& l : lines) {
        const std::int64_t slot = slotOf(l.id);
        if (slot < 0)
            return parseError(path, l.line, 1, "vertex " + std::to_string(l.id) + " is not in the graph");
        if (home[static_cast<std::size_t>(slot)] >= 0)
            return parseError(path, l.line, 1, "vertex " + std::to_string(l.id) + " is listed twice");
        home[static_cast<std::size_t>(slot)] = l.site;
    }
    return {};
}

Expected<std::vector<int>> readHomes(const std::string& path, const model::Graph& graph, const model::Topology& topology)
{
    auto lines = readHomeLines(path, topology);
    if (!lines)
        return lines.error();
    return homesOf(path, *lines, graph.originalId);
}

Status writeEdgePartition(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                          const model::Topology& topology)
{
    return writeFilesTogether({edgePartitionFile(path, graph, partition, topology)});
}

Status writeMasters(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                    const model::Topology& topology)
{
    return writeFilesTogether({mastersFile(path, graph, partition, topology)});
}

std::vector<std::string> siteLineEndings(const model::Topology& topology)
{
    std::vector<std::string> endings;
    for (const auto& site : topology.sites())
        endings.push_back('\t' + site.name + '\n');
    return endings;
}

namespace {
constexpr std::size_t kLinesPerBlock = 1u << 18;
} // namespace

PendingFile edgePartitionFile(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                              const model::Topology& topology, Executor& executor)
{
    return {path, [&graph, &partition, &executor, endings = siteLineEndings(topology)](std::ostream& out) {
                writeRecordsInParallel(
                    out, graph.edgeCount(), kLinesPerBlock,
                    [&](std::size_t begin, std::size_t end, std::string& buffer) {
                        constexpr std::size_t kAhead = 16; // the id table is larger than the caches
                        for (std::size_t e = begin; e < end; ++e) {
                            if (e + kAhead < end) {
                                __builtin_prefetch(&graph.originalId[graph.src[e + kAhead]]);
                                __builtin_prefetch(&graph.originalId[graph.dst[e + kAhead]]);
                            }
                            appendEdgeLine(buffer, graph.originalId[graph.src[e]], graph.originalId[graph.dst[e]],
                                           endings[partition.edgeSite[e]]);
                        }
                    },
                    executor);
            }};
}

PendingFile mastersFile(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                        const model::Topology& topology, Executor& executor)
{
    return {path, [&graph, &partition, &executor, endings = siteLineEndings(topology)](std::ostream& out) {
                writeRecordsInParallel(
                    out, graph.vertexCount, kLinesPerBlock,
                    [&](std::size_t begin, std::size_t end, std::string& buffer) {
                        for (std::size_t v = begin; v < end; ++v)
                            appendVertexLine(buffer, graph.originalId[v], endings[partition.masterSite[v]]);
                    },
                    executor);
            }};
}

Expected<std::pair<model::Graph, model::EdgePartition>> readEdgePartition(const std::string& path,
                                                                          const model::Topology& topology)
{
    model::Graph g;
    model::EdgePartition p;
    std::error_code sizeError;
    DenseIdMap ids(g, std::filesystem::file_size(path, sizeError));
    auto ok = forEachEdgeLine(path,
                              [&](std::uint64_t a, std::uint64_t b, std::string_view line, std::size_t pos,
                                  std::int64_t number) -> Status {
                                  auto site = parseSiteName(path, number, line, pos, topology);
                                  if (!site)
                                      return site.error();
                                  g.src.push_back(ids.get(a));
                                  g.dst.push_back(ids.get(b));
                                  p.edgeSite.push_back(static_cast<std::uint8_t>(*site));
                                  return {};
                              });
    if (!ok)
        return ok.error();
    if (g.src.empty())
        return emptyGraph(path);
    p.masterSite.assign(g.vertexCount, 0xFF);
    return std::make_pair(std::move(g), std::move(p));
}

Expected<model::EdgePartition> readEdgePartitionOf(const std::string& path, const model::Graph& graph,
                                                   const model::Topology& topology)
{
    model::EdgePartition p;
    p.edgeSite.reserve(graph.edgeCount());
    std::size_t k = 0;
    auto ok = forEachEdgeLine(path,
                              [&](std::uint64_t a, std::uint64_t b, std::string_view line, std::size_t pos,
                                  std::int64_t number) -> Status {
                                  if (k == graph.edgeCount())
                                      return parseError(path, static_cast<int>(number), 1,
                                                        "more lines than the graph's " + std::to_string(k) + " edges");
                                  // The ids of random vertices: load those of the edge 16 ahead.
                                  if (constexpr std::size_t kAhead = 16; k + kAhead < graph.edgeCount()) {
                                      __builtin_prefetch(graph.originalId.data() + graph.src[k + kAhead]);
                                      __builtin_prefetch(graph.originalId.data() + graph.dst[k + kAhead]);
                                  }
                                  const std::uint64_t src = graph.originalId[graph.src[k]];
                                  const std::uint64_t dst = graph.originalId[graph.dst[k]];
                                  if (a != src || b != dst)
                                      return parseError(path, static_cast<int>(number), 1,
                                                        "expected the graph's edge " + std::to_string(k + 1) + ", "
                                                            + std::to_string(src) + " " + std::to_string(dst));
                                  auto site = parseSiteName(path, number, line, pos, topology);
                                  if (!site)
                                      return site.error();
                                  p.edgeSite.push_back(static_cast<std::uint8_t>(*site));
                                  ++k;
                                  return {};
                              });
    if (!ok)
        return ok.error();
    if (k != graph.edgeCount())
        return makeError(ErrorCode::InvalidInput,
                         std::to_string(k) + " lines for the graph's " + std::to_string(graph.edgeCount()) + " edges",
                         SourceLocation{path, 0, 0});
    p.masterSite.assign(graph.vertexCount, 0xFF);
    return p;
}

Status readMasters(const std::string& path, const model::Graph& graph, const model::Topology& topology,
                   model::EdgePartition& partition)
{
    // writeMasters lists the vertices in the graph's order: line k is vertex k until a line says otherwise, and only
    // then is the index of every id built.
    std::optional<std::unordered_map<std::uint64_t, std::uint32_t>> index;
    std::uint32_t next = 0;
    partition.masterSite.assign(graph.vertexCount, 0xFF);
    return forEachVertexSite(path, topology, [&](std::uint64_t id, int site, std::int64_t number) -> Status {
        std::uint32_t v = next;
        if (index || v >= graph.vertexCount || graph.originalId[v] != id) {
            if (!index)
                index = idIndex(graph);
            const auto it = index->find(id);
            if (it == index->end())
                return parseError(path, static_cast<int>(number), 1,
                                  "vertex " + std::to_string(id) + " is not in the partition");
            v = it->second;
        }
        ++next;
        partition.masterSite[v] = static_cast<std::uint8_t>(site);
        return {};
    });
}

Expected<std::vector<std::pair<std::uint64_t, std::uint64_t>>> readEdgeBatch(const std::string& path,
                                                                             std::vector<int>* lines)
{
    std::vector<std::pair<std::uint64_t, std::uint64_t>> edges;
    if (lines)
        lines->clear();
    auto ok = forEachEdgeLine(path,
                              [&](std::uint64_t a, std::uint64_t b, std::string_view, std::size_t,
                                  std::int64_t line) -> Status {
                                  edges.emplace_back(a, b);
                                  if (lines)
                                      lines->push_back(static_cast<int>(line));
                                  return {};
                              });
    if (!ok)
        return ok.error();
    return edges;
}

} // namespace meridian::io
