#include "core/cost/instance_metrics.h"

#include "test_support.h"

#include <QTest>

using namespace meridian;
using namespace meridian::model;

class TestInstanceMetrics : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void computesInterIntraAndCommTimeWithHostLinks()
    {
        // One site with three 2-slot hosts; site bandwidth 100 MB/s, host link h0 -> h1 at 10 MB/s.
        auto t = *Topology::create({meridian::test::site("s", 0, 0, 3, 2)});
        Network n(1);
        n.set(NetworkQuantity::Latency, 0, 0, 0.1);
        n.set(NetworkQuantity::Bandwidth, 0, 0, 100);
        n.setHostLink(0, 1, HostLink{1.0, 10.0, Provenance::Measured});
        auto comm = *CommMatrix::fromEntries(4,
                                             {{0, 1, 1e6, 1},
                                              {0, 2, 2e6, 2},
                                              {2, 0, 3e6, 3},
                                              {3, 3, 9e9, 9},
                                              {1, 3, 4e6, 4}});
        Placement p;
        p.site = {0, 0, 0, 0};
        p.host = {0, 0, 1, 2};
        p.slot = {0, 1, 0, 0};
        auto m = cost::instanceMetrics(p, t, n, comm);
        QVERIFY(m);
        // Intra: 0->1 on host 0. Inter: 0->2 (h0->h1), 2->0 (h1->h0), 1->3 (h0->h2); 3->3 is self.
        QCOMPARE(m->intraBytes, 1e6);
        QCOMPARE(m->interBytes, 9e6);
        QCOMPARE(m->intraMessages, 1.0);
        QCOMPARE(m->interMessages, 9.0);
        // 2e6 / 10 MB/s (host link) + 3e6 / 100 MB/s (no reverse link) + 4e6 / 100 MB/s.
        QVERIFY(std::abs(m->commTimeSeconds - (0.2 + 0.03 + 0.04)) < 1e-12);
    }

    void needsHosts()
    {
        auto t = *Topology::create({meridian::test::site("s", 0, 0, 1, 2)});
        Network n(1);
        n.set(NetworkQuantity::Latency, 0, 0, 0.1);
        n.set(NetworkQuantity::Bandwidth, 0, 0, 100);
        auto comm = *CommMatrix::fromEntries(2, {{0, 1, 1, 1}});
        QVERIFY(!cost::instanceMetrics(Placement::fromSites({0, 0}), t, n, comm));
    }
};

QTEST_GUILESS_MAIN(TestInstanceMetrics)
#include "test_instance_metrics.moc"
