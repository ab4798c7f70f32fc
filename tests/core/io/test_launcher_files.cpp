#include "core/io/launcher_files.h"
#include "core/io/text_file.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace meridian;

class TestLauncherFiles : public QObject {
    Q_OBJECT

    static model::Topology topology()
    {
        return *model::Topology::create({test::site("a", 0, 0, 2, 2), test::site("b", 10, 10, 1, 4)});
    }

    static model::Placement placement()
    {
        model::Placement p;
        p.site = {1, 0, 0, 1};
        p.host = {2, 1, 0, 2};
        p.slot = {3, 0, 1, 0};
        return p;
    }

private Q_SLOTS:
    void rankfileListsEveryRankInOrder()
    {
        const auto text = io::launcherFileText(io::LauncherFormat::OpenMpiRankfile, placement(), topology());
        QVERIFY(text);
        QVERIFY(text->rfind("# Open MPI rankfile", 0) == 0);
        QVERIFY(text->find("rank 0=b-00 slot=3\nrank 1=a-01 slot=0\nrank 2=a-00 slot=1\nrank 3=b-00 slot=0\n")
                != std::string::npos);
    }

    // Issue 33: the README's `mpirun --rankfile rankfile ./app` left out -np (Open MPI 4.1 then starts 2 of 8
    // ranks). Every export comes with its exact launch line and what its slots mean; the rankfile says both too.
    void everyExportSaysHowToLaunchIt()
    {
        const auto rankfile = io::launchAdvice(io::LauncherFormat::OpenMpiRankfile, placement(), topology(),
                                               "run.rankfile");
        QCOMPARE(rankfile.command, std::string("mpirun -np 4 --rankfile run.rankfile ./app"));
        QVERIFY2(rankfile.slots.find("slot=S binds the rank to core S of its host") == 0, rankfile.slots.c_str());
        QVERIFY2(rankfile.slots.find("(up to 4 on b-00)") != std::string::npos, rankfile.slots.c_str());
        QVERIFY2(rankfile.slots.find("-np must be 4") != std::string::npos, rankfile.slots.c_str());
        const auto text = io::launcherFileText(io::LauncherFormat::OpenMpiRankfile, placement(), topology());
        QVERIFY(text->find("mpirun -np 4 --rankfile <this file> ./app\n# slot=S binds the rank to core S")
                != std::string::npos);
        QCOMPARE(io::launchAdvice(io::LauncherFormat::MpichMachinefile, placement(), topology(), "my runs/m.txt").command,
                 std::string("mpiexec.hydra -n 4 -f 'my runs/m.txt' ./app"));
        QCOMPARE(io::launchAdvice(io::LauncherFormat::SlurmHostfile, placement(), topology(), "/tmp/h").command,
                 std::string("SLURM_HOSTFILE=/tmp/h srun -n 4 --distribution=arbitrary ./app"));
        QCOMPARE(io::shellWord("it's here"), std::string("'it'\\''s here'"));
        QCOMPARE(io::shellWord("a/b-c_d.e"), std::string("a/b-c_d.e"));
        QCOMPARE(io::shellWord(""), std::string("''"));
    }

    // A file naming placeholder hosts (no hosts file) says so: which sites, and what to do.
    void placeholderHostsAreNamedInAWarning()
    {
        auto mixed = *model::Topology::create(
            {test::site("Washington DC", 0, 0, 2, 2), test::site("lab", 10, 10, 1, 4, {model::Host{"node7", 4}})});
        const auto advice = io::launchAdvice(io::LauncherFormat::OpenMpiRankfile, placement(), mixed, "r");
        QCOMPARE(advice.placeholders.size(), std::size_t(1));
        QCOMPARE(advice.placeholderWarning(),
                 std::string("the hosts of site Washington DC are placeholders named after their site "
                             "(washington-dc-01), not machines a launcher can reach: give the machines' names (a hosts "
                             "file, host,site[,slots]) and export again"));
        model::Placement onLab;
        onLab.site = {1};
        onLab.host = {2};
        onLab.slot = {0};
        QVERIFY(io::launchAdvice(io::LauncherFormat::SlurmHostfile, onLab, mixed, "h").placeholderWarning().empty());
    }

    void machinefileAndSlurmHostfileHaveOneLinePerRank()
    {
        QCOMPARE(*io::launcherFileText(io::LauncherFormat::MpichMachinefile, placement(), topology()),
                 std::string("b-00:1\na-01:1\na-00:1\nb-00:1\n"));
        QCOMPARE(*io::launcherFileText(io::LauncherFormat::SlurmHostfile, placement(), topology()),
                 std::string("b-00\na-01\na-00\nb-00\n"));
    }

    void aSiteLevelPlacementIsRefusedAndNothingIsWritten()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("rf").toStdString();
        auto ok = io::writeLauncherFile(path, io::LauncherFormat::OpenMpiRankfile, model::Placement::fromSites({0, 1}),
                                        topology());
        QVERIFY(!ok);
        QVERIFY(ok.error().message.find("without a host") != std::string::npos);
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
    }
};

QTEST_GUILESS_MAIN(TestLauncherFiles)
#include "test_launcher_files.moc"
