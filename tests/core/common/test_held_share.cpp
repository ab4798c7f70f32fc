// What a streaming partitioner held when memory ran out, and the graph's vertices projected from it (Heaps' law).

#include "core/common/held_share.h"

#include <QTest>

#include <cmath>

using namespace meridian;

class TestHeldShare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void projectsTheVerticesByTheirGrowth()
    {
        QCOMPARE(held_share::projectedVertices(), 0.0); // nothing read yet
        // Vertices growing as the square root of the edges: the exponent fitted is 1/2.
        for (double edges = 1e3; edges <= 64e3; edges *= 2)
            held_share::set({edges / 1e6, 10.0 * std::sqrt(edges), edges});
        const HeldPoint last = held_share::last();
        QCOMPARE(last.edges, 64e3);
        // 64e3 of 1e6 edges read: the whole has sqrt(1e6 / 64e3) times the vertices read.
        QVERIFY(std::abs(held_share::projectedVertices() - 10.0 * std::sqrt(1e6)) < 1e-6 * 1e4);
        // A point between doublings is the last one; the fit goes back to one with at most half its edges.
        held_share::set({0.1, 10.0 * std::sqrt(1e5), 1e5});
        QVERIFY(std::abs(held_share::projectedVertices() - 10.0 * std::sqrt(1e6)) < 1e-6 * 1e4);
        // No new vertices lately: the exponent is 0, the vertices read are all.
        held_share::set({0.5, 10.0 * std::sqrt(64e3), 5e5});
        QCOMPARE(held_share::projectedVertices(), 10.0 * std::sqrt(64e3));
        // More vertices than edges would give: kept to a straight line from the share read.
        held_share::set({0.5, 1e9, 1e6});
        QCOMPARE(held_share::projectedVertices(), 2e9);
    }
};

QTEST_APPLESS_MAIN(TestHeldShare)
#include "test_held_share.moc"
