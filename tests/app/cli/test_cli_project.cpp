// meridian-cli project: a user's own files to a project and a rankfile without writing JSON, and every
// bad input refused with file and line while the project on disk stays as it was.
#include "cli_run.h"
#include "test_support.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

namespace {

using meridian::test::cli;
using meridian::test::readAll;

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestCliProject : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        write(path("sites.csv"),
              "name,lat,lon,nodes,slots\nvirginia,38.9,-77.4,2,2\noregon,45.8,-119.7,2,2\ndublin,53.3,-6.3,2,2\n");
        write(path("latency.csv"),
              "site,virginia,oregon,dublin\nvirginia,0.2,70,75\noregon,70,0.2,\ndublin,75,130,0.2\n");
        write(path("bandwidth.csv"), ",dublin,virginia\ndublin,900,40\nvirginia,40,900\n");
        write(path("volume.mtx"),
              "%%MatrixMarket matrix coordinate real general\n4 4 4\n1 2 1000\n2 1 1000\n3 4 5e6\n4 3 5e6\n");
        write(path("messages.mtx"),
              "%%MatrixMarket matrix coordinate real general\n4 4 4\n1 2 10\n2 1 10\n3 4 50\n4 3 50\n");
        write(path("pins.csv"), "process,site\n0,virginia\n3,dublin\n");
    }

    void helpListsTheSubcommands()
    {
        const auto r = cli({"project", "--help"});
        QCOMPARE(r.code, 0);
        for (const char* sub : {"create", "add-application", "set-network", "set-pins"})
            QVERIFY(r.out.contains(sub));
        QCOMPARE(cli({"project"}).code, 2);
        QCOMPARE(cli({"project", "frobnicate"}).code, 2);
        for (const char* sub : {"create", "add-application", "set-network", "set-pins"})
            QCOMPARE(cli({"project", sub, "--help"}).code, 0);
    }

    void buildsAProjectFromFilesAndMapsIt()
    {
        const QString p = path("study.meridian");
        auto created = cli({"project", "create", p, "--name", "My study", "--description", "three regions", "--sites",
                            path("sites.csv"), "--latency", path("latency.csv"), "--bandwidth", path("bandwidth.csv")});
        QVERIFY2(created.code == 0, created.err.constData());
        auto info = created.json();
        QCOMPARE(info["name"].toString(), QString("My study"));
        QCOMPARE(info["sites"].toArray().size(), 3);
        QCOMPARE(info["total_slots"].toInt(), 12);
        // Latency: 8 of 9 given (oregon -> dublin empty); bandwidth: 4 given (oregon not in the file).
        QCOMPARE(info["network"].toObject()["latency_entries"].toObject()["measured"].toInt(), 8);
        QCOMPARE(info["network"].toObject()["bandwidth_entries"].toObject()["measured"].toInt(), 4);
        QCOMPARE(info["latency_ms"].toArray()[2].toArray()[1].toDouble(), 130.0);
        // Refuses to overwrite unless asked.
        const auto again = cli({"project", "create", p, "--name", "x", "--sites", path("sites.csv")});
        QCOMPARE(again.code, 2);
        QVERIFY(again.err.contains("--force"));

        auto added = cli({"project", "add-application", p, "--name", "Halo exchange", "--volume", path("volume.mtx"),
                          "--messages", path("messages.mtx"), "--pins", path("pins.csv")});
        QVERIFY2(added.code == 0, added.err.constData());
        const auto app = added.json()["applications"].toArray()[0].toObject();
        QCOMPARE(app["processes"].toInt(), 4);
        QCOMPARE(app["pins"].toInt(), 2);
        QCOMPARE(app["messages"].toDouble(), 120.0);
        auto generated = cli(
            {"project", "add-application", p, "--name", "LU 16", "--pattern", "lu", "--processes", "16"});
        QVERIFY2(generated.code == 0, generated.err.constData());
        QCOMPARE(generated.json()["applications"].toArray().size(), 2);
        QVERIFY(QFile::exists(path("halo-exchange.volume.mtx")));
        QVERIFY(QFile::exists(path("halo-exchange.pins.csv")));

        auto net = cli({"project", "set-network", p, "--bandwidth", path("bandwidth.csv")});
        QVERIFY2(net.code == 0, net.err.constData());
        write(path("pins2.csv"), "0,oregon\n");
        auto pinned = cli({"project", "set-pins", p, "--application", "Halo exchange", "--pins", path("pins2.csv")});
        QVERIFY2(pinned.code == 0, pinned.err.constData());
        QCOMPARE(pinned.json()["applications"].toArray()[0].toObject()["pins"].toInt(), 1);

        // From the project to a rankfile, and a site-level mapping file accepted by evaluate and map --start.
        auto mapped = cli({"map", "--project", p, "--application", "Halo exchange", "--algorithm", "geo", "--rankfile",
                           path("rankfile"), "--out", path("mapping.csv")});
        QVERIFY2(mapped.code == 0, mapped.err.constData());
        const auto rankfile = readAll(path("rankfile"));
        QVERIFY(rankfile.contains("rank 0=oregon-"));
        QCOMPARE(rankfile.count("\nrank "), 4);
        write(path("sites-only.csv"), "process,site\n0,oregon\n1,oregon\n2,dublin\n3,dublin\n");
        auto evaluated = cli(
            {"evaluate", "--project", p, "--application", "Halo exchange", "--mapping", path("sites-only.csv")});
        QVERIFY2(evaluated.code == 0, evaluated.err.constData());
        QVERIFY(evaluated.json()["valid"].toBool());
        auto refined = cli({"map", "--project", p, "--application", "Halo exchange", "--algorithm", "refine", "--param",
                            "start=input", "--start", path("sites-only.csv")});
        QVERIFY2(refined.code == 0, refined.err.constData());
    }

    void refusesBadInputAndLeavesTheProjectAsItWas()
    {
        const QString p = path("bad.meridian");
        QCOMPARE(cli({"project", "create", p, "--name", "Bad", "--sites", path("sites.csv")}).code, 0);
        QVERIFY(cli({"project", "add-application", p, "--name", "A", "--volume", path("volume.mtx")}).code == 0);
        const QByteArray before = readAll(p);
        struct Case {
            QStringList args;
            const char* file;
            const char* fragment;
        };
        write(path("ragged.csv"), "site,virginia,oregon,dublin\nvirginia,1,2,3\noregon,1,2\ndublin,1,2,3\n");
        write(path("nonnumeric.csv"), "site,virginia,oregon,dublin\nvirginia,1,2,3\noregon,1,fast,3\ndublin,1,2,3\n");
        write(path("nonsquare.csv"), "1,2,3\n4,5,6\n");
        write(path("nan.csv"), "site,virginia,oregon,dublin\nvirginia,1,nan,3\noregon,1,2,3\ndublin,1,2,3\n");
        write(path("negative.csv"), "site,virginia,oregon,dublin\nvirginia,1,-2,3\noregon,1,2,3\ndublin,1,2,3\n");
        write(path("zero-bw.csv"), "site,virginia,oregon,dublin\nvirginia,1,0,3\noregon,1,2,3\ndublin,1,2,3\n");
        write(path("extra-site.csv"), "site,virginia,tokyo\nvirginia,1,2\ntokyo,2,1\n");
        write(path("pins-process.csv"), "process,site\n0,virginia\n7,oregon\n");
        write(path("pins-over.csv"), "0,virginia\n1,virginia\n2,virginia\n3,virginia\n");
        write(path("pins-over-8.csv"), "0,dublin\n1,dublin\n2,dublin\n3,dublin\n4,dublin\n");
        write(path("hosts-unknown.csv"), "host,site,slots\nnode01,tokyo,4\n");
        write(path("hosts-twice.csv"), "host,site,slots\nnode01,virginia,4\nnode01,oregon,4\n");
        write(path("hosts-slots.csv"), "node01,virginia,0\n");
        write(path("hosts-small.csv"), "node01,virginia,1\n");
        write(path("messages-3.mtx"), "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1\n");
        write(path("netpipe-garbage.out"), "       1 20.95   0.00000036\n       2 fast   0.00000132\n");
        write(path("netpipe-empty.out"), "\n");
        write(path("g.txt"), "# a tiny graph\n1 2\n2 3\n");
        write(path("g-bad.txt"), "1 2\n2 x\n");
        write(path("homes-other.tsv"), "1\tvirginia\n99\toregon\n");
        write(path("homes-site.tsv"), "1\tvirginia\n2\ttokyo\n");
        const QList<Case> cases{
            {{"import-graph", p, path("g.txt"), "--homes", path("homes-other.tsv")},
             "homes-other.tsv:2:1",
             "vertex 99 is not in the graph"},
            {{"import-graph", p, path("g.txt"), "--homes", path("homes-site.tsv")}, "homes-site.tsv:2:", "tokyo"},
            {{"import-graph", p, path("g-bad.txt")}, "g-bad.txt:2:3", ""},
            {{"import-graph", p, path("g.txt"), "--name", "A"}, "", "already has an application named 'A'"},
            {{"import-graph", p, path("g.txt"), "--format", "csv"}, "", "unknown graph format 'csv'"},
            {{"import-graph", p, path("missing.txt")}, "missing.txt", "cannot open"},
            {{"set-link", p, "--from", "virginia", "--to", "dublin", "--netpipe", path("netpipe-garbage.out")},
             "netpipe-garbage.out:2:10",
             "expected a throughput in Mbps from 1e-06 (1 bit/s) to 1e+07 (10 Tbit/s), found 'fast'"},
            {{"set-link", p, "--from", "virginia", "--to", "dublin", "--netpipe", path("netpipe-empty.out")},
             "netpipe-empty.out:",
             "no measurement"},
            {{"set-link", p, "--from", "virginia", "--to", "tokyo", "--netpipe",
              MERIDIAN_TEST_DATA "/netpipe_localhost.out"},
             "",
             "the project has no site 'tokyo'"},
            {{"set-network", p, "--latency", path("ragged.csv")}, "ragged.csv:3:1", "expected 4 fields"},
            {{"set-network", p, "--latency", path("nonnumeric.csv")}, "nonnumeric.csv:3:", "'fast'"},
            {{"set-network", p, "--latency", path("nonsquare.csv")}, "nonsquare.csv:", "expected a square matrix"},
            {{"set-network", p, "--latency", path("nan.csv")}, "nan.csv:2:", "'nan'"},
            {{"set-network", p, "--latency", path("negative.csv")},
             "negative.csv:2:",
             "expected a latency from 0 to 600000 ms"},
            {{"set-network", p, "--bandwidth", path("zero-bw.csv")},
             "zero-bw.csv:2:",
             "expected a bandwidth from 1.25e-07 MB/s (1 bit/s)"},
            {{"set-network", p, "--latency", path("extra-site.csv")},
             "extra-site.csv:",
             "names a site the project does not have: 'tokyo'; the project's sites not in the file: 'oregon', "
             "'dublin'"},
            {{"set-pins", p, "--application", "A", "--pins", path("pins-process.csv")},
             "pins-process.csv:3:1",
             "process 7 does not exist: the application has 4 processes"},
            {{"add-application", p, "--name", "B", "--volume", path("volume.mtx"), "--messages", path("messages-3.mtx")},
             "messages-3.mtx",
             "the message counts are 3 x 3 but the volume is 4 x 4"},
            {{"add-application", p, "--name", "A", "--volume", path("volume.mtx")},
             "",
             "already has an application named 'A'"},
            {{"add-application", p, "--name", "C", "--pattern", "lu", "--processes", "8", "--pins",
              path("pins-over-8.csv")},
             "pins-over-8.csv:5:3",
             "site 'dublin' has 4 slots"},
            {{"set-pins", p, "--application", "Nope", "--pins", path("pins.csv")},
             "bad.meridian",
             "no application named 'Nope'"},
            {{"set-network", p}, "", "give --latency, --bandwidth or both"},
            {{"set-hosts", p, "--hosts", path("hosts-unknown.csv")}, "hosts-unknown.csv:2:8", "unknown site 'tokyo'"},
            {{"set-hosts", p, "--hosts", path("hosts-twice.csv")},
             "hosts-twice.csv:3:1",
             "host 'node01' is already listed on line 2"},
            {{"set-hosts", p, "--hosts", path("hosts-slots.csv")},
             "hosts-slots.csv:1:17",
             "expected slots as a whole number"},
        };
        for (const auto& c : cases) {
            QStringList args{"project"};
            args += c.args;
            const auto r = cli(args);
            QVERIFY2(r.code == 2, qPrintable(args.join(' ') + " -> " + QString::number(r.code)));
            QVERIFY2(r.err.contains(c.file) && r.err.contains(c.fragment), r.err.constData());
            QVERIFY2(readAll(p) == before, qPrintable("the project changed after: " + args.join(' ')));
        }
        // A graph with homes from a file and drawn ones: listed by info, and a later change on disk is reported.
        write(path("homes-partial.tsv"), "# one home\n1\tdublin\n");
        const auto graph = cli(
            {"project", "import-graph", p, path("g.txt"), "--homes", path("homes-partial.tsv"), "--homes-seed", "7"});
        QVERIFY2(graph.code == 0, graph.err.constData());
        const auto graphs = QJsonDocument::fromJson(graph.out).object().value("graphs").toArray();
        QCOMPARE(graphs.size(), 1);
        QCOMPARE(graphs[0].toObject().value("name").toString(), QString("g"));
        QCOMPARE(graphs[0].toObject().value("edges").toInt(), 2);
        QCOMPARE(graphs[0].toObject().value("homes").toString(),
                 QString("1 from homes-partial.tsv, 2 drawn uniformly over the 3 sites (seed 7)"));
        write(path("g.txt"), "1 2\n2 3\n3 1\n");
        const auto changed = QJsonDocument::fromJson(cli({"info", p}).out).object().value("graphs").toArray();
        QVERIFY(changed[0].toObject().value("changed_on_disk").toString().contains("changed since it was imported"));
        write(path("g.txt"), "# a tiny graph\n1 2\n2 3\n");
        QVERIFY(!QJsonDocument::fromJson(cli({"info", p}).out)
                     .object()
                     .value("graphs")
                     .toArray()[0]
                     .toObject()
                     .contains("changed_on_disk"));
        // Four pins to virginia's 4 slots fit; the CLI accepts exactly that many.
        QCOMPARE(cli({"project", "set-pins", p, "--application", "A", "--pins", path("pins-over.csv")}).code, 0);
        // Hosts that would leave virginia one slot are refused: its four pins no longer fit.
        const QByteArray pinned = readAll(p);
        const auto small = cli({"project", "set-hosts", p, "--hosts", path("hosts-small.csv")});
        QCOMPARE(small.code, 2);
        QVERIFY2(small.err.contains("hosts-small.csv") && small.err.contains("virginia"), small.err.constData());
        QVERIFY(readAll(p) == pinned);
        write(path("hosts-real.csv"), "host,site,slots\nnode01,virginia,2\nnode02,virginia,2\n");
        const auto real = cli({"project", "set-hosts", p, "--hosts", path("hosts-real.csv")});
        QVERIFY2(real.code == 0, real.err.constData());
        // A real NetPIPE run (NPopenmpi -o on localhost): one link, measured both ways.
        // NetPIPE writes no date: the file's modification time is when it finished measuring.
        QVERIFY(QFile::copy(MERIDIAN_TEST_DATA "/netpipe_localhost.out", path("np.out")));
        QFile np(path("np.out"));
        QVERIFY(np.open(QIODevice::ReadWrite));
        QVERIFY(np.setFileTime(QDateTime(QDate(2026, 11, 20), QTime(9, 30), QTimeZone::utc()),
                               QFileDevice::FileModificationTime));
        np.close();
        const auto link = cli(
            {"project", "set-link", p, "--from", "virginia", "--to", "dublin", "--netpipe", path("np.out")});
        QVERIFY2(link.code == 0, link.err.constData());
        const QJsonObject info = QJsonDocument::fromJson(link.out).object();
        const QJsonArray latency = info.value("latency_ms").toArray();
        QCOMPARE(latency.at(0).toArray().at(2).toDouble(), 0.00036); // 1 byte: 0.00000036 s one way
        QCOMPARE(latency.at(2).toArray().at(0).toDouble(), 0.00036);
        // NetPIPE's Mbps are 2^20 bit/s: its peak, 1048573 B in 250.52 us, is 4185.6 MB/s.
        QCOMPARE(info.value("bandwidth_MBps").toArray().at(0).toArray().at(2).toDouble(),
                 31933.521215 * 1048576.0 / 8.0 / 1e6);
        QCOMPARE(info.value("network").toObject().value("latency_entries").toObject().value("measured").toInt(), 2);
        QCOMPARE(info.value("network").toObject().value("newest_measurement").toString(),
                 QString("2026-11-20T09:30:00Z"));
        QVERIFY(readAll(p).contains("node02"));
    }
};

QTEST_GUILESS_MAIN(TestCliProject)
#include "test_cli_project.moc"
