#include "core/io/launcher_files.h"
#include "core/mapping/builtin_mappers.h"
#include "core/model/network_estimator.h"
#include "slurm_cluster.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <unistd.h>

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
        // The launcher files go to a folder whose name a shell must quote: the printed lines quote it.
        QVERIFY(QDir(dir.path()).mkdir("launch files"));
        const QString rankfile = dir.filePath("launch files/halo.rankfile");
        const QString machinefile = dir.filePath("launch files/halo.machinefile");
        QProcess map;
        map.start(MERIDIAN_CLI,
                  {"map", "--project", project, "--application", "Halo", "--algorithm", "greedy", "--rankfile",
                   rankfile, "--hostfile", machinefile});
        QVERIFY(map.waitForFinished(60000));
        const QString mapErr = map.readAllStandardError();
        QVERIFY2(map.exitCode() == 0, qPrintable(mapErr));
        const QJsonObject launch = QJsonDocument::fromJson(map.readAllStandardOutput()).object()["launch"].toObject();
        const QString command = launch["rankfile"].toObject()["command"].toString();
        QCOMPARE(command, QString("mpirun -np %1 --rankfile '%2' ./app").arg(ranks).arg(rankfile));
        QVERIFY2(mapErr.contains("launch the rankfile with: " + command), qPrintable(mapErr));
        QVERIFY2(launch["rankfile"].toObject()["slots"].toString().contains("core S of its host"),
                 qPrintable(launch["rankfile"].toObject()["slots"].toString()));
        QVERIFY2(!mapErr.contains("placeholders"), qPrintable(mapErr)); // the hosts are real
        QFile rf(rankfile);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QByteArray rankfileText = rf.readAll();
        QVERIFY(rankfileText.contains("rank 0=localhost slot="));
        QVERIFY(rankfileText.contains("mpirun -np " + QByteArray::number(ranks) + " --rankfile"));

        // The printed line, as a user pastes it into a shell, with the program in place of ./app (as root, Open
        // MPI wants its two variables; never ssh: every host here is this machine).
        auto shell = [](const QString& line, const QStringList& extraEnvironment) {
            QProcess p;
            QStringList env = QProcess::systemEnvironment();
            env << "OMPI_MCA_plm_rsh_agent=false" << extraEnvironment;
            if (::geteuid() == 0)
                env << "OMPI_ALLOW_RUN_AS_ROOT=1"
                    << "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
            p.setEnvironment(env);
            p.start("sh", {"-c", line});
            p.waitForFinished(120000);
            return std::make_tuple(p.exitCode(), QString(p.readAllStandardOutput()), QString(p.readAllStandardError()));
        };
        QVERIFY(command.endsWith(" ./app"));
        auto [code, out, err] = shell(command.chopped(5) + MERIDIAN_WHERE_AM_I, {});
        QVERIFY2(code == 0, qPrintable("mpirun failed:\n" + err + out + "\nrankfile:\n" + rankfileText));
        QCOMPARE(out.count(QRegularExpression("^rank \\d+ host ", QRegularExpression::MultilineOption)), ranks);

        // The machinefile with its printed line, by MPICH's launcher (Hydra), which starts any program: a script
        // that says which rank it is.
        const QString hydraCommand = launch["hostfile"].toObject()["command"].toString();
        QCOMPARE(hydraCommand, QString("mpiexec.hydra -n %1 -f '%2' ./app").arg(ranks).arg(machinefile));
        QVERIFY2(!QStandardPaths::findExecutable("mpiexec.hydra").isEmpty(),
                 "mpiexec.hydra not found: install mpich (scripts/dev does)");
        QFile script(dir.filePath("which_rank.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho \"rank $PMI_RANK of $PMI_SIZE\"\n");
        script.close();
        script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
        auto [hydraCode, hydraOut, hydraErr] = shell(hydraCommand.chopped(5) + script.fileName(), {});
        QVERIFY2(hydraCode == 0, qPrintable("mpiexec.hydra failed:\n" + hydraErr + hydraOut));
        for (int r = 0; r < ranks; ++r)
            QVERIFY2(hydraOut.contains(QString("rank %1 of %2").arg(r).arg(ranks)), qPrintable(hydraOut));
    }

    // The Slurm hostfile `map` writes, launched with the line it prints (srun --distribution=arbitrary, the program
    // in place of ./app) on a Slurm cluster of this machine (test::SlurmCluster, whose node is this machine's name):
    // every rank runs on the host of its line.
    void slurmHostfileLaunchesWithItsLine()
    {
        test::SlurmCluster slurm;
        const std::string problem = slurm.start();
        QVERIFY2(problem.empty(), problem.c_str());
        QTemporaryDir dir;
        const QString node = test::SlurmCluster::nodeName();
        const int ranks = std::clamp(QThread::idealThreadCount(), 1, 4); // one task per core of the node
        QFile sites(dir.filePath("sites.csv")), hosts(dir.filePath("hosts.csv")), volume(dir.filePath("v.mtx"));
        QVERIFY(sites.open(QIODevice::WriteOnly) && hosts.open(QIODevice::WriteOnly)
                && volume.open(QIODevice::WriteOnly));
        sites.write("name,lat,lon,nodes\nlab,48.1,11.6,1\n");
        hosts.write("host,site,slots\n" + node.toUtf8() + ",lab," + QByteArray::number(ranks) + "\n");
        volume.write("%%MatrixMarket matrix coordinate real general\n" + QByteArray::number(ranks) + " "
                     + QByteArray::number(ranks) + " 1\n1 " + QByteArray::number(ranks) + " 1e6\n");
        for (QFile* f : {&sites, &hosts, &volume})
            f->close();
        const QString project = dir.filePath("lab.meridian"), hostfile = dir.filePath("slurm.hosts");
        for (const QStringList& args :
             {QStringList{"project", "create", project, "--name", "Lab", "--sites", sites.fileName(), "--hosts",
                          hosts.fileName()},
              QStringList{"project", "add-application", project, "--name", "Halo", "--volume", volume.fileName()}}) {
            QProcess p;
            p.start(MERIDIAN_CLI, args);
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        }
        QProcess map;
        map.start(MERIDIAN_CLI,
                  {"map", "--project", project, "--application", "Halo", "--algorithm", "greedy", "--slurm-hostfile",
                   hostfile});
        QVERIFY(map.waitForFinished(60000));
        QVERIFY2(map.exitCode() == 0, map.readAllStandardError().constData());
        const QJsonObject launch = QJsonDocument::fromJson(map.readAllStandardOutput()).object()["launch"].toObject();
        const QString command = launch["slurm-hostfile"].toObject()["command"].toString();
        QCOMPARE(command,
                 QString("SLURM_HOSTFILE=%1 srun -n %2 --distribution=arbitrary ./app").arg(hostfile).arg(ranks));
        QProcess srun;
        QStringList env = QProcess::systemEnvironment();
        if (::geteuid() == 0)
            env << "OMPI_ALLOW_RUN_AS_ROOT=1"
                << "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
        srun.setEnvironment(env);
        srun.start("sh", {"-c", command.chopped(5) + MERIDIAN_WHERE_AM_I});
        QVERIFY(srun.waitForFinished(120000));
        const QString out = srun.readAllStandardOutput();
        QVERIFY2(srun.exitCode() == 0, qPrintable(srun.readAllStandardError() + out));
        QFile lines(hostfile);
        QVERIFY(lines.open(QIODevice::ReadOnly));
        const QStringList hostOf = QString::fromUtf8(lines.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(hostOf.size(), ranks);
        for (int r = 0; r < ranks; ++r)
            QVERIFY2(out.contains(QString("rank %1 host %2 cpus").arg(r).arg(hostOf[r])), qPrintable(out));
        QVERIFY(slurm.drained(30));
    }

    // A project whose hosts are placeholders (no hosts file): their names are valid host names made of the
    // site's name, and an export says on stderr that they must be replaced before launching.
    void placeholderHostsAreValidNamesAndAnExportSaysSo()
    {
        QTemporaryDir dir;
        QFile sites(dir.filePath("sites.csv"));
        QVERIFY(sites.open(QIODevice::WriteOnly));
        sites.write("name,lat,lon,nodes,slots\nWashington DC,38.9,-77.0,2,2\nS\xc3\xa3o Paulo,-23.5,-46.6,1,2\n");
        sites.close();
        QFile volume(dir.filePath("v.mtx"));
        QVERIFY(volume.open(QIODevice::WriteOnly));
        volume.write("%%MatrixMarket matrix coordinate real general\n6 6 2\n1 2 10\n5 6 10\n");
        volume.close();
        const QString rankfile = dir.filePath("r.rankfile");
        QProcess map;
        map.start(MERIDIAN_CLI,
                  {"map", "--sites", sites.fileName(), "--volume", volume.fileName(), "--algorithm", "greedy",
                   "--rankfile", rankfile});
        QVERIFY(map.waitForFinished(60000));
        const QString err = map.readAllStandardError();
        QVERIFY2(map.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains("warning: the hosts of sites Washington DC and S\u00e3o Paulo are placeholders named "
                              "after their site (washington-dc-00 and sao-paulo-00)"),
                 qPrintable(err));
        QFile rf(rankfile);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QString text = rf.readAll();
        const QRegularExpression line("^rank \\d+=([^ ]+) slot=\\d+$", QRegularExpression::MultilineOption);
        int lines = 0;
        for (auto it = line.globalMatch(text); it.hasNext(); ++lines)
            QVERIFY2(model::Topology::hostNameProblem(it.next().captured(1).toStdString()).empty(), qPrintable(text));
        QCOMPARE(lines, 6);
    }
};

QTEST_GUILESS_MAIN(TestRankfileMpirun)
#include "test_rankfile_mpirun.moc"
