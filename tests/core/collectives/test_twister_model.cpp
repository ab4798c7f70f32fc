#include "core/collectives/twister_model.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace meridian;
using namespace meridian::collectives;

class TestTwisterModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Eq. 1-3 by hand: alpha 1 ms, beta 1e-8 s/B (100 MB/s), n = 1 MB.
    void equationsAsPrinted()
    {
        const UniformLink link{1e-3, 1e-8};
        // Eq. 1: ceil(log2 8) = 3 rounds of (0.001 + 0.01).
        QCOMPARE(*mstBroadcastSeconds(8, 1e6, link), 3 * (1e-3 + 1e6 * 1e-8));
        QCOMPARE(*mstBroadcastSeconds(9, 1e6, link), 4 * (1e-3 + 1e6 * 1e-8));
        QCOMPARE(*mstBroadcastSeconds(1, 1e6, link), 0.0);
        QCOMPARE(*mstBroadcastSeconds(1 << 20, 1e6, link), 20 * (1e-3 + 1e6 * 1e-8));
        // Eq. 2: (p + p - 1) steps of (alpha + n beta / p).
        QCOMPARE(*bucketBroadcastSeconds(4, 1e6, link), 4 * (1e-3 + 1e6 * 1e-8 / 4) + 3 * (1e-3 + 1e6 * 1e-8 / 4));
        // Eq. 3: (p + k - 1) steps of (alpha + n beta / k).
        QCOMPARE(*chainBroadcastSeconds(4, 10, 1e6, link), 4 * (1e-3 + 1e6 * 1e-8 / 10) + 9 * (1e-3 + 1e6 * 1e-8 / 10));
    }

    // Table 8's order of magnitude: a chain at 1 Gb/s moves 1 GB in about n beta = 8 s, growing only by the start-up
    // terms with p: at k_opt, Eq. 3 is (sqrt((p - 1) alpha) + sqrt(n beta))^2 (up to k being an integer); MST pays
    // log2 p full copies.
    void chainIsNearlyConstantInTheNodeCount()
    {
        const UniformLink link{1e-4, 8e-9};
        for (int p : {2, 16, 125, 1000}) {
            const int k = *optimalChunks(p, 1e9, link);
            const double chain = *chainBroadcastSeconds(p, k, 1e9, link);
            const double closed = std::pow(std::sqrt((p - 1) * link.alphaS) + std::sqrt(1e9 * link.betaSPerByte), 2.0);
            QVERIFY2(chain >= closed * (1.0 - 1e-12) && chain <= closed * (1.0 + 1e-6),
                     qPrintable(QString("p=%1: %2 s against %3 s").arg(p).arg(chain).arg(closed)));
            if (p <= 125)
                QVERIFY(chain < 8.0 * 1.1);
            if (p >= 16)
                QVERIFY(*mstBroadcastSeconds(p, 1e9, link) > 3.0 * chain);
        }
    }

    // k_opt is the best integer chunk count: checked against every k on small sizes, and against its neighbours.
    void optimalChunksMinimisesEquationThree()
    {
        for (const auto& [p, bytes, alpha, beta] : {std::tuple{5, 1000.0, 1e-3, 1e-5}, std::tuple{2, 50.0, 1e-2, 1e-6},
                                                    std::tuple{64, 4096.0, 1e-5, 1e-6}, std::tuple{3, 7.0, 1.0, 1.0}}) {
            const UniformLink link{alpha, beta};
            const int k = *optimalChunks(p, bytes, link);
            double best = std::numeric_limits<double>::infinity();
            int bestK = 0;
            for (int c = 1; c <= static_cast<int>(bytes); ++c)
                if (const double t = *chainBroadcastSeconds(p, c, bytes, link); t < best) {
                    best = t;
                    bestK = c;
                }
            QCOMPARE(k, bestK);
        }
        // Without a start-up cost every chunk helps: as many as the message has bytes.
        QCOMPARE(*optimalChunks(4, 1000.0, {0.0, 1e-8}), 1000);
        QCOMPARE(*optimalChunks(4, 1e12, {0.0, 1e-8}), 1 << 30);
    }

    void refusesWhatTheModelCannotTake()
    {
        const UniformLink link{1e-3, 1e-8};
        const auto says = [](const Expected<double>& r, const char* what) {
            return !r && QString::fromStdString(r.error().message).contains(what);
        };
        QVERIFY(says(mstBroadcastSeconds(0, 1e6, link), "node count"));
        QVERIFY(says(bucketBroadcastSeconds(4, 0.0, link), "message size"));
        QVERIFY(says(bucketBroadcastSeconds(4, -5.0, link), "message size"));
        QVERIFY(says(mstBroadcastSeconds(4, std::nan(""), link), "message size"));
        QVERIFY(says(mstBroadcastSeconds(4, 1e6, {-1.0, 1e-8}), "alpha"));
        QVERIFY(says(mstBroadcastSeconds(4, 1e6, {1e-3, std::numeric_limits<double>::infinity()}), "beta"));
        QVERIFY(says(chainBroadcastSeconds(4, 0, 1e6, link), "chunk count"));
        QVERIFY(says(chainBroadcastSeconds(4, 11, 10.0, link), "without a byte"));
        QVERIFY(!optimalChunks(4, 0.5, link));
    }
};

QTEST_GUILESS_MAIN(TestTwisterModel)
#include "test_twister_model.moc"
