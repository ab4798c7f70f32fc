#include "cli_run.h"
#include "partition_json.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <vector>

/// `mpirun -np N meridian-cli ...` gives, for N = 1, 2 and 3 (1 and 3 under a sanitizer), what one process without
/// a launcher gives: the Monte Carlo mapper's placement, its kept costs and best-so-far curve, compare's table, the
/// sweeps' costs, the Pareto sweep's runs, the budget sweep's points, and the partition and masters files of hash, HDRF in batches and Geo-Cut's
/// stage 1 in batches. Commands that would run whole on every rank are refused, with one
/// message.
class TestDistributedCli : public QObject {
    Q_OBJECT

private:
    QString m_project = QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/ec2-4-regions/ec2-4-regions.meridian";

    /// The numbers of ranks each case compares with one process: 1, 2 and 3 (3 splits unevenly). Under a
    /// sanitizer, where each rank starts several times slower, 1 and 3.
    static std::vector<int> rankCounts()
    {
        return meridian::test::kUnderSanitizer ? std::vector<int>{1, 3} : std::vector<int>{1, 2, 3};
    }

    /// Runs meridian-cli under Open MPI's mpirun with `ranks` processes on this machine.
    static meridian::test::CliRun mpirun(int ranks, const QStringList& args)
    {
        QProcess p;
        QStringList env = QProcess::systemEnvironment();
        env << "OMPI_MCA_plm_rsh_agent=false"; // never ssh: every rank runs here
        // Open MPI's finalize leaves its plugins' allocations behind (its own test programs are not instrumented
        // for that reason); a sanitizer build still checks every access meridian-cli makes.
        for (QString& e : env)
            if (e.startsWith("ASAN_OPTIONS="))
                e += ":detect_leaks=0";
        p.setEnvironment(env);
        p.start(MERIDIAN_MPIRUN,
                QStringList{"--allow-run-as-root", "--oversubscribe", "-np", QString::number(ranks), MERIDIAN_CLI}
                    + args);
        if (!p.waitForFinished(300000)) {
            // A rank that waits forever for another is the failure this test looks for: end the job, say so.
            p.terminate();
            if (!p.waitForFinished(10000))
                p.kill();
            p.waitForFinished(10000);
            return {-1, p.readAllStandardOutput(), "timed out after 300 s: " + p.readAllStandardError(), 0.0};
        }
        if (p.exitStatus() != QProcess::NormalExit)
            return {-1, p.readAllStandardOutput(), "mpirun crashed: " + p.readAllStandardError(), 0.0};
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError(), 0.0};
    }

    /// The JSON without what differs from run to run (the runtime) or names the output file.
    static QJsonObject comparable(QJsonObject o)
    {
        o.remove("runtime_s");
        o.remove("written");
        return o;
    }

    static QByteArray readAll(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static void writeAll(const QString& path, const QByteArray& bytes)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

private Q_SLOTS:
    void monteCarloIsTheSameOnAnyNumberOfRanks()
    {
        QTemporaryDir dir;
        // 30 chunks of 4096 samples: three ranks take 10 each; the kept costs span the first two ranks' shares.
        const QStringList args{"map",     "--project",      m_project, "--algorithm", "monte-carlo",
                               "--param", "samples=122000", "--param", "keep=50000",  "--seed",
                               "7"};
        const auto alone = meridian::test::cli(args + QStringList{"--out", dir.filePath("alone.csv")});
        QVERIFY2(alone.code == 0, alone.err.constData());
        const QJsonObject expected = comparable(alone.json());
        QVERIFY(expected["samples"].toObject()["kept"].toInt() == 50000);
        QVERIFY(expected["best_curve"].toArray().size() > 5);
        for (int ranks : rankCounts()) {
            const QString out = dir.filePath(QString("ranks%1.csv").arg(ranks));
            const auto run = mpirun(ranks, args + QStringList{"--out", out});
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(comparable(run.json()), expected);
            QCOMPARE(meridian::test::readAll(out), meridian::test::readAll(dir.filePath("alone.csv")));
        }
    }

    void compareIsTheSameOnAnyNumberOfRanks()
    {
        // 4 mappers x 5 seeds = 20 runs: blocks of 20, 10 and 7 runs.
        const QStringList args{"compare",
                               "--project",
                               m_project,
                               "--algorithms",
                               "random,geo,greedy,monte-carlo",
                               "--param",
                               "monte-carlo:samples=3000",
                               "--seeds",
                               "5",
                               "--format",
                               "csv"};
        // The runtimes (last column) are each run's own.
        const auto table = [](const QByteArray& csv) {
            return QString::fromUtf8(csv).replace(QRegularExpression(",[^,\n]*\n"), "\n");
        };
        const auto alone = meridian::test::cli(args);
        QVERIFY2(alone.code == 0, alone.err.constData());
        QVERIFY(table(alone.out).count('\n') == 5);
        for (int ranks : rankCounts()) {
            const auto run = mpirun(ranks, args);
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(table(run.out), table(alone.out));
        }
    }

    void refineReplaysOnARank()
    {
        // refine judges its last candidates with an SMPI replay: smpirun started from inside an Open MPI rank.
        const QStringList args{"compare",           "--project", m_project, "--algorithms", "refine", "--param",
                               "refine:searches=2", "--seeds",   "2",       "--format",     "csv"};
        const auto table = [](const QByteArray& csv) {
            return QString::fromUtf8(csv).replace(QRegularExpression(",[^,\n]*\n"), "\n");
        };
        const auto alone = meridian::test::cli(args, 120000);
        QVERIFY2(alone.code == 0, alone.err.constData());
        const auto run = mpirun(2, args);
        QVERIFY2(run.code == 0, run.err.constData());
        QCOMPARE(table(run.out), table(alone.out));
        const auto notes = meridian::test::cli({"map", "--project", m_project, "--algorithm", "refine", "--param",
                                                "searches=2"},
                                               120000);
        QVERIFY2(notes.out.contains("replayed the last two candidates"), notes.out.constData());
    }

    void sweepsAreTheSameOnAnyNumberOfRanks()
    {
        // The runtimes are each run's own.
        const auto costs = [](QJsonObject o) {
            QJsonArray rows;
            for (const auto& row : o["results"].toArray()) {
                QJsonObject r = row.toObject();
                r.remove("mean_runtime_s");
                rows.append(r);
            }
            o["results"] = rows;
            return o;
        };
        // 3 points x 3 seeds = 9 units (blocks of 9, 5 and 4, 3 each); 2 counts x 2 seeds = 4 units.
        for (const QStringList& args :
             {QStringList{"sweep", "--project", m_project, "--points", "0,0.25,0.5", "--algorithms", "geo,greedy",
                          "--seeds", "3"},
              QStringList{"sweep", "--project", m_project, "--kind", "processes", "--pattern", "lu", "--points",
                          "16,32", "--algorithms", "geo,greedy", "--seeds", "2"}}) {
            const auto alone = meridian::test::cli(args, 120000);
            QVERIFY2(alone.code == 0, alone.err.constData());
            const QJsonObject expected = costs(alone.json());
            QCOMPARE(expected["results"].toArray().size(), 2);
            for (int ranks : rankCounts()) {
                const auto run = mpirun(ranks, args);
                QVERIFY2(run.code == 0, run.err.constData());
                QCOMPARE(costs(run.json()), expected);
            }
        }
        // Points out of range are refused before anything runs.
        const auto bad = meridian::test::cli({"sweep", "--project", m_project, "--points", "0,1.5"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.contains("--points: '1.5' is not a ratio between 0 and 1"));
        const auto count = meridian::test::cli(
            {"sweep", "--project", m_project, "--kind", "processes", "--points", "16,2.5"});
        QCOMPARE(count.code, 2);
        QVERIFY(count.err.contains("'2.5' is not a whole process count of at least 2"));
    }

    void paretoIsTheSameOnAnyNumberOfRanks()
    {
        // Each run's notes name its weight ("objective: 0.750000 x time / ..."), so runs out of order would differ.
        // Over 2 and 3 ranks the runs travel as runs files' text, whose numbers must read back exactly.
        const auto withoutRuntimes = [](QJsonObject o) {
            QJsonArray runs;
            for (const auto& run : o["runs"].toArray()) {
                QJsonObject r = run.toObject();
                QJsonObject metrics = r["metrics"].toObject();
                metrics.remove("runtime_s");
                r["metrics"] = metrics;
                runs.append(r);
            }
            o["runs"] = runs;
            return o;
        };
        // A small search per weight (two searches): the test is about where the runs go, not how good they are.
        const QStringList args{"pareto", "--project", m_project, "--points", "5", "--param", "searches=2"};
        const auto alone = meridian::test::cli(args, 120000);
        QVERIFY2(alone.code == 0, alone.err.constData());
        const QJsonObject expected = withoutRuntimes(alone.json());
        QCOMPARE(expected["runs"].toArray().size(), 5);
        QVERIFY(expected["runs"].toArray()[3].toObject()["notes"].toArray()[1].toString().contains(
            "objective: 0.250000 x time"));
        for (int ranks : rankCounts()) {
            const auto run = mpirun(ranks, args);
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(withoutRuntimes(run.json()), expected);
        }
        const auto refused = meridian::test::cli({"pareto", "--project", m_project, "--param", "weight=0.3"});
        QCOMPARE(refused.code, 2);
        QVERIFY(refused.err.contains("the sweep sets refine's objective and weight itself"));
    }

    void scotchMapsOnPtScotchOverTheRanks()
    {
        // scotch-bw with parallel=true: PT-Scotch partitions the processes over the ranks, then the parts go onto
        // the sites. A valid mapping at every number of ranks, the same one again for the same number, as good as
        // one process's Scotch here; refused without a launcher.
        const QStringList args{"map",         "--project", m_project, "--application", "LAMMPS melt 32",
                               "--algorithm", "scotch-bw", "--param", "parallel=true"};
        QTemporaryDir dir;
        const auto alone = meridian::test::cli(args + QStringList{"--out", dir.filePath("alone.csv")});
        QCOMPARE(alone.code, 2);
        QVERIFY2(alone.err.contains(
                     "mapping on PT-Scotch (parallel=true) runs only in 'meridian-cli map' under an MPI launcher"),
                 alone.err.constData());
        const auto sequential = meridian::test::cli(
            {"map", "--project", m_project, "--application", "LAMMPS melt 32", "--algorithm", "scotch-bw"});
        QVERIFY2(sequential.code == 0, sequential.err.constData());
        if (meridian::test::kUnderSanitizer) {
            const auto refused = mpirun(1, args);
            QVERIFY(refused.code != 0);
            QVERIFY2(refused.err.contains("RTLD_DEEPBIND, which the sanitizers' runtimes do not allow"),
                     refused.err.constData());
            return;
        }
        for (int ranks : rankCounts()) {
            const QString out = dir.filePath(QString("np%1.csv").arg(ranks));
            const auto run = mpirun(ranks, args + QStringList{"--out", out});
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(readAll(out).count('\n'), 33); // a header and 32 processes
            QVERIFY2(QJsonDocument(run.json()["notes"].toArray())
                         .toJson()
                         .contains(QString("PT-Scotch over %1 rank(s): 4 parts").arg(ranks).toUtf8()),
                     run.out.constData());
            QVERIFY(run.json()["cost_s"].toDouble() <= 1.05 * sequential.json()["cost_s"].toDouble());
            const auto again = mpirun(ranks, args + QStringList{"--out", out + ".again"});
            QVERIFY2(again.code == 0, again.err.constData());
            QVERIFY(readAll(out + ".again") == readAll(out));
        }
        // Fewer processes than ranks: a rank with no vertex of the graph still takes part.
        writeAll(dir.filePath("sites.csv"), "name,lat,lon,nodes,slots\na,0,0,2,2\nb,0,90,2,2\n");
        writeAll(dir.filePath("volume.mtx"), "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1e6\n");
        const auto tiny = mpirun(3,
                                 {"map", "--sites", dir.filePath("sites.csv"), "--volume", dir.filePath("volume.mtx"),
                                  "--algorithm", "scotch-bw", "--param", "parallel=true", "--out",
                                  dir.filePath("tiny.csv")});
        QVERIFY2(tiny.code == 0, tiny.err.constData());
        QCOMPARE(readAll(dir.filePath("tiny.csv")).count('\n'), 3);
        // compare runs each mapper in one process: PT-Scotch is refused there, saying where it runs.
        const auto compared = mpirun(1,
                                     {"compare", "--project", m_project, "--application", "LAMMPS melt 32",
                                      "--algorithms", "scotch-bw", "--seeds", "1", "--param",
                                      "scotch-bw:parallel=true"});
        QVERIFY(compared.code != 0);
        QVERIFY2(compared.err.contains("runs only in 'meridian-cli map'"), compared.err.constData());
    }

    void budgetSweepIsTheSameOnAnyNumberOfRanks()
    {
        // 2 fractions x 3 partitioners = 6 points (blocks of 6, 3 and 2); rank 0 finds B, GrapH's cost, and rank 1
        // (rank 0 alone) the bound, which skips 0.05.
        const QString project = QString(MERIDIAN_SOURCE_DIR)
            + "/sample_projects/geo-cut-ec2-8-regions/geo-cut-ec2-8-regions.meridian";
        const QStringList args{"budget-sweep", "--project",  project,   "--algorithms",      "geo-cut,g-cut,hdrf",
                               "--fractions",  "1,0.8,0.05", "--param", "geo-cut:effort=0.1"};
        const auto alone = meridian::test::cli(args, 120000);
        QVERIFY2(alone.code == 0, alone.err.constData());
        const QJsonObject expected = meridian::test::withoutPointRuntimes(alone.json());
        QCOMPARE(expected["points"].toArray().size(), 6);
        QCOMPARE(expected["skipped_fractions"].toArray().size(), 1);
        for (int ranks : rankCounts()) {
            const auto run = mpirun(ranks, args);
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(meridian::test::withoutPointRuntimes(run.json()), expected);
        }
    }

    void partitionIsTheSameOnAnyNumberOfRanks()
    {
        // hash, HDRF and Geo-Cut's stage 1 in batches on Wiki-Vote (1 MB: cut into 64 KiB chunks, so that every rank reads a part), with homes drawn at
        // random and with the sample's homes file: the same partition and masters, byte for byte, and the same
        // metrics as one process.
        const QString folder = QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/geo-cut-ec2-8-regions";
        const QString graph = folder + "/wiki-vote.txt";
        const QString project = folder + "/geo-cut-ec2-8-regions.meridian";
        QTemporaryDir dir;
        const QList<QStringList> algorithms{{"--algorithm", "hash"},
                                            {"--algorithm", "hdrf", "--param", "batch=4096"},
                                            {"--algorithm", "geo-cut", "--param", "start=cost", "--param", "batch=4096",
                                             "--param", "lq_fraction=0", "--param", "replica_passes=0"}};
        for (const QStringList& homes : {QStringList{}, QStringList{"--homes", folder + "/wiki-vote.homes.tsv"}})
            for (const QStringList& algorithm : algorithms) {
                const QStringList args = QStringList{"partition", "--graph", graph, "--project",
                                                     project,     "--seed",  "5",   "--no-cache"}
                    + algorithm + homes;
                const auto alone = meridian::test::cli(
                    args + QStringList{"--out", dir.filePath("e.tsv"), "--masters", dir.filePath("m.tsv")});
                QVERIFY2(alone.code == 0, alone.err.constData());
                const QByteArray edges = readAll(dir.filePath("e.tsv")), masters = readAll(dir.filePath("m.tsv"));
                QCOMPARE(edges.count('\n'), 103689);
                for (int ranks : rankCounts()) {
                    const QString e = dir.filePath(QString("e%1.tsv").arg(ranks)),
                                  m = dir.filePath(QString("m%1.tsv").arg(ranks));
                    const auto run = mpirun(ranks, args + QStringList{"--out", e, "--masters", m});
                    QVERIFY2(run.code == 0, run.err.constData());
                    QVERIFY2(readAll(e) == edges, qPrintable(QString("%1 ranks").arg(ranks)));
                    QVERIFY(readAll(m) == masters);
                    QCOMPARE(meridian::test::withoutTimes(run.json()), meridian::test::withoutTimes(alone.json()));
                    if (ranks > 1)
                        QCOMPARE(run.json()["rank_peak_memory_bytes"].toArray().size(), ranks);
                    // Nothing is left beside the outputs.
                    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).filter(".part-").size(), 0);
                }
            }

        // A file of one chunk: every rank but rank 0 has an empty part, and exchanges messages of nothing.
        const QString data = QString(MERIDIAN_SOURCE_DIR) + "/tests/data/graphs/";
        const QStringList tiny{"partition",
                               "--graph",
                               data + "tiny.txt",
                               "--sites",
                               data + "two_sites.csv",
                               "--homes",
                               data + "homes_partial.tsv",
                               "--algorithm",
                               "hash",
                               "--no-cache"};
        const auto tinyAlone = meridian::test::cli(
            tiny + QStringList{"--out", dir.filePath("t.tsv"), "--masters", dir.filePath("tm.tsv")});
        QVERIFY2(tinyAlone.code == 0, tinyAlone.err.constData());
        const auto tinySplit = mpirun(3,
                                      tiny
                                          + QStringList{"--out", dir.filePath("t3.tsv"), "--masters",
                                                        dir.filePath("tm3.tsv")});
        QVERIFY2(tinySplit.code == 0, tinySplit.err.constData());
        QCOMPARE(readAll(dir.filePath("t3.tsv")), readAll(dir.filePath("t.tsv")));
        QCOMPARE(readAll(dir.filePath("tm3.tsv")), readAll(dir.filePath("tm.tsv")));

        // A bad line in the last rank's part is reported at its line of the file, as one process reports it, and
        // nothing is written.
        QByteArray text = readAll(graph);
        const auto at = text.lastIndexOf('\n', text.size() - 2000) + 1;
        const auto line = text.left(at).count('\n') + 1;
        text.insert(at, "12 x3\n");
        const QString bad = dir.filePath("bad.txt");
        writeAll(bad, text);
        const QStringList badArgs{"partition",   "--graph", bad,          "--project", project,
                                  "--algorithm", "hash",    "--no-cache", "--out",     dir.filePath("never.tsv")};
        const auto aloneBad = meridian::test::cli(badArgs);
        QCOMPARE(aloneBad.code, 2);
        QVERIFY2(aloneBad.err.contains(QString("bad.txt:%1:4:").arg(line).toUtf8()), aloneBad.err.constData());
        const auto splitBad = mpirun(3, badArgs);
        QCOMPARE(splitBad.code, 2);
        QCOMPARE(QString::fromUtf8(splitBad.err).count("meridian-cli: error:"), 1);
        QVERIFY2(splitBad.err.contains(aloneBad.err.trimmed()), splitBad.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("never.tsv")));
        // A homes file naming a vertex the graph lacks: its line, as one process says it.
        QByteArray homes = readAll(folder + "/wiki-vote.homes.tsv");
        homes.append("99999999\tNC\n");
        writeAll(dir.filePath("homes.tsv"), homes);
        const QStringList homesArgs{"partition",  "--graph", graph,
                                    "--project",  project,   "--algorithm",
                                    "hash",       "--homes", dir.filePath("homes.tsv"),
                                    "--no-cache", "--out",   dir.filePath("never.tsv")};
        const auto aloneHomes = meridian::test::cli(homesArgs);
        QCOMPARE(aloneHomes.code, 2);
        QVERIFY2(aloneHomes.err.contains("vertex 99999999 is not in the graph"), aloneHomes.err.constData());
        const auto splitHomes = mpirun(2, homesArgs);
        QCOMPARE(splitHomes.code, 2);
        QVERIFY2(splitHomes.err.contains(aloneHomes.err.trimmed()), splitHomes.err.constData());
        // HDRF one edge at a time places each edge from those before it: refused once, before any work, with the
        // parameter that splits it; so is a partitioner that does not split at all.
        const auto hdrf = mpirun(2,
                                 {"partition", "--graph", graph, "--project", project, "--algorithm", "hdrf", "--out",
                                  dir.filePath("never.tsv")});
        QCOMPARE(hdrf.code, 2);
        QCOMPARE(QString::fromUtf8(hdrf.err).count("meridian-cli: error:"), 1);
        QVERIFY2(hdrf.err.contains("--param batch=65536"), hdrf.err.constData());
        const auto greedy = mpirun(2,
                                   {"partition", "--graph", graph, "--project", project, "--algorithm", "greedy",
                                    "--out", dir.filePath("never.tsv")});
        QCOMPARE(greedy.code, 2);
        QVERIFY2(greedy.err.contains("only for hash, HDRF in batches and Geo-Cut's stage 1 in batches"),
                 greedy.err.constData());
        // Geo-Cut's stages 2 and 3 refine the whole graph: refused with the parameters of its stage 1 in batches.
        const auto geoCut = mpirun(2,
                                   {"partition", "--graph", graph, "--project", project, "--algorithm", "geo-cut",
                                    "--param", "batch=4096", "--out", dir.filePath("never.tsv")});
        QCOMPARE(geoCut.code, 2);
        QVERIFY2(geoCut.err.contains("--param start=cost --param batch=65536 --param lq_fraction=0 --param "
                                     "replica_passes=0"),
                 geoCut.err.constData());
        // So is its stage 1 in batches followed by the refining stages (their defaults).
        const auto refined = mpirun(2,
                                    {"partition", "--graph", graph, "--project", project, "--algorithm", "geo-cut",
                                     "--param", "start=cost", "--param", "batch=4096", "--out",
                                     dir.filePath("never.tsv")});
        QCOMPARE(refined.code, 2);
        QVERIFY2(refined.err.contains("stages 2 and 3 refine the whole graph"), refined.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("never.tsv")));
    }

    void aFailureStopsEveryRankWithOneMessage()
    {
        // sp needs a square number of processes: the point 10 fails, and over 2 or 3 ranks only on rank 1, which
        // holds that unit (2 units: blocks of 1, 1 and 0).
        const QStringList args{"sweep",    "--project", m_project, "--kind", "processes",    "--pattern", "sp",
                               "--points", "16,10",     "--seeds", "1",      "--algorithms", "geo"};
        const auto alone = meridian::test::cli(args);
        QCOMPARE(alone.code, 2);
        QVERIFY2(alone.err.contains("10 processes: ") && alone.err.contains("square number"), alone.err.constData());
        for (int ranks : {2, 3}) {
            const auto run = mpirun(ranks, args);
            QCOMPARE(run.code, 2);
            QVERIFY(run.out.isEmpty());
            const QString err = QString::fromUtf8(run.err);
            QCOMPARE(err.count("meridian-cli: error:"), 1);
            QVERIFY2(err.contains(QString("rank 1 of %1: 10 processes: ").arg(ranks)), qPrintable(err));
        }
        // Inputs that no rank can read stop every rank before any work, with one message.
        const auto missing = mpirun(3, {"map", "--project", "/nonexistent/p.meridian", "--algorithm", "monte-carlo"});
        QCOMPARE(missing.code, 2);
        QCOMPARE(QString::fromUtf8(missing.err).count("meridian-cli: error:"), 1);
        QVERIFY2(missing.err.contains("/nonexistent/p.meridian"), missing.err.constData());
    }

    void aCommandThatRunsWholeIsRefusedOnce()
    {
        for (const QStringList& args :
             {QStringList{"info", m_project}, QStringList{"map", "--project", m_project, "--algorithm", "geo"}}) {
            const auto run = mpirun(2, args);
            QCOMPARE(run.code, 2);
            QVERIFY(run.out.isEmpty());
            QCOMPARE(QString::fromUtf8(run.err).count("runs whole in one process"), 1);
        }
        const auto report = mpirun(2, {"report", "--project", m_project, "--out", "/tmp/never.pdf"});
        QCOMPARE(report.code, 2);
        QCOMPARE(QString::fromUtf8(report.err).count("runs whole in one process"), 1);
        const auto unknown = mpirun(2, {"mapp"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("unknown command 'mapp'"));
        // One rank is one process: nothing to refuse.
        const auto one = mpirun(1, {"info", m_project});
        QVERIFY2(one.code == 0, one.err.constData());
        QVERIFY(one.json().contains("sites"));
    }
};

QTEST_GUILESS_MAIN(TestDistributedCli)
#include "test_distributed_cli.moc"
