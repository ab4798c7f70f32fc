#include "core/collectives/network_model.h"
#include "core/cost/bottleneck_cost.h"
#include "core/sim/platform.h"
#include "core/sim/simulator.h"

#include "test_support.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace meridian;
using namespace meridian::model;

namespace {

/// Two sites of `nodes` one-slot hosts; site-pair latency 10 ms and 100 MB/s both ways, intra-site 0.5 ms and
/// 1000 MB/s. `upMBps` (when > 0) is site a's uplink.
struct TwoSites {
    Topology topology;
    Network network{2};

    explicit TwoSites(int nodes, double upMBps = 0.0)
    {
        Site a = test::site("a", 0, 0, nodes, 1);
        if (upMBps > 0.0)
            a.uplinkMBps = upMBps;
        topology = *Topology::create({a, test::site("b", 10, 10, nodes, 1)});
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                network.set(NetworkQuantity::Latency, i, j, i == j ? 0.5 : 10.0);
                network.set(NetworkQuantity::Bandwidth, i, j, i == j ? 1000.0 : 100.0);
            }
    }

    sim::SimPlatform platform() const { return *sim::buildPlatform(topology, network); }
    int host(int site, int k) const { return topology.firstHost(site) + k; }
};

sim::SimResult simulated(const sim::SimPlatform& platform, const std::vector<sim::Transfer>& transfers,
                         int iterations = 1)
{
    const Feedback feedback;
    auto r = sim::simulate(platform, transfers, {iterations}, FeedbackRange(feedback, 0.0, 1.0));
    if (!r)
        qFatal("simulate failed: %s", r.error().message.c_str());
    return *r;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

int linkNamed(const sim::SimPlatform& p, const std::string& id)
{
    for (int l = 0; l < static_cast<int>(p.links.size()); ++l)
        if (p.links[l].id == id)
            return l;
    return -1;
}

} // namespace

class TestSimulation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // A collective's schedule simulated by SimGrid: each message waits for what it needs, a process sends one at a
    // time. On links no two messages share, SimGrid's time is the network model's: the flat broadcast of 10^7 B
    // from a host of site a to 3 others of a and 4 of b takes 3 (0.5 ms + 10 ms) + 4 (10 ms + 100 ms); the binomial
    // tree and the pipelined chain the same in both.
    void collectiveSchedulesSimulateAsTheNetworkModelSays()
    {
        const TwoSites s(4);
        const auto platform = s.platform();
        collectives::Layout layout;
        Placement placement = Placement::fromSites({0, 0, 0, 0, 1, 1, 1, 1});
        for (int r = 0; r < 8; ++r) {
            placement.host[r] = s.host(r / 4, r % 4);
            placement.slot[r] = 0;
        }
        layout.site = placement.site;
        layout.node = placement.host;
        const auto timeOf = [&](collectives::Algorithm a, int chunks) {
            collectives::CollectiveSpec spec;
            spec.algorithm = a;
            spec.bytes = 1e7;
            spec.chunks = chunks;
            const auto schedule = *collectives::buildSchedule(spec, layout, &s.network);
            const double model = collectives::scheduleTime(schedule, layout, s.topology, s.network)->seconds;
            const double simulatedTime = simulated(platform, sim::scheduleTransfers(schedule, placement))
                                             .meanIterationSeconds;
            return std::pair{model, simulatedTime};
        };
        const auto [flatModel, flatSim] = timeOf(collectives::Algorithm::Flat, 1);
        QVERIFY(near(flatModel, 3 * (0.5e-3 + 1e7 / 1e9) + 4 * (10e-3 + 1e7 / 1e8)));
        QVERIFY2(std::abs(flatSim - flatModel) < 1e-6 * flatModel,
                 qPrintable(QString("%1 vs %2").arg(flatSim).arg(flatModel)));
        for (auto [a, k] : {std::pair{collectives::Algorithm::Mst, 1}, std::pair{collectives::Algorithm::Chain, 10}}) {
            const auto [model, simulatedTime] = timeOf(a, k);
            QVERIFY2(std::abs(simulatedTime - model) < 1e-6 * model,
                     qPrintable(QString("%1: %2 vs %3").arg(collectives::algorithmId(a)).arg(simulatedTime).arg(model)));
        }
    }

    void oneTransferAloneTakesLatencyPlusBytesOverBandwidth()
    {
        const TwoSites s(1);
        const auto r = simulated(s.platform(), {{0, 100, s.host(0, 0), s.host(1, 0), 1e8, 1, 0, {}}});
        QVERIFY2(near(r.meanIterationSeconds, 0.010 + 1e8 / 100e6), std::to_string(r.meanIterationSeconds).c_str());
        // Within a site: the diagonal.
        const TwoSites t(2);
        const auto intra = simulated(t.platform(), {{0, 100, t.host(0, 0), t.host(0, 1), 1e9, 1, 0, {}}});
        QVERIFY(near(intra.meanIterationSeconds, 0.0005 + 1e9 / 1000e6));
    }

    void messagesOfOneEntryGoOneAfterTheOther()
    {
        // 10 messages of 1 MB: each pays the latency, as in the alpha-beta cost.
        const TwoSites s(1);
        const auto r = simulated(s.platform(), {{0, 100, s.host(0, 0), s.host(1, 0), 1e7, 10, 0, {}}});
        QVERIFY(near(r.meanIterationSeconds, 10 * 0.010 + 1e7 / 100e6));
        QCOMPARE(r.messages, std::int64_t{10});
    }

    void flowsOfOneSiteShareItsUplinkAndThePairLink()
    {
        // Two processes of site a send 1e8 B each to site b at once: the site-pair link (100 MB/s) is shared.
        const TwoSites s(2);
        const auto platform = s.platform();
        const auto r = simulated(platform,
                                 {{0, 100, s.host(0, 0), s.host(1, 0), 1e8, 1, 0, {}},
                                  {1, 101, s.host(0, 1), s.host(1, 1), 1e8, 1, 0, {}}});
        QVERIFY(near(r.meanIterationSeconds, 0.010 + 2e8 / 100e6));
        const int pair = linkNamed(platform, "wan:a->b");
        QVERIFY(pair >= 0);
        QCOMPARE(r.links[pair].bytes, 2e8);
        QVERIFY(near(r.links[pair].busySeconds, r.meanIterationSeconds));
        QCOMPARE(r.bottlenecks(platform).front(), pair);
        // A given uplink of 50 MB/s is the bottleneck of a single flow.
        const TwoSites slow(1, 50.0);
        const auto p2 = slow.platform();
        const auto r2 = simulated(p2, {{0, 100, slow.host(0, 0), slow.host(1, 0), 1e8, 1, 0, {}}});
        QVERIFY(near(r2.meanIterationSeconds, 0.010 + 1e8 / 50e6));
        QCOMPARE(p2.links[r2.bottlenecks(p2).front()].id, std::string("up:a"));
        QVERIFY(near(r2.utilisation(p2, r2.bottlenecks(p2).front()), 1e8 / 50e6 / r2.meanIterationSeconds));
    }

    void theBusiestLinkBoundsTheSimulatedTime()
    {
        // 2e8 B from site a to b through a given 50 MB/s uplink: the uplink is the bottleneck (4 s), and the
        // simulation, where the two flows share it, takes that plus the latency.
        const TwoSites s(2, 50.0);
        Eigen::MatrixXd traffic = Eigen::MatrixXd::Zero(2, 2);
        traffic(0, 1) = 2e8;
        traffic(0, 0) = 1e12; // intra-site traffic is not contended
        const auto worst = cost::bottleneck(traffic, s.topology, s.network);
        QCOMPARE(worst.link, cost::Bottleneck::Link::Uplink);
        QCOMPARE(worst.from, 0);
        QVERIFY(near(worst.seconds, 4.0));
        const auto r = simulated(s.platform(),
                                 {{0, 100, s.host(0, 0), s.host(1, 0), 1e8, 1, 0, {}},
                                  {1, 101, s.host(0, 1), s.host(1, 1), 1e8, 1, 0, {}}});
        QVERIFY(near(r.meanIterationSeconds, 0.010 + worst.seconds));
        // Without a given uplink the pair link (100 MB/s) carries it; b's downlink is as fast, the pair comes first.
        const TwoSites open(2);
        const auto pair = cost::bottleneck(traffic, open.topology, open.network);
        QCOMPARE(pair.link, cost::Bottleneck::Link::SitePair);
        QVERIFY(near(pair.seconds, 2.0));
        QVERIFY(near(cost::accessBandwidthMBps(open.topology, open.network, 0, true), 100.0));
    }

    void theIntraSiteFabricDoesNotShare()
    {
        // Two flows inside site a at once take as long as one: the intra-site link is a fat pipe.
        const TwoSites s(4);
        const auto r = simulated(s.platform(),
                                 {{0, 100, s.host(0, 0), s.host(0, 1), 1e9, 1, 0, {}},
                                  {2, 102, s.host(0, 2), s.host(0, 3), 1e9, 1, 0, {}}});
        QVERIFY(near(r.meanIterationSeconds, 0.0005 + 1.0));
    }

    void iterationsRepeatTheSameTime()
    {
        const TwoSites s(1);
        const auto r = simulated(s.platform(), {{0, 100, s.host(0, 0), s.host(1, 0), 1e6, 2, 0, {}}}, 3);
        QCOMPARE(r.iterationSeconds.size(), std::size_t{3});
        for (double t : r.iterationSeconds)
            QVERIFY(near(t, 2 * 0.010 + 1e6 / 100e6));
        QCOMPARE(r.messages, std::int64_t{6});
    }

    void phasesRunOneAfterTheOther()
    {
        // The two flows of flowsOfOneSiteShareItsUplinkAndThePairLink, in two phases: each alone on the link, the
        // second after the first's barrier (2 x 1.01 s), where in one phase they share it (2.01 s).
        const TwoSites s(2);
        const auto platform = s.platform();
        std::vector<sim::Transfer> transfers = {{0, 100, s.host(0, 0), s.host(1, 0), 1e8, 1, 0, {}},
                                                {1, 101, s.host(0, 1), s.host(1, 1), 1e8, 1, 1, {}}};
        const auto r = simulated(platform, transfers, 2);
        QCOMPARE(r.phaseSeconds.size(), std::size_t{2});
        QVERIFY(near(r.phaseSeconds[0], 0.010 + 1e8 / 100e6));
        QVERIFY(near(r.phaseSeconds[1], 0.010 + 1e8 / 100e6));
        QVERIFY(near(r.meanIterationSeconds, r.phaseSeconds[0] + r.phaseSeconds[1]));
        const int pair = linkNamed(platform, "wan:a->b");
        QVERIFY(near(r.links[pair].busySeconds, r.meanIterationSeconds)); // busy in both phases
        transfers[1].phase = 0;
        const auto together = simulated(platform, transfers);
        QCOMPARE(together.phaseSeconds.size(), std::size_t{1});
        QVERIFY(near(together.meanIterationSeconds, 0.010 + 2e8 / 100e6));
        // phaseTransfers numbers the matrices' transfers by their position.
        const auto one = *model::CommMatrix::fromEntries(2, {{0, 1, 5.0, 1.0}});
        const auto two = *model::CommMatrix::fromEntries(2, {{1, 0, 7.0, 2.0}});
        model::Placement placement;
        placement.site = {0, 1};
        placement.host = {s.host(0, 0), s.host(1, 0)};
        placement.slot = {0, 0};
        const auto both = sim::phaseTransfers({one, two}, placement);
        QCOMPARE(both.size(), std::size_t{2});
        QCOMPARE(both[0].phase, 0);
        QCOMPARE(both[1].phase, 1);
        QCOMPARE(both[1].bytes, 7.0);
        QCOMPARE(both[1].messages, std::int64_t{2});
    }

    void hostLinksReplaceTheIntraSiteLinkForTheirPair()
    {
        TwoSites s(2);
        s.network.setHostLink(s.host(0, 0), s.host(0, 1), HostLink{2.0, 10.0, Provenance::Measured});
        const auto platform = s.platform();
        const auto r = simulated(platform, {{0, 100, s.host(0, 0), s.host(0, 1), 1e7, 1, 0, {}}});
        QVERIFY(near(r.meanIterationSeconds, 0.002 + 1e7 / 10e6));
        // The reverse direction has no host link: the intra-site entry.
        const auto back = simulated(platform, {{1, 101, s.host(0, 1), s.host(0, 0), 1e7, 1, 0, {}}});
        QVERIFY(near(back.meanIterationSeconds, 0.0005 + 1e7 / 1000e6));
        const std::string xml = sim::platformXml(platform);
        QVERIFY(xml.find("<link id=\"host:a-00->a-01\" bandwidth=\"10000000Bps\" latency=\"0.002s\"/>")
                != std::string::npos);
    }

    void transfersFollowThePlacementsHosts()
    {
        auto comm = *CommMatrix::fromEntries(3, {{0, 1, 100, 2}, {1, 2, 50, 0.4}, {2, 0, 0, 0}, {2, 2, 1e9, 9}});
        Placement p;
        p.site = {0, 0, 1};
        p.host = {0, 1, 2};
        p.slot = {0, 0, 0};
        const auto t = sim::iterationTransfers(comm, p);
        QCOMPARE(t.size(), std::size_t{2});
        QCOMPARE(t[0].fromHost, 0);
        QCOMPARE(t[0].toHost, 1);
        QCOMPARE(t[0].messages, std::int64_t{2});
        // A non-zero entry of fewer than half a message is still one message; 2 -> 2 (to itself) is left out.
        QCOMPARE(t[1].messages, std::int64_t{1});
    }

    void hostsAreFilledInProcessOrder()
    {
        auto topology = *Topology::create({test::site("a", 0, 0, 2, 2), test::site("b", 1, 1, 1, 1)});
        Placement p = Placement::fromSites({0, 0, 1, 0});
        p.host[1] = 0;
        p.slot[1] = 0;
        auto done = model::withHosts(p, topology);
        QVERIFY(done);
        QCOMPARE(done->host, (std::vector<int>{0, 0, 2, 1}));
        QCOMPARE(done->slot, (std::vector<int>{1, 0, 0, 0}));
        const auto full = model::withHosts(Placement::fromSites({1, 1}), topology);
        QVERIFY(!full);
        QVERIFY(full.error().message.find("site 'b' has 1 slots") != std::string::npos);
    }

    void refusesTooLargeASimulationBeforeStarting()
    {
        const TwoSites s(1);
        const Feedback feedback;
        const auto started = std::chrono::steady_clock::now();
        auto r = sim::simulate(s.platform(),
                               {{0, 100, s.host(0, 0), s.host(1, 0), 1e6, sim::kMaxSimulatedMessages, 0, {}}}, {2},
                               FeedbackRange(feedback, 0.0, 1.0));
        QVERIFY(!r);
        QVERIFY(r.error().message.find("over the limit of 20000000") != std::string::npos);
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
        QVERIFY(!sim::simulate(s.platform(), {}, {0}, FeedbackRange(feedback, 0.0, 1.0)));
    }

    void refusesAPlatformOverTheRouteLimit()
    {
        auto topology = *Topology::create({test::site("big", 0, 0, 3000, 1)});
        Network network(1);
        network.set(NetworkQuantity::Latency, 0, 0, 0.1);
        network.set(NetworkQuantity::Bandwidth, 0, 0, 1000);
        auto p = sim::buildPlatform(topology, network);
        QVERIFY(!p);
        QVERIFY(p.error().message.find("over the limit of 4000000") != std::string::npos);
        QVERIFY(!sim::buildPlatform(topology, Network(1)));
    }

    void cancelingStopsTheSimulation()
    {
        // Many small messages keep SimGrid busy; a cancel after 0.2 s stops it.
        const TwoSites s(8);
        std::vector<sim::Transfer> transfers;
        for (int i = 0; i < 8; ++i)
            transfers.push_back({i, 100 + i, s.host(0, i), s.host(1, i), 1e9, 2'000'000, 0, {}});
        std::atomic<bool> cancel{false};
        const Feedback feedback({}, [&] { return cancel.load(); });
        std::thread stopper([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel = true;
        });
        const auto started = std::chrono::steady_clock::now();
        auto r = sim::simulate(s.platform(), transfers, {1}, FeedbackRange(feedback, 0.0, 1.0));
        stopper.join();
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Canceled);
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    }

    void xmlNamesEscapeMarkup()
    {
        auto topology = *Topology::create({test::site("a&b", 0, 0, 1, 1)});
        Network network(1);
        network.set(NetworkQuantity::Latency, 0, 0, 0.1);
        network.set(NetworkQuantity::Bandwidth, 0, 0, 1000);
        const std::string xml = sim::platformXml(*sim::buildPlatform(topology, network));
        QVERIFY(xml.find("site:a&amp;b") != std::string::npos);
        QVERIFY(xml.find("a&b") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSimulation)
#include "test_simulation.moc"
