#include "core/model/network.h"
#include "core/model/topology.h"

#include "test_support.h"

#include <QTest>

using namespace meridian::model;

class TestTopology : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void namesDefaultHostsAndCountsSlots()
    {
        auto t = Topology::create({meridian::test::site("a", 0, 0, 3, 2), meridian::test::site("b", 10, 10, 1, 8)});
        QVERIFY(t);
        QCOMPARE(t->siteCount(), 2);
        QCOMPARE(t->hostCount(), 4);
        QCOMPARE(t->host(0).name, std::string("a-00"));
        QCOMPARE(t->host(3).name, std::string("b-00"));
        QCOMPARE(t->capacity(0), 6);
        QCOMPARE(t->capacity(1), 8);
        QCOMPARE(t->totalCapacity(), 14);
        QCOMPARE(t->siteOfHost(3), 1);
        QCOMPARE(t->firstHost(1), 3);
        QCOMPARE(t->hostCountOf(0), 3);
        QCOMPARE(*t->siteIndex("b"), 1);
        QVERIFY(!t->siteIndex("c"));
        QCOMPARE(*t->hostIndex("a-02"), 2);
    }

    void keepsExplicitHostsWithTheirOwnSlots()
    {
        Site s = meridian::test::site("x", 0, 0, 99, 1, {Host{"big", 24}, Host{"small", 8}});
        auto t = Topology::create({s});
        QVERIFY(t);
        QCOMPARE(t->site(0).nodes, 2);
        QCOMPARE(t->capacity(0), 32);
    }

    void padsHostNumbersToThreeDigitsFromAHundredNodes()
    {
        QCOMPARE(Topology::defaultHostName("s", 7, 120), std::string("s-007"));
        QCOMPARE(Topology::defaultHostName("s", 7, 12), std::string("s-07"));
    }

    // Default hosts are valid host names made of the site's name (an RFC 1123 label), whatever the site is called.
    void defaultHostNamesAreValidHostNames()
    {
        QCOMPARE(Topology::defaultHostName("Washington DC", 0, 4), std::string("washington-dc-00"));
        QCOMPARE(Topology::defaultHostName("S\xc3\xa3o Paulo", 1, 4), std::string("sao-paulo-01"));
        QCOMPARE(Topology::defaultHostName("Z\xc3\xbcrich (eu-central-2)", 0, 1), std::string("zurich-eu-central-2-00"));
        QCOMPARE(Topology::defaultHostName("  beta, east  ", 3, 4), std::string("beta-east-03"));
        // No letter or digit to keep: a hash of the name, so two such sites still differ.
        const std::string tokyo = Topology::defaultHostName("\xe6\x9d\xb1\xe4\xba\xac", 0, 2);
        const std::string osaka = Topology::defaultHostName("\xe5\xa4\xa7\xe9\x98\xaa", 0, 2);
        QVERIFY(tokyo.rfind("site-", 0) == 0 && tokyo.size() == std::string("site-12345678-00").size());
        QVERIFY(tokyo != osaka);
        const std::string longName = Topology::defaultHostName(std::string(80, 'x') + " y", 5, 200);
        QCOMPARE(longName.size(), std::size_t(63));
        QVERIFY(longName.ends_with("-005"));
        for (const std::string& name : {tokyo, osaka, longName, Topology::defaultHostName("-a-", 0, 1)})
            QVERIFY2(Topology::hostNameProblem(name).empty(), name.c_str());
    }

    // What a rankfile (`rank N=host slot=S`) or a machinefile (`host:1`) cannot carry is refused, saying why.
    void hostNamesALauncherCannotTakeAreRefused()
    {
        for (const char* good : {"node02", "n-1.cluster.example.org", "gpu_03", "127.0.0.1", "a"})
            QVERIFY2(Topology::hostNameProblem(good).empty(), good);
        const std::pair<std::string, std::string> bad[] = {{"node 02", "it contains a space"},
                                                           {"a=b", "it contains '='"},
                                                           {"x,y", "it contains ','"},
                                                           {"h:4", "it contains ':'"},
                                                           {"-n", "it starts with '-'"},
                                                           {".n", "it starts with '.'"},
                                                           {"a..b", "it has an empty part between dots"},
                                                           {"n\xc3\xb6"
                                                            "de",
                                                            "it contains a character outside ASCII"},
                                                           {std::string(64, 'a'),
                                                            "a part between dots has 64 characters; at most 63"},
                                                           {"", "it is empty"}};
        for (const auto& [name, problem] : bad)
            QCOMPARE(Topology::hostNameProblem(name), problem);
        auto site = meridian::test::site("a", 0, 0, 1, 1, {Host{"node 02", 1}});
        auto refused = Topology::create({site});
        QVERIFY(!refused);
        QCOMPARE(refused.error().message,
                 std::string(
                     "site 'a': host name 'node 02' cannot go into a rankfile or hostfile: it contains a space; "
                     "expected letters, digits, '-', '_' and '.', not starting with '-' or '.' (a host name as "
                     "in RFC 1123)"));
    }

    // Placeholder hosts are told apart from named machines, and still answer to the names earlier versions gave
    // them; two sites whose names give the same hosts are refused with what to do.
    void placeholderHostsAreKnownAndAnswerToTheirOldNames()
    {
        auto t = Topology::create({meridian::test::site("Washington DC", 0, 0, 2, 1),
                                   meridian::test::site("lab", 0, 1, 1, 1, {Host{"node7", 2}})});
        QVERIFY(t);
        QVERIFY(t->isPlaceholderHost(0) && t->isPlaceholderHost(1) && !t->isPlaceholderHost(2));
        QCOMPARE(t->hostIndex("washington-dc-01"), std::optional<int>(1));
        QCOMPARE(t->hostIndex("Washington DC-01"), std::optional<int>(1));
        QCOMPARE(t->hostIndex("node7"), std::optional<int>(2));
        QCOMPARE(t->hostIndex("lab-00"), std::nullopt);
        auto twins = Topology::create(
            {meridian::test::site("Tokyo", 0, 0, 1, 1), meridian::test::site("tokyo", 1, 1, 1, 1)});
        QVERIFY(!twins);
        QVERIFY2(twins.error().message.find("host name 'tokyo-00' is used twice (its hosts are named after the site, "
                                            "as another site's are")
                     != std::string::npos,
                 twins.error().message.c_str());
    }

    void rejectsInvalidSites()
    {
        QVERIFY(!Topology::create({meridian::test::site("", 0, 0, 1, 1)}));
        QVERIFY(!Topology::create({meridian::test::site("a", 91, 0, 1, 1)}));
        QVERIFY(!Topology::create({meridian::test::site("a", 0, -181, 1, 1)}));
        QVERIFY(!Topology::create({meridian::test::site("a", 0, 0, 0, 1)}));
        QVERIFY(!Topology::create({meridian::test::site("a", 0, 0, 1, 0)}));
        auto negativeUplink = meridian::test::site("a", 0, 0, 1, 1);
        negativeUplink.uplinkMBps = -5.0;
        QVERIFY(!Topology::create({negativeUplink}));
        auto zeroDownlink = meridian::test::site("a", 0, 0, 1, 1);
        zeroDownlink.downlinkMBps = 0.0;
        QVERIFY(!Topology::create({zeroDownlink}));
        auto negativePrice = meridian::test::site("a", 0, 0, 1, 1);
        negativePrice.egressUsdPerGB = -0.1;
        QVERIFY(!Topology::create({negativePrice}));
        auto freeEgress = meridian::test::site("a", 0, 0, 1, 1);
        freeEgress.egressUsdPerGB = 0.0;
        QVERIFY(Topology::create({freeEgress}));
        // Finite values outside the physical ranges are refused, and the message states the range.
        const auto refused = [](void (*change)(Site&), const std::string& message) {
            auto s = meridian::test::site("a", 0, 0, 1, 1);
            change(s);
            const auto t = Topology::create({s});
            return !t && t.error().message == message;
        };
        QVERIFY(refused([](Site& s) { s.uplinkMBps = 1e-320; },
                        "site 'a': uplink bandwidth is 9.99989e-321; expected a number from 1.25e-07 MB/s (1 bit/s) to "
                        "1.25e+06 MB/s (10 Tbit/s) (or none)"));
        QVERIFY(refused([](Site& s) { s.downlinkMBps = 1e308; },
                        "site 'a': downlink bandwidth is 1e+308; expected a number from 1.25e-07 MB/s (1 bit/s) to "
                        "1.25e+06 MB/s (10 Tbit/s) (or none)"));
        QVERIFY(refused([](Site& s) { s.egressUsdPerGB = 1e6; },
                        "site 'a': egress price is 1e+06; expected a number from 0 to 1000 USD per GB (or none)"));
        QVERIFY(refused(
            [](Site& s) { s.instanceUsdPerHour = 1e300; },
            "site 'a': instance price is 1e+300; expected a number from 0 to 10000 USD per node-hour (or none)"));
        auto edges = meridian::test::site("a", 0, 0, 1, 1);
        edges.uplinkMBps = kMinBandwidthMBps;
        edges.downlinkMBps = kMaxBandwidthMBps;
        edges.egressUsdPerGB = Site::kMaxEgressUsdPerGB;
        edges.instanceUsdPerHour = Site::kMaxInstanceUsdPerHour;
        QVERIFY(Topology::create({edges}));
        auto dup = Topology::create({meridian::test::site("a", 0, 0, 1, 1), meridian::test::site("a", 1, 1, 1, 1)});
        QVERIFY(!dup);
        QVERIFY(dup.error().message.find("'a'") != std::string::npos);
        auto hostDup = Topology::create({meridian::test::site("a", 0, 0, 1, 1, {Host{"h", 1}}),
                                         meridian::test::site("b", 0, 0, 1, 1, {Host{"h", 1}})});
        QVERIFY(!hostDup);
    }

    void measuresGreatCircleDistances()
    {
        // One degree of longitude on the equator is 111.2 km on the mean-radius sphere.
        QVERIFY(std::abs(greatCircleKm(0, 0, 0, 1) - 111.195) < 0.01);
        // London - New York, about 5570 km.
        QVERIFY(std::abs(greatCircleKm(51.5074, -0.1278, 40.7128, -74.0060) - 5570) < 10);
        // Antipodes: half the circumference.
        QVERIFY(std::abs(greatCircleKm(0, 0, 0, 180) - 20015.1) < 1.0);
        QCOMPARE(greatCircleKm(10, 20, 10, 20), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestTopology)
#include "test_topology.moc"
