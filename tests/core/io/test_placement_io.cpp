#include "core/io/placement_io.h"
#include "core/io/sites_io.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace meridian;
using namespace meridian::model;
using meridian::test::data;

class TestPlacementIo : public QObject {
    Q_OBJECT
private:
    Topology m_topology;

private Q_SLOTS:
    void initTestCase() { m_topology = *io::loadTopology(data("sites.csv")); }

    void readsPinsWithHeaderCommentsAndQuotedSites()
    {
        auto pins = io::readPinsCsv(data("pins.csv"), m_topology);
        QVERIFY2(pins, pins ? "" : pins.error().toString().c_str());
        QCOMPARE(pins->size(), 3);
        QCOMPARE(pins->pins()[1].process, 3);
        QCOMPARE(pins->pins()[1].site, 1);
    }

    void rejectsBrokenPins()
    {
        MERIDIAN_VERIFY_ERROR(io::readPinsCsv(data("pins_unknown_site.csv"), m_topology), "pins_unknown_site.csv", 2, 3,
                              "'delta'");
        MERIDIAN_VERIFY_ERROR(io::readPinsCsv(data("pins_over_capacity.csv"), m_topology), "pins_over_capacity.csv", 5,
                              3, "has 4 slots");
        MERIDIAN_VERIFY_ERROR(io::readPinsCsv(data("pins_duplicate.csv"), m_topology), "pins_duplicate.csv", 2, 1,
                              "already pinned on line 1");
        MERIDIAN_VERIFY_ERROR(io::readPinsCsv(data("pins_bad_process.csv"), m_topology), "pins_bad_process.csv", 2, 1,
                              "'-1'");
    }

    // Issue 31: a site name that is not UTF-8 is refused as such, not as an unknown site.
    void refusesASiteNameThatIsNotUtf8()
    {
        MERIDIAN_VERIFY_ERROR(io::readPinsCsv(data("regressions/pins_site_not_utf8.csv"), m_topology),
                              "pins_site_not_utf8.csv", 3, 4, "expected a site name in UTF-8, found 'b\\xE9ta'");
    }

    // Issue 31.10: a byte-order mark before the first line of pins or a mapping is skipped.
    void skipsAByteOrderMark()
    {
        QTemporaryDir dir;
        const auto withMark = [&](const std::string& from, const QString& name) {
            QFile in(QString::fromStdString(data(from)));
            QFile out(dir.filePath(name));
            in.open(QIODevice::ReadOnly);
            out.open(QIODevice::WriteOnly);
            out.write("\xEF\xBB\xBF" + in.readAll());
            return dir.filePath(name).toStdString();
        };
        auto pins = io::readPinsCsv(withMark("pins.csv", "pins.csv"), m_topology);
        QVERIFY2(pins, pins ? "" : pins.error().toString().c_str());
        QCOMPARE(pins->size(), 3);
        auto mapping = io::readMappingCsv(withMark("mapping.csv", "mapping.csv"), m_topology, 3);
        QVERIFY2(mapping, mapping ? "" : mapping.error().toString().c_str());
        QCOMPARE(mapping->site, (std::vector<int>{0, 1, 2}));
        MERIDIAN_VERIFY_ERROR(io::readPinsCsv(withMark("pins_unknown_site.csv", "unknown.csv"), m_topology),
                              "unknown.csv", 2, 3, "'delta'");
    }

    void readsMappingsInAnyOrder()
    {
        auto p = io::readMappingCsv(data("mapping.csv"), m_topology, 3);
        QVERIFY2(p, p ? "" : p.error().toString().c_str());
        QCOMPARE(p->site, (std::vector<int>{0, 1, 2}));
        QCOMPARE(p->host[1], *m_topology.hostIndex("beta, east-00"));
        QCOMPARE(p->slot[2], 1);
        QVERIFY(p->hasHosts());
        auto sitesOnly = io::readMappingCsv(data("mapping_sites_only.csv"), m_topology);
        QVERIFY(sitesOnly);
        QVERIFY(!sitesOnly->hasHosts());
        // Site-level lines in the pins format: process,site.
        auto twoFields = io::readMappingCsv(data("mapping_site_level.csv"), m_topology, 3);
        QVERIFY2(twoFields, twoFields ? "" : twoFields.error().toString().c_str());
        QCOMPARE(twoFields->site, (std::vector<int>{0, 2, 1}));
        QCOMPARE(twoFields->host, (std::vector<int>{-1, -1, -1}));
        QVERIFY(!twoFields->hasHosts());
    }

    void rejectsBrokenMappings()
    {
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping_gap.csv"), m_topology), "mapping_gap.csv", 2, -1,
                              "process 1 is missing");
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping_duplicate.csv"), m_topology), "mapping_duplicate.csv", 3,
                              1, "already mapped on line 2");
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping_wrong_host_site.csv"), m_topology),
                              "mapping_wrong_host_site.csv", 1, 9, "is in site 'gamma'");
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping_bad_slot.csv"), m_topology), "mapping_bad_slot.csv", 1,
                              18, "between 0 and 1");
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping_ragged.csv"), m_topology), "mapping_ragged.csv", 1, 1,
                              "expected 'process,site,host,slot' or a site-level 'process,site', found 3 fields");
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping_half_host.csv"), m_topology), "mapping_half_host.csv", 1,
                              18, "both a host and a slot");
        MERIDIAN_VERIFY_ERROR(io::readMappingCsv(data("mapping.csv"), m_topology, 4), "mapping.csv", 4, -1,
                              "application has 4");
    }

    void roundTripsMappingsAndPins()
    {
        QTemporaryDir dir;
        auto p = *io::readMappingCsv(data("mapping.csv"), m_topology);
        const std::string path = dir.filePath("m.csv").toStdString();
        QVERIFY(io::writeMappingCsv(path, p, m_topology));
        auto back = io::readMappingCsv(path, m_topology);
        QVERIFY(back);
        QCOMPARE(back->site, p.site);
        QCOMPARE(back->host, p.host);
        QCOMPARE(back->slot, p.slot);
        auto pins = *io::readPinsCsv(data("pins.csv"), m_topology);
        const std::string pinPath = dir.filePath("p.csv").toStdString();
        QVERIFY(io::writePinsCsv(pinPath, pins, m_topology));
        auto pinsBack = io::readPinsCsv(pinPath, m_topology);
        QVERIFY(pinsBack);
        QCOMPARE(pinsBack->size(), pins.size());
        QCOMPARE(pinsBack->pins()[1].site, pins.pins()[1].site);
    }
};

QTEST_GUILESS_MAIN(TestPlacementIo)
#include "test_placement_io.moc"
