#include "core/partition/builtin_partitioners.h"

#include "core/partition/geo_cut_partitioner.h"
#include "core/partition/streaming_partitioners.h"

namespace meridian::partition {

void registerBuiltinPartitioners(Registry<Partitioner>& registry)
{
    registry.add(std::make_unique<HashPartitioner>());
    registry.add(std::make_unique<GreedyPartitioner>());
    registry.add(std::make_unique<HdrfPartitioner>());
    registry.add(std::make_unique<GraphHPartitioner>());
    registry.add(std::make_unique<GCutPartitioner>());
    registry.add(std::make_unique<GeoCutPartitioner>());
}

} // namespace meridian::partition
