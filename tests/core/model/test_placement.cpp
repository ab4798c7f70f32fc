#include "core/model/placement.h"

#include "test_support.h"

#include <QTest>

using namespace meridian::model;

class TestPlacement : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reportsCapacitySlotAndPinViolations()
    {
        auto t = *Topology::create({meridian::test::site("a", 0, 0, 1, 2), meridian::test::site("b", 0, 1, 1, 2)});
        Placement p;
        p.site = {0, 0, 0, 1};
        p.host = {0, 0, -1, 1};
        p.slot = {0, 0, -1, 1};
        auto pins = *Constraints::fromPins({{3, 0}});
        const auto v = checkPlacement(p, t, pins);
        QCOMPARE(v.size(), std::size_t(3));
        QCOMPARE(v[0].kind, Violation::Kind::Capacity);
        QVERIFY(v[0].message.find("over by 1") != std::string::npos);
        QCOMPARE(v[1].kind, Violation::Kind::SlotConflict);
        QCOMPARE(v[2].kind, Violation::Kind::Pin);
        QVERIFY(!p.hasHosts());
        QCOMPARE(p.siteLoad(2), (std::vector<int>{3, 1}));
    }

    void acceptsAValidPlacement()
    {
        auto t = *Topology::create({meridian::test::site("a", 0, 0, 2, 1)});
        Placement p;
        p.site = {0, 0};
        p.host = {0, 1};
        p.slot = {0, 0};
        QVERIFY(checkPlacement(p, t, {}).empty());
        QVERIFY(p.hasHosts());
        QVERIFY(!Placement::fromSites({0, 0}).hasHosts());
    }

    void validatesPinsAgainstApplicationAndCapacity()
    {
        auto t = *Topology::create({meridian::test::site("a", 0, 0, 1, 1), meridian::test::site("b", 0, 1, 1, 3)});
        QVERIFY(!Constraints::fromPins({{0, 0}, {0, 1}}));
        QVERIFY(!Constraints::fromPins({{-2, 0}}));
        auto over = *Constraints::fromPins({{0, 0}, {1, 0}});
        const auto s = over.validate(4, t);
        QVERIFY(!s);
        QVERIFY(s.error().message.find("over by 1") != std::string::npos);
        auto beyond = *Constraints::fromPins({{9, 1}});
        QVERIFY(!beyond.validate(4, t));
        auto fine = *Constraints::fromPins({{2, 1}, {0, 0}});
        QVERIFY(fine.validate(4, t));
        QCOMPARE(fine.pins().front().process, 0);
        QCOMPARE(fine.siteVector(3), (std::vector<int>{0, -1, 1}));
    }
};

QTEST_GUILESS_MAIN(TestPlacement)
#include "test_placement.moc"
