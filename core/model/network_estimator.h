#pragma once

#include "core/model/network.h"
#include "core/model/topology.h"

#include <algorithm>
#include <string>

namespace meridian::model {

/// The model that fills missing network entries from the great-circle distance d (km) between sites:
///   latency(d) = latencyInterceptMs + latencySlopeMsPerKm * d                       [ms]
///   1 / bandwidth(d) = inverseBandwidthIntercept + inverseBandwidthSlopePerKm * d    [s/MB]
/// Latency grows linearly with distance (propagation delay); bandwidth falls as 1/(c + e d), the shape of
/// window-limited TCP throughput, whose rate is the window divided by a round-trip time linear in d.
/// Both lines are least-squares fits on the measured and edited off-diagonal entries, constrained to
/// non-negative intercept and slope. With fewer than two distinct distances the slope of the prior below
/// is kept and only the intercept is fitted; with no entry at all the prior is used as it is:
///   prior latency = 0.5 ms + d / (100 km/ms)   (light in fibre at 200 km/ms over a route twice as long)
///   prior 1/bandwidth = 2 * latency / 4 MB      (one TCP stream with a 4 MB window)
/// A missing diagonal (intra-site) entry is the mean of the known diagonal entries of that quantity,
/// or the model at d = 0 (bandwidth at most 4000 MB/s) when no diagonal entry is known.
struct DistanceModel {
    enum class Fit { Prior, InterceptOnly, LeastSquares };

    double latencyInterceptMs = 0.5;
    double latencySlopeMsPerKm = 0.01;
    double inverseBandwidthIntercept = 2.0 * 0.5e-3 / 4.0;
    double inverseBandwidthSlopePerKm = 2.0 * 0.01e-3 / 4.0;
    Fit latencyFit = Fit::Prior;
    Fit bandwidthFit = Fit::Prior;
    int latencySamples = 0;
    int bandwidthSamples = 0;
    int latencyDiagonalSamples = 0;
    int bandwidthDiagonalSamples = 0;
    double latencyDiagonalMs = 0.5;
    double bandwidthDiagonalMBps = 4000.0;

    /// Within the physical range (kMaxLatencyMs), as a measured entry must be, however far the fit extrapolates.
    double latencyMs(double km) const
    {
        return std::clamp(latencyInterceptMs + latencySlopeMsPerKm * km, 0.0, kMaxLatencyMs);
    }
    double bandwidthMBps(double km) const;
    /// Returns a one-paragraph description of both fits for the UI and reports.
    std::string describe() const;
};

/// Fits the distance model on the known entries of `network` and returns a copy in which every missing
/// site-level entry is filled in and marked Estimated. Known entries and host links are kept unchanged.
/// Complexity O(M^2). `topology` must have network.siteCount() sites.
class NetworkEstimator {
public:
    static DistanceModel fit(const Network& network, const Topology& topology);
    static Network complete(const Network& network, const Topology& topology, DistanceModel* modelOut = nullptr);
};

} // namespace meridian::model
