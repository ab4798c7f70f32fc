#include "core/synth/power_law_graph.h"

#include "core/common/random.h"

#include <cmath>

namespace meridian::synth {

Expected<model::Graph> generatePowerLawGraph(std::uint64_t edges, double alpha, std::uint64_t seed,
                                             std::uint32_t maxDegree)
{
    if (!(alpha > 1.0) || !std::isfinite(alpha))
        return makeError(ErrorCode::InvalidInput, "alpha must be a number above 1");
    if (edges == 0 || edges > (1ull << 32))
        return makeError(ErrorCode::InvalidInput, "the edge count must be from 1 to 2^32");
    Random random(seed);
    std::vector<std::uint32_t> degree;
    std::uint64_t total = 0;
    const double exponent = -1.0 / (alpha - 1.0);
    while (total < edges) {
        const double u = random.uniform01();
        double d = std::floor(std::pow(1.0 - u, exponent));
        if (!(d >= 1.0))
            d = 1.0;
        auto k = static_cast<std::uint64_t>(std::min<double>(d, maxDegree));
        k = std::min<std::uint64_t>(k, edges - total);
        degree.push_back(static_cast<std::uint32_t>(k));
        total += k;
    }
    model::Graph g;
    const auto n = static_cast<std::uint32_t>(std::max<std::size_t>(degree.size(), 2));
    g.vertexCount = n;
    g.originalId.resize(n);
    for (std::uint32_t v = 0; v < n; ++v)
        g.originalId[v] = v;
    g.src.reserve(edges);
    g.dst.reserve(edges);
    for (std::uint32_t v = 0; v < degree.size(); ++v) {
        for (std::uint32_t k = 0; k < degree[v]; ++k) {
            // A uniformly random source other than v.
            auto s = static_cast<std::uint32_t>(random.uniformInt(n - 1));
            s += s >= v ? 1 : 0;
            g.src.push_back(s);
            g.dst.push_back(v);
        }
    }
    return g;
}

} // namespace meridian::synth
