// meridian-cli against a hostile or unlucky user: FIFOs and devices where files belong, binary files, two writers of
// one project at once, a folder in the way of an output, a kill between the renames of a set of outputs.
#include "app/project/project_file.h"
#include "cli_run.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

using namespace meridian;
using meridian::test::cli;
using meridian::test::readAll;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// Runs meridian-cli with extra environment variables.
test::CliRun cliWith(const QStringList& args, const QStringList& environment, int timeoutMs = 60000)
{
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    for (const QString& e : environment)
        env.insert(e.section('=', 0, 0), e.section('=', 1));
    p.setProcessEnvironment(env);
    p.start(MERIDIAN_CLI, args);
    if (!p.waitForFinished(timeoutMs))
        p.kill();
    p.waitForFinished();
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError(), 0};
}

} // namespace

class TestCliHostileInput : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString project() const { return path("p.meridian"); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        write(path("sites.csv"), "name,lat,lon,nodes,slots\nvirginia,38.9,-77.4,2,4\ndublin,53.3,-6.3,2,4\n");
        write(path("volume.mtx"),
              "%%MatrixMarket matrix coordinate real general\n8 8 4\n1 2 1000\n2 1 1000\n3 4 5e6\n"
              "4 3 5e6\n");
        write(path("graph.txt"), "0 1\n1 2\n2 3\n3 0\n");
        write(path("wan.csv"),
              "name,lat,lon,nodes,up_MBps,down_MBps,egress_usd_per_GB\n"
              "virginia,38.9,-77.4,2,100,100,0.09\ndublin,53.3,-6.3,2,100,100,0.09\n");
        QCOMPARE(::mkfifo(QFile::encodeName(path("pr.probe.json")).constData(), 0600), 0);
        QVERIFY(QDir(m_dir.path()).mkdir("monitoring"));
        QCOMPARE(::mkfifo(QFile::encodeName(path("fifo")).constData(), 0600), 0);
        QCOMPARE(::mkfifo(QFile::encodeName(path("monitoring/app.0.prof")).constData(), 0600), 0);
        QCOMPARE(::mkfifo(QFile::encodeName(path("fifo.otf2")).constData(), 0600), 0);
        auto created = cli({"project", "create", project(), "--name", "p", "--sites", path("sites.csv")});
        QVERIFY2(created.code == 0, created.err.constData());
        auto added = cli({"project", "add-application", project(), "--name", "app", "--volume", path("volume.mtx")});
        QVERIFY2(added.code == 0, added.err.constData());
        auto graph = cli({"project", "import-graph", project(), path("graph.txt"), "--name", "g"});
        QVERIFY2(graph.code == 0, graph.err.constData());
    }

    // Issue 31.5: a FIFO made every reader block forever. Each command refuses it at once.
    void aFifoNeverMakesACommandWait_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString fifo = path("fifo"), p = project(), sites = path("sites.csv");
        QTest::newRow("info") << QStringList{"info", fifo};
        QTest::newRow("create --sites") << QStringList{"project", "create", path("n1.meridian"), "--name", "n",
                                                       "--sites", fifo};
        QTest::newRow("create --latency") << QStringList{"project", "create", path("n2.meridian"), "--name", "n",
                                                         "--sites", sites,    "--latency",         fifo};
        QTest::newRow("create --hosts") << QStringList{"project", "create", path("n3.meridian"), "--name", "n",
                                                       "--sites", sites,    "--hosts",           fifo};
        QTest::newRow("add-application --volume")
            << QStringList{"project", "add-application", p, "--name", "b", "--volume", fifo};
        QTest::newRow("add-application --messages")
            << QStringList{"project",          "add-application", p,   "--name", "b", "--volume",
                           path("volume.mtx"), "--messages",      fifo};
        QTest::newRow("set-pins") << QStringList{"project", "set-pins", p, "--application", "app", "--pins", fifo};
        QTest::newRow("set-hosts") << QStringList{"project", "set-hosts", p, "--hosts", fifo};
        QTest::newRow("set-link") << QStringList{"project", "set-link", p,           "--from", "virginia",
                                                 "--to",    "dublin",   "--netpipe", fifo};
        QTest::newRow("import-probe") << QStringList{"project", "import-probe", p, path("pr.probe.json")};
        QTest::newRow("import-graph") << QStringList{"project", "import-graph", p, fifo, "--name", "h"};
        QTest::newRow("evaluate --mapping") << QStringList{"evaluate", "--project", p, "--mapping", fifo};
        QTest::newRow("partition --graph") << QStringList{"partition",     "--graph", fifo,          "--sites",
                                                          path("wan.csv"), "--out",   path("e.tsv"), "--no-cache"};
        QTest::newRow("partition --homes")
            << QStringList{"partition", "--graph", path("graph.txt"), "--sites",     path("wan.csv"),
                           "--homes",   fifo,      "--out",           path("e.tsv"), "--no-cache"};
        QTest::newRow("map --trace") << QStringList{"map", "--project", p, "--algorithm", "refine", "--trace", fifo};
        QTest::newRow("set-trace") << QStringList{"project", "set-trace", p, "--application", "app", "--trace", fifo};
        QTest::newRow("report --runs") << QStringList{"report", "--project",       p, "--runs", fifo,
                                                      "--out",  path("report.pdf")};
        QTest::newRow("import-comm monitoring")
            << QStringList{"import-comm", "--openmpi-monitoring", path("monitoring"), "--out", path("cap")};
        QTest::newRow("import-comm otf2")
            << QStringList{"import-comm", "--otf2", path("fifo.otf2"), "--out", path("cap")};
    }
    void aFifoNeverMakesACommandWait()
    {
        QFETCH(QStringList, args);
        const auto r = cli(args, 20000);
        QVERIFY2(r.code == 2, qPrintable(args.join(' ') + ": exit " + QString::number(r.code) + " " + r.err));
        QVERIFY2(r.err.contains("not a regular file") || r.err.contains("not an OTF2 archive"), r.err.constData());
    }

    // Issue 31.6: devices and binary files are refused from their kind or their first block, not read to the end.
    void devicesAndBinaryFilesAreRefusedAtOnce()
    {
        const auto homes = cli({"partition", "--graph", path("graph.txt"), "--sites", path("wan.csv"), "--homes",
                                "/dev/zero", "--out", path("e.tsv"), "--no-cache"},
                               20000);
        QCOMPARE(homes.code, 2);
        QVERIFY2(homes.err.contains("not a regular file"), homes.err.constData());
        // A runs file that is a device (report read /dev/zero up to 4.3 GB).
        const auto runs = cli({"report", "--project", project(), "--runs", "/dev/zero", "--out", path("report.pdf")},
                              20000);
        QCOMPARE(runs.code, 2);
        QVERIFY2(runs.err.contains("not a regular file"), runs.err.constData());
        // A gigabyte of NUL bytes (a sparse file: no disk used) is refused at its first block.
        const QString zeros = path("zeros.mtx");
        {
            QFile f(zeros);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64{1} << 30));
        }
        const auto volume = cli({"project", "add-application", project(), "--name", "z", "--volume", zeros}, 20000);
        QCOMPARE(volume.code, 2);
        QVERIFY2(volume.err.contains("zeros.mtx:1:1: a NUL byte"), volume.err.constData());
        QFile::remove(zeros);
        // A project whose graph file was replaced by a device: info says so instead of hashing it forever.
        const QString graphCopy = path("graph-copy.txt");
        QVERIFY(QFile::copy(path("graph.txt"), graphCopy));
        const QString other = path("q.meridian");
        QVERIFY(QFile::copy(project(), other));
        auto imported = cli({"project", "import-graph", other, graphCopy, "--name", "g2"});
        QVERIFY2(imported.code == 0, imported.err.constData());
        QVERIFY(QFile::remove(graphCopy));
        QVERIFY(QFile::link("/dev/zero", graphCopy));
        const auto info = cli({"info", other}, 20000);
        QVERIFY2(info.code == 0 || info.err.contains("not a regular file"), info.err.constData());
        if (info.code == 0)
            QVERIFY2(info.out.contains("not a regular file"), info.out.constData());
    }

    // Issue 31.13: a name given on the command line that is not UTF-8 was saved with U+FFFD in its place.
    void anArgumentThatIsNotUtf8IsRefused()
    {
        QProcess p;
        p.start("/bin/sh",
                {"-c",
                 "exec \"$0\" project add-application \"$1\" --name \"$(printf 'b\\351ta')\" "
                 "--volume \"$2\"",
                 MERIDIAN_CLI, project(), path("volume.mtx")});
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 2);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("argument 5, 'b\\xE9ta', is not UTF-8 (byte 2)"), err.constData());
        const auto info = cli({"info", project()});
        QVERIFY(!info.out.contains("\xEF\xBF\xBD")); // no U+FFFD saved
    }

    // Issue 31.2: two edits at once lost one (17 of 20 trials). Under the project's lock both land, every time.
    void twoWritersAtOnceLoseNothing()
    {
        for (int trial = 0; trial < 10; ++trial) {
            QProcess a, b;
            const QString nameA = QString("a%1").arg(trial), nameB = QString("b%1").arg(trial);
            a.start(MERIDIAN_CLI,
                    {"project", "add-application", project(), "--name", nameA, "--volume", path("volume.mtx")});
            b.start(MERIDIAN_CLI,
                    {"project", "add-application", project(), "--name", nameB, "--volume", path("volume.mtx")});
            QVERIFY(a.waitForFinished(60000) && b.waitForFinished(60000));
            QVERIFY2(a.exitCode() == 0, a.readAllStandardError().constData());
            QVERIFY2(b.exitCode() == 0, b.readAllStandardError().constData());
        }
        const auto info = cli({"info", project()});
        QCOMPARE(info.code, 0);
        QStringList names;
        for (const auto& app : info.json().value("applications").toArray())
            names << app.toObject().value("name").toString();
        for (int trial = 0; trial < 10; ++trial)
            QVERIFY2(names.contains(QString("a%1").arg(trial)) && names.contains(QString("b%1").arg(trial)),
                     qPrintable(names.join(',')));
        // No journal, lock holder or temporary is left behind.
        QVERIFY(!QFile::exists(document::ProjectFile::journalPath(project())));
        QCOMPARE(QDir(m_dir.path()).entryList({"*.part-*"}, QDir::Files | QDir::Hidden), QStringList());
        QCOMPARE(readAll(document::ProjectFile::lockPath(project())), QByteArray());
    }

    // Issue 31.2: a writer that cannot get the lock in time is refused, naming who holds it; the project is as it was.
    void aWriterIsRefusedWithWhoHoldsTheLock()
    {
        const QByteArray before = readAll(project());
        auto lock = document::ProjectFile::lock(project(), "Meridian workbench", 0);
        QVERIFY(lock);
        const auto r = cliWith({"project", "add-application", project(), "--name", "late", "--volume",
                                path("volume.mtx")},
                               {"MERIDIAN_LOCK_WAIT_S=0.3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QString("process %1").arg(::getpid()).toUtf8()) && r.err.contains("Meridian workbench")
                     && r.err.contains("waited 0.3 s"),
                 r.err.constData());
        QCOMPARE(readAll(project()), before);
        // info only reads: it does not wait for the lock.
        QCOMPARE(cliWith({"info", project()}, {"MERIDIAN_LOCK_WAIT_S=0.3"}).code, 0);
    }

    // Issue 31.16: `create DIR --force` on a folder said "Is a directory" after leaving a journal and a temporary.
    void createOverAFolderIsRefusedLeavingNothing()
    {
        QVERIFY(QDir(m_dir.path()).mkdir("folder.meridian"));
        const QStringList before = QDir(m_dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
        const auto r = cli(
            {"project", "create", path("folder.meridian"), "--name", "x", "--sites", path("sites.csv"), "--force"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("this is a folder"), r.err.constData());
        QCOMPARE(QDir(m_dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), before);
    }

    // Issue 31.4 and 31.16: outputs are checked before anything runs; a folder in the way of one changes none.
    void aFolderInTheWayOfOneOutputChangesNoOutput()
    {
        const QString out = path("map.csv"), rankfile = path("ranks.txt");
        auto first = cli({"map", "--project", project(), "--algorithm", "random", "--out", out, "--rankfile", rankfile});
        QVERIFY2(first.code == 0, first.err.constData());
        const QByteArray mapping = readAll(out);
        QVERIFY(QDir(m_dir.path()).mkdir("hosts.txt"));
        const auto r = cli({"map", "--project", project(), "--algorithm", "random", "--seed", "2", "--out", out,
                            "--rankfile", rankfile, "--hostfile", path("hosts.txt")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("this is a folder"), r.err.constData());
        QCOMPARE(readAll(out), mapping);
        const auto report = cli({"report", "--project", project(), "--out", path("missing/report.html")});
        QCOMPARE(report.code, 2);
        QVERIFY2(report.err.contains("does not exist"), report.err.constData());
    }

    // Issue 31.4: a kill between the renames of a command's outputs mixed two runs (10 of 16 ranks differed). Now
    // each set has a journal: after any kill, either every output is from one run, or the journal is there and the
    // next run of the command finishes the set first. Each command runs with two inputs that give other outputs.
    void aKilledCommandNeverLeavesAnUnmarkedMixOfTwoRuns_data()
    {
        QTest::addColumn<QStringList>("first");
        QTest::addColumn<QStringList>("second");
        QTest::addColumn<QStringList>("outputs");
        const QString p = project(), wan = path("wan.csv");
        QStringList map{"map",         "--project",     p,
                        "--algorithm", "random",        "--out",
                        path("k.csv"), "--rankfile",    path("k.rank"),
                        "--hostfile",  path("k.hosts"), "--seed"};
        QTest::newRow("map") << (map + QStringList{"1"}) << (map + QStringList{"2"})
                             << QStringList{path("k.csv"), path("k.rank"), path("k.hosts")};
        // A graph large enough that the partitioners differ: 3,000 edges among 500 vertices, from a fixed seed.
        QByteArray edges;
        QRandomGenerator generator(31);
        for (int e = 0; e < 3000; ++e)
            edges += QByteArray::number(generator.bounded(500)) + ' ' + QByteArray::number(generator.bounded(500))
                + '\n';
        write(path("big.txt"), edges);
        QStringList partition{"partition",   "--graph",   path("big.txt"),   "--sites",    wan, "--no-cache", "--out",
                              path("k.tsv"), "--masters", path("k.masters"), "--algorithm"};
        QTest::newRow("partition") << (partition + QStringList{"hash"}) << (partition + QStringList{"greedy"})
                                   << QStringList{path("k.tsv"), path("k.masters")};
        const QString known = QString(MERIDIAN_TEST_DATA) + "/monitoring/known";
        // The same run with rank 0 sending twice the bytes to rank 1.
        QVERIFY(QDir(m_dir.path()).mkpath("more"));
        for (int rank = 0; rank < 4; ++rank) {
            QByteArray text = readAll(known + QString("/app.%1.prof").arg(rank));
            if (rank == 0)
                text.replace("E\t0\t1\t3824 bytes", "E\t0\t1\t7648 bytes");
            write(path(QString("more/app.%1.prof").arg(rank)), text);
        }
        QStringList comm{"import-comm", "--out", path("k.cap"), "--openmpi-monitoring"};
        QTest::newRow("import-comm") << (comm + QStringList{known}) << (comm + QStringList{path("more")})
                                     << QStringList{path("k.cap.volume.mtx"), path("k.cap.messages.mtx"),
                                                    path("k.cap.collectives.json")};
    }
    void aKilledCommandNeverLeavesAnUnmarkedMixOfTwoRuns()
    {
        QFETCH(QStringList, first);
        QFETCH(QStringList, second);
        QFETCH(QStringList, outputs);
        const auto contents = [&] {
            QList<QByteArray> now;
            for (const QString& out : outputs)
                now << readAll(out);
            return now;
        };
        // The outputs of each run, written to completion.
        const QList<QStringList> runs{first, second};
        QList<QList<QByteArray>> expected;
        for (const auto& args : runs) {
            const auto r = cli(args);
            QVERIFY2(r.code == 0, r.err.constData());
            expected << contents();
        }
        QVERIFY(expected[0] != expected[1]);
        auto* random = QRandomGenerator::global();
        int journals = 0, whole = 0;
        const int trials = test::kUnderSanitizer ? 12 : 30;
        for (int trial = 0; trial < trials; ++trial) {
            const auto& args = runs[trial % 2];
            QProcess p;
            // Every third trial pauses 150 ms between the renames, so that some kills land among them.
            if (trial % 3 == 2) {
                auto env = QProcessEnvironment::systemEnvironment();
                env.insert("MERIDIAN_TEST_RENAME_PAUSE_MS", "150");
                p.setProcessEnvironment(env);
            }
            p.start(MERIDIAN_CLI, args);
            QVERIFY(p.waitForStarted());
            QThread::usleep(static_cast<unsigned long>(random->bounded(20000, 600000)));
            ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
            p.waitForFinished();
            if (QFile::exists(outputs.front() + ".saving")) {
                ++journals;
                // Left as it is, the set is marked unfinished; its temporaries hold the rest of the new run.
                // The next run finishes the interrupted set, then writes its own.
                QCOMPARE(cli(args).code, 0);
                QCOMPARE(contents(), expected[trial % 2]);
            } else {
                QVERIFY2(contents() == expected[0] || contents() == expected[1],
                         qPrintable(QString("trial %1").arg(trial)));
                ++whole;
            }
        }
        qInfo("%d kills: %d left every output from one run, %d left the set's journal", trials, whole, journals);
        QCOMPARE(cli(first).code, 0);
        QCOMPARE(QDir(m_dir.path()).entryList({"k.*.part-*"}, QDir::Files | QDir::Hidden), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestCliHostileInput)
#include "test_cli_hostile_input.moc"
