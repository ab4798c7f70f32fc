#include "core/model/network_estimator.h"

#include "core/common/readable.h"

#include <algorithm>
#include <vector>

namespace meridian::model {

namespace {

constexpr double kMaxEstimatedBandwidthMBps = 4000.0;

struct Line {
    double intercept;
    double slope;
    DistanceModel::Fit fit;
};

bool isKnown(Provenance p) { return p == Provenance::Measured || p == Provenance::Edited; }

// Least squares y = a + b x with a, b >= 0; `prior` supplies the slope when x has no spread.
Line fitLine(const std::vector<double>& x, const std::vector<double>& y, Line prior)
{
    const auto n = static_cast<double>(x.size());
    if (x.empty())
        return prior;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (x.size() < 2 || sxx < 1e-6) {
        const double a = std::max(0.0, my - prior.slope * mx);
        return {a, prior.slope, DistanceModel::Fit::InterceptOnly};
    }
    double b = sxy / sxx;
    double a = my - b * mx;
    if (b < 0) {
        b = 0;
        a = my;
    }
    if (a < 0) {
        double sx2 = 0, sxyo = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            sx2 += x[i] * x[i];
            sxyo += x[i] * y[i];
        }
        a = 0;
        b = sxyo / sx2;
    }
    return {a, b, DistanceModel::Fit::LeastSquares};
}

const char* fitName(DistanceModel::Fit fit)
{
    switch (fit) {
    case DistanceModel::Fit::Prior:
        return "a prior: no pair of sites measured";
    case DistanceModel::Fit::InterceptOnly:
        return "prior slope, intercept fitted";
    case DistanceModel::Fit::LeastSquares:
        return "least squares";
    }
    return "";
}

std::string diagonalSource(int samples)
{
    return samples > 0 ? "mean of " + std::to_string(samples) + " known" : "model at d = 0";
}

} // namespace

double DistanceModel::bandwidthMBps(double km) const
{
    const double inverse = inverseBandwidthIntercept + inverseBandwidthSlopePerKm * km;
    // At least the physical minimum (kMinBandwidthMBps), however far the fit extrapolates.
    return std::max(kMinBandwidthMBps,
                    std::min(kMaxEstimatedBandwidthMBps, 1.0 / std::max(inverse, 1.0 / kMaxEstimatedBandwidthMBps)));
}

namespace {

/// "least squares on 6 pairs"; a prior, fitted on none, says so on its own.
std::string fitted(DistanceModel::Fit fit, int n)
{
    return fit == DistanceModel::Fit::Prior
        ? std::string(fitName(fit))
        : std::string(fitName(fit)) + " on " + std::to_string(n) + (n == 1 ? " pair" : " pairs");
}

} // namespace

std::string DistanceModel::describe() const
{
    // Slopes per 1000 km: readable numbers for the distances between sites.
    return "Missing entries are estimated from great-circle distance d (in 1000 km). Latency = "
        + readableNumber(latencyInterceptMs) + " ms + " + readableNumber(latencySlopeMsPerKm * 1000.0)
        + " ms \u00d7 d (" + fitted(latencyFit, latencySamples) + "). 1/bandwidth = "
        + readableNumber(inverseBandwidthIntercept) + " s/MB + " + readableNumber(inverseBandwidthSlopePerKm * 1000.0)
        + " s/MB \u00d7 d (" + fitted(bandwidthFit, bandwidthSamples) + "). Missing intra-site entries: latency "
        + readableNumber(latencyDiagonalMs) + " ms (" + diagonalSource(latencyDiagonalSamples) + "), bandwidth "
        + readableNumber(bandwidthDiagonalMBps) + " MB/s (" + diagonalSource(bandwidthDiagonalSamples) + ").";
}

DistanceModel NetworkEstimator::fit(const Network& network, const Topology& topology)
{
    DistanceModel model;
    std::vector<double> latX, latY, bwX, bwY;
    double latDiag = 0, bwDiag = 0;
    const int m = network.siteCount();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            const bool latKnown = isKnown(network.provenance(NetworkQuantity::Latency, i, j));
            const bool bwKnown = isKnown(network.provenance(NetworkQuantity::Bandwidth, i, j));
            if (i == j) {
                if (latKnown) {
                    latDiag += network.latencyMs(i, j);
                    ++model.latencyDiagonalSamples;
                }
                if (bwKnown) {
                    bwDiag += network.bandwidthMBps(i, j);
                    ++model.bandwidthDiagonalSamples;
                }
                continue;
            }
            const double d = topology.distanceKm(i, j);
            if (latKnown) {
                latX.push_back(d);
                latY.push_back(network.latencyMs(i, j));
            }
            if (bwKnown) {
                bwX.push_back(d);
                bwY.push_back(1.0 / network.bandwidthMBps(i, j));
            }
        }
    }
    const Line lat = fitLine(latX, latY,
                             {model.latencyInterceptMs, model.latencySlopeMsPerKm, DistanceModel::Fit::Prior});
    const Line bw = fitLine(bwX, bwY,
                            {model.inverseBandwidthIntercept, model.inverseBandwidthSlopePerKm,
                             DistanceModel::Fit::Prior});
    model.latencyInterceptMs = lat.intercept;
    model.latencySlopeMsPerKm = lat.slope;
    model.latencyFit = lat.fit;
    model.latencySamples = static_cast<int>(latX.size());
    model.inverseBandwidthIntercept = bw.intercept;
    model.inverseBandwidthSlopePerKm = bw.slope;
    model.bandwidthFit = bw.fit;
    model.bandwidthSamples = static_cast<int>(bwX.size());
    model.latencyDiagonalMs = model.latencyDiagonalSamples > 0 ? latDiag / model.latencyDiagonalSamples
                                                               : model.latencyMs(0.0);
    model.bandwidthDiagonalMBps = model.bandwidthDiagonalSamples > 0 ? bwDiag / model.bandwidthDiagonalSamples
                                                                     : model.bandwidthMBps(0.0);
    return model;
}

Network NetworkEstimator::complete(const Network& network, const Topology& topology, DistanceModel* modelOut)
{
    const DistanceModel model = fit(network, topology);
    Network out = network;
    const int m = network.siteCount();
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < m; ++j) {
            const double d = i == j ? 0.0 : topology.distanceKm(i, j);
            if (network.provenance(NetworkQuantity::Latency, i, j) == Provenance::Missing)
                out.set(NetworkQuantity::Latency, i, j, i == j ? model.latencyDiagonalMs : model.latencyMs(d),
                        Provenance::Estimated);
            if (network.provenance(NetworkQuantity::Bandwidth, i, j) == Provenance::Missing)
                out.set(NetworkQuantity::Bandwidth, i, j, i == j ? model.bandwidthDiagonalMBps : model.bandwidthMBps(d),
                        Provenance::Estimated);
        }
    }
    if (modelOut)
        *modelOut = model;
    return out;
}

} // namespace meridian::model
