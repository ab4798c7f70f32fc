#include "core/cluster/kmeans.h"

#include "core/common/random.h"

#include <cassert>
#include <limits>
#include <numeric>

namespace meridian::cluster {

KMeansResult kMeans(const Eigen::MatrixXd& points, int k, std::uint64_t seed, int maxIterations)
{
    const int n = static_cast<int>(points.rows());
    assert(k >= 1 && k <= n);
    Random random(seed);
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    random.shuffle(order);
    KMeansResult r;
    r.centres.resize(k, points.cols());
    for (int c = 0; c < k; ++c)
        r.centres.row(c) = points.row(order[c]);
    r.label.assign(n, -1);
    for (r.iterations = 0; r.iterations < maxIterations; ++r.iterations) {
        bool changed = false;
        for (int i = 0; i < n; ++i) {
            int best = 0;
            double bestDist = std::numeric_limits<double>::infinity();
            for (int c = 0; c < k; ++c) {
                const double d = (points.row(i) - r.centres.row(c)).squaredNorm();
                if (d < bestDist) {
                    bestDist = d;
                    best = c;
                }
            }
            if (r.label[i] != best) {
                r.label[i] = best;
                changed = true;
            }
        }
        // Empty clusters take the point farthest from its centre (keeps k groups).
        std::vector<int> size(k, 0);
        for (int l : r.label)
            ++size[l];
        for (int c = 0; c < k; ++c) {
            if (size[c] > 0)
                continue;
            int far = -1;
            double farDist = -1.0;
            for (int i = 0; i < n; ++i) {
                if (size[r.label[i]] <= 1)
                    continue;
                const double d = (points.row(i) - r.centres.row(r.label[i])).squaredNorm();
                if (d > farDist) {
                    farDist = d;
                    far = i;
                }
            }
            --size[r.label[far]];
            r.label[far] = c;
            ++size[c];
            changed = true;
        }
        r.centres.setZero();
        for (int i = 0; i < n; ++i)
            r.centres.row(r.label[i]) += points.row(i);
        for (int c = 0; c < k; ++c)
            r.centres.row(c) /= size[c];
        if (!changed)
            break;
    }
    r.inertia = 0.0;
    for (int i = 0; i < n; ++i)
        r.inertia += (points.row(i) - r.centres.row(r.label[i])).squaredNorm();
    return r;
}

KMeansResult kMeansBestOf(const Eigen::MatrixXd& points, int k, std::uint64_t seed, int restarts, int maxIterations)
{
    KMeansResult best = kMeans(points, k, seed, maxIterations);
    for (int r = 1; r < restarts; ++r) {
        KMeansResult next = kMeans(points, k, seed + static_cast<std::uint64_t>(r), maxIterations);
        if (next.inertia < best.inertia)
            best = std::move(next);
    }
    return best;
}

} // namespace meridian::cluster
