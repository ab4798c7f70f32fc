#include "core/io/launcher_files.h"
#include "core/mapping/builtin_mappers.h"
#include "core/model/network_estimator.h"
#include "test_support.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace meridian;

/// Launches a real MPI program with an exported rankfile (Open MPI's mpirun on localhost) and checks that
/// every rank ran on the slot the rankfile asked for.
class TestRankfileMpirun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyRankLandsOnItsSlot()
    {
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        QVERIFY2(!mpirun.isEmpty(), "mpirun not found: install openmpi-bin (scripts/dev does)");
        // One slot per core (logical core numbering), as many ranks as slots; at least 2 ranks.
        const int cores = std::max(1, QThread::idealThreadCount());
        const int slots = std::min(cores, 8);
        const int ranks = std::max(2, slots);
        std::vector<model::Site> sites{test::site("local", 0, 0, 1, slots, {model::Host{"localhost", slots}})};
        if (ranks > slots) // one core: a second host name for the same machine (127.0.0.1)
            sites.push_back(test::site("loop", 0, 1, 1, 1, {model::Host{"127.0.0.1", 1}}));
        auto topo = *model::Topology::create(sites);
        auto comm = *model::CommMatrix::fromEntries(ranks, {{0, 1, 1e6, 1}});
        auto problem = *mapping::MappingProblem::create(topo,
                                                        model::NetworkEstimator::complete(model::Network(
                                                                                              topo.siteCount()),
                                                                                          topo),
                                                        comm);
        Registry<mapping::Mapper> registry;
        mapping::registerBuiltinMappers(registry);
        const Feedback feedback;
        // A random placement, so slots are not simply rank order.
        std::uint64_t seed = 1;
        auto result = registry.find("random")->map(problem, seed, feedback);
        while (slots > 1 && result && result->placement.slot[0] == 0 && seed < 50)
            result = registry.find("random")->map(problem, ++seed, feedback);
        QVERIFY(result);
        const model::Placement& placement = result->placement;

        QTemporaryDir dir;
        const QString rankfile = dir.filePath("rankfile");
        QVERIFY(io::writeLauncherFile(rankfile.toStdString(), io::LauncherFormat::OpenMpiRankfile, placement, topo));
        QProcess p;
        p.setProcessChannelMode(QProcess::SeparateChannels);
        QStringList env = QProcess::systemEnvironment();
        env << "OMPI_MCA_plm_rsh_agent=false"; // never try ssh: every host here is this machine
        p.setEnvironment(env);
        p.start(mpirun,
                {"--allow-run-as-root", "--oversubscribe", "--report-bindings", "--rankfile", rankfile, "-np",
                 QString::number(ranks), MERIDIAN_WHERE_AM_I});
        QVERIFY(p.waitForFinished(120000));
        const QString out = p.readAllStandardOutput();
        const QString err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0,
                 qPrintable("mpirun failed:\n" + err + out + "\nrankfile:\n"
                            + QString::fromUtf8(QFile(rankfile).fileName().toUtf8())));

        // What each rank says about itself.
        const QRegularExpression self("^rank (\\d+) host (\\S+) cpus ([\\d ]+)$", QRegularExpression::MultilineOption);
        std::map<int, QStringList> cpus;
        for (auto it = self.globalMatch(out); it.hasNext();) {
            const auto m = it.next();
            cpus[m.captured(1).toInt()] = m.captured(3).split(' ', Qt::SkipEmptyParts);
        }
        QCOMPARE(static_cast<int>(cpus.size()), ranks);
        // What Open MPI says it did: "MCW rank R bound to socket S[core C[hwt H]]".
        const QRegularExpression bound("MCW rank (\\d+) bound to socket \\d+\\[core (\\d+)\\[");
        std::map<int, int> core;
        for (auto it = bound.globalMatch(err); it.hasNext();) {
            const auto m = it.next();
            core[m.captured(1).toInt()] = m.captured(2).toInt();
        }
        for (int r = 0; r < ranks; ++r) {
            if (topo.host(placement.host[r]).name != "localhost")
                continue;
            QVERIFY2(core.count(r), qPrintable("no binding reported for rank " + QString::number(r) + ":\n" + err));
            QCOMPARE(core[r], placement.slot[r]);
            // On machines without hardware threads the logical core index is the CPU number.
            if (cpus[r].size() == 1)
                QCOMPARE(cpus[r].front().toInt(), placement.slot[r]);
        }
    }

    // A user's own files, through meridian-cli only: sites, the cluster's real host names, an application;
    // the rankfile that `map` writes launches with mpirun and every rank runs on the host it names.
    void ownFilesToALaunchedRankfile()
    {
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        QVERIFY2(!mpirun.isEmpty(), "mpirun not found: install openmpi-bin (scripts/dev does)");
        QTemporaryDir dir;
        auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        // Open MPI refuses a slot beyond the machine's cores: one slot per core, a second host name for
        // this machine (127.0.0.1) when it has a single core.
        const int slots = std::clamp(QThread::idealThreadCount(), 1, 4);
        QByteArray hosts = "host,site,slots\nlocalhost,lab," + QByteArray::number(slots) + "\n";
        if (slots < 2)
            hosts += "127.0.0.1,lab,1\n";
        const int ranks = std::max(2, slots);
        write("sites.csv", "name,lat,lon,nodes\nlab,48.1,11.6,1\n");
        write("hosts.csv", hosts);
        QByteArray ring = "%%MatrixMarket matrix coordinate real general\n" + QByteArray::number(ranks) + " "
            + QByteArray::number(ranks) + " " + QByteArray::number(ranks) + "\n";
        for (int r = 0; r < ranks; ++r)
            ring += QByteArray::number(r + 1) + " " + QByteArray::number((r + 1) % ranks + 1) + " 1e6\n";
        write("halo.mtx", ring);
        auto run = [](const QStringList& args) {
            QProcess p;
            p.start(MERIDIAN_CLI, args);
            p.waitForFinished(60000);
            return std::make_pair(p.exitCode(), p.readAllStandardError());
        };
        const QString project = dir.filePath("lab.meridian");
        auto created = run({"project", "create", project, "--name", "Lab", "--sites", dir.filePath("sites.csv"),
                            "--hosts", dir.filePath("hosts.csv")});
        QVERIFY2(created.first == 0, created.second.constData());
        auto added = run(
            {"project", "add-application", project, "--name", "Halo", "--volume", dir.filePath("halo.mtx")});
        QVERIFY2(added.first == 0, added.second.constData());
        const QString rankfile = dir.filePath("rankfile");
        auto mapped = run(
            {"map", "--project", project, "--application", "Halo", "--algorithm", "greedy", "--rankfile", rankfile});
        QVERIFY2(mapped.first == 0, mapped.second.constData());
        QFile rf(rankfile);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        QVERIFY(rf.readAll().contains("rank 0=localhost slot="));

        QProcess p;
        QStringList env = QProcess::systemEnvironment();
        env << "OMPI_MCA_plm_rsh_agent=false";
        p.setEnvironment(env);
        p.start(mpirun,
                {"--allow-run-as-root", "--oversubscribe", "--rankfile", rankfile, "-np", QString::number(ranks),
                 MERIDIAN_WHERE_AM_I});
        QVERIFY(p.waitForFinished(120000));
        const QString out = p.readAllStandardOutput();
        QVERIFY2(p.exitCode() == 0, qPrintable("mpirun failed:\n" + p.readAllStandardError() + out));
        QCOMPARE(out.count(QRegularExpression("^rank \\d+ host ", QRegularExpression::MultilineOption)), ranks);
    }
};

QTEST_GUILESS_MAIN(TestRankfileMpirun)
#include "test_rankfile_mpirun.moc"
