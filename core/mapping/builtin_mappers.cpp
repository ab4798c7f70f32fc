#include "core/mapping/builtin_mappers.h"

#include "core/mapping/geo_mapper.h"
#include "core/mapping/greedy_mapper.h"
#include "core/mapping/monte_carlo_mapper.h"
#include "core/mapping/mpipp_mapper.h"
#include "core/mapping/refine_mapper.h"
#include "core/mapping/scotch_mapper.h"
#include "core/mapping/simple_mappers.h"
#include "core/mapping/topology_aware_mapper.h"

namespace meridian::mapping {

void registerBuiltinMappers(Registry<Mapper>& registry)
{
    registry.add(std::make_unique<RandomMapper>());
    registry.add(std::make_unique<RoundRobinMapper>());
    registry.add(std::make_unique<InterleaveMapper>());
    registry.add(std::make_unique<GreedyMapper>());
    registry.add(std::make_unique<MpippMapper>());
    registry.add(std::make_unique<GeoMapper>());
    registry.add(std::make_unique<ScotchMapper>(ScotchMapper::Metric::Bandwidth));
    registry.add(std::make_unique<ScotchMapper>(ScotchMapper::Metric::Latency));
    registry.add(std::make_unique<TopologyAwareMapper>());
    registry.add(std::make_unique<MonteCarloMapper>());
    registry.add(std::make_unique<RefineMapper>(registry));
}

} // namespace meridian::mapping
