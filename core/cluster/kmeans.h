#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace meridian::cluster {

/// The outcome of a K-means run.
struct KMeansResult {
    std::vector<int> label;  ///< Cluster of each point, 0..k-1; every cluster is non-empty.
    Eigen::MatrixXd centres; ///< k x d.
    double inertia = 0.0;    ///< Sum of squared distances of points to their centre.
    int iterations = 0;
};

/// Lloyd's K-means with Forgy initialisation (k distinct points drawn at random as the initial means),
/// as SC17 groups sites. `points` is n x d (one row per point). A cluster that empties takes the point
/// farthest from its centre. Stops when no label changes or after `maxIterations`. Deterministic for a
/// seed. Requires 1 <= k <= n. O(n k d) per iteration.
KMeansResult kMeans(const Eigen::MatrixXd& points, int k, std::uint64_t seed, int maxIterations = 100);

/// Runs kMeans from `restarts` Forgy initialisations (seed, seed+1, ...) and keeps the lowest inertia.
KMeansResult kMeansBestOf(const Eigen::MatrixXd& points, int k, std::uint64_t seed, int restarts,
                          int maxIterations = 100);

} // namespace meridian::cluster
