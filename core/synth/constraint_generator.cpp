#include "core/synth/constraint_generator.h"

#include "core/common/random.h"

#include <cmath>
#include <numeric>
#include <string>

namespace meridian::synth {

Expected<model::Constraints> generateConstraints(int processCount, double ratio, const model::Topology& topology,
                                                 std::uint64_t seed)
{
    if (!(ratio >= 0.0 && ratio <= 1.0))
        return makeError(ErrorCode::InvalidInput, "the constraint ratio must be between 0 and 1");
    if (processCount < 0)
        return makeError(ErrorCode::InvalidInput, "the process count must not be negative");
    if (processCount > topology.totalCapacity())
        return makeError(ErrorCode::Infeasible,
                         std::to_string(processCount) + " processes do not fit in "
                             + std::to_string(topology.totalCapacity()) + " slots");
    Random rng(seed);
    std::vector<int> processes(processCount);
    std::iota(processes.begin(), processes.end(), 0);
    rng.shuffle(processes);
    const int pinned = static_cast<int>(std::lround(ratio * processCount));
    std::vector<int> free(topology.siteCount());
    int totalFree = 0;
    for (int s = 0; s < topology.siteCount(); ++s) {
        free[s] = topology.capacity(s);
        totalFree += free[s];
    }
    std::vector<model::Pin> pins;
    for (int k = 0; k < pinned; ++k) {
        auto slot = static_cast<int>(rng.uniformInt(static_cast<std::uint64_t>(totalFree)));
        int site = 0;
        while (slot >= free[site])
            slot -= free[site++];
        --free[site];
        --totalFree;
        pins.push_back({processes[k], site});
    }
    return model::Constraints::fromPins(std::move(pins));
}

} // namespace meridian::synth
