#pragma once

#include "core/common/expected.h"
#include "core/io/text_file.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <charconv>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace meridian::io {

/// Reads home sites: `vertex site` lines (original vertex ids, site names; tabs or spaces; `#` comments).
/// Unknown sites or vertices, and a vertex listed twice, are errors with file and line. Returns one site
/// per dense vertex, -1 where the file gives none.
Expected<std::vector<int>> readHomes(const std::string& path, const model::Graph& graph,
                                     const model::Topology& topology);

/// One line of a homes file, for a graph not read yet (a stream): the vertex's original id, its site, the line.
struct HomeLine {
    std::uint64_t id = 0;
    int site = 0;
    int line = 0;
};
/// Reads a homes file's lines (unknown sites are errors with file and line), in file order; with `keep`, only the
/// lines of the vertices it keeps (a rank holds those of the vertices it owns).
Expected<std::vector<HomeLine>> readHomeLines(const std::string& path, const model::Topology& topology,
                                              const std::function<bool(std::uint64_t)>& keep = {});
/// Checks home lines against a graph's vertices as readHomes does (a vertex not in the graph, or listed twice, is an
/// error at its line; the first such line in the file wins) and sets `home` (one site per dense vertex, -1 where the
/// file gives none). `slotOf` gives a vertex's dense number from its original id, or -1 when it is not in the graph.
Status assignHomeLines(const std::string& path, const std::vector<HomeLine>& lines,
                       const std::function<std::int64_t(std::uint64_t)>& slotOf, std::vector<int>& home);
/// Checks home lines against a graph's original ids as readHomes does (a vertex not in the graph, or listed
/// twice, is an error at its line; the first such line in the file wins), and returns one site per dense vertex,
/// -1 where the file gives none.
Expected<std::vector<int>> homesOf(const std::string& path, const std::vector<HomeLine>& lines,
                                   const std::vector<std::uint64_t>& originalIds);

/// "\t<site name>\n" per site: what ends every line of a partition or masters file.
std::vector<std::string> siteLineEndings(const model::Topology& topology);
/// Appends one line of a partition file, `src dst site` (`ending` from siteLineEndings).
inline void appendEdgeLine(std::string& out, std::uint64_t src, std::uint64_t dst, const std::string& ending)
{
    char line[48];
    char* at = std::to_chars(line, line + 20, src).ptr;
    *at++ = '\t';
    at = std::to_chars(at, at + 20, dst).ptr;
    out.append(line, static_cast<std::size_t>(at - line));
    out += ending;
}
/// Appends one line of a masters file, `vertex site`.
inline void appendVertexLine(std::string& out, std::uint64_t vertex, const std::string& ending)
{
    char line[24];
    char* at = std::to_chars(line, line + 20, vertex).ptr;
    out.append(line, static_cast<std::size_t>(at - line));
    out += ending;
}

/// Writes `src dst site` per input edge (original ids, site names), tab-separated, in edge order.
/// The writers below as files still to be written, for writeFilesTogether (a partition and its masters); the
/// lines are formatted by `executor`'s workers.
PendingFile edgePartitionFile(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                              const model::Topology& topology, Executor& executor = Executor::standard());
PendingFile mastersFile(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                        const model::Topology& topology, Executor& executor = Executor::standard());
Status writeEdgePartition(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                          const model::Topology& topology);
/// Writes `vertex site` per vertex (original ids, master site names), tab-separated.
Status writeMasters(const std::string& path, const model::Graph& graph, const model::EdgePartition& partition,
                    const model::Topology& topology);

/// Reads an edge partition written by writeEdgePartition back into a graph (ids renumbered as a SNAP file
/// would be) and the edge sites; masters are set to -1 (unknown) unless readMasters fills them.
Expected<std::pair<model::Graph, model::EdgePartition>> readEdgePartition(const std::string& path,
                                                                          const model::Topology& topology);
/// Reads an edge partition written by writeEdgePartition for `graph`: a line per edge, in the graph's order and with
/// its original ids (a line with another edge is an error at that line), read into the edge sites; masters are set
/// to -1 (unknown) unless readMasters fills them.
Expected<model::EdgePartition> readEdgePartitionOf(const std::string& path, const model::Graph& graph,
                                                   const model::Topology& topology);
/// Reads masters written by writeMasters into `partition.masterSite` for the vertices of `graph`.
Status readMasters(const std::string& path, const model::Graph& graph, const model::Topology& topology,
                   model::EdgePartition& partition);

/// Reads an edge batch for dynamic updates: `src dst` lines as in a SNAP file, ids as in the original graph
/// (new ids are allowed for insertions). Returns original id pairs; `lines`, when given, gets the line of
/// each pair in the file (for errors about a pair found later).
Expected<std::vector<std::pair<std::uint64_t, std::uint64_t>>> readEdgeBatch(const std::string& path,
                                                                             std::vector<int>* lines = nullptr);

} // namespace meridian::io
