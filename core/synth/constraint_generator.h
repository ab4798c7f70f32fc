#pragma once

#include "core/common/expected.h"
#include "core/model/constraints.h"
#include "core/model/topology.h"

#include <cstdint>

namespace meridian::synth {

/// Draws the data-movement constraints of SC17's experiments: round(ratio x N) processes chosen
/// uniformly at random, each pinned to a site drawn with probability proportional to its free slots,
/// so that no site receives more pins than it has slots. Same seed, same pins.
/// Fails when ratio is outside [0, 1] or the sites have fewer slots than processes.
Expected<model::Constraints> generateConstraints(int processCount, double ratio, const model::Topology& topology,
                                                 std::uint64_t seed);

} // namespace meridian::synth
