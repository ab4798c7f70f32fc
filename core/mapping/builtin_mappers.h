#pragma once

#include "core/common/registry.h"
#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// Registers every built-in mapper, in the order the UI lists them: random, round-robin, interleave,
/// greedy, mpipp, geo, scotch-bw, scotch-lat, topology-aware, monte-carlo, refine. `refine` keeps a
/// reference to `registry` (for its start mappers), so the registry must outlive its use.
void registerBuiltinMappers(Registry<Mapper>& registry);

} // namespace meridian::mapping
