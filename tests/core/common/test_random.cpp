#include "core/common/random.h"

#include <QTest>

#include <numeric>

using meridian::Random;

class TestRandom : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameSeedGivesSameSequence()
    {
        Random a(42), b(42), c(43);
        bool differs = false;
        for (int i = 0; i < 100; ++i) {
            const auto x = a.next();
            QCOMPARE(x, b.next());
            differs = differs || x != c.next();
        }
        QVERIFY(differs);
    }

    void uniformIntStaysInRangeAndCoversIt()
    {
        Random r(7);
        std::vector<int> counts(10, 0);
        for (int i = 0; i < 100000; ++i) {
            const auto v = r.uniformInt(10);
            QVERIFY(v < 10);
            ++counts[v];
        }
        for (int c : counts)
            QVERIFY2(c > 9000 && c < 11000, "a value is drawn far from 1/10 of the time");
    }

    void uniform01IsInUnitInterval()
    {
        Random r(1);
        double sum = 0;
        for (int i = 0; i < 10000; ++i) {
            const double u = r.uniform01();
            QVERIFY(u >= 0.0 && u < 1.0);
            sum += u;
        }
        QVERIFY(std::abs(sum / 10000 - 0.5) < 0.02);
    }

    void shuffleIsAPermutation()
    {
        Random r(3);
        std::vector<int> v(50);
        std::iota(v.begin(), v.end(), 0);
        r.shuffle(v);
        std::vector<int> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < 50; ++i)
            QCOMPARE(sorted[i], i);
        QVERIFY(v != sorted);
    }
};

QTEST_GUILESS_MAIN(TestRandom)
#include "test_random.moc"
