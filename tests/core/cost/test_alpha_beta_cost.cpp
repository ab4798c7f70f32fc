#include "core/common/random.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/synth/patterns.h"

#include <QTest>

using namespace meridian;
using namespace meridian::model;

namespace {

// L = [[1, 10], [20, 2]] ms, B = [[100, 10], [5, 50]] MB/s.
Network twoSites()
{
    Network n(2);
    const double lat[2][2] = {{1, 10}, {20, 2}};
    const double bw[2][2] = {{100, 10}, {5, 50}};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            n.set(NetworkQuantity::Latency, i, j, lat[i][j]);
            n.set(NetworkQuantity::Bandwidth, i, j, bw[i][j]);
        }
    return n;
}

Network randomNetwork(int m, Random& rng)
{
    Network n(m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            n.set(NetworkQuantity::Latency, i, j, 0.1 + 100 * rng.uniform01());
            n.set(NetworkQuantity::Bandwidth, i, j, 1 + 200 * rng.uniform01());
        }
    return n;
}

} // namespace

class TestAlphaBetaCost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesAHandComputedCase()
    {
        // 0->1: 2 msgs, 1 MB; 1->2: 1 msg, 2 MB; 2->0: 4 msgs, 0.5 MB; 1->1 is self-traffic and free.
        auto comm = *CommMatrix::fromEntries(3, {{0, 1, 1e6, 2}, {1, 2, 2e6, 1}, {2, 0, 5e5, 4}, {1, 1, 1e9, 7}});
        const cost::AlphaBetaCost c(twoSites(), comm);
        const std::vector<int> p = {0, 1, 1};
        // (0,1): 2 x 10 ms + 1e6 / 10e6 = 0.12 s; (1,2): 1 x 2 ms + 2e6 / 50e6 = 0.042 s;
        // (2,0): 4 x 20 ms + 5e5 / 5e6 = 0.18 s.
        QVERIFY(std::abs(c.evaluate(p) - 0.342) < 1e-12);
        const auto b = c.breakdown(p);
        QVERIFY(std::abs(b.total - 0.342) < 1e-12);
        QVERIFY(std::abs(b.latencyPart - 0.102) < 1e-12);
        QVERIFY(std::abs(b.bandwidthPart - 0.24) < 1e-12);
        QCOMPARE(b.trafficBytes(0, 1), 1e6);
        QCOMPARE(b.trafficBytes(1, 1), 2e6);
        QCOMPARE(b.trafficBytes(1, 0), 5e5);
        QCOMPARE(b.trafficBytes(0, 0), 0.0);
        QCOMPARE(b.messages(1, 0), 4.0);
        QVERIFY(std::abs(b.timeSeconds(1, 0) - 0.18) < 1e-12);
        QCOMPARE(b.load, (std::vector<int>{1, 2}));
    }

    void movesAndSwapsMatchTheHandComputedCase()
    {
        auto comm = *CommMatrix::fromEntries(3, {{0, 1, 1e6, 2}, {1, 2, 2e6, 1}, {2, 0, 5e5, 4}});
        const cost::AlphaBetaCost c(twoSites(), comm);
        const std::vector<int> p = {0, 1, 1};
        // Moving 0 to site 1 puts everything in site 1: 2 x 2 ms + 1e6/50e6 + 0.042 + 4 x 2 ms + 5e5/50e6.
        const double allInOne = 0.004 + 0.02 + 0.042 + 0.008 + 0.01;
        QVERIFY(std::abs(c.moveDelta(p, 0, 1) - (allInOne - 0.342)) < 1e-12);
        QCOMPARE(c.moveDelta(p, 1, 1), 0.0);
        QCOMPARE(c.swapDelta(p, 1, 2), 0.0);
        // Swapping 0 and 2 gives {1, 1, 0}.
        const std::vector<int> swapped = {1, 1, 0};
        QVERIFY(std::abs(c.swapDelta(p, 0, 2) - (c.evaluate(swapped) - 0.342)) < 1e-12);
    }

    void deltasEqualFullReevaluationOnRandomMoves()
    {
        Random rng(2024);
        const int m = 5;
        const Network net = randomNetwork(m, rng);
        // An asymmetric pattern with self-loops: LU plus a random sprinkle.
        auto lu = *synth::generatePattern(synth::Pattern::LU, {.processes = 96, .iterations = 3});
        auto entries = lu.entries();
        for (int k = 0; k < 300; ++k)
            entries.push_back({static_cast<int>(rng.uniformInt(96)), static_cast<int>(rng.uniformInt(96)),
                               1e5 * rng.uniform01(), static_cast<double>(rng.uniformInt(5))});
        const auto comm = *CommMatrix::fromEntries(96, entries);
        const cost::AlphaBetaCost c(net, comm);
        std::vector<int> p(96);
        for (auto& s : p)
            s = static_cast<int>(rng.uniformInt(m));
        double current = c.evaluate(p);
        for (int step = 0; step < 2000; ++step) {
            if (step % 2 == 0) {
                const int q = static_cast<int>(rng.uniformInt(96));
                const int to = static_cast<int>(rng.uniformInt(m));
                const double delta = c.moveDelta(p, q, to);
                p[q] = to;
                const double after = c.evaluate(p);
                QVERIFY2(std::abs(after - current - delta) <= 1e-9 * after, "move delta differs from re-evaluation");
                current = after;
            } else {
                const int a = static_cast<int>(rng.uniformInt(96));
                const int b = static_cast<int>(rng.uniformInt(96));
                const double delta = c.swapDelta(p, a, b);
                std::swap(p[a], p[b]);
                const double after = c.evaluate(p);
                QVERIFY2(std::abs(after - current - delta) <= 1e-9 * after, "swap delta differs from re-evaluation");
                current = after;
            }
        }
    }

    void swapDeltaHandlesDirectlyCommunicatingPairs()
    {
        auto comm = *CommMatrix::fromEntries(2, {{0, 1, 3e6, 5}, {1, 0, 1e6, 1}});
        const cost::AlphaBetaCost c(twoSites(), comm);
        const std::vector<int> p = {0, 1};
        const std::vector<int> swapped = {1, 0};
        QVERIFY(std::abs(c.swapDelta(p, 0, 1) - (c.evaluate(swapped) - c.evaluate(p))) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestAlphaBetaCost)
#include "test_alpha_beta_cost.moc"
