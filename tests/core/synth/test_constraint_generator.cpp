#include "core/synth/constraint_generator.h"

#include "test_support.h"

#include <QTest>

using namespace meridian;
using namespace meridian::model;

class TestConstraintGenerator : public QObject {
    Q_OBJECT
private:
    Topology m_topology = *Topology::create(
        {meridian::test::site("a", 0, 0, 2, 1), meridian::test::site("b", 0, 1, 30, 1)});

private Q_SLOTS:
    void pinsTheRequestedShareWithinCapacity()
    {
        for (std::uint64_t seed = 1; seed <= 50; ++seed) {
            auto c = synth::generateConstraints(30, 0.5, m_topology, seed);
            QVERIFY(c);
            QCOMPARE(c->size(), 15);
            QVERIFY(c->validate(30, m_topology));
        }
    }

    void sameSeedSamePins()
    {
        auto a = *synth::generateConstraints(32, 0.25, m_topology, 9);
        auto b = *synth::generateConstraints(32, 0.25, m_topology, 9);
        auto c = *synth::generateConstraints(32, 0.25, m_topology, 10);
        bool same = true, differs = false;
        for (int k = 0; k < a.size(); ++k) {
            same = same && a.pins()[k].process == b.pins()[k].process && a.pins()[k].site == b.pins()[k].site;
            differs = differs || a.pins()[k].process != c.pins()[k].process;
        }
        QVERIFY(same);
        QVERIFY(differs);
    }

    void rejectsBadRatiosAndTooManyProcesses()
    {
        QVERIFY(!synth::generateConstraints(10, -0.1, m_topology, 1));
        QVERIFY(!synth::generateConstraints(10, 1.5, m_topology, 1));
        QVERIFY(!synth::generateConstraints(33, 0.2, m_topology, 1));
        QCOMPARE(synth::generateConstraints(32, 1.0, m_topology, 1)->size(), 32);
        QCOMPARE(synth::generateConstraints(32, 0.0, m_topology, 1)->size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestConstraintGenerator)
#include "test_constraint_generator.moc"
