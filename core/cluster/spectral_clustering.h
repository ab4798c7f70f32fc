#pragma once

#include <Eigen/Dense>

#include <cstdint>
#include <vector>

namespace meridian::cluster {

/// The outcome of spectral clustering.
struct SpectralResult {
    std::vector<int> label; ///< Cluster of each node, 0..k-1.
    int clusters = 0;
    std::vector<double> eigenvalues; ///< Of the normalised affinity, descending (for the eigengap).
};

/// Ng-Jordan-Weiss spectral clustering of nodes from a latency matrix (Fan et al.'s discovery of the
/// physical topology). The latency is symmetrised, the affinity is exp(-L^2 / (2 sigma^2)) with sigma the
/// median off-diagonal latency, the top k eigenvectors of D^-1/2 W D^-1/2 are row-normalised and grouped
/// by K-means (best of 10 Forgy starts). With k = 0 the number of clusters is chosen by the largest
/// eigengap among the first min(n, 10) eigenvalues (k >= 2 when n >= 2). Deterministic for a seed. O(n^3).
SpectralResult spectralClustering(const Eigen::MatrixXd& latency, int k, std::uint64_t seed);

} // namespace meridian::cluster
