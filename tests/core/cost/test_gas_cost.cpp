#include "core/common/random.h"
#include "core/cost/gas_cost.h"
#include "core/io/graph_io.h"
#include "core/io/sites_io.h"
#include "test_support.h"

#include <QtTest>

using namespace meridian;

namespace {

// Sites A (U 1 MB/s, D 2 MB/s, 0.1 USD/GB) and B (U 2, D 1, 0.2). Edges 0->1 at A, 2->1 and 1->3 at B;
// homes 0, 1 in A and 2, 3 in B. Only vertex 1 has a mirror (in B), and that mirror holds in-edge 2->1.
struct HandCase {
    model::Topology topology = *io::loadTopology(test::data("graphs/two_sites.csv"));
    model::Graph graph;
    model::EdgePartition partition;
    cost::GasNetwork network = *cost::GasNetwork::fromTopology(topology);
    HandCase()
    {
        graph.vertexCount = 4;
        graph.originalId = {0, 1, 2, 3};
        graph.src = {0, 2, 1};
        graph.dst = {1, 1, 3};
        partition.edgeSite = {0, 1, 1};
        partition.masterSite = {0, 0, 1, 1};
    }
};

/// `m` sites a, b, ... with uplinks, downlinks and prices that differ site by site.
cost::GasNetwork unevenSites(int m)
{
    std::vector<model::Site> s;
    for (int r = 0; r < m; ++r) {
        auto site = test::site(std::string(1, static_cast<char>('a' + r)), r, r, 1, 1);
        site.uplinkMBps = 100.0 + 50 * r;
        site.downlinkMBps = 400.0 - 30 * r;
        site.egressUsdPerGB = 0.02 * (r + 1);
        s.push_back(site);
    }
    return *cost::GasNetwork::fromTopology(*model::Topology::create(s));
}

/// Every edge and every master on a random one of `m` sites.
model::EdgePartition randomPartition(const model::Graph& graph, int m, Random& random)
{
    model::EdgePartition p;
    for (std::size_t e = 0; e < graph.edgeCount(); ++e)
        p.edgeSite.push_back(static_cast<std::uint8_t>(random.uniformInt(static_cast<std::uint64_t>(m))));
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        p.masterSite.push_back(static_cast<std::uint8_t>(random.uniformInt(static_cast<std::uint64_t>(m))));
    return p;
}

} // namespace

class TestGasCost : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pagerankMatchesAHandComputation()
    {
        HandCase h;
        const auto sizes = cost::vertexSizes(h.graph, *cost::TrafficProfile::fromId("pagerank"));
        const auto m = cost::evaluateGas(h.graph, h.partition, sizes, h.network);
        // Gather: B's mirror of 1 uploads 8 B (B up 2 MB/s -> 4 us), A downloads it (2 MB/s -> 4 us).
        // Apply: A's master of 1 uploads 8 B (1 MB/s -> 8 us), B downloads it (1 MB/s -> 8 us). T = 12 us.
        QCOMPARE(m.gatherSeconds, 4e-6);
        QCOMPARE(m.applySeconds, 8e-6);
        QCOMPARE(m.transferSeconds, 12e-6);
        // Cost: A uploads 8 B at 0.1 USD/GB, B uploads 8 B at 0.2 USD/GB: 2.4e-9 USD.
        QVERIFY(std::abs(m.wanUsd - 2.4e-9) < 1e-21);
        QCOMPARE(m.wanBytes, 16.0);
        QCOMPARE(m.replicationFactor, 1.25);
        QCOMPARE(m.uploadShare, (std::vector<double>{0.5, 0.5}));
        QCOMPARE(m.applyBottleneck, 0);
        QVERIFY(m.applyBottleneckUplink);
    }

    void trafficMatrixSplitsEachSitesUploadByReceiver()
    {
        HandCase h;
        for (const char* profile : {"pagerank", "subgraph-isomorphism"}) {
            const auto sizes = cost::vertexSizes(h.graph, *cost::TrafficProfile::fromId(profile));
            const auto m = cost::evaluateGas(h.graph, h.partition, sizes, h.network);
            const auto pairs = cost::gasTrafficMatrix(h.graph, h.partition, sizes, 2);
            // A's master of 1 sends its apply data to B; B's mirror gathers 2->1 back to A.
            QCOMPARE(pairs[0 * 2 + 1], m.applyUp[0]);
            QCOMPARE(pairs[1 * 2 + 0], m.gatherUp[1]);
            QCOMPARE(pairs[0], 0.0);
            QCOMPARE(pairs[3], 0.0);
            for (int r = 0; r < 2; ++r) {
                QCOMPARE(pairs[r * 2] + pairs[r * 2 + 1], m.gatherUp[r] + m.applyUp[r]);
                QCOMPARE(pairs[r] + pairs[2 + r], m.gatherDown[r] + m.applyDown[r]);
            }
        }
    }

    void subgraphIsomorphismBindsGatheredMessages()
    {
        HandCase h;
        const auto sizes = cost::vertexSizes(h.graph, *cost::TrafficProfile::fromId("subgraph-isomorphism"));
        // a_1 = 8 (1 + 2 in-edges) = 24; the B mirror of 1 gathers a_2 = 8 for in-edge 2->1.
        const auto m = cost::evaluateGas(h.graph, h.partition, sizes, h.network);
        QCOMPARE(m.gatherSeconds, 4e-6);
        QCOMPARE(m.applySeconds, 24e-6);
        QVERIFY(std::abs(m.wanUsd - 4.0e-9) < 1e-21);
    }

    void ssspScalesByTheActiveFraction()
    {
        HandCase h;
        const auto sizes = cost::vertexSizes(h.graph, *cost::TrafficProfile::fromId("sssp", 0.25));
        const auto m = cost::evaluateGas(h.graph, h.partition, sizes, h.network);
        QCOMPARE(m.transferSeconds, 3e-6);
        QVERIFY(!cost::TrafficProfile::fromId("sssp", 0.0));
        QVERIFY(!cost::TrafficProfile::fromId("bfs"));
    }

    void incrementalStateMatchesFullEvaluation()
    {
        auto graph = *io::readSnapGraph(test::data("graphs/Wiki-Vote.txt"));
        const auto net = unevenSites(5);
        for (const char* profile : {"pagerank", "subgraph-isomorphism"}) {
            const auto sizes = cost::vertexSizes(graph, *cost::TrafficProfile::fromId(profile));
            Random random(4);
            model::EdgePartition p = randomPartition(graph, 5, random);
            // Masters must be replicas: give each vertex an edge-free home replica (allowed) as master.
            cost::GasState state(graph, p, sizes, net);
            for (int k = 0; k < 2000; ++k)
                state.moveEdge(random.uniformInt(graph.edgeCount()), static_cast<int>(random.uniformInt(5)));
            const auto full = cost::evaluateGas(graph, p, sizes, net);
            const auto incremental = state.metrics();
            QVERIFY(std::abs(full.transferSeconds - incremental.transferSeconds) <= 1e-9 * full.transferSeconds);
            QVERIFY(std::abs(full.wanUsd - incremental.wanUsd) <= 1e-9 * full.wanUsd);
            QVERIFY(std::abs(full.replicationFactor - incremental.replicationFactor) < 1e-12);
        }
    }

    // predictMove reads a move's effect off the state without making it: after the move, the sum of squares and the
    // cost are what it said, and the stage times are at least what it said (it does not see a busiest link fall).
    void predictedMovesMatchMadeOnes()
    {
        auto graph = *io::readSnapGraph(test::data("graphs/Wiki-Vote.txt"));
        const auto net = unevenSites(4);
        const auto sizes = cost::vertexSizes(graph, *cost::TrafficProfile::fromId("sssp", 0.3));
        Random random(9);
        model::EdgePartition p = randomPartition(graph, 4, random);
        cost::GasState state(graph, p, sizes, net);
        QVERIFY(state.combines());
        for (int k = 0; k < 3000; ++k) {
            const std::size_t e = random.uniformInt(graph.edgeCount());
            const int to = static_cast<int>(random.uniformInt(4));
            const auto now = state.summary();
            const auto predicted = state.predictMove(e, graph.src[e], graph.dst[e], to, now);
            state.moveEdge(e, to);
            const auto made = state.summary();
            QVERIFY(std::abs(predicted.squares - made.squares) <= 1e-9 * made.squares);
            QVERIFY(std::abs(predicted.usd - made.usd) <= 1e-9 * made.usd);
            QVERIFY(predicted.gatherSeconds <= made.gatherSeconds * (1 + 1e-12)
                    || predicted.gatherSeconds == now.gatherSeconds);
            QVERIFY(predicted.applySeconds <= made.applySeconds * (1 + 1e-12)
                    || predicted.applySeconds == now.applySeconds);
        }
        const auto full = cost::evaluateGas(graph, p, sizes, net);
        QVERIFY(std::abs(full.transferSeconds - state.summary().transferSeconds()) <= 1e-9 * full.transferSeconds);
    }

    // A hub holding more than 2^16 edges on one site: its counts move to 32 bits without losing any, and moving its
    // edges away brings its replicas back exactly.
    void hubCountsPastSixteenBits()
    {
        model::Graph graph;
        const std::uint32_t leaves = 70000;
        graph.vertexCount = leaves + 1;
        for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
            graph.originalId.push_back(v);
        for (std::uint32_t v = 1; v <= leaves; ++v) {
            graph.src.push_back(v);
            graph.dst.push_back(0); // the hub is vertex 0, the target of every edge
        }
        const auto topo = *io::loadTopology(test::data("graphs/two_sites.csv"));
        const auto net = *cost::GasNetwork::fromTopology(topo);
        const auto sizes = cost::vertexSizes(graph, *cost::TrafficProfile::fromId("pagerank"));
        model::EdgePartition p;
        p.edgeSite.assign(graph.edgeCount(), 1);
        p.masterSite.assign(graph.vertexCount, 0);
        p.masterSite[0] = 0;
        cost::GasState state(graph, p, sizes, net);
        QCOMPARE(state.edgesAt(0, 1), leaves);
        QCOMPARE(state.inEdgesAt(0, 1), leaves);
        for (std::size_t e = 0; e < graph.edgeCount(); ++e)
            state.moveEdge(e, 0);
        QCOMPARE(state.edgesAt(0, 1), 0u);
        QCOMPARE(state.edgesAt(0, 0), leaves);
        QCOMPARE(state.replicaMask(0), std::uint64_t(1));
        const auto full = cost::evaluateGas(graph, p, sizes, net);
        QVERIFY(std::abs(full.wanUsd - state.wanUsd()) <= 1e-12 * full.wanUsd);
    }

    void sitesWithoutBandwidthOrPricesAreRefused()
    {
        auto topo = io::loadTopology(test::data("graphs/sites_no_downlink.csv"));
        QVERIFY(topo);
        auto n = cost::GasNetwork::fromTopology(*topo);
        QVERIFY(!n);
        QVERIFY2(n.error().message.find("site 'A' has no downlink") != std::string::npos, n.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestGasCost)
#include "test_gas_cost.moc"
