#include "widgets/world_outline.h"

#include <QTest>

#include <cmath>

using namespace meridian::widgets;

class TestWorldOutline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void decodesTheBuiltInNaturalEarthLand()
    {
        const auto& world = WorldOutline::builtin();
        QCOMPARE(world.arcCount, 130);
        QCOMPARE(world.polygonCount, 125);
        QCOMPARE(world.pointCount, 5129);
        // Rings drop the endpoint each arc shares with the previous one: 5,123 points.
        int ringPoints = 0;
        for (const auto& ring : world.rings)
            ringPoints += static_cast<int>(ring.size());
        QCOMPARE(ringPoints - 2 * world.poleClosedRings, 5123);
        // Antarctica, Fiji, Russia and Wrangel Island cross the antimeridian.
        QCOMPARE(world.unwrappedRings, 4);
        // Only Antarctica goes round a pole.
        QCOMPARE(world.poleClosedRings, 1);
    }

    void leavesNoJumpAcrossTheAntimeridian()
    {
        for (const auto& ring : WorldOutline::builtin().rings)
            for (int k = 1; k < ring.size(); ++k)
                if (std::abs(ring[k].y()) != 90.0 || std::abs(ring[k - 1].y()) != 90.0) // the pole's closing edge
                    QVERIFY2(std::abs(ring[k].x() - ring[k - 1].x()) <= 180.0, "a ring jumps across the antimeridian");
    }

    void closesAntarcticaThroughTheSouthPole()
    {
        bool found = false;
        for (const auto& ring : WorldOutline::builtin().rings)
            if (ring.back().y() == -90.0 && ring[ring.size() - 2].y() == -90.0)
                found = true;
        QVERIFY(found);
    }

    void decodesQuantizedArcsAndReversedRings()
    {
        // Two arcs: (0,0)->(10,0)->(10,10) and back (10,10)->(0,10)->(0,0), quantized with scale 1.
        const QByteArray json = R"({"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},
            "arcs":[[[0,0],[10,0],[0,10]],[[10,10],[-10,0],[0,-10]]],
            "objects":{"land":{"type":"GeometryCollection","geometries":[{"type":"Polygon","arcs":[[0,1]]}]}}})";
        auto outline = WorldOutline::fromTopoJson(json, "inline");
        QVERIFY(outline);
        QCOMPARE(outline->rings.size(), std::size_t(1));
        const QPolygonF expected{{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}};
        QCOMPARE(outline->rings[0], expected);
        // ~1 is arc 1 reversed.
        const QByteArray reversed = QByteArray(json).replace("[[0,1]]", "[[~1]]").replace("~1", "-2");
        auto r = WorldOutline::fromTopoJson(reversed, "inline");
        QVERIFY(r);
        QCOMPARE(r->rings[0].front(), QPointF(0, 0));
        QCOMPARE(r->rings[0].back(), QPointF(10, 10));
    }

    void reportsBrokenInputWithTheLine()
    {
        auto bad = WorldOutline::fromTopoJson("{\n\"type\": \"Topology\",\n oops }", "land.json");
        QVERIFY(!bad);
        QCOMPARE(bad.error().where.file, std::string("land.json"));
        QCOMPARE(bad.error().where.line, 3);
        auto notTopology = WorldOutline::fromTopoJson(R"({"type":"FeatureCollection"})", "x.json");
        QVERIFY(!notTopology);
        QVERIFY(notTopology.error().message.find("Topology") != std::string::npos);
    }
};

QTEST_MAIN(TestWorldOutline)
#include "test_world_outline.moc"
