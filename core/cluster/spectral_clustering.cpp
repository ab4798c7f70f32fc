#include "core/cluster/spectral_clustering.h"

#include "core/cluster/kmeans.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace meridian::cluster {

SpectralResult spectralClustering(const Eigen::MatrixXd& latency, int k, std::uint64_t seed)
{
    const int n = static_cast<int>(latency.rows());
    SpectralResult r;
    if (n <= 1) {
        r.label.assign(n, 0);
        r.clusters = n;
        return r;
    }
    const Eigen::MatrixXd sym = 0.5 * (latency + latency.transpose());
    std::vector<double> off;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j)
                off.push_back(sym(i, j));
    std::nth_element(off.begin(), off.begin() + static_cast<std::ptrdiff_t>(off.size() / 2), off.end());
    double sigma = off[off.size() / 2];
    if (!(sigma > 0.0))
        sigma = 1.0;
    Eigen::MatrixXd w(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            w(i, j) = i == j ? 0.0 : std::exp(-sym(i, j) * sym(i, j) / (2.0 * sigma * sigma));
    Eigen::VectorXd dinv(n);
    for (int i = 0; i < n; ++i) {
        const double d = w.row(i).sum();
        dinv(i) = d > 0.0 ? 1.0 / std::sqrt(d) : 0.0;
    }
    const Eigen::MatrixXd a = dinv.asDiagonal() * w * dinv.asDiagonal();
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(a);
    // Eigen returns ascending eigenvalues; the largest are the informative ones.
    const Eigen::VectorXd& values = solver.eigenvalues();
    for (int i = n - 1; i >= 0; --i)
        r.eigenvalues.push_back(values(i));
    if (k <= 0) {
        // k >= 2: the first gap (after the trivial eigenvalue 1) would otherwise win for any connected
        // affinity; ask for k = 1 explicitly to get one cluster.
        const int limit = std::min(n, 10);
        k = 2;
        double bestGap = -1.0;
        for (int i = 1; i + 1 < limit; ++i) {
            const double gap = r.eigenvalues[i] - r.eigenvalues[i + 1];
            if (gap > bestGap + 1e-12) {
                bestGap = gap;
                k = i + 1;
            }
        }
    }
    k = std::clamp(k, 1, n);
    Eigen::MatrixXd u = solver.eigenvectors().rightCols(k);
    for (int i = 0; i < n; ++i) {
        const double norm = u.row(i).norm();
        if (norm > 0.0)
            u.row(i) /= norm;
    }
    const KMeansResult km = kMeansBestOf(u, k, seed, 10);
    r.label = km.label;
    r.clusters = k;
    return r;
}

} // namespace meridian::cluster
