#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"
#include "core/io/graph_io.h"
#include "core/io/sites_io.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>

using namespace meridian;

class TestGraphIo : public QObject {
    Q_OBJECT

    static model::Topology sites() { return *io::loadTopology(test::data("graphs/two_sites.csv")); }
    static void write(const std::string& path, const QByteArray& text)
    {
        QFile file(QString::fromStdString(path));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QCOMPARE(file.write(text), text.size());
    }

private Q_SLOTS:
    void readsSnapWithCommentsCrlfTabsAndSparseIds()
    {
        auto g = io::readSnapGraph(test::data("graphs/tiny.txt"));
        QVERIFY2(g, g ? "" : g.error().toString().c_str());
        QCOMPARE(g->vertexCount, 4u);
        QCOMPARE(g->originalId, (std::vector<std::uint64_t>{100, 7, 3000000000ull, 42}));
        QCOMPARE(g->src, (std::vector<std::uint32_t>{0, 1, 2, 3, 0}));
        QCOMPARE(g->dst, (std::vector<std::uint32_t>{1, 2, 3, 1, 1})); // the duplicate 100 -> 7 is kept
        QCOMPARE(g->selfLoopsDropped, std::uint64_t(1));
    }

    void reportsBadSnapLinesWithFileLineAndColumn()
    {
        MERIDIAN_VERIFY_ERROR(io::readSnapGraph(test::data("graphs/snap_truncated.txt")), "snap_truncated.txt", 3, 2,
                              "expected a target vertex id");
        MERIDIAN_VERIFY_ERROR(io::readSnapGraph(test::data("graphs/snap_negative.txt")), "snap_negative.txt", 2, 3,
                              "is negative");
        MERIDIAN_VERIFY_ERROR(io::readSnapGraph(test::data("graphs/snap_text.txt")), "snap_text.txt", 2, 3,
                              "non-negative integer");
        MERIDIAN_VERIFY_ERROR(io::readSnapGraph(test::data("graphs/snap_huge.txt")), "snap_huge.txt", 2, 1,
                              "2^32 or more");
        auto empty = io::readSnapGraph(test::data("graphs/snap_empty.txt"));
        QVERIFY(!empty);
        QVERIFY(empty.error().message.find("no edges") != std::string::npos);
        QVERIFY(empty.error().where.file.find("snap_empty.txt") != std::string::npos);
        auto missing = io::readSnapGraph(test::data("graphs/none.txt"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::Io);
    }

    // The reader cuts a file into chunks parsed at once: any cut, even inside a line or a CRLF, and any number of
    // workers give the graph a sequential read gives, and an error names the line counted from the file's start.
    void chunksGiveTheSameGraphAsOneRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("mixed.txt");
        QByteArray text = "# a comment\r\n\n";
        for (int k = 0; k < 400; ++k) {
            text += QByteArray::number((k * 7919) % 97 + (k % 5 == 0 ? 4000000000ull : 0)) + (k % 3 ? "\t" : "  ")
                + QByteArray::number((k * 104729) % 89) + (k % 4 == 0 ? " 1.5 extra" : "") + (k % 2 ? "\r\n" : "\n");
            if (k % 50 == 0)
                text += "# more\n   \n" + QByteArray::number(k) + " " + QByteArray::number(k) + "\n"; // a self-loop
        }
        text += "12 13"; // no final newline
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        }
        const auto whole = io::detail::readSnapGraphInChunks(path.toStdString(), Feedback(), 1u << 20);
        QVERIFY2(whole, whole ? "" : whole.error().toString().c_str());
        QCOMPARE(whole->edgeCount() + whole->selfLoopsDropped, std::uint64_t(400 + 8 + 1)); // every edge line
        QVERIFY(whole->selfLoopsDropped >= 8);
        for (std::size_t chunk : {1u, 2u, 3u, 7u, 16u, 100u, 999u}) {
            const auto g = io::detail::readSnapGraphInChunks(path.toStdString(), Feedback(), chunk);
            QVERIFY2(g, g ? "" : g.error().toString().c_str());
            QCOMPARE(g->src, whole->src);
            QCOMPARE(g->dst, whole->dst);
            QCOMPARE(g->originalId, whole->originalId);
            QCOMPARE(g->selfLoopsDropped, whole->selfLoopsDropped);
        }
        // A bad line deep in the file: its number counts every line before it, whichever chunk holds it.
        const QByteArray bad = text.left(text.lastIndexOf("12 13")) + "12 x13\n";
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(bad);
        }
        const int badLine = static_cast<int>(bad.count('\n'));
        for (std::size_t chunk : {5u, 64u, 1u << 20})
            MERIDIAN_VERIFY_ERROR(io::detail::readSnapGraphInChunks(path.toStdString(), Feedback(), chunk), "mixed.txt",
                                  badLine, 4, "non-negative integer");
    }

    void readsMetisAsOneEdgePerUndirectedPair()
    {
        auto g = io::readMetisGraph(test::data("graphs/square.graph"));
        QVERIFY2(g, g ? "" : g.error().toString().c_str());
        QCOMPARE(g->vertexCount, 4u);
        QCOMPARE(g->edgeCount(), std::size_t(5));
        for (std::size_t e = 0; e < g->edgeCount(); ++e)
            QVERIFY(g->src[e] < g->dst[e]);
        MERIDIAN_VERIFY_ERROR(io::readMetisGraph(test::data("graphs/metis_bad_neighbour.graph")),
                              "metis_bad_neighbour.graph", 5, 3, "neighbour 5 is not a vertex");
        auto count = io::readMetisGraph(test::data("graphs/metis_bad_count.graph"));
        QVERIFY(!count);
        QVERIFY(count.error().message.find("declares 6 edges") != std::string::npos);
    }

    void readsMatrixMarketGraphs()
    {
        auto g = io::readMatrixMarketGraph(test::data("graphs/triangle.mtx"));
        QVERIFY2(g, g ? "" : g.error().toString().c_str());
        QCOMPARE(g->edgeCount(), std::size_t(3));
        QCOMPARE(g->selfLoopsDropped, std::uint64_t(1));
        QCOMPARE(g->src, (std::vector<std::uint32_t>{0, 1, 2}));
    }

    void secondLoadComesFromTheBinaryCache()
    {
        QTemporaryDir dir;
        bool fromCache = true;
        auto first = io::loadGraph(test::data("graphs/tiny.txt"), io::GraphFormat::Snap, dir.path().toStdString(),
                                   &fromCache);
        QVERIFY(first);
        QVERIFY(!fromCache);
        auto second = io::loadGraph(test::data("graphs/tiny.txt"), io::GraphFormat::Snap, dir.path().toStdString(),
                                    &fromCache);
        QVERIFY(second);
        QVERIFY(fromCache);
        QCOMPARE(second->src, first->src);
        QCOMPARE(second->dst, first->dst);
        QCOMPARE(second->originalId, first->originalId);
        QCOMPARE(second->selfLoopsDropped, first->selfLoopsDropped);
        // A bad file is never cached: the error comes back every time.
        MERIDIAN_VERIFY_ERROR(io::loadGraph(test::data("graphs/snap_negative.txt"), io::GraphFormat::Snap,
                                            dir.path().toStdString()),
                              "snap_negative.txt", 2, 3, "negative");
    }

    // Regression: a damaged cache entry was loaded unchecked (out-of-range ids crashed partitioning).
    void ignoresAndRewritesACorruptCacheEntry()
    {
        QTemporaryDir dir;
        const std::string cacheDir = dir.path().toStdString();
        auto truth = io::loadGraph(test::data("graphs/tiny.txt"), io::GraphFormat::Snap, cacheDir);
        QVERIFY(truth);
        const QStringList entries = QDir(dir.path()).entryList({"*.edges"});
        QCOMPARE(entries.size(), 1);
        const QString entry = dir.filePath(entries.front());
        QFile f(entry);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray good = f.readAll();
        f.close();
        auto damage = [&](QByteArray bytes) {
            QFile out(entry);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(bytes);
        };
        QByteArray ids = good; // the last dst id far out of range
        ids[ids.size() - 1] = char(0x7f);
        QByteArray bit = good; // one bit of originalId flipped: only the checksum sees it
        bit[int(bit.size() - 8 * truth->edgeCount() - 3)] ^= 1;
        QByteArray huge = good; // a header claiming 2^40 edges: refused before allocating
        huge[8 * 7 + 5] = 1;
        for (const QByteArray& bad : {ids, bit, huge, good.left(good.size() / 2), QByteArray("MRDNGRF2")}) {
            damage(bad);
            bool fromCache = true;
            auto g = io::loadGraph(test::data("graphs/tiny.txt"), io::GraphFormat::Snap, cacheDir, &fromCache);
            QVERIFY(g);
            QVERIFY(!fromCache);
            QCOMPARE(g->src, truth->src);
            QCOMPARE(g->dst, truth->dst);
            QCOMPARE(g->originalId, truth->originalId);
            // Rewritten: the next load is served from the cache again.
            QVERIFY(io::loadGraph(test::data("graphs/tiny.txt"), io::GraphFormat::Snap, cacheDir, &fromCache));
            QVERIFY(fromCache);
        }
    }

    // Regression: the cache was keyed by size and mtime in seconds, so a file rewritten within the same
    // second (same size) was served from the stale entry.
    void aRewrittenFileIsNeverServedFromTheStaleCache()
    {
        QTemporaryDir dir;
        const QString graph = dir.filePath("g.txt");
        auto write = [&](const QByteArray& text) {
            QFile out(graph);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(text);
        };
        write("1 2\n2 3\n");
        const std::string cacheDir = dir.filePath("cache").toStdString();
        QVERIFY(io::loadGraph(graph.toStdString(), io::GraphFormat::Snap, cacheDir));
        struct stat before {};
        QCOMPARE(::stat(graph.toLocal8Bit().constData(), &before), 0);
        write("3 1\n1 2\n"); // same size
        const struct timespec times[2] = {before.st_atim, before.st_mtim};
        QCOMPARE(::utimensat(AT_FDCWD, graph.toLocal8Bit().constData(), times, 0), 0); // even the same mtime
        bool fromCache = true;
        auto g = io::loadGraph(graph.toStdString(), io::GraphFormat::Snap, cacheDir, &fromCache);
        QVERIFY(g);
        QVERIFY(!fromCache);
        QCOMPARE(g->originalId[g->src[0]], std::uint64_t(3));
    }

    // Regression: tiny files whose headers claimed 2 x 10^9 vertices allocated 16 GB before reading on.
    void refusesHeaderClaimsTheFileCannotHold()
    {
        MERIDIAN_VERIFY_ERROR(io::readMetisGraph(test::data("regressions/metis_claims_huge.graph")),
                              "metis_claims_huge.graph", 1, 1,
                              "the header claims 2000000000 vertices but the rest of the file (2 bytes) can hold at "
                              "most 3 adjacency lines");
        MERIDIAN_VERIFY_ERROR(io::readMatrixMarketGraph(test::data("regressions/mm_graph_claims_huge.mtx")),
                              "mm_graph_claims_huge.mtx", 2, 1, "claims 2000000000 vertices for 3 entries");
    }

    void readsHomesAndRejectsUnknownSitesAndVertices()
    {
        const auto topo = sites();
        auto g = *io::readSnapGraph(test::data("graphs/tiny.txt"));
        auto homes = io::readHomes(test::data("graphs/homes_partial.tsv"), g, topo);
        QVERIFY2(homes, homes ? "" : homes.error().toString().c_str());
        QCOMPARE(*homes, (std::vector<int>{0, 1, -1, -1}));
        MERIDIAN_VERIFY_ERROR(io::readHomes(test::data("graphs/homes_unknown_site.tsv"), g, topo),
                              "homes_unknown_site.tsv", 2, 3, "unknown site 'Mars'");
        MERIDIAN_VERIFY_ERROR(io::readHomes(test::data("graphs/homes_unknown_vertex.tsv"), g, topo),
                              "homes_unknown_vertex.tsv", 2, 1, "vertex 555 is not in the graph");
    }

    // Issue 31: a UTF-8 byte-order mark before the first edge or home made line 1 unreadable.
    void skipsAByteOrderMark()
    {
        auto g = io::readSnapGraph(test::data("regressions/snap_bom.txt"));
        QVERIFY2(g, g ? "" : g.error().toString().c_str());
        QCOMPARE(g->originalId, (std::vector<std::uint64_t>{1, 2, 3}));
        auto homes = io::readHomes(test::data("regressions/homes_bom.tsv"), *g, sites());
        QVERIFY2(homes, homes ? "" : homes.error().toString().c_str());
        QCOMPARE(homes->front(), 0);
    }

    void edgePartitionsRoundTrip()
    {
        const auto topo = sites();
        auto g = *io::readSnapGraph(test::data("graphs/tiny.txt"));
        model::EdgePartition p;
        p.edgeSite = {0, 1, 1, 0, 1};
        p.masterSite = {0, 1, 1, 0};
        QTemporaryDir dir;
        const std::string e = dir.filePath("e.tsv").toStdString(), m = dir.filePath("m.tsv").toStdString();
        QVERIFY(io::writeEdgePartition(e, g, p, topo));
        QVERIFY(io::writeMasters(m, g, p, topo));
        auto back = io::readEdgePartition(e, topo);
        QVERIFY(back);
        QCOMPARE(back->first.originalId, g.originalId);
        QCOMPARE(back->second.edgeSite, p.edgeSite);
        QVERIFY(io::readMasters(m, back->first, topo, back->second));
        QCOMPARE(back->second.masterSite, p.masterSite);

        // Read against the graph itself: the same sites; masters in another order read the same.
        auto sitesOf = io::readEdgePartitionOf(e, g, topo);
        QVERIFY2(sitesOf, sitesOf ? "" : sitesOf.error().toString().c_str());
        QCOMPARE(sitesOf->edgeSite, p.edgeSite);
        const std::string shuffled = dir.filePath("shuffled.tsv").toStdString();
        write(shuffled, "7\tB\n100\tA\n42\tA\n3000000000\tB\n");
        QVERIFY(io::readMasters(shuffled, g, topo, *sitesOf));
        QCOMPARE(sitesOf->masterSite, p.masterSite);
        write(shuffled, "100\tA\n8\tB\n");
        const auto unknown = io::readMasters(shuffled, g, topo, *sitesOf);
        QVERIFY(!unknown);
        QVERIFY2(unknown.error().toString().find("shuffled.tsv:2:1: vertex 8 is not in the partition")
                     != std::string::npos,
                 unknown.error().toString().c_str());

        // A line that is not the graph's edge at its place, and a file a line short, name what was expected.
        write(e, "100\t7\tA\n3000000000\t7\tB\n");
        auto swapped = io::readEdgePartitionOf(e, g, topo);
        QVERIFY(!swapped);
        QVERIFY2(swapped.error().toString().find("e.tsv:2:1: expected the graph's edge 2, 7 3000000000")
                     != std::string::npos,
                 swapped.error().toString().c_str());
        write(e, "100\t7\tA\n");
        auto shortFile = io::readEdgePartitionOf(e, g, topo);
        QVERIFY(!shortFile);
        QVERIFY2(shortFile.error().toString().find("1 lines for the graph's 5 edges") != std::string::npos,
                 shortFile.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestGraphIo)
#include "test_graph_io.moc"
