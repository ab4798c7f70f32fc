#pragma once

#include <cstdint>
#include <vector>

namespace meridian::model {

/// A directed graph as an edge list with dense vertex ids 0..vertexCount-1 (the stream a vertex-cut
/// partitioner reads). `originalId` maps dense ids back to the ids of the input file. Edges keep the input
/// order; self-loops are dropped by the readers (counted in selfLoopsDropped); duplicate edges are kept,
/// as PowerGraph keeps them (each is a separate edge of the stream).
/// Memory: 8 bytes per edge plus 8 bytes per vertex.
struct Graph {
    std::uint32_t vertexCount = 0;
    std::vector<std::uint32_t> src;
    std::vector<std::uint32_t> dst;
    std::vector<std::uint64_t> originalId;
    std::uint64_t selfLoopsDropped = 0;

    std::size_t edgeCount() const { return src.size(); }
};

/// Where each edge of a graph runs and where each vertex's master replica is (vertex-cut).
/// Sites are indices into the topology (at most 64 sites).
struct EdgePartition {
    std::vector<std::uint8_t> edgeSite;   ///< per edge, in the graph's edge order
    std::vector<std::uint8_t> masterSite; ///< per vertex; the home site unless a partitioner moved it
};

} // namespace meridian::model
