#include "core/model/network_estimator.h"

#include "test_support.h"

#include <QTest>

using namespace meridian::model;

namespace {

// Sites on the equator at the given longitudes: distances are exactly known.
Topology equator(std::initializer_list<double> longitudes)
{
    std::vector<Site> sites;
    int k = 0;
    for (double lon : longitudes)
        sites.push_back(meridian::test::site(std::string(1, static_cast<char>('a' + k++)), 0, lon, 1, 1));
    return *Topology::create(std::move(sites));
}

} // namespace

class TestNetworkEstimator : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recoversAnExactLinearModelAndFillsMissingEntries()
    {
        const auto t = equator({0, 10, 30, 60});
        Network n(4);
        // latency = 2 ms + 0.01 ms/km, 1/bandwidth = 0.01 s/MB + 1e-5 s/MB/km, on pairs with s0.
        for (int j = 1; j < 4; ++j) {
            const double d = t.distanceKm(0, j);
            n.set(NetworkQuantity::Latency, 0, j, 2 + 0.01 * d);
            n.set(NetworkQuantity::Bandwidth, 0, j, 1.0 / (0.01 + 1e-5 * d));
        }
        n.set(NetworkQuantity::Bandwidth, 0, 0, 500.0);
        DistanceModel m;
        const Network full = NetworkEstimator::complete(n, t, &m);
        QCOMPARE(m.latencyFit, DistanceModel::Fit::LeastSquares);
        QVERIFY(std::abs(m.latencyInterceptMs - 2.0) < 1e-9);
        QVERIFY(std::abs(m.latencySlopeMsPerKm - 0.01) < 1e-12);
        QVERIFY(std::abs(m.inverseBandwidthSlopePerKm - 1e-5) < 1e-12);
        QVERIFY(full.isComplete());
        QCOMPARE(full.provenance(NetworkQuantity::Latency, 0, 1), Provenance::Measured);
        QCOMPARE(full.provenance(NetworkQuantity::Latency, 2, 3), Provenance::Estimated);
        const double d23 = t.distanceKm(2, 3);
        QVERIFY(std::abs(full.latencyMs(2, 3) - (2 + 0.01 * d23)) < 1e-9);
        QVERIFY(std::abs(full.bandwidthMBps(3, 2) - 1.0 / (0.01 + 1e-5 * d23)) < 1e-9);
        // Diagonal: bandwidth from the one known diagonal entry, latency from the model at d = 0.
        QCOMPARE(full.bandwidthMBps(2, 2), 500.0);
        QVERIFY(std::abs(full.latencyMs(1, 1) - 2.0) < 1e-9);
        QVERIFY(m.describe().find("least squares on 3 pairs") != std::string::npos);
    }

    void usesThePriorWithoutMeasurements()
    {
        const auto t = equator({0, 90});
        Network n(2);
        DistanceModel m;
        const Network full = NetworkEstimator::complete(n, t, &m);
        QCOMPARE(m.latencyFit, DistanceModel::Fit::Prior);
        const double d = t.distanceKm(0, 1);
        QVERIFY(std::abs(full.latencyMs(0, 1) - (0.5 + d / 100.0)) < 1e-9);
        QVERIFY(std::abs(full.bandwidthMBps(0, 1) - 4.0 / (2e-3 * (0.5 + d / 100.0))) < 1e-6);
        QVERIFY(full.bandwidthMBps(0, 0) <= 4000.0);
        QVERIFY(m.describe().find("prior") != std::string::npos);
    }

    void keepsThePriorSlopeWhenDistancesDoNotVary()
    {
        const auto t = equator({0, 20});
        Network n(2);
        n.set(NetworkQuantity::Latency, 0, 1, 100.0);
        n.set(NetworkQuantity::Latency, 1, 0, 100.0);
        DistanceModel m;
        NetworkEstimator::complete(n, t, &m);
        QCOMPARE(m.latencyFit, DistanceModel::Fit::InterceptOnly);
        QCOMPARE(m.latencySlopeMsPerKm, 0.01);
        QVERIFY(std::abs(m.latencyMs(t.distanceKm(0, 1)) - 100.0) < 1e-9);
    }

    void neverFitsANegativeSlopeOrIntercept()
    {
        const auto t = equator({0, 10, 40});
        Network n(3);
        // Latency falling with distance: the fit must fall back to a flat line at the mean.
        n.set(NetworkQuantity::Latency, 0, 1, 50.0);
        n.set(NetworkQuantity::Latency, 0, 2, 10.0);
        DistanceModel m = NetworkEstimator::fit(n, t);
        QCOMPARE(m.latencySlopeMsPerKm, 0.0);
        QCOMPARE(m.latencyInterceptMs, 30.0);
        // Steep growth from zero: the intercept would be negative, so the line goes through the origin.
        Network steep(3);
        steep.set(NetworkQuantity::Latency, 0, 1, 1.0);
        steep.set(NetworkQuantity::Latency, 0, 2, 100.0);
        m = NetworkEstimator::fit(steep, t);
        QCOMPARE(m.latencyInterceptMs, 0.0);
        QVERIFY(m.latencySlopeMsPerKm > 0.0);
    }

    void ignoresEstimatedEntriesWhenFitting()
    {
        const auto t = equator({0, 10, 20});
        Network n(3);
        n.set(NetworkQuantity::Latency, 0, 1, 5.0);
        n.set(NetworkQuantity::Latency, 0, 2, 1000.0, Provenance::Estimated);
        const DistanceModel m = NetworkEstimator::fit(n, t);
        QCOMPARE(m.latencySamples, 1);
    }

    void countsEntriesByProvenance()
    {
        Network n(2);
        n.set(NetworkQuantity::Latency, 0, 1, 1.0, Provenance::Edited);
        QCOMPARE(n.count(NetworkQuantity::Latency, Provenance::Edited), 1);
        QCOMPARE(n.count(NetworkQuantity::Latency, Provenance::Missing), 3);
        QVERIFY(!n.isComplete());
        n.clear(NetworkQuantity::Latency, 0, 1);
        QCOMPARE(n.count(NetworkQuantity::Latency, Provenance::Missing), 4);
        QVERIFY(n.validate(0));
    }
};

QTEST_GUILESS_MAIN(TestNetworkEstimator)
#include "test_network_estimator.moc"
