#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/cost/gas_cost.h"
#include "core/model/topology.h"

#include <cstdint>
#include <string>

namespace meridian::partition {

/// A SNAP file to partition as it is read (partitionSnapStream).
struct SnapStreamRequest {
    std::string graphPath;
    std::string edgesPath;   ///< the edge partition, `src dst site` per edge
    std::string mastersPath; ///< `vertex site` per vertex; empty: not written
    std::string homesPath;   ///< `vertex site` lines; empty: every home drawn at random
    const model::Topology* topology = nullptr;
    cost::TrafficProfile profile; ///< a combining one (pagerank, sssp)
    std::string algorithm;        ///< one with an online placer (hash, hdrf), or geo-cut in batches over ranks
    ParamValues values;
    std::uint64_t seed = 1;             ///< the placer's (hash's edge draws)
    std::uint64_t homesSeed = 1;        ///< the homes drawn for the vertices the homes file does not list
    std::size_t chunkBytes = 16u << 20; ///< how the file is cut (tests cut small files into many chunks)
};

/// What a stream did: the GAS metrics of the partition, the graph's size, where the homes came from, and when (in
/// seconds from the start) the last chunk was read, the last edge placed, and the files were in place.
struct SnapStreamResult {
    cost::GasMetrics metrics;
    std::uint32_t vertices = 0;
    std::uint64_t edges = 0;
    std::uint64_t selfLoopsDropped = 0;
    std::size_t homesFromFile = 0;
    std::size_t homesDrawn = 0;
    double readSeconds = 0.0;
    double placedSeconds = 0.0;
    double wholeSeconds = 0.0;
};

/// True when partitionSnapStream can run a request: an online placer (hash, HDRF) and a combining profile, whose
/// metrics follow from each vertex's replica and in-edge sites.
bool canStreamSnap(const std::string& algorithm, const cost::TrafficProfile& profile);

/// True when partitionSnapStream splits a request over the ranks of an MPI launcher's job: hash, HDRF in batches (its
/// `batch` parameter above 0, EdgeBatches) and Geo-Cut's stage 1 in batches (start=cost, `batch` above 0, no stage
/// that refines: GeoCutPartitioner::refines), whose sites never depend on how many ranks place them.
bool splitsSnapOverRanks(const std::string& algorithm, const ParamValues& values);
/// Why partitionSnapStream does not split `algorithm` with these values over ranks (splitsSnapOverRanks is false).
std::string overRanksRefusal(const std::string& algorithm);

/// Partitions a SNAP file as it is read, the way a user's whole command runs fastest: the file is cut into chunks
/// of whole lines (io::SnapChunks); the executor's workers parse chunks, place them in file order with the online
/// placer (ids renumbered densely in order of first appearance, each new vertex given its home as it appears), and
/// format and append their `src dst site` lines to the edge partition, all at once: reading, placing and writing
/// overlap, and the kernel is asked to write each block back as soon as it is appended. Then the masters are
/// written and the metrics computed from the placer's per-vertex sites. The sites are exactly those of the
/// in-memory partitioner on the same graph (readSnapGraph, readHomes, assignRandomHomes with homesSeed, the
/// partitioner with seed). `meridian-cli partition` takes this path for hash and HDRF one edge at a time on a SNAP
/// file without a budget, and over ranks (partitionSnapOverRanks) for hash and the streams in batches.
///
/// Both files are written to temporaries, synced, and only then renamed over their paths (as io::writeFilesTogether
/// does): on any error, a bad line (file and line), a homes file naming a vertex the graph lacks, an I/O error or a
/// cancel, neither file changes. Memory: a few chunks in flight, 24 bytes per vertex and the id map; O(file size).
Expected<SnapStreamResult> partitionSnapStream(const SnapStreamRequest& request, const Feedback& feedback);

} // namespace meridian::partition
