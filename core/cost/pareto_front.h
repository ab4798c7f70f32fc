#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace meridian::cost {

/// Returns the indices of the points on the Pareto front when both coordinates are minimised (no other point
/// is at most as large in both and smaller in one), sorted by x: the solutions worth choosing between when
/// trading, say, dollars against seconds. Points with a NaN coordinate are ignored; duplicates of a front
/// point are all kept. O(n log n).
std::vector<std::size_t> paretoFront(const std::vector<std::pair<double, double>>& points);

} // namespace meridian::cost
