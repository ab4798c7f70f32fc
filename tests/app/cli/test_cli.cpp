#include "app/cli/cli_support.h"
#include "cli_run.h"
#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using meridian::test::qdata;
using meridian::test::sampleProject;

namespace {

using meridian::test::cli;
using meridian::test::readAll;

QString sampleFile(const QString& project, const QString& file)
{
    return QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/" + project + "/" + file;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// What a rank that runs out of memory says: how many ranks would hold the graph, from the vertices read to
    /// those projected (the numbers of a 2 x 10^7-edge graph at np = 1 under a 600 MB limit, as measured), or what a
    /// rank needs when no number of ranks would do, or more memory for a command that runs whole in one process.
    void outOfMemorySaysHowManyRanksWould()
    {
        using meridian::cli::outOfMemoryMessage;
        meridian::cli::OutOfMemory at;
        at.launched = true;
        at.splits = true;
        at.held = {0.21, 2371120, 4642889};
        at.vertices = 7265665;
        at.start = {271e6, 271e6};
        at.end = {581e6, 581e6};
        at.limit = 600e6;
        std::string said = outOfMemoryMessage(at);
        QVERIFY2(said.starts_with("out of memory after reading 21% of the graph, at 581 MB of address space (its "
                                  "limit, ulimit -v, is 600 MB): 2 to 3 ranks with as much memory each would hold"),
                 said.c_str());
        QVERIFY2(said.find("2371120 vertices in the 4642889 edges read") != std::string::npos, said.c_str());
        // Started without a launcher, a rank under one would start with Open MPI's mappings besides: the same
        // room goes to a smaller start, so more ranks.
        // Started without a launcher, a rank under one would start with Open MPI's mappings besides (167 MB).
        meridian::cli::OutOfMemory launched = at;
        launched.start = {104e6, 104e6};
        launched.end = {390e6, 390e6};
        launched.limit = 400e6;
        said = outOfMemoryMessage(launched);
        QVERIFY2(said.find("): 2 to 3 ranks") != std::string::npos, said.c_str());
        meridian::cli::OutOfMemory alone = launched;
        alone.launched = false;
        said = outOfMemoryMessage(alone);
        // Each more rank starts 4.5 MB larger: past some count, more ranks take more memory, not less.
        QVERIFY2(said.find("): at least 3 ranks") != std::string::npos, said.c_str());
        // Over 2 ranks: "its share", and never fewer than one rank more.
        meridian::cli::OutOfMemory share = at;
        share.ranks = 2;
        share.held = {0.5, 1e3, 2e3};
        share.vertices = 1e3;
        said = outOfMemoryMessage(share);
        QVERIFY2(said.find("of its share of the graph") != std::string::npos, said.c_str());
        QVERIFY2(said.find(": about 3 ranks") != std::string::npos, said.c_str());
        // Without a limit, the peak is the memory a rank had.
        meridian::cli::OutOfMemory unlimited = at;
        unlimited.limit = 0;
        unlimited.vertices = unlimited.held.vertices;
        said = outOfMemoryMessage(unlimited);
        QVERIFY2(said.find("at 581 MB of address space: about 2 ranks") != std::string::npos, said.c_str());
        // A limit no number of ranks fits in.
        meridian::cli::OutOfMemory tight = at;
        tight.end = {321e6, 321e6};
        tight.limit = 330e6;
        tight.held = {0.05, 1e6, 1e6};
        tight.vertices = 2e7;
        said = outOfMemoryMessage(tight);
        QVERIFY2(said.ends_with(": no number of ranks fits in 330 MB each (a rank takes 271 MB before it reads, and "
                                "4.5 MB more for each more rank); give each rank more memory"),
                 said.c_str());
        tight.held = {};
        tight.limit = 300e6;
        QCOMPARE(outOfMemoryMessage(tight),
                 std::string("out of memory: no number of ranks fits in 300 MB each (a rank takes 271 MB before it "
                             "reads, and 4.5 MB more for each more rank); give each rank more memory"));
        // HDRF runs whole in one process: no ranks to suggest.
        meridian::cli::OutOfMemory hdrf = at;
        hdrf.splits = false;
        said = outOfMemoryMessage(hdrf);
        QVERIFY2(said.ends_with(
                     ": give the process more memory (only hash, HDRF in batches and Geo-Cut's stage 1 in batches "
                     "split a graph over ranks)"),
                 said.c_str());
        // A command that does not say what it read.
        at.held = {};
        QCOMPARE(outOfMemoryMessage(at),
                 std::string("out of memory: give the job more ranks, or each rank more memory"));
    }
    void printsUsageAndHelp()
    {
        QCOMPARE(cli({}).code, 2);
        QCOMPARE(cli({"--help"}).code, 0);
        for (const char* command : {"info", "generate", "evaluate"}) {
            const auto r = cli({command, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY(r.out.contains("--help"));
        }
        const auto unknown = cli({"frobnicate"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("unknown command"));
        QCOMPARE(cli({"evaluate", "--no-such-option"}).code, 2);
    }

    void infoSummarisesAProject()
    {
        const auto r = cli({"info", sampleProject("ec2-4-regions")});
        QCOMPARE(r.code, 0);
        const auto o = r.json();
        QCOMPARE(o["sites"].toArray().size(), 4);
        QCOMPARE(o["total_slots"].toInt(), 64);
        QCOMPARE(o["applications"].toArray().size(), 6);
        QCOMPARE(o["applications"].toArray()[0].toObject()["name"].toString(), QString("LAMMPS melt 32"));
        QVERIFY(o["applications"].toArray()[0].toObject()["trace_lines"].toDouble() > 0);
        QCOMPARE(o["network"].toObject()["bandwidth_entries"].toObject()["measured"].toInt(), 8);
        QVERIFY(o["network"].toObject()["description"].toString().contains("least squares"));
        QCOMPARE(o["latency_ms"].toArray().size(), 4);
    }

    void generateReproducesTheSampleSidecars()
    {
        QTemporaryDir dir;
        const QString v = dir.filePath("lu.volume.mtx"), a = dir.filePath("lu.messages.mtx");
        const auto r = cli({"generate", "lu", "--processes", "64", "--out", v, "--messages-out", a});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.json()["nonzeros"].toInt(), 224);
        QCOMPARE(readAll(v), readAll(sampleFile("ec2-4-regions", "lu.volume.mtx")));
        QCOMPARE(readAll(a), readAll(sampleFile("ec2-4-regions", "lu.messages.mtx")));
        const QString pins = dir.filePath("pins.csv");
        const auto c = cli({"generate", "constraints", "--processes", "64", "--ratio", "0.2", "--seed", "1", "--sites",
                            sampleFile("ec2-4-regions", "sites.csv"), "--out", pins});
        QCOMPARE(c.code, 0);
        QCOMPARE(readAll(pins), readAll(sampleFile("ec2-4-regions", "lu.pins.csv")));
    }

    void generateRejectsBadRequests()
    {
        QTemporaryDir dir;
        QCOMPARE(cli({"generate", "bt", "--processes", "48", "--out", dir.filePath("x.mtx")}).code, 2);
        QCOMPARE(cli({"generate", "nope", "--out", dir.filePath("x.mtx")}).code, 2);
        QCOMPARE(cli({"generate", "lu", "--processes", "abc", "--out", dir.filePath("x.mtx")}).code, 2);
        QCOMPARE(cli({"generate", "lu"}).code, 2);
        QVERIFY(!QFile::exists(dir.filePath("x.mtx")));
    }

    void evaluateMatchesAHandComputation()
    {
        // tests/data/eval: L = [[1, 10], [20, 2]] ms, B = [[100, 10], [5, 50]] MB/s; 0 in left, 1 and 2 in right.
        // (0,1): 2 x 10 ms + 1 MB / 10 MB/s = 0.12 s; (1,2): 1 x 2 ms + 2 MB / 50 MB/s = 0.042 s;
        // (2,0): 4 x 20 ms + 0.5 MB / 5 MB/s = 0.18 s; (1,1) is self-traffic. Total 0.342 s.
        const auto r = cli({"evaluate", "--sites", qdata("eval/sites.csv"), "--latency", qdata("eval/latency.csv"),
                            "--bandwidth", qdata("eval/bandwidth.csv"), "--volume", qdata("eval/volume.mtx"),
                            "--messages", qdata("eval/messages.mtx"), "--mapping", qdata("eval/mapping.csv")});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto o = r.json();
        QVERIFY(std::abs(o["cost_s"].toDouble() - 0.342) < 1e-12);
        QVERIFY(std::abs(o["latency_s"].toDouble() - 0.102) < 1e-12);
        QVERIFY(std::abs(o["bandwidth_s"].toDouble() - 0.24) < 1e-12);
        QCOMPARE(o["valid"].toBool(), true);
        QCOMPARE(o["sites"].toArray()[1].toObject()["load"].toInt(), 2);
        // CloudMap metrics: 1 -> 2 share host right-00 (intra); 0 -> 1 and 2 -> 0 cross hosts.
        const auto inst = o["instance"].toObject();
        QCOMPARE(inst["intra_bytes"].toDouble(), 2e6);
        QCOMPARE(inst["inter_bytes"].toDouble(), 1.5e6);
        QVERIFY(std::abs(inst["comm_time_s"].toDouble() - 0.2) < 1e-12);
        QCOMPARE(o["traffic_bytes"].toArray()[0].toArray()[1].toDouble(), 1e6);
    }

    void evaluateCountsDollarsWhereSitesHavePrices()
    {
        // The placement above: left uses its one node, right one node (1 and 2 share right-00). Egress: 1 MB
        // leaves left at 0.1 USD/GB and 0.5 MB leaves right at 0.05 USD/GB; instances 2 + 1 USD/h for 0.342 s.
        QTemporaryDir dir;
        const QString sites = dir.filePath("sites.csv");
        QFile file(sites);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("name,lat,lon,nodes,slots,egress_usd_per_GB,instance_usd_per_hour\n"
                   "left,0,0,1,2,0.1,2\nright,0,1,1,2,0.05,1\n");
        file.close();
        const auto r = cli({"evaluate", "--sites", sites, "--latency", qdata("eval/latency.csv"), "--bandwidth",
                            qdata("eval/bandwidth.csv"), "--volume", qdata("eval/volume.mtx"), "--messages",
                            qdata("eval/messages.mtx"), "--mapping", qdata("eval/mapping.csv")});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto d = r.json()["dollars"].toObject();
        QVERIFY(std::abs(d["egress_usd"].toDouble() - 1.25e-4) < 1e-15);
        QCOMPARE(d["instance_usd_per_hour"].toDouble(), 3.0);
        QVERIFY(std::abs(d["instance_usd"].toDouble() - 3.0 * 0.342 / 3600.0) < 1e-15);
        QCOMPARE(d["instance_time"].toString(), QString("cost_s")); // says what time the instances are paid for
        QVERIFY(std::abs(d["total_usd"].toDouble() - (1.25e-4 + 3.0 * 0.342 / 3600.0)) < 1e-15);

        // Without prices every part is null, never zero.
        const auto plain = cli({"evaluate", "--sites", qdata("eval/sites.csv"), "--latency", qdata("eval/latency.csv"),
                                "--bandwidth", qdata("eval/bandwidth.csv"), "--volume", qdata("eval/volume.mtx"),
                                "--mapping", qdata("eval/mapping.csv")});
        QVERIFY2(plain.code == 0, plain.err.constData());
        QVERIFY(plain.json()["dollars"].toObject()["total_usd"].isNull());
        QVERIFY(plain.json()["dollars"].toObject()["egress_usd"].isNull());
    }

    void evaluateListsEveryViolation()
    {
        const auto r = cli({"evaluate", "--sites", qdata("eval/sites.csv"), "--latency", qdata("eval/latency.csv"),
                            "--bandwidth", qdata("eval/bandwidth.csv"), "--volume", qdata("eval/volume.mtx"), "--pins",
                            qdata("eval/pins.csv"), "--mapping", qdata("eval/mapping_invalid.csv")});
        QCOMPARE(r.code, 0);
        const auto o = r.json();
        QCOMPARE(o["valid"].toBool(), false);
        QStringList kinds;
        for (const auto& v : o["violations"].toArray())
            kinds << v.toObject()["kind"].toString();
        QCOMPARE(kinds, (QStringList{"capacity", "slot", "pin"}));
        QCOMPARE(o["messages_given"].toBool(), false);
        QCOMPARE(o["latency_s"].toDouble(), 0.0);
    }

    void evaluateOnASampleMatchesAHandComputation()
    {
        // LU on the 8 x 8 grid of ec2-4-regions, two grid rows per site: rows 0-1 in site 0, 2-3 in site 1, ...
        // Every directed neighbour pair carries 250 iterations x 2 messages (43 KB + 83 KB).
        const auto info = cli({"info", sampleProject("ec2-4-regions")}).json();
        const auto latency = info["latency_ms"].toArray(), bandwidth = info["bandwidth_MBps"].toArray();
        const auto sites = info["sites"].toArray();
        QTemporaryDir dir;
        const QString mapping = dir.filePath("block.csv");
        QFile f(mapping);
        QVERIFY(f.open(QIODevice::WriteOnly));
        for (int p = 0; p < 64; ++p) {
            const QString site = sites[p / 16].toObject()["name"].toString();
            f.write(QString("%1,%2,%2-%3,0\n").arg(p).arg(site).arg(p % 16, 2, 10, QChar('0')).toUtf8());
        }
        f.close();
        double expected = 0;
        for (int p = 0; p < 64; ++p) {
            const int r = p / 8, c = p % 8;
            for (const auto& [nr, nc] : {std::pair{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}}) {
                if (nr < 0 || nr > 7 || nc < 0 || nc > 7)
                    continue;
                const int q = nr * 8 + nc;
                const double l = latency[p / 16].toArray()[q / 16].toDouble() / 1000.0;
                const double b = bandwidth[p / 16].toArray()[q / 16].toDouble() * 1e6;
                expected += 250 * 2 * l + 250 * 126e3 / b;
            }
        }
        const auto r = cli(
            {"evaluate", "--project", sampleProject("ec2-4-regions"), "--application", "LU", "--mapping", mapping});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(std::abs(r.json()["cost_s"].toDouble() - expected) < 1e-9 * expected);
        // The block mapping ignores the 13 pins, which the report must say.
        QVERIFY(!r.json()["violations"].toArray().isEmpty());
        for (const auto& v : r.json()["violations"].toArray())
            QCOMPARE(v.toObject()["kind"].toString(), QString("pin"));
    }

    void evaluateReportsBadInputWithFileAndLine()
    {
        const auto r = cli({"evaluate", "--sites", qdata("eval/sites.csv"), "--volume", qdata("mm_negative.mtx"),
                            "--mapping", qdata("eval/mapping.csv")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("mm_negative.mtx:4:5:"), r.err.constData());
        const auto unknownApp = cli({"evaluate", "--project", sampleProject("ec2-4-regions"), "--application", "XX",
                                     "--mapping", qdata("eval/mapping.csv")});
        QCOMPARE(unknownApp.code, 2);
        QVERIFY(unknownApp.err.contains("LU, BT, SP, K-means, DNN"));
        QCOMPARE(cli({"evaluate", "--project", sampleProject("ec2-4-regions")}).code, 2);
        const auto wrongMapping = cli(
            {"evaluate", "--project", sampleProject("ec2-4-regions"), "--mapping", qdata("eval/mapping.csv")});
        QCOMPARE(wrongMapping.code, 2);
        QVERIFY(wrongMapping.err.contains("unknown site 'left'"));
    }
    void mapWritesTheMappingARankfileAndHostfiles()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("mapping.csv"), rf = dir.filePath("rankfile"), hf = dir.filePath("hosts"),
                      sf = dir.filePath("slurm");
        const auto r = cli({"map", "--project", sampleProject("ec2-4-regions"), "--application", "LU", "--algorithm",
                            "geo", "--seed", "3", "--out", out, "--rankfile", rf, "--hostfile", hf, "--slurm-hostfile",
                            sf});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto o = r.json();
        QCOMPARE(o["algorithm"].toString(), QString("geo"));
        QCOMPARE(o["parameters"].toObject()["kappa"].toInt(), 0);
        QCOMPARE(o["processes"].toInt(), 64);
        QVERIFY(o["runtime_s"].toDouble() > 0.0);
        QVERIFY(o["cost_s"].toDouble() > 0.0);
        QVERIFY(std::abs(o["latency_s"].toDouble() + o["bandwidth_s"].toDouble() - o["cost_s"].toDouble())
                < 1e-9 * o["cost_s"].toDouble());
        const auto lines = readAll(rf).split('\n');
        QCOMPARE(lines.size(), 67); // two comment lines, 64 ranks, final newline
        QVERIFY(lines[0].contains("mpirun -np 64 --rankfile"));
        QVERIFY(lines[2].startsWith("rank 0="));
        QVERIFY(lines[65].startsWith("rank 63="));
        QCOMPARE(readAll(hf).count('\n'), 64);
        QCOMPARE(readAll(sf).count('\n'), 64);
        // The written mapping evaluates to the same cost and is valid.
        const auto e = cli(
            {"evaluate", "--project", sampleProject("ec2-4-regions"), "--application", "LU", "--mapping", out});
        QVERIFY2(e.code == 0, e.err.constData());
        QVERIFY(std::abs(e.json()["cost_s"].toDouble() - o["cost_s"].toDouble()) < 1e-9 * o["cost_s"].toDouble());
        QCOMPARE(e.json()["valid"].toBool(), true);
    }

    void mapFromRawFilesFindsTheHandOptimum()
    {
        // tests/data/eval with process 0 pinned left: of the feasible mappings, {0} left and {1, 2} right
        // is cheapest at 0.342 s (the others cost 0.402 s and 0.549 s).
        QTemporaryDir dir;
        const auto r = cli({"map", "--sites", qdata("eval/sites.csv"), "--latency", qdata("eval/latency.csv"),
                            "--bandwidth", qdata("eval/bandwidth.csv"), "--volume", qdata("eval/volume.mtx"),
                            "--messages", qdata("eval/messages.mtx"), "--pins", qdata("eval/pins.csv"), "--algorithm",
                            "refine", "--param", "start=random", "--out", dir.filePath("m.csv")});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(std::abs(r.json()["cost_s"].toDouble() - 0.342) < 1e-12);
        QCOMPARE(r.json()["sites"].toArray()[1].toObject()["load"].toInt(), 2);
    }

    void mapRejectsBadRequestsAndWritesNothing()
    {
        QTemporaryDir dir;
        const QString rf = dir.filePath("rankfile");
        const auto badParam = cli({"map", "--project", sampleProject("ec2-4-regions"), "--algorithm", "geo", "--param",
                                   "kappa=99", "--rankfile", rf});
        QCOMPARE(badParam.code, 2);
        QVERIFY2(badParam.err.contains("parameter 'kappa' is 99, out of range"), badParam.err.constData());
        QVERIFY(!QFile::exists(rf));
        const auto badAlgo = cli({"map", "--project", sampleProject("ec2-4-regions"), "--algorithm", "magic"});
        QCOMPARE(badAlgo.code, 2);
        QVERIFY(badAlgo.err.contains("unknown algorithm 'magic' (known: random, round-robin"));
        const auto badSeed = cli({"map", "--project", sampleProject("ec2-4-regions"), "--seed", "-4"});
        QCOMPARE(badSeed.code, 2);
        const auto tooMany = cli({"map", "--sites", qdata("eval/sites.csv"), "--volume", qdata("mm_negative.mtx")});
        QCOMPARE(tooMany.code, 2);
    }

    void compareNormalisesToRandom()
    {
        const auto r = cli({"compare", "--project", sampleProject("ec2-4-regions"), "--application", "BT",
                            "--algorithms", "geo,refine", "--seeds", "2", "--param", "refine:restarts=2"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto rows = r.json()["results"].toArray();
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0].toObject()["algorithm"].toString(), QString("random"));
        QVERIFY(std::abs(rows[0].toObject()["normalized_to_random"].toDouble() - 1.0) < 1e-12);
        const double geo = rows[1].toObject()["normalized_to_random"].toDouble();
        const double refine = rows[2].toObject()["normalized_to_random"].toDouble();
        QVERIFY(geo < 1.0);
        QVERIFY(refine <= geo);
        QCOMPARE(rows[2].toObject()["parameters"].toObject()["restarts"].toInt(), 2);
        const auto csv = cli({"compare", "--project", sampleProject("ec2-4-regions"), "--algorithms", "greedy",
                              "--seeds", "1", "--format", "csv"});
        QVERIFY2(csv.code == 0, csv.err.constData());
        QVERIFY(csv.out.startsWith(
            "algorithm,seeds,mean_cost_s,min_cost_s,max_cost_s,normalized_to_random,mean_runtime_s\nrandom,1,"));
        QCOMPARE(cli({"compare", "--project", sampleProject("ec2-4-regions"), "--param", "geo:kappa=2", "--algorithms",
                      "greedy"})
                     .code,
                 2);
    }

    void listAlgorithmsShowsParametersAndDefaults()
    {
        const auto r = cli({"list-algorithms"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto list = r.json()["algorithms"].toArray();
        QCOMPARE(list.size(), 11);
        QJsonObject geo;
        for (const auto& a : list)
            if (a.toObject()["id"].toString() == "geo")
                geo = a.toObject();
        const auto kappa = geo["parameters"].toArray()[0].toObject();
        QCOMPARE(kappa["name"].toString(), QString("kappa"));
        QCOMPARE(kappa["default"].toInt(), 0);
        QCOMPARE(kappa["maximum"].toInt(), 7);
        QVERIFY(!kappa["help"].toString().isEmpty());
    }
    void partitionWritesOneLinePerEdgeAndReportsTheGasMetrics()
    {
        QTemporaryDir dir;
        const QString e = dir.filePath("e.tsv"), m = dir.filePath("m.tsv");
        const auto r = cli({"partition", "--graph", qdata("graphs/tiny.txt"), "--sites", qdata("graphs/two_sites.csv"),
                            "--homes", qdata("graphs/homes_partial.tsv"), "--algorithm", "geo-cut", "--budget", "1",
                            "--out", e, "--masters", m, "--no-cache"});
        QVERIFY2(r.code == 0, r.err.constData());
        const auto o = r.json();
        QCOMPARE(o["graph"].toObject()["edges"].toInt(), 5);
        QCOMPARE(o["graph"].toObject()["self_loops_dropped"].toInt(), 1);
        QCOMPARE(o["homes"].toObject()["random"].toInt(), 2);
        QCOMPARE(o["budget"].toObject()["status"].toString(), QString("within budget"));
        for (const char* key :
             {"replication_factor", "transfer_time_s", "wan_cost_usd", "wan_bytes", "runtime_s", "edges_per_second",
              "partitioning_edges_per_second", "peak_memory_bytes", "evaluate_s", "write_s", "whole_s"})
            QVERIFY2(o.contains(key), key);
        // edges_per_second is the whole command's: reading, partitioning, evaluating and writing.
        const double whole = o["whole_s"].toDouble();
        QVERIFY(whole
                >= o["graph"].toObject()["load_s"].toDouble() + o["runtime_s"].toDouble() + o["write_s"].toDouble());
        QCOMPARE(o["edges_per_second"].toDouble(), 5 / whole);
        QCOMPARE(o["sites"].toArray().size(), 2);
        const auto lines = readAll(e).split('\n');
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines[0].startsWith("100\t7\t"));
        QCOMPARE(readAll(m).count('\n'), 4);

        // Apply an update: delete the duplicate 100 -> 7, insert 42 -> 100 and a new vertex.
        QFile ins(dir.filePath("ins.txt")), del(dir.filePath("del.txt"));
        QVERIFY(ins.open(QIODevice::WriteOnly) && del.open(QIODevice::WriteOnly));
        ins.write("42\t100\n5\t42\n");
        del.write("100\t7\n");
        ins.close();
        del.close();
        const auto u = cli({"update", "--partition", e, "--masters", m, "--sites", qdata("graphs/two_sites.csv"),
                            "--insert", ins.fileName(), "--delete", del.fileName(), "--out", dir.filePath("e2.tsv"),
                            "--from-scratch"});
        QVERIFY2(u.code == 0, u.err.constData());
        QCOMPARE(u.json()["inserted"].toInt(), 2);
        QCOMPARE(u.json()["deleted"].toInt(), 1);
        QCOMPARE(u.json()["graph"].toObject()["edges"].toInt(), 6);
        QVERIFY(u.json().contains("from_scratch"));
        QCOMPARE(readAll(dir.filePath("e2.tsv")).count('\n'), 6);

        // Deleting an edge that is not there names the batch file and line, and writes nothing.
        QFile missing(dir.filePath("missing.txt"));
        QVERIFY(missing.open(QIODevice::WriteOnly));
        missing.write("# two deletions\n100\t7\n7\t100\n");
        missing.close();
        const auto bad = cli({"update", "--partition", e, "--masters", m, "--sites", qdata("graphs/two_sites.csv"),
                              "--delete", missing.fileName(), "--out", dir.filePath("e3.tsv")});
        QVERIFY(bad.code != 0);
        QVERIFY2(bad.err.contains("missing.txt:3: deleting edge 7 -> 100: the graph has no such edge left to delete"),
                 bad.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("e3.tsv")));
    }

    void partitionRejectsBadInputAndWritesNothing()
    {
        QTemporaryDir dir;
        const QString e = dir.filePath("e.tsv");
        const auto negative = cli({"partition", "--graph", qdata("graphs/tiny.txt"), "--sites",
                                   qdata("graphs/two_sites.csv"), "--budget", "-1", "--out", e});
        QCOMPARE(negative.code, 2);
        QVERIFY(negative.err.contains("non-negative"));
        const auto noDownlink = cli({"partition", "--graph", qdata("graphs/tiny.txt"), "--sites",
                                     qdata("graphs/sites_no_downlink.csv"), "--out", e});
        QCOMPARE(noDownlink.code, 2);
        QVERIFY2(noDownlink.err.contains("site 'A' has no downlink"), noDownlink.err.constData());
        const auto badHomes = cli({"partition", "--graph", qdata("graphs/tiny.txt"), "--sites",
                                   qdata("graphs/two_sites.csv"), "--homes", qdata("graphs/homes_unknown_site.tsv"),
                                   "--out", e, "--no-cache"});
        QCOMPARE(badHomes.code, 2);
        QVERIFY2(badHomes.err.contains("homes_unknown_site.tsv:2:3: unknown site 'Mars'"), badHomes.err.constData());
        const auto badGraph = cli({"partition", "--graph", qdata("graphs/snap_negative.txt"), "--sites",
                                   qdata("graphs/two_sites.csv"), "--out", e, "--no-cache"});
        QCOMPARE(badGraph.code, 2);
        QVERIFY(badGraph.err.contains("snap_negative.txt:2:3"));
        QVERIFY(!QFile::exists(e));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
