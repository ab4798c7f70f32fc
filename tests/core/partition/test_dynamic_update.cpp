#include "partition_fixtures.h"

#include "core/common/random.h"
#include "core/partition/dynamic_update.h"
#include "core/partition/site_removal.h"

#include <QTemporaryDir>

using namespace meridian;
using namespace meridian::partition;

namespace {

/// Resolves the batch against the graph, then applies it (the two steps callers take).
Expected<UpdateStats> update(const PartitionProblem& problem, model::Graph& graph, model::EdgePartition& partition,
                             std::vector<int>& home, const EdgeIds& deletions, const EdgeIds& insertions,
                             const ParamValues& values, double threshold, std::uint64_t seed, const Feedback& feedback)
{
    auto batch = resolveBatch(graph, deletions, insertions, problem.siteCount(), seed);
    if (!batch)
        return batch.error();
    return applyUpdates(problem, graph, partition, home, *batch, values, threshold, seed, feedback);
}

} // namespace

class TestDynamicUpdate : public QObject {
    Q_OBJECT

    Registry<Partitioner> m_registry;

private Q_SLOTS:
    void initTestCase() { registerBuiltinPartitioners(m_registry); }

    void insertionsAndDeletionsStayConsistentWithAFreshEvaluation()
    {
        test::WikiVote wiki;
        // Hold back the last quarter of the edges and insert them later; delete a few early ones.
        model::Graph start = wiki.graph;
        const std::size_t keep = start.edgeCount() * 3 / 4;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> inserts, deletes;
        for (std::size_t e = keep; e < start.edgeCount(); ++e)
            inserts.emplace_back(start.originalId[start.src[e]], start.originalId[start.dst[e]]);
        inserts.emplace_back(90000001ull, 90000002ull); // two new vertices
        start.src.resize(keep);
        start.dst.resize(keep);
        for (std::size_t e = 0; e < 500; e += 5)
            deletes.emplace_back(start.originalId[start.src[e]], start.originalId[start.dst[e]]);
        const auto problem = *PartitionProblem::create(start, wiki.topology, *cost::TrafficProfile::fromId("pagerank"),
                                                       wiki.home, {});
        const Feedback feedback;
        auto initial = m_registry.find("geo-cut")->run(problem, 1, feedback);
        QVERIFY(initial);
        model::Graph graph = start;
        model::EdgePartition partition = initial->partition;
        std::vector<int> home = wiki.home;
        const auto values = ParamValues::defaults(m_registry.find("geo-cut")->parameters());
        auto stats = update(problem, graph, partition, home, deletes, inserts, values, 0.1, 3, feedback);
        QVERIFY2(stats, stats ? "" : stats.error().toString().c_str());
        QCOMPARE(stats->deleted, deletes.size());
        QCOMPARE(stats->inserted, inserts.size());
        QCOMPARE(stats->newVertices, std::size_t(2));
        QVERIFY(stats->refinements > 0);
        QCOMPARE(graph.edgeCount(), keep - deletes.size() + inserts.size());
        QCOMPARE(partition.edgeSite.size(), graph.edgeCount());
        QCOMPARE(partition.masterSite.size(), static_cast<std::size_t>(graph.vertexCount));

        // The graph alone, rebuilt from the batch without partitioning, is the one the update left.
        auto resolved = resolveBatch(start, deletes, inserts, wiki.topology.siteCount(), 3);
        QVERIFY(resolved);
        model::Graph rebuilt = start;
        std::vector<int> rebuiltHome = wiki.home;
        applyBatch(rebuilt, rebuiltHome, *resolved);
        QCOMPARE(rebuilt.vertexCount, graph.vertexCount);
        QVERIFY(rebuilt.src == graph.src && rebuilt.dst == graph.dst && rebuilt.originalId == graph.originalId);
        QVERIFY(rebuiltHome == home);

        // Write the updated partition, read it back as a new graph, and evaluate both from scratch.
        QTemporaryDir dir;
        const std::string e = dir.filePath("e.tsv").toStdString(), m = dir.filePath("m.tsv").toStdString();
        QVERIFY(io::writeEdgePartition(e, graph, partition, wiki.topology));
        QVERIFY(io::writeMasters(m, graph, partition, wiki.topology));
        auto back = io::readEdgePartition(e, wiki.topology);
        QVERIFY(back);
        QVERIFY(io::readMasters(m, back->first, wiki.topology, back->second));
        const auto sizes = cost::vertexSizes(graph, problem.profile);
        const auto updated = cost::evaluateGas(graph, partition, sizes, problem.network);
        const auto fresh = cost::evaluateGas(back->first, back->second, cost::vertexSizes(back->first, problem.profile),
                                             problem.network);
        QVERIFY(std::abs(updated.transferSeconds - fresh.transferSeconds) <= 1e-12 * fresh.transferSeconds);
        QVERIFY(std::abs(updated.wanUsd - fresh.wanUsd) <= 1e-12 * fresh.wanUsd);
        QCOMPARE(updated.replicationFactor, fresh.replicationFactor);
    }

    void deletingAMissingEdgeChangesNothing()
    {
        test::WikiVote wiki;
        const auto problem = wiki.problem();
        const Feedback feedback;
        auto initial = m_registry.find("hash")->run(problem, 1, feedback);
        model::Graph graph = wiki.graph;
        model::EdgePartition partition = initial->partition;
        std::vector<int> home = wiki.home;
        const auto before = partition.edgeSite;
        auto stats = update(problem, graph, partition, home, {{30, 1412}, {1, 999999}}, {},
                            ParamValues::defaults(m_registry.find("geo-cut")->parameters()), 0.1, 1, feedback);
        QVERIFY(!stats);
        QVERIFY2(stats.error().message.find("1 -> 999999") != std::string::npos, stats.error().message.c_str());
        QCOMPARE(partition.edgeSite, before);
        QCOMPARE(graph.edgeCount(), wiki.graph.edgeCount());
    }

    // Geo-Cut's removal of data centres: the removed sites end with no edge and no master (a master holds its
    // vertex's data, with or without edges there), and the result is close to partitioning the remaining sites
    // from scratch.
    void removingSitesReplacesWhatLivedThere()
    {
        test::WikiVote wiki;
        const auto problem = wiki.problem();
        const Feedback feedback;
        const auto* geoCut = m_registry.find("geo-cut");
        auto initial = geoCut->run(problem, 1, feedback);
        QVERIFY(initial);
        model::EdgePartition partition = initial->partition;
        const std::vector<int> removed{6, 7};
        std::size_t onRemoved = 0;
        for (auto s : partition.edgeSite)
            onRemoved += s >= 6 ? 1 : 0;
        QVERIFY(onRemoved > 0);
        const auto values = ParamValues::defaults(geoCut->parameters());
        auto stats = removeSites(problem, partition, removed, values, 1, feedback);
        QVERIFY2(stats, stats ? "" : stats.error().toString().c_str());
        QCOMPARE(stats->movedEdges, onRemoved);
        QVERIFY(stats->notes.front().find("removed 2 site(s)") != std::string::npos);
        for (std::size_t e = 0; e < wiki.graph.edgeCount(); ++e)
            QVERIFY(partition.edgeSite[e] < 6);
        for (std::uint32_t v = 0; v < wiki.graph.vertexCount; ++v)
            QVERIFY(partition.masterSite[v] < 6);
        // Against a fresh partition of the six remaining sites (the same homes where they remain).
        std::vector<model::Site> sites(wiki.topology.sites().begin(), wiki.topology.sites().begin() + 6);
        const auto six = *model::Topology::create(sites);
        std::vector<int> home = wiki.home;
        for (std::uint32_t v = 0; v < wiki.graph.vertexCount; ++v)
            home[v] = partition.masterSite[v];
        const auto fresh = *PartitionProblem::create(wiki.graph, six, problem.profile, home, {});
        const auto scratch = geoCut->run(fresh, 1, feedback);
        QVERIFY(scratch);
        const auto after = cost::evaluateGas(wiki.graph, partition, problem.sizes, problem.network);
        const auto base = cost::evaluateGas(wiki.graph, scratch->partition, fresh.sizes, fresh.network);
        QVERIFY2(after.transferSeconds < 1.5 * base.transferSeconds,
                 qPrintable(QString("%1 vs %2").arg(after.transferSeconds).arg(base.transferSeconds)));
        // Bad input changes nothing.
        const auto copy = partition;
        QVERIFY(!removeSites(problem, partition, {8}, values, 1, feedback));
        QVERIFY(!removeSites(problem, partition, {1, 1}, values, 1, feedback));
        QVERIFY(!removeSites(problem, partition, {0, 1, 2, 3, 4, 5, 6, 7}, values, 1, feedback));
        QCOMPARE(partition.edgeSite, copy.edgeSite);
    }
};

QTEST_GUILESS_MAIN(TestDynamicUpdate)
#include "test_dynamic_update.moc"
