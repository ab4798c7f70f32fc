#pragma once

#include "core/common/expected.h"
#include "core/model/graph.h"

#include <cstdint>

namespace meridian::synth {

/// Generates a PowerGraph-style synthetic power-law graph: vertex in-degrees are drawn from a discrete
/// power law P(d) ~ d^-alpha (d >= 1, capped at `maxDegree`, by inverse transform of the continuous law)
/// until `edges` edges are reached, and each in-edge's source is a uniformly random other vertex. Vertices
/// are numbered 0..n-1 (n follows from the degrees: about edges / E[d]); edges are grouped by target.
/// Deterministic for a seed. Requires alpha > 1 and edges >= 1. O(edges) time, 8 bytes per edge.
Expected<model::Graph> generatePowerLawGraph(std::uint64_t edges, double alpha, std::uint64_t seed,
                                             std::uint32_t maxDegree = 100000);

} // namespace meridian::synth
