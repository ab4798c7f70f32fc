#include "core/collectives/network_model.h"
#include "core/collectives/planner.h"
#include "core/model/network.h"
#include "core/model/topology.h"
#include "test_support.h"

#include <QtTest>

#include <cmath>

using namespace meridian;
using namespace meridian::collectives;

namespace {

/// `sites` sites of `nodes` one-slot nodes; every entry (inside a site and between sites) with the same latency
/// (ms) and bandwidth (MB/s), and each site's uplink and downlink `accessMBps` (NaN: derived).
struct Uniform {
    model::Topology topology;
    model::Network network;

    Uniform(int sites, int nodes, double latencyMs, double bandwidthMBps, double accessMBps = std::nan(""))
        : network(sites)
    {
        std::vector<model::Site> list;
        for (int s = 0; s < sites; ++s) {
            list.push_back(test::site(std::to_string(s).insert(0, 1, 's'), s, s, nodes, 1));
            list.back().uplinkMBps = accessMBps;
            list.back().downlinkMBps = accessMBps;
        }
        topology = *model::Topology::create(list);
        for (int a = 0; a < sites; ++a)
            for (int b = 0; b < sites; ++b) {
                network.set(model::NetworkQuantity::Latency, a, b, latencyMs);
                network.set(model::NetworkQuantity::Bandwidth, a, b, bandwidthMBps);
            }
    }
};

Layout onOwnNodes(const std::vector<int>& sites)
{
    Layout l;
    l.site = sites;
    for (std::size_t r = 0; r < sites.size(); ++r)
        l.node.push_back(static_cast<int>(r));
    return l;
}

double seconds(const Uniform& u, const Layout& layout, Operation op, Algorithm a, double bytes, int chunks = 1,
               int root = 0)
{
    CollectiveSpec spec{op, a, root, bytes, chunks, {}};
    auto s = buildSchedule(spec, layout, &u.network);
    if (!s)
        qFatal("%s", s.error().message.c_str());
    auto t = scheduleTime(*s, layout, u.topology, u.network);
    if (!t)
        qFatal("%s", t.error().message.c_str());
    return t->seconds;
}

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

} // namespace

class TestCollectivePlanner : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // On one uniform site (alpha 1 ms, 100 MB/s so beta 1e-8 s/B) with 8 processes on their own nodes, n = 1 MB,
    // the network model gives the algorithms' textbook times: a hop costs alpha + bytes beta, and a process sends
    // its next message once the previous one arrived.
    void timesOnAUniformNetworkAreTheTextbookOnes()
    {
        const Uniform u(1, 8, 1.0, 100.0);
        const Layout l = onOwnNodes(std::vector<int>(8, 0));
        const double alpha = 1e-3, beta = 1e-8, n = 1e6;
        QVERIFY(near(seconds(u, l, Operation::Broadcast, Algorithm::Flat, n), 7 * (alpha + n * beta)));
        QVERIFY(near(seconds(u, l, Operation::Broadcast, Algorithm::Mst, n), 3 * (alpha + n * beta)));
        // The chain in k chunks: the last chunk leaves the root after k - 1 hops' time and takes p - 1 hops.
        const int k = 10;
        QVERIFY(near(seconds(u, l, Operation::Broadcast, Algorithm::Chain, n, k), (k - 1 + 7) * (alpha + n / k * beta)));
        // Ring allreduce: 2 (p - 1) steps of n / p.
        QVERIFY(near(seconds(u, l, Operation::Allreduce, Algorithm::Ring, n), 14 * (alpha + n / 8 * beta)));
        // Recursive doubling: log2 p exchanges of n.
        QVERIFY(near(seconds(u, l, Operation::Allreduce, Algorithm::RecursiveDoubling, n), 3 * (alpha + n * beta)));
        // Reduce is the broadcast reversed: the same time for the binomial tree.
        QVERIFY(near(seconds(u, l, Operation::Reduce, Algorithm::Mst, n), 3 * (alpha + n * beta)));
    }

    // A node's concurrent sends share its interface, and a site's share its uplink.
    void concurrentMessagesShareTheirLinks()
    {
        const double n = 1e6;
        // Two processes on one node each send n to a process on another node, at once: the node's 100 MB/s is
        // shared, so both take 2 n beta.
        const Uniform u(1, 3, 0.0, 100.0);
        Layout sameNode{{0, 0, 0, 0}, {0, 0, 1, 2}};
        Schedule s;
        s.processes = 4;
        s.messages = {{0, 2, n, {}}, {1, 3, n, {}}};
        QVERIFY(near(scheduleTime(s, sameNode, u.topology, u.network)->seconds, 2 * n * 1e-8));
        // On their own nodes they do not share anything.
        Layout apart{{0, 0, 0, 0}, {0, 1, 2, 3}};
        const Uniform four(1, 4, 0.0, 100.0);
        QVERIFY(near(scheduleTime(s, apart, four.topology, four.network)->seconds, n * 1e-8));
        // Across sites whose uplink is 100 MB/s, two nodes sending to the other site share it.
        const Uniform twoSites(2, 2, 0.0, 100.0, 100.0);
        Layout across{{0, 0, 1, 1}, {0, 1, 2, 3}};
        QVERIFY(near(scheduleTime(s, across, twoSites.topology, twoSites.network)->seconds, 2 * n * 1e-8));
        // Processes on one node exchange through memory, at no cost.
        Schedule local;
        local.processes = 2;
        local.messages = {{0, 1, n, {}}};
        Layout oneNode{{0, 0}, {0, 0}};
        QCOMPARE(scheduleTime(local, oneNode, u.topology, u.network)->seconds, 0.0);
    }

    // Twister's Fig. 5 setting in small: the processes alternate between two racks whose uplinks carry one node's
    // bandwidth. The rank-order chain crosses the racks at every hop and its hops share the uplinks; the
    // topology-aware chain crosses once.
    void topologyAwareChainCrossesTheSitesOnce()
    {
        const Uniform u(2, 4, 0.1, 100.0, 100.0);
        const Layout l = onOwnNodes({0, 1, 0, 1, 0, 1, 0, 1});
        const auto order = topologyChainOrder(l, 0, u.network);
        QCOMPARE(order, (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
        const double n = 1e8;
        const double plain = seconds(u, l, Operation::Broadcast, Algorithm::Chain, n, 100);
        const double aware = seconds(u, l, Operation::Broadcast, Algorithm::TopologyChain, n, 100);
        QVERIFY2(plain > 3.0 * aware, qPrintable(QString("%1 vs %2").arg(plain).arg(aware)));
    }

    // The planner ranks the broadcasts: at 1 KB latency rules and the binomial tree wins, at 1 GB the chain does
    // (near n beta, whatever p); the sweep's bands say so, and the rules file names Open MPI's binomial (6) below
    // the switch and its pipeline (3) with a segment above.
    void ranksSweepsAndWritesRules()
    {
        const Uniform u(1, 16, 1.0, 125.0);
        const Layout l = onOwnNodes(std::vector<int>(16, 0));
        const PlanContext context{l, u.topology, u.network};
        PlanRequest request;
        request.bytes = 1024;
        auto small = rankAlgorithms(request, context);
        QVERIFY(small);
        QCOMPARE(small->results.front().algorithm, Algorithm::Mst);
        request.bytes = 1e9;
        auto large = rankAlgorithms(request, context);
        QVERIFY(large);
        QVERIFY(takesChunks(large->results.front().algorithm));
        QVERIFY(large->results.front().seconds < 1.2 * 1e9 / 125e6);
        QVERIFY(large->results.front().chunks > 1);

        auto sweep = sweepSizes(request, context, 1024, std::pow(2.0, 30));
        QVERIFY(sweep);
        QCOMPARE(sweep->sizes.size(), std::size_t{21});
        QCOMPARE(sweep->bands.front().algorithm, Algorithm::Mst);
        QVERIFY(takesChunks(sweep->bands.back().algorithm));
        std::vector<std::string> notes;
        auto rules = tunedRules(Operation::Broadcast, *sweep, 16, notes);
        QVERIFY(rules);
        const auto& r = rules->communicators.front().rules;
        QCOMPARE(rules->communicators.front().communicatorSize, 16);
        QCOMPARE(r.front().fromBytes, 0LL);
        QCOMPARE(r.front().algorithm, 6);
        QCOMPARE(r.back().algorithm, 3);
        QVERIFY(r.back().segmentBytes > 0);
        QVERIFY(collTunedRulesText({*rules}));
    }

    // Issue 31.11: a swept size beyond what Open MPI's rules hold is refused, in full digits (its cast to an
    // integer printed "-9223372036854775808").
    void tunedRulesRefuseSizesTheRulesCannotHold()
    {
        const auto ranked = [](Algorithm a) {
            Ranking r;
            AlgorithmTime t;
            t.algorithm = a;
            t.seconds = 1.0;
            r.results = {t};
            return r;
        };
        SizeSweep sweep;
        sweep.sizes = {1024.0, 1e19};
        sweep.rankings = {ranked(Algorithm::Mst), ranked(Algorithm::Mst)};
        std::vector<std::string> notes;
        auto rules = tunedRules(Operation::Broadcast, sweep, 16, notes);
        QVERIFY(!rules);
        QVERIFY2(rules.error().message.find("10000000000000000000 bytes is larger than Open MPI's rules can state")
                     != std::string::npos,
                 rules.error().message.c_str());
        sweep.sizes = {1024.0, 4096.0};
        QVERIFY(tunedRules(Operation::Broadcast, sweep, 16, notes));
    }

    // Under the twister model the times are Eq. 1-3 exactly, with k_opt for the chain.
    void twisterModelGivesTheEquations()
    {
        const Uniform u(1, 16, 1.0, 125.0);
        const Layout l = onOwnNodes(std::vector<int>(16, 0));
        PlanRequest request;
        request.bytes = 5e8;
        request.model = CostModel::Twister;
        auto ranking = rankAlgorithms(request, {l, u.topology, u.network});
        QVERIFY(ranking);
        const UniformLink link{1e-3, 1.0 / 125e6};
        for (const AlgorithmTime& t : ranking->results) {
            if (t.algorithm == Algorithm::Mst)
                QCOMPARE(t.seconds, *mstBroadcastSeconds(16, 5e8, link));
            if (t.algorithm == Algorithm::Bucket)
                QCOMPARE(t.seconds, *bucketBroadcastSeconds(16, 5e8, link));
            if (t.algorithm == Algorithm::Chain) {
                QCOMPARE(t.chunks, *optimalChunks(16, 5e8, link));
                QCOMPARE(t.seconds, *chainBroadcastSeconds(16, t.chunks, 5e8, link));
            }
        }
        QCOMPARE(ranking->skipped.size(), std::size_t{1}); // hierarchical: not in Twister's model
        request.operation = Operation::Allreduce;
        auto refused = rankAlgorithms(request, {l, u.topology, u.network});
        QVERIFY(!refused);
        QVERIFY(refused.error().message.find("broadcast only") != std::string::npos);
    }

    // Named algorithms must implement the operation and run on this process count; unnamed ones that cannot are
    // skipped with the reason.
    void refusesOrSkipsWhatCannotRun()
    {
        const Uniform u(2, 3, 1.0, 100.0);
        const Layout l = onOwnNodes({0, 0, 0, 1, 1, 1});
        const PlanContext context{l, u.topology, u.network};
        PlanRequest request;
        request.operation = Operation::Alltoall;
        request.bytes = 6000;
        auto ranking = rankAlgorithms(request, context);
        QVERIFY(ranking);
        QCOMPARE(ranking->skipped.size(), std::size_t{1});
        QCOMPARE(ranking->skipped.front().algorithm, Algorithm::Hypercube);
        request.algorithms = {Algorithm::Hypercube};
        QVERIFY(!rankAlgorithms(request, context));
        request.algorithms = {Algorithm::Chain};
        auto wrong = rankAlgorithms(request, context);
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().message,
                 std::string("chain does not implement alltoall; these do: flat, hypercube, "
                             "hierarchical"));
        request.algorithms = {Algorithm::Flat};
        request.chunks = 4;
        QVERIFY(rankAlgorithms(request, context).error().message.find("chunk count applies") != std::string::npos);
        request = {};
        request.bytes = 100;
        request.root = 6;
        QVERIFY(rankAlgorithms(request, context).error().message.find("the root 6") != std::string::npos);
        request.root = 0;
        QVERIFY(!sweepSizes(request, context, 0, 100));
        QVERIFY(!sweepSizes(request, context, 200, 100));
        std::vector<std::string> notes;
        request.operation = Operation::Shuffle;
        auto sweep = sweepSizes(request, context, 1024, 2048);
        QVERIFY(sweep);
        QVERIFY(!tunedRules(Operation::Shuffle, *sweep, 6, notes));
    }

    // The hierarchical broadcast sends one message per remote site across the wide area; the flat one sends one
    // per remote process.
    void hierarchicalCrossesTheWideAreaOncePerSite()
    {
        const Uniform u(3, 4, 10.0, 100.0);
        const Layout l = onOwnNodes({0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2});
        PlanRequest request;
        request.bytes = 1e6;
        request.algorithms = {Algorithm::Flat, Algorithm::Hierarchical};
        auto ranking = rankAlgorithms(request, {l, u.topology, u.network});
        QVERIFY(ranking);
        for (const AlgorithmTime& t : ranking->results)
            QCOMPARE(t.crossSiteBytes, (t.algorithm == Algorithm::Flat ? 8 : 2) * 1e6);
        auto sweep = sweepProcesses(request, {l, u.topology, u.network});
        QVERIFY(sweep);
        QCOMPARE(sweep->size(), std::size_t{4}); // 2, 4, 8 and 12 processes
        QCOMPARE(sweep->back().first, 12);
    }
};

QTEST_APPLESS_MAIN(TestCollectivePlanner)
#include "test_collective_planner.moc"
