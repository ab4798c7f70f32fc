#include "core/io/launcher_files.h"
#include "core/mapping/builtin_mappers.h"
#include "core/model/network_estimator.h"
#include "test_support.h"

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
        auto problem = *mapping::MappingProblem::create(topo, model::NetworkEstimator::complete(model::Network(topo.siteCount()), topo), comm);
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
        p.start(mpirun, {"--allow-run-as-root", "--oversubscribe", "--report-bindings", "--rankfile", rankfile, "-np",
                         QString::number(ranks), MERIDIAN_WHERE_AM_I});
        QVERIFY(p.waitForFinished(120000));
        const QString out = p.readAllStandardOutput();
        const QString err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 0, qPrintable("mpirun failed:\n" + err + out + "\nrankfile:\n" + QString::fromUtf8(QFile(rankfile).fileName().toUtf8())));

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
};

QTEST_GUILESS_MAIN(TestRankfileMpirun)
#include "test_rankfile_mpirun.moc"
