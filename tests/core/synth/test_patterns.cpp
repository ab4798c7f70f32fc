#include "core/synth/patterns.h"

#include <QTest>

#include <set>

using namespace meridian;
using namespace meridian::synth;

namespace {

std::set<int> partnersOf(const model::CommMatrix& m, int p)
{
    std::set<int> out;
    for (const auto& e : m.entries())
        if (e.from == p)
            out.insert(e.to);
    return out;
}

std::set<double> messageSizes(const model::CommMatrix& m, int iterations)
{
    std::set<double> sizes;
    for (const auto& e : m.entries())
        sizes.insert(e.bytes / iterations);
    return sizes;
}

} // namespace

class TestPatterns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void luCornerProcessTalksToItsTwoGridNeighbours()
    {
        auto lu = generatePattern(Pattern::LU, {.processes = 64, .iterations = 1});
        QVERIFY(lu);
        QCOMPARE(partnersOf(*lu, 0), (std::set<int>{1, 8}));
        QCOMPARE(partnersOf(*lu, 9), (std::set<int>{1, 8, 10, 17}));
        // Each neighbour gets one 43 KB and one 83 KB message per iteration.
        QCOMPARE(lu->volume().coeff(0, 1), 126e3);
        QCOMPARE(lu->messages().coeff(0, 1), 2.0);
        // 8 x 8 grid: 2 x 8 x 7 undirected neighbour pairs, both directions.
        QCOMPARE(lu->nonZeros(), 224);
    }

    void luUsesTheTwoMessageSizesOfTheSc17Profile()
    {
        auto lu = *generatePattern(Pattern::LU, {.processes = 64, .iterations = 250});
        for (const auto& e : lu.entries())
            QCOMPARE(e.bytes / e.messages, (43e3 + 83e3) / 2.0);
        QCOMPARE(messageSizes(lu, 250), (std::set<double>{126e3}));
    }

    void btAndSpNeedSquaresAndTalkToSixPartners()
    {
        QVERIFY(!generatePattern(Pattern::BT, {.processes = 48}));
        auto bt = generatePattern(Pattern::BT, {.processes = 64});
        QVERIFY(bt);
        for (int p : {0, 27, 63})
            QCOMPARE(partnersOf(*bt, p).size(), std::size_t(6));
        QVERIFY(generatePattern(Pattern::SP, {.processes = 16}));
    }

    void cgNeedsAPowerOfTwoAndStaysSymmetric()
    {
        QVERIFY(!generatePattern(Pattern::CG, {.processes = 48}));
        for (int n : {16, 32, 64}) {
            auto cg = generatePattern(Pattern::CG, {.processes = n});
            QVERIFY(cg);
            const auto t = cg->transposed();
            QCOMPARE(t.nonZeros(), cg->nonZeros());
            for (const auto& e : cg->entries())
                QCOMPARE(t.volume().coeff(e.from, e.to), e.bytes);
        }
    }

    void ftIsAllToAll()
    {
        auto ft = *generatePattern(Pattern::FT, {.processes = 16, .iterations = 1});
        QCOMPARE(ft.nonZeros(), 16 * 15);
        QCOMPARE(ft.volume().coeff(3, 7), 512.0 * 512 * 512 * 16 / 256);
    }

    void mgHasSixNeighboursOnACube()
    {
        auto mg = *generatePattern(Pattern::MG, {.processes = 64});
        QCOMPARE(partnersOf(mg, 21).size(), std::size_t(6));
    }

    void kmeansAndDnnFollowTheirCollectives()
    {
        auto km = *generatePattern(Pattern::KMeans, {.processes = 8, .iterations = 1, .clusters = 4, .dimensions = 2});
        // Recursive doubling: 3 partners each; plus the binomial broadcast from 0 (0 -> 1, 2, 4).
        QCOMPARE(partnersOf(km, 5), (std::set<int>{1, 4, 7}));
        QCOMPARE(km.volume().coeff(0, 1), (4 * 2 * 8 + 4 * 8) + 4 * 2 * 8.0);
        auto ps = *generatePattern(Pattern::DNN, {.processes = 5, .iterations = 1, .messageBytes = 1000});
        QCOMPARE(partnersOf(ps, 0), (std::set<int>{1, 2, 3, 4}));
        QCOMPARE(partnersOf(ps, 3), (std::set<int>{0}));
        auto ring = *generatePattern(Pattern::DNN,
                                     {.processes = 5,
                                      .iterations = 1,
                                      .messageBytes = 1000,
                                      .dnnExchange = DnnExchange::RingAllreduce});
        QCOMPARE(partnersOf(ring, 4), (std::set<int>{0}));
        QCOMPARE(ring.messages().coeff(4, 0), 8.0);
        QCOMPARE(ring.volume().coeff(4, 0), 8.0 * 200);
    }

    void rejectsUnsuitableParameters()
    {
        QVERIFY(!generatePattern(Pattern::LU, {.processes = 1}));
        QVERIFY(!generatePattern(Pattern::LU, {.processes = 8, .iterations = 0}));
        QVERIFY(!generatePattern(Pattern::LU, {.processes = 8, .messageBytes = -5}));
        QVERIFY(!generatePattern(Pattern::KMeans, {.processes = 8, .clusters = 0}));
        QVERIFY(!generatePattern(Pattern::MG, {.processes = 8, .levels = 0}));
        QVERIFY(!generatePattern(Pattern::FT, {.processes = 5000}));
        QVERIFY(!generatePattern(Pattern::LU, {.processes = (1 << 20) + 1}));
    }

    void everyPatternHasAnIdAndADescription()
    {
        for (auto p : allPatterns()) {
            QCOMPARE(*patternFromId(patternId(p)), p);
            QVERIFY(!describePattern(p).empty());
        }
        QVERIFY(!patternFromId("nope"));
        QCOMPARE(grid2d(48), std::make_pair(6, 8));
        QCOMPARE(grid2d(7), std::make_pair(1, 7));
    }
};

QTEST_GUILESS_MAIN(TestPatterns)
#include "test_patterns.moc"
