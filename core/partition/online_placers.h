#pragma once

#include "core/common/param.h"

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace meridian::partition {

/// A streaming rule that places each edge when it arrives, in input order, from a small record per vertex that
/// grows as new vertices appear: hash and HDRF. The in-memory partitioners and the file stream
/// (partitionSnapStream) both run these, so a graph gets the same sites whichever way it is partitioned.
class OnlinePlacer {
public:
    virtual ~OnlinePlacer() = default;
    /// Adds `count` vertices after those already known, with their homes (each vertex's master and first replica).
    virtual void addVertices(const std::uint8_t* homes, std::size_t count) = 0;
    /// Places `count` edges between known vertices, the first being edge `firstEdge` of the stream, and writes their
    /// sites.
    virtual void place(const std::uint32_t* src, const std::uint32_t* dst, std::size_t count, std::uint64_t firstEdge,
                       std::uint8_t* sites)
        = 0;
    virtual std::uint32_t vertexCount() const = 0;
    /// Per vertex, the sites holding it (its home and its edges' sites) and those holding one of its in-edges: what
    /// the GAS metrics of a combining profile need (cost::evaluateGasFromSites).
    virtual void sites(std::vector<std::uint64_t>& replicas, std::vector<std::uint64_t>& inSites) const = 0;
};

/// Geo-Cut's Baseline, as its paper defines it: random hashing assigns an edge to the data centre holding its source
/// or its target. A seeded hash of the edge's position in the stream (`edge`, from 0) picks the source's home or the
/// target's (one site when they share it). It needs nothing but the two homes, so ranks that each hold a part of the
/// stream place their edges alone and give the one-process partition.
inline int hashSite(std::uint64_t seed, int sourceHome, int targetHome, std::uint64_t edge)
{
    std::uint64_t x = seed + 0x9e3779b97f4a7c15ull * (edge + 1);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return (x & 1) ? targetHome : sourceHome;
}

/// True for the partitioners with an online placer ("hash", "hdrf").
bool hasOnlinePlacer(std::string_view algorithm);
/// The placer of one of them with its parameter values and seed, over `sites` sites (at most 64).
std::unique_ptr<OnlinePlacer> makeOnlinePlacer(std::string_view algorithm, const ParamValues& values,
                                               std::uint64_t seed, int sites);

} // namespace meridian::partition
