#include "core/cost/pareto_front.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace meridian::cost {

std::vector<std::size_t> paretoFront(const std::vector<std::pair<double, double>>& points)
{
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (!std::isnan(points[i].first) && !std::isnan(points[i].second))
            order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return points[a] < points[b]; });
    std::vector<std::size_t> front;
    double bestY = std::numeric_limits<double>::infinity();
    for (const std::size_t i : order) {
        const auto& p = points[i];
        // Keep exact duplicates of the last front point; otherwise a point is on the front when it beats
        // every point with a smaller or equal x in y.
        if (!front.empty() && points[front.back()] == p) {
            front.push_back(i);
            continue;
        }
        if (p.second < bestY) {
            front.push_back(i);
            bestY = p.second;
        }
    }
    return front;
}

} // namespace meridian::cost
