#include "core/model/comm_matrix.h"

#include <QTest>

using namespace meridian::model;

class TestCommMatrix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sumsDuplicatesAndSharesOnePatternForBothMatrices()
    {
        auto m = CommMatrix::fromEntries(3, {{0, 1, 100, 1}, {0, 1, 50, 2}, {2, 0, 0, 5}, {1, 2, 7, 0}});
        QVERIFY(m);
        QCOMPARE(m->processCount(), 3);
        QCOMPARE(m->nonZeros(), 3);
        QCOMPARE(m->volume().coeff(0, 1), 150.0);
        QCOMPARE(m->messages().coeff(0, 1), 3.0);
        QCOMPARE(m->messages().coeff(2, 0), 5.0);
        QCOMPARE(m->volume().nonZeros(), m->messages().nonZeros());
        QCOMPARE(m->totalBytes(), 157.0);
        QCOMPARE(m->totalMessages(), 8.0);
    }

    void transposesBothMatrices()
    {
        auto m = CommMatrix::fromEntries(3, {{0, 1, 100, 1}, {2, 0, 4, 5}});
        const auto t = m->transposed();
        QCOMPARE(t.volume().coeff(1, 0), 100.0);
        QCOMPARE(t.messages().coeff(0, 2), 5.0);
        QCOMPARE(t.entries().size(), std::size_t(2));
    }

    void countsEachProcessSentAndReceivedBytes()
    {
        auto m = CommMatrix::fromEntries(3, {{0, 1, 100, 1}, {1, 1, 10, 1}, {2, 0, 4, 1}});
        const auto v = m->processVolume();
        QCOMPARE(v[0], 104.0);
        QCOMPARE(v[1], 110.0);
        QCOMPARE(v[2], 4.0);
    }

    void rejectsBadEntries()
    {
        QVERIFY(!CommMatrix::fromEntries(2, {{0, 2, 1, 1}}));
        QVERIFY(!CommMatrix::fromEntries(2, {{-1, 0, 1, 1}}));
        QVERIFY(!CommMatrix::fromEntries(2, {{0, 1, -1, 1}}));
        QVERIFY(!CommMatrix::fromEntries(2, {{0, 1, 1, std::nan("")}}));
        QVERIFY(!CommMatrix::fromEntries(2, {{0, 1, INFINITY, 1}}));
    }

    void remembersWhetherMessagesWereGiven()
    {
        auto m = CommMatrix::fromEntries(2, {{0, 1, 10, 3}}, false);
        QVERIFY(!m->hasMessages());
        QCOMPARE(m->totalMessages(), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestCommMatrix)
#include "test_comm_matrix.moc"
