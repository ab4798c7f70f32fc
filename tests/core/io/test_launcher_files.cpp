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
