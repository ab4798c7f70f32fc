// Spearman's rank correlation, shared by the benchmarks that compare a measure's ranking of placements with
// simulated or measured times.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace bench {

/// The ranks of v (0-based; ties share their mean rank).
inline std::vector<double> ranks(const std::vector<double>& v)
{
    std::vector<int> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        for (std::size_t k = i; k <= j; ++k)
            r[order[k]] = 0.5 * static_cast<double>(i + j);
        i = j + 1;
    }
    return r;
}

/// Spearman's rho: Pearson's correlation of the ranks; NaN when either side is constant.
inline double spearman(const std::vector<double>& x, const std::vector<double>& y)
{
    const auto rx = ranks(x);
    const auto ry = ranks(y);
    const double n = static_cast<double>(x.size());
    const double mx = std::accumulate(rx.begin(), rx.end(), 0.0) / n;
    const double my = std::accumulate(ry.begin(), ry.end(), 0.0) / n;
    double sxy = 0.0;
    double sxx = 0.0;
    double syy = 0.0;
    for (std::size_t i = 0; i < rx.size(); ++i) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0.0 && syy > 0.0 ? sxy / std::sqrt(sxx * syy) : std::nan("");
}

} // namespace bench
