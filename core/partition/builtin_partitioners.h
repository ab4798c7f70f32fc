#pragma once

#include "core/common/registry.h"
#include "core/partition/partitioner.h"

namespace meridian::partition {

/// Registers hash, greedy, hdrf, graph-h, g-cut and geo-cut, in that order.
void registerBuiltinPartitioners(Registry<Partitioner>& registry);

} // namespace meridian::partition
