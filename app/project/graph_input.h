#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/io/graph_io.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::document {

/// What a graph holds, measured when it is imported (so a project shows it without reading the graph).
struct GraphStats {
    std::uint64_t vertices = 0;
    std::uint64_t edges = 0;
    std::uint64_t selfLoopsDropped = 0;
    std::uint64_t maxDegree = 0; ///< in + out
    /// degreeHistogram[k]: how many vertices have a degree d (in + out) with 2^k <= d < 2^(k+1).
    std::vector<std::uint64_t> degreeHistogram;
    std::uint64_t homesFromFile = 0; ///< vertices whose home the homes file gives; the others are drawn
};

/// A graph of a project, for the partitioners. The project refers to the user's file (it is never copied
/// or rewritten) and keeps its checksum, so a file changed on disk is detected and the runs on it become
/// stale. Each vertex's home site comes from a homes file ('vertex site' lines) and, for the vertices it
/// does not list (all of them without a file), from a uniformly random site drawn with `homesSeed`.
struct GraphInput {
    std::string name;
    std::string path; ///< absolute
    io::GraphFormat format = io::GraphFormat::Snap;
    std::uint64_t checksum = 0; ///< io::fileChecksum at import
    std::string homesPath;      ///< absolute; empty: every home drawn
    std::uint64_t homesChecksum = 0;
    std::uint64_t homesSeed = 1;
    GraphStats stats;

    /// Returns how the homes are chosen, for the user ("7,115 from wiki-vote.homes.tsv, none drawn").
    std::string homesText(int siteCount) const;
};

/// A graph read for partitioning, with each vertex's home site.
struct LoadedGraph {
    model::Graph graph;
    std::vector<int> home;
};

/// Reads a graph and its homes for a project's sites and measures them: the GraphInput to add to the project,
/// and the loaded data. Errors name the file and line (a homes file for another graph names its first vertex
/// that the graph does not have).
Expected<std::pair<GraphInput, LoadedGraph>> importGraph(const std::string& name, const std::string& path,
                                                         io::GraphFormat format, const std::string& homesPath,
                                                         std::uint64_t homesSeed, const model::Topology& topology,
                                                         const Feedback& feedback = Feedback());

/// Reads a project's graph for a run: checks that its file (and homes file) are the ones imported, then reads
/// it through the binary edge cache and draws the homes. A changed file is an error saying to re-import.
Expected<LoadedGraph> loadGraphInput(const GraphInput& input, const model::Topology& topology,
                                     const Feedback& feedback = Feedback());

/// Returns an empty string when the graph's files on disk are the ones imported, or what changed.
std::string graphChangeOnDisk(const GraphInput& input);
/// graphChangeOnDisk as the error a run refuses to start with (saying to import the graph again).
Status checkGraphOnDisk(const GraphInput& input);

/// Returns the statistics of a graph (degrees, counts).
GraphStats graphStats(const model::Graph& graph);

} // namespace meridian::document
