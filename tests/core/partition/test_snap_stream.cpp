#include "partition_fixtures.h"
#include "thread_ranks.h"

#include "core/common/held_share.h"
#include "core/io/edge_partition_io.h"
#include "core/io/graph_io.h"
#include "core/partition/snap_stream.h"

#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <optional>

using namespace meridian;
using namespace meridian::partition;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// Runs workers one after the other on the calling thread, the offered ones first or never.
class SerialExecutor final : public Executor {
public:
    explicit SerialExecutor(bool offeredRun)
        : m_offeredRun(offeredRun)
    {}
    int concurrency() const override { return 2; }
    void shareWork(int workers, const Worker& worker) override
    {
        if (m_offeredRun)
            for (int w = workers - 1; w >= 1; --w)
                worker(w);
        worker(0);
    }

private:
    bool m_offeredRun;
};

std::size_t temporariesIn(const std::string& folder)
{
    std::size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        n += entry.path().filename().string().find(".part-") != std::string::npos ? 1 : 0;
    return n;
}

} // namespace

class TestSnapStream : public QObject {
    Q_OBJECT

    test::WikiVote m_wiki;
    QTemporaryDir m_dir;

    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

    SnapStreamRequest request(const std::string& algorithm, const std::string& graph, const char* profile = "pagerank")
    {
        Registry<Partitioner> registry;
        registerBuiltinPartitioners(registry);
        SnapStreamRequest r;
        r.graphPath = graph;
        r.edgesPath = path("stream.E.tsv");
        r.mastersPath = path("stream.M.tsv");
        r.topology = &m_wiki.topology;
        r.profile = *cost::TrafficProfile::fromId(profile, 0.25);
        r.algorithm = algorithm;
        r.values = ParamValues::defaults(registry.find(algorithm)->parameters());
        r.seed = 3;
        r.homesSeed = 3;
        r.chunkBytes = 4096; // Wiki-Vote's 1 MB in some 270 chunks: every slot is reused many times
        return r;
    }

private Q_SLOTS:
    // The stream's files are byte for byte those of the in-memory partitioner on the graph readSnapGraph reads, with
    // random homes and with a homes file, for hash and HDRF, whatever the executor does with offered workers; its
    // metrics are evaluateGas's.
    void matchesTheInMemoryPartition_data()
    {
        QTest::addColumn<QString>("algorithm");
        QTest::addColumn<bool>("homesFile");
        QTest::addColumn<int>("executor"); // 0 standard, 1 offered workers run, 2 the caller alone
        for (const char* a : {"hash", "hdrf"})
            for (bool homes : {false, true})
                for (int e : {0, 1, 2})
                    QTest::newRow(qPrintable(QString("%1 homes=%2 executor=%3").arg(a).arg(homes).arg(e)))
                        << QString(a) << homes << e;
    }
    void matchesTheInMemoryPartition()
    {
        QFETCH(QString, algorithm);
        QFETCH(bool, homesFile);
        QFETCH(int, executor);
        const std::string graphPath = test::data("graphs/Wiki-Vote.txt");
        auto r = request(algorithm.toStdString(), graphPath, "sssp");
        // Homes for every third vertex of the file; the others drawn.
        const auto graph = *io::readSnapGraph(graphPath);
        if (homesFile) {
            std::string lines = "# homes\n";
            for (std::uint32_t v = 0; v < graph.vertexCount; v += 3)
                lines += std::to_string(graph.originalId[v]) + '\t' + m_wiki.topology.site(v % 8).name + '\n';
            spit(path("homes.tsv"), lines);
            r.homesPath = path("homes.tsv");
        }
        Feedback feedback;
        SerialExecutor offered(true), alone(false);
        if (executor == 1)
            feedback.setExecutor(offered);
        if (executor == 2)
            feedback.setExecutor(alone);
        const auto streamed = partitionSnapStream(r, feedback);
        QVERIFY2(streamed, streamed ? "" : streamed.error().toString().c_str());

        std::vector<int> home(graph.vertexCount, -1);
        if (homesFile)
            home = *io::readHomes(r.homesPath, graph, m_wiki.topology);
        assignRandomHomes(home, 8, r.seed);
        const auto problem = *PartitionProblem::create(graph, m_wiki.topology, r.profile, home, {});
        Registry<Partitioner> registry;
        registerBuiltinPartitioners(registry);
        const auto inMemory = *registry.find(r.algorithm)->run(problem, r.values, r.seed, Feedback());
        QVERIFY(io::writeEdgePartition(path("memory.E.tsv"), graph, inMemory.partition, m_wiki.topology));
        QVERIFY(io::writeMasters(path("memory.M.tsv"), graph, inMemory.partition, m_wiki.topology));
        QVERIFY(slurp(path("stream.E.tsv")) == slurp(path("memory.E.tsv")));
        QVERIFY(slurp(path("stream.M.tsv")) == slurp(path("memory.M.tsv")));
        const auto m = cost::evaluateGas(graph, inMemory.partition, problem.sizes, problem.network);
        QCOMPARE(streamed->metrics.transferSeconds, m.transferSeconds);
        QVERIFY(std::abs(streamed->metrics.wanUsd - m.wanUsd) <= 1e-12 * m.wanUsd);
        QCOMPARE(streamed->metrics.replicationFactor, m.replicationFactor);
        QCOMPARE(streamed->vertices, graph.vertexCount);
        QCOMPARE(streamed->edges, std::uint64_t(graph.edgeCount()));
        QCOMPARE(streamed->homesFromFile + streamed->homesDrawn, std::size_t(graph.vertexCount));
        QCOMPARE(temporariesIn(m_dir.path().toStdString()), std::size_t(0));
    }

    // A bad line far into the file, a homes file naming a vertex the graph lacks, and a cancel: an error (the line
    // counted from the file's start), the old outputs left as they were, no temporary left behind.
    void failuresLeaveTheOutputsAlone()
    {
        spit(path("stream.E.tsv"), "old edges\n");
        spit(path("stream.M.tsv"), "old masters\n");
        std::string text = "# a graph\n";
        for (int k = 1; k <= 3000; ++k)
            text += std::to_string(k) + '\t' + std::to_string(k + 1) + '\n';
        text += "3001 x\n";
        spit(path("bad.txt"), text);
        auto bad = partitionSnapStream(request("hdrf", path("bad.txt")), Feedback());
        QVERIFY(!bad);
        QVERIFY2(bad.error().toString().find("bad.txt:3002") != std::string::npos, bad.error().toString().c_str());

        spit(path("homes.tsv"), "# homes\n1\tdc0\n99999\tdc1\n");
        auto r = request("hash", test::data("graphs/Wiki-Vote.txt"));
        r.homesPath = path("homes.tsv");
        auto homes = partitionSnapStream(r, Feedback());
        QVERIFY(!homes);
        QVERIFY2(homes.error().toString().find("homes.tsv:2") != std::string::npos
                     || homes.error().toString().find("homes.tsv:3") != std::string::npos,
                 homes.error().toString().c_str());
        QVERIFY(homes.error().message.find("is not in the graph") != std::string::npos);

        Feedback canceled;
        canceled.cancel();
        auto stopped = partitionSnapStream(request("hash", test::data("graphs/Wiki-Vote.txt")), canceled);
        QVERIFY(!stopped);
        QCOMPARE(stopped.error().code, ErrorCode::Canceled);

        QCOMPARE(slurp(path("stream.E.tsv")), std::string("old edges\n"));
        QCOMPARE(slurp(path("stream.M.tsv")), std::string("old masters\n"));
        QCOMPARE(temporariesIn(m_dir.path().toStdString()), std::size_t(0));
    }

    // Split over 2, 3 and 5 ranks (threads standing in for MPI processes, chunks of 4 KiB so that every rank reads a
    // part), hash gives one process's files byte for byte and its metrics to the last bit, with homes drawn and from
    // a file, with self-loops (one vertex appears only in one). A bad line in a later rank's part is reported at its
    // line of the file, with nothing written and no temporary left.
    void ranksGiveOneProcesssResult()
    {
        // An id of 7777777 keeps the ids within the dense tables (partitionHashDense, no message per edge); one of
        // 77777777 is beyond them (the owners' passes, with messages per edge).
        std::string text;
        for (const std::string far : {"7777777", "77777777"}) {
            text = slurp(test::data("graphs/Wiki-Vote.txt"));
            text.insert(text.find('\n', text.size() / 3) + 1, far + '\t' + far + "\n30\t30\n");
            text.insert(text.find('\n', 2 * text.size() / 3) + 1, "8\t8\n");
            spit(path("loops.txt"), text);
            spit(path("some-homes.tsv"), "# homes\n30\tdc2\n8\tdc5\n" + far + "\tdc7\n");
            ranksGiveOneProcesssPartition(far == "7777777");
            if (far == "7777777")
                spit(path("dense-loops.txt"), text);
        }
        failuresOverRanksAreOneProcesss(text);
    }

private:
    /// loops.txt partitioned by hash over 2, 3 and 5 ranks, with drawn homes and with some-homes.tsv: one process's
    /// files and metrics.
    void ranksGiveOneProcesssPartition(bool dense)
    {
        for (const bool homesFile : {false, true}) {
            auto r = request("hash", path("loops.txt"));
            if (homesFile)
                r.homesPath = path("some-homes.tsv");
            r.edgesPath = path("alone.E.tsv");
            r.mastersPath = path("alone.M.tsv");
            const auto alone = partitionSnapStream(r, Feedback());
            QVERIFY2(alone, alone ? "" : alone.error().toString().c_str());
            QCOMPARE(alone->selfLoopsDropped, std::uint64_t(3));
            for (const int size : {2, 3, 5}) {
                std::vector<std::optional<Expected<SnapStreamResult>>> results(static_cast<std::size_t>(size));
                test::onRanks(size, [&](const Ranks& ranks) {
                    auto split = r;
                    split.edgesPath = path("split.E.tsv");
                    split.mastersPath = path("split.M.tsv");
                    Feedback feedback;
                    feedback.setRanks(ranks);
                    results[static_cast<std::size_t>(ranks.rank())].emplace(partitionSnapStream(split, feedback));
                });
                const auto& root = *results[0];
                QVERIFY2(root, root ? "" : root.error().toString().c_str());
                QVERIFY(slurp(path("split.E.tsv")) == slurp(path("alone.E.tsv")));
                QVERIFY(slurp(path("split.M.tsv")) == slurp(path("alone.M.tsv")));
                // To the last bit, and through the tables by id exactly when the ids are dense (the owners' passes
                // begin their own memory record, without bytes held on every rank).
                QVERIFY(root->metrics.transferSeconds == alone->metrics.transferSeconds);
                QVERIFY(root->metrics.wanUsd == alone->metrics.wanUsd);
                QVERIFY(root->metrics.replicationFactor == alone->metrics.replicationFactor);
                QVERIFY(root->metrics.uploadShare == alone->metrics.uploadShare);
                QCOMPARE(held_share::vertexBytesEachRank() > 0.0, dense);
                QCOMPARE(root->vertices, alone->vertices);
                QCOMPARE(root->edges, alone->edges);
                QCOMPARE(root->selfLoopsDropped, alone->selfLoopsDropped);
                QCOMPARE(root->homesFromFile, alone->homesFromFile);
                QCOMPARE(root->homesDrawn, alone->homesDrawn);
                for (const auto& other : results)
                    QVERIFY(*other);
                QCOMPARE(temporariesIn(m_dir.path().toStdString()), std::size_t(0));
            }
        }
    }

    /// What fails over ranks says what one process says, and leaves the outputs alone: a bad line (in `text` with a
    /// far id, and in Wiki-Vote), a homes line of a vertex the graph lacks, a file that changes between the passes,
    /// a cancel; HDRF one edge at a time is refused.
    void failuresOverRanksAreOneProcesss(std::string text)
    {
        // What each of 3 ranks says.
        const auto saidOnRanks = [](const SnapStreamRequest& split) {
            std::vector<std::string> said(3);
            test::onRanks(3, [&](const Ranks& ranks) {
                Feedback feedback;
                feedback.setRanks(ranks);
                const auto result = partitionSnapStream(split, feedback);
                said[static_cast<std::size_t>(ranks.rank())] = result ? "ok" : result.error().toString();
            });
            return said;
        };
        for (std::string graph : {text, slurp(test::data("graphs/Wiki-Vote.txt")) + "\r\n"}) {
            spit(path("split.E.tsv"), "old edges\n");
            graph.insert(graph.find('\n', graph.size() - 5000) + 1, "5\t-6\n");
            spit(path("bad.txt"), graph);
            auto r = request("hash", path("bad.txt"));
            r.edgesPath = path("split.E.tsv");
            r.mastersPath = path("split.M.tsv");
            const auto alone = partitionSnapStream(r, Feedback());
            QVERIFY(!alone);
            for (const auto& message : saidOnRanks(r))
                QCOMPARE(QString::fromStdString(message), QString::fromStdString(alone.error().toString()));
            QCOMPARE(slurp(path("split.E.tsv")), std::string("old edges\n"));
            QCOMPARE(temporariesIn(m_dir.path().toStdString()), std::size_t(0));
        }

        // A homes line of a vertex the graph lacks, its id far beyond the others: one process's message (with the
        // dense tables and with the owners' passes).
        spit(path("far-homes.tsv"), "30\tdc2\n4000000000\tdc1\n");
        for (const char* graph : {"loops.txt", "dense-loops.txt"}) {
            auto far = request("hash", path(graph));
            far.homesPath = path("far-homes.tsv");
            const auto farAlone = partitionSnapStream(far, Feedback());
            QVERIFY(!farAlone);
            QVERIFY2(farAlone.error().toString().find("4000000000 is not in the graph") != std::string::npos,
                     farAlone.error().toString().c_str());
            for (const auto& message : saidOnRanks(far))
                QCOMPARE(message, farAlone.error().toString());
        }

        // A file that changes between the passes (here once every rank has read it the first time), its size kept:
        // an edge turned around, or an id the first pass never saw; with the dense tables (Wiki-Vote) and with the
        // owners' passes (an id of 77777777 at the end). Every rank stops with the same message, and nothing is
        // written.
        for (const std::string end : {"", "\r\n77777777\t30\r\n"}) {
            const std::string original = slurp(test::data("graphs/Wiki-Vote.txt")) + end;
            const std::size_t line = original.find('\n', original.size() / 2) + 1;
            const std::size_t tab = original.find('\t', line), stop = original.find_first_of("\r\n", tab);
            const std::string source = original.substr(line, tab - line),
                              target = original.substr(tab + 1, stop - tab - 1);
            const std::string turned = original.substr(0, line) + target + '\t' + source + original.substr(stop);
            const std::string unseen = original.substr(0, line) + source + '\t' + std::string(target.size(), '9')
                + original.substr(stop);
            for (const std::string& changed : {turned, unseen}) {
                QCOMPARE(changed.size(), original.size());
                spit(path("changing.txt"), original);
                spit(path("split.E.tsv"), "old edges\n");
                auto changing = request("hash", path("changing.txt"));
                changing.edgesPath = path("split.E.tsv");
                std::vector<std::string> said(2);
                test::onRanks(2, [&](const Ranks& ranks) {
                    Feedback feedback([&](double, std::string_view stage) {
                        if (ranks.isRoot() && stage == "reading the graph's parts")
                            spit(path("changing.txt"), changed);
                    });
                    feedback.setRanks(ranks);
                    const auto result = partitionSnapStream(changing, feedback);
                    said[static_cast<std::size_t>(ranks.rank())] = result ? "ok" : result.error().toString();
                });
                QVERIFY2(said[0].find("the file changed while it was read") != std::string::npos, said[0].c_str());
                QCOMPARE(said[1], said[0]);
                QCOMPARE(slurp(path("split.E.tsv")), std::string("old edges\n"));
                QCOMPARE(temporariesIn(m_dir.path().toStdString()), std::size_t(0));
            }
        }

        // A cancel on one rank, in the middle of the first pass, stops every rank within a round: each says
        // canceled, and nothing is written.
        for (const int canceledAfter : {3, 40}) {
            spit(path("split.E.tsv"), "old edges\n");
            auto stopped = request("hash", test::data("graphs/Wiki-Vote.txt"));
            stopped.edgesPath = path("split.E.tsv");
            std::vector<std::optional<ErrorCode>> codes(3);
            std::vector<int> asked(3, 0); // how often each rank asked whether it was canceled
            test::onRanks(3, [&](const Ranks& ranks) {
                int& mine = asked[static_cast<std::size_t>(ranks.rank())];
                Feedback feedback({}, [&] { return ++mine > canceledAfter && ranks.rank() == 1; });
                feedback.setRanks(ranks);
                const auto result = partitionSnapStream(stopped, feedback);
                if (!result)
                    codes[static_cast<std::size_t>(ranks.rank())] = result.error().code;
            });
            for (const auto& code : codes)
                QVERIFY(code == ErrorCode::Canceled);
            // The others stopped at the round rank 1 stopped at (it asks once per round and once per window of
            // chunks, as they do), not at the end of the pass, some 90 rounds on.
            QVERIFY2(asked[0] <= canceledAfter + 4, std::to_string(asked[0]).c_str());
            QVERIFY2(asked[2] <= canceledAfter + 4, std::to_string(asked[2]).c_str());
            QCOMPARE(slurp(path("split.E.tsv")), std::string("old edges\n"));
            QCOMPARE(temporariesIn(m_dir.path().toStdString()), std::size_t(0));
        }

        // HDRF splits only in batches: one edge at a time, it places each from the edges before it.
        std::vector<std::string> refused(2);
        test::onRanks(2, [&](const Ranks& ranks) {
            Feedback feedback;
            feedback.setRanks(ranks);
            const auto hdrf = partitionSnapStream(request("hdrf", test::data("graphs/Wiki-Vote.txt")), feedback);
            refused[static_cast<std::size_t>(ranks.rank())] = hdrf ? "ok" : hdrf.error().message;
        });
        QVERIFY2(refused[0].find("over ranks it runs in batches") != std::string::npos, refused[0].c_str());
        QVERIFY2(refused[0].find("--param batch=") != std::string::npos, refused[0].c_str());
        QCOMPARE(refused[1], refused[0]);
    }

private Q_SLOTS:
    // HDRF and Geo-Cut's stage 1 in batches over 2, 3 and 5 ranks write byte for byte the files of the in-memory
    // partitioner with the same batch (what one process runs), with random homes and with a homes file, and its
    // metrics; the batches change the partition but not by much: Wiki-Vote's transfer time within 10% of the stream
    // one edge at a time.
    void streamsInBatchesAreTheSameOnAnyNumberOfRanks()
    {
        const std::string graphPath = test::data("graphs/Wiki-Vote.txt");
        const auto graph = *io::readSnapGraph(graphPath);
        std::string lines = "# homes\n";
        for (std::uint32_t v = 0; v < graph.vertexCount; v += 3)
            lines += std::to_string(graph.originalId[v]) + '\t' + m_wiki.topology.site(v % 8).name + '\n';
        spit(path("homes.tsv"), lines);
        Registry<Partitioner> registry;
        registerBuiltinPartitioners(registry);
        for (const std::string algorithm : {"hdrf", "geo-cut"})
            for (const bool homesFile : {false, true})
                for (const std::int64_t batch : {64, 4096}) {
                    const auto specs = registry.find(algorithm)->parameters();
                    auto r = request(algorithm, graphPath);
                    r.values = *ParamValues::with(specs, r.values, "batch", ParamValue{batch});
                    if (algorithm == "geo-cut") { // its stage 1 alone
                        r.values = *ParamValues::with(specs, r.values, "start", ParamValue{std::string("cost")});
                        r.values = *ParamValues::with(specs, r.values, "lq_fraction", ParamValue{0.0});
                        r.values = *ParamValues::with(specs, r.values, "replica_passes", ParamValue{std::int64_t{0}});
                    }
                    r.homesPath = homesFile ? path("homes.tsv") : std::string();
                    std::vector<int> home(graph.vertexCount, -1);
                    if (homesFile)
                        home = *io::readHomes(r.homesPath, graph, m_wiki.topology);
                    assignRandomHomes(home, 8, r.seed);
                    const auto problem = *PartitionProblem::create(graph, m_wiki.topology, r.profile, home, {});
                    const auto inMemory = *registry.find(algorithm)->run(problem, r.values, r.seed, Feedback());
                    QVERIFY(io::writeEdgePartition(path("memory.E.tsv"), graph, inMemory.partition, m_wiki.topology));
                    QVERIFY(io::writeMasters(path("memory.M.tsv"), graph, inMemory.partition, m_wiki.topology));
                    const auto m = cost::evaluateGas(graph, inMemory.partition, problem.sizes, problem.network);
                    const auto oneAtATime = *ParamValues::with(specs, r.values, "batch", ParamValue{std::int64_t{0}});
                    const auto sequential = *registry.find(algorithm)->run(problem, oneAtATime, r.seed, Feedback());
                    QVERIFY(sequential.partition.edgeSite != inMemory.partition.edgeSite);
                    const auto s = cost::evaluateGas(graph, sequential.partition, problem.sizes, problem.network);
                    QVERIFY2(std::abs(m.transferSeconds / s.transferSeconds - 1.0) < 0.1,
                             (std::to_string(m.transferSeconds) + " against " + std::to_string(s.transferSeconds))
                                 .c_str());
                    for (const int size : {2, 3, 5}) {
                        std::vector<std::optional<Expected<SnapStreamResult>>> results(static_cast<std::size_t>(size));
                        test::onRanks(size, [&](const Ranks& ranks) {
                            Feedback feedback;
                            feedback.setRanks(ranks);
                            results[static_cast<std::size_t>(ranks.rank())].emplace(partitionSnapStream(r, feedback));
                        });
                        const auto& root = *results[0];
                        QVERIFY2(root, root ? "" : root.error().toString().c_str());
                        QVERIFY(slurp(path("stream.E.tsv")) == slurp(path("memory.E.tsv")));
                        QVERIFY(slurp(path("stream.M.tsv")) == slurp(path("memory.M.tsv")));
                        QCOMPARE(root->metrics.transferSeconds, m.transferSeconds);
                        QVERIFY(std::abs(root->metrics.wanUsd - m.wanUsd) <= 1e-12 * m.wanUsd);
                        QCOMPARE(root->metrics.replicationFactor, m.replicationFactor);
                        QCOMPARE(root->edges, std::uint64_t(graph.edgeCount()));
                    }
                }
    }

    // Self-loops are dropped and counted, as readSnapGraph does; a graph of self-loops alone has no edges.
    void dropsSelfLoops()
    {
        spit(path("loops.txt"), "1 1\n1 2\n2 2\n2 3\n");
        const auto r = partitionSnapStream(request("hdrf", path("loops.txt")), Feedback());
        QVERIFY(r);
        QCOMPARE(r->edges, std::uint64_t(2));
        QCOMPARE(r->selfLoopsDropped, std::uint64_t(2));
        QCOMPARE(slurp(path("stream.E.tsv")).size(), std::string("1\t2\tdc0\n").size() * 2 + 0);
        spit(path("only-loops.txt"), "5 5\n");
        const auto none = partitionSnapStream(request("hash", path("only-loops.txt")), Feedback());
        QVERIFY(!none);
        QVERIFY(none.error().message.find("no edges") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSnapStream)
#include "test_snap_stream.moc"
