#include "core/cost/pareto_front.h"

#include <QTest>

#include <cmath>

using meridian::cost::paretoFront;

class TestParetoFront : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keepsThePointsNoOtherBeatsInBothCoordinates()
    {
        using P = std::pair<double, double>;
        const std::vector<P> points{{1, 9}, {2, 5}, {3, 6}, {4, 2}, {5, 2}, {6, 1}, {2, 5}, {NAN, 0}};
        // (3, 6) is beaten by (2, 5); (5, 2) by (4, 2); the duplicate (2, 5) stays; NaN is ignored.
        QCOMPARE(paretoFront(points), (std::vector<std::size_t>{0, 1, 6, 3, 5}));
    }

    void handlesEmptyAndSingleInputs()
    {
        QVERIFY(paretoFront({}).empty());
        QCOMPARE(paretoFront({{1, 1}}), std::vector<std::size_t>{0});
        QVERIFY(paretoFront({{NAN, 1}, {1, NAN}}).empty());
    }

    void aDiagonalIsAllFrontAndADominatedCornerIsNot()
    {
        QCOMPARE(paretoFront({{3, 1}, {1, 3}, {2, 2}}), (std::vector<std::size_t>{1, 2, 0}));
        QCOMPARE(paretoFront({{2, 2}, {1, 1}}), std::vector<std::size_t>{1});
    }
};

QTEST_GUILESS_MAIN(TestParetoFront)
#include "test_pareto_front.moc"
