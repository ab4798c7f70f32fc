// End to end, as a new user with her own files: File > New Project builds a project of ten sites with
// measured matrices, one imported application and pins entirely through the workbench's own actions (the
// test writes CSV and Matrix Market inputs, never project JSON); then network tables, drops recognised by
// content, the Applications tab, two mappers, save, reopen and a rankfile. Screenshots go to
// build/screenshots/own-data-*.png. Runs under xvfb-run when it is installed, else offscreen.
#include "app/mapping/ui/run_panel.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/file_actions.h"
#include "app/project/ui/map_panel.h"
#include "app/project/ui/matrix_panel.h"
#include "app/project/ui/network_panel.h"
#include "app/project/ui/new_project_wizard.h"
#include "app/workbench/main_window.h"
#include "core/io/comm_io.h"
#include "core/model/site.h"
#include "core/synth/patterns.h"
#include "test_support.h"
#include "widgets/heatmap_view.h"
#include "widgets/site_table_model.h"
#include "widgets/world_map_view.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace meridian;

namespace {

struct Region {
    const char* name;
    double lat, lon;
};
// Ten cloud regions (approximate coordinates).
const Region kRegions[] = {{"us-east-1", 38.9, -77.4},      {"us-west-2", 45.8, -119.7},
                           {"ca-central-1", 45.5, -73.6},   {"sa-east-1", -23.5, -46.6},
                           {"eu-west-1", 53.3, -6.3},       {"eu-central-1", 50.1, 8.7},
                           {"ap-south-1", 19.1, 72.9},      {"ap-southeast-1", 1.3, 103.8},
                           {"ap-northeast-1", 35.7, 139.7}, {"ap-southeast-2", -33.9, 151.2}};
constexpr int kSites = 10;

QString shot(const QString& view)
{
    const QString dir = QString(MERIDIAN_BINARY_DIR) + "/screenshots";
    QDir().mkpath(dir);
    return dir + "/own-data-" + view + ".png";
}

void write(const QString& path, const QString& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
}

// A "measured" matrix with site names: latency grows with distance, bandwidth falls with it. One entry
// is left empty (not measured) so that the project estimates it.
QString networkCsv(bool latency)
{
    QString out = "site";
    for (const auto& r : kRegions)
        out += QString(",") + r.name;
    out += "\n";
    for (int i = 0; i < kSites; ++i) {
        out += kRegions[i].name;
        for (int j = 0; j < kSites; ++j) {
            const double d = model::greatCircleKm(kRegions[i].lat, kRegions[i].lon, kRegions[j].lat, kRegions[j].lon);
            out += ",";
            if (i == 3 && j == 8)
                continue;
            out += QString::number(latency ? 0.3 + d / 95.0 + (i < j ? 1.0 : 0.0) : 2000.0 / (1.0 + d / 600.0), 'g', 8);
        }
        out += "\n";
    }
    return out;
}

} // namespace

class TestOwnDataE2e : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QString sites = "name,lat,lon,nodes,slots,egress_usd_per_GB\n";
        for (const auto& r : kRegions)
            sites += QString("%1,%2,%3,4,2,0.09\n").arg(r.name).arg(r.lat).arg(r.lon);
        write(path("regions.csv"), sites);
        write(path("latency.csv"), networkCsv(true));
        write(path("bandwidth.csv"), networkCsv(false));
        auto comm = synth::generatePattern(synth::Pattern::LU, {.processes = 32});
        QVERIFY(comm);
        QVERIFY(io::writeCommMatrix(path("solver.volume.mtx").toStdString(), *comm, false, "bytes"));
        QVERIFY(io::writeCommMatrix(path("solver.messages.mtx").toStdString(), *comm, true, "messages"));
        write(path("pins.csv"), "process,site\n0,us-east-1\n7,eu-central-1\n19,ap-southeast-1\n");
    }

    void fromHerFilesToARankfile()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // File > New Project: the wizard, step by step, each step previewing what it read.
        window.menuAction("actionNewProject")->trigger();
        auto* wizard = window.findChild<workbench::NewProjectWizard*>();
        QVERIFY(wizard);
        wizard->show();
        QVERIFY(QTest::qWaitForWindowExposed(wizard));
        wizard->setProjectName("Solver across ten regions", "Measured latency and bandwidth between ten cloud regions.");
        QVERIFY(wizard->grab().save(shot("1-wizard-name")));
        wizard->next();
        QCOMPARE(wizard->currentId(), int(workbench::NewProjectWizard::SitesPage));
        const QString broken = path("broken-sites.csv");
        write(broken, "name,lat,lon,nodes\nsomewhere,95,0,1\n");
        QVERIFY(wizard->setSitesFile(broken).contains("broken-sites.csv:2"));
        QCOMPARE(wizard->project().topology.siteCount(), 0);
        QVERIFY(wizard->setSitesFile(path("regions.csv")).isEmpty());
        QCOMPARE(wizard->sitesPreview()->sites().size(), kSites);
        QTest::qWait(30);
        QVERIFY(wizard->grab().save(shot("2-wizard-sites")));
        wizard->next();
        QVERIFY(wizard->setNetworkFile(model::NetworkQuantity::Latency, path("latency.csv")).isEmpty());
        QVERIFY(wizard->setNetworkFile(model::NetworkQuantity::Bandwidth, path("bandwidth.csv")).isEmpty());
        QCOMPARE(wizard->networkPreview()->data().rows(), kSites);
        QTest::qWait(30);
        QVERIFY(wizard->grab().save(shot("3-wizard-network")));
        wizard->next();
        document::ApplicationFiles solverFiles;
        solverFiles.volume = path("solver.volume.mtx").toStdString();
        solverFiles.messages = path("solver.messages.mtx").toStdString();
        QVERIFY(wizard->addApplication("Solver", solverFiles).isEmpty());
        QVERIFY(wizard->grab().save(shot("4-wizard-applications")));
        wizard->next();
        write(path("pins-bad.csv"), "0,us-east-1\n40,eu-west-1\n");
        QVERIFY(wizard->setPinsFile("Solver", path("pins-bad.csv")).contains("process 40 does not exist"));
        QVERIFY(wizard->setPinsFile("Solver", path("pins.csv")).isEmpty());
        QVERIFY(wizard->grab().save(shot("5-wizard-pins")));
        wizard->accept();

        // Finish is one undoable edit.
        auto project = window.document()->project();
        QCOMPARE(project->name, std::string("Solver across ten regions"));
        QCOMPARE(project->topology.siteCount(), kSites);
        QCOMPARE(project->network.count(model::NetworkQuantity::Latency, model::Provenance::Measured),
                 kSites * kSites - 1);
        QCOMPARE(project->applications.size(), std::size_t(1));
        QCOMPARE(project->applications[0].pins.size(), 3);
        QCOMPARE(window.document()->undoStack()->count(), 1);
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->project()->topology.siteCount(), 0);
        window.document()->undoStack()->redo();
        QCOMPARE(window.document()->project()->topology.siteCount(), kSites);

        // The map counts the pins; the volume heatmap marks the pinned processes.
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::MapTab);
        window.applicationsPanel()->setCurrentApplication(0);
        QCOMPARE(window.mapPanel()->pinApplication(), QString("Solver"));
        QCOMPARE(window.mapPanel()->map()->sites()[0].badge, QString("1 pinned"));
        QTest::qWait(50);
        QVERIFY(window.grab().save(shot("6-map-with-pins")));
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::MatricesTab);
        QVERIFY(window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Volume, 0));
        QCOMPARE(window.matrixPanel()->heatmap()->data().markedRows, (std::vector<int>{0, 7, 19}));
        QTest::qWait(50);
        QVERIFY(window.grab().save(shot("7-volume-with-pins")));

        // Network tables: a pasted spreadsheet block, and one cell for both directions.
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::NetworkTab);
        auto* network = window.networkPanel();
        network->setQuantity(model::NetworkQuantity::Latency);
        QVERIFY(network->paste(0, 1, "12.5\t13\n").isEmpty());
        project = window.document()->project();
        QCOMPARE(project->network.latencyMs(0, 1), 12.5);
        QCOMPARE(project->network.latencyMs(0, 2), 13.0);
        QCOMPARE(project->network.provenance(model::NetworkQuantity::Latency, 0, 2), model::Provenance::Edited);
        QVERIFY(network->paste(9, 9, "1\t2\n").contains("runs past the last site"));
        QVERIFY(network->paste(0, 0, "1\tfast\n").contains("'fast' is not a latency"));
        QCOMPARE(window.document()->project()->network.latencyMs(0, 0), project->network.latencyMs(0, 0));
        QVERIFY(network->editCell(3, 8, "140", true).isEmpty());
        QCOMPARE(window.document()->project()->network.latencyMs(8, 3), 140.0);
        QString asked;
        network->setDirectionQuestion([&](const QString& pair) -> std::optional<bool> {
            asked = pair;
            return false;
        });
        QVERIFY(network->editCell(1, 2, "77").isEmpty());
        QVERIFY(asked.contains("us-west-2"));
        QVERIFY(window.document()->project()->network.latencyMs(2, 1) != 77.0);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shot("8-network-table")));

        // Drops are recognised by content; where two kinds fit, the user is asked.
        QStringList choices;
        window.setChoiceQuestion([&](const QString&, const QStringList& offered) {
            choices = offered;
            return offered.first();
        });
        const int before = window.document()->undoStack()->index();
        QVERIFY(window.openOrImport(path("bandwidth.csv")));
        QCOMPARE(choices.first(), QString("Latency (ms)"));
        QCOMPARE(window.document()->undoStack()->index(), before + 1);
        QCOMPARE(window.document()->project()->network.latencyMs(0, 1),
                 window.document()->project()->network.bandwidthMBps(0, 1));
        window.document()->undoStack()->undo();
        write(path("notes.txt"), "these are my notes, not a matrix\n");
        QVERIFY(!window.openOrImport(path("notes.txt")));
        QVERIFY(window.lastError().contains("cannot tell what this file holds"));
        QCOMPARE(window.document()->undoStack()->index(), before);
        write(path("pins-again.csv"), "0,eu-west-1\n");
        QVERIFY(window.openOrImport(path("pins-again.csv")));
        QVERIFY(choices.contains("A mapping, as a run"));
        QCOMPARE(window.document()->project()->applications[0].pins.size(), 1);
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->project()->applications[0].pins.size(), 3);

        // Applications: generate, rename, duplicate, delete, and pins edited per process; all undoable.
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::ApplicationsTab);
        auto* apps = window.applicationsPanel();
        QVERIFY(apps->generateApplication("CG 16", synth::Pattern::CG, {.processes = 16}).isEmpty());
        QVERIFY(apps->renameApplication(1, "Conjugate gradient").isEmpty());
        QVERIFY(apps->duplicateApplication(1).isEmpty());
        QCOMPARE(window.document()->project()->applications[2].name, std::string("Conjugate gradient copy"));
        QVERIFY(apps->deleteApplication(2).isEmpty());
        QVERIFY(apps->renameApplication(1, "Solver").contains("already has an application named 'Solver'"));
        apps->setCurrentApplication(0);
        QCOMPARE(apps->processTable()->rowCount(), 32);
        QCOMPARE(apps->processTable()->item(7, 3)->text(), QString("eu-central-1"));
        QVERIFY(apps->setPin(8, "ap-northeast-1").isEmpty());
        QVERIFY(apps->setPin(7, "").isEmpty());
        QCOMPARE(window.document()->project()->applications[0].pins.size(), 3);
        QVERIFY(apps->setPin(9, "atlantis").contains("not a site"));
        QTest::qWait(50);
        QVERIFY(window.grab().save(shot("9-applications")));

        // Two mappers on her application, then save, reopen and export a rankfile.
        window.runPanel()->applicationChooser()->setCurrentText("Solver");
        window.runPanel()->setCheckedMappers({"greedy", "geo"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 2, 60000);
        const QString saved = path("saved/solver.meridian");
        QDir().mkpath(path("saved"));
        QVERIFY(window.saveProject(saved));
        QVERIFY(QFile::exists(path("saved/solver.volume.mtx")));
        QVERIFY(QFile::exists(path("saved/solver.pins.csv")));
        QVERIFY(QFile::exists(path("saved/conjugate-gradient.volume.mtx")));
        // A rename after saving keeps the files' names (nothing renamed, nothing left behind).
        QVERIFY(apps->renameApplication(1, "CG").isEmpty());
        QVERIFY(window.saveProject(saved));
        QVERIFY(!QFile::exists(path("saved/cg.volume.mtx")));
        QVERIFY(QFile::exists(path("saved/conjugate-gradient.volume.mtx")));

        workbench::MainWindow reopened;
        reopened.setInteractive(false);
        QVERIFY(reopened.loadProject(saved));
        const auto again = reopened.document()->project();
        QCOMPARE(again->topology.siteCount(), kSites);
        QCOMPARE(again->applications[1].name, std::string("CG"));
        QCOMPARE(reopened.document()->runs().size(), std::size_t(2));
        const auto run = reopened.document()->runs().front();
        QVERIFY(!reopened.document()->isStale(*run));
        const QString rankfile = path("solver.rankfile");
        QVERIFY(actions::exportLauncher(*run, *again, io::LauncherFormat::OpenMpiRankfile, rankfile));
        QFile rf(rankfile);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QByteArray text = rf.readAll();
        QCOMPARE(text.count("\nrank "), 32);
        QVERIFY(text.contains("rank 0=us-east-1-")); // process 0 is pinned to us-east-1

        // A site-level mapping (process,site) imports as a run completed to hosts, ready to export.
        QString siteLevel = "process,site\n";
        for (int p = 0; p < 32; ++p)
            siteLevel += QString("%1,%2\n").arg(p).arg(
                run->placement.site[p] >= 0 ? QString::fromStdString(again->topology.site(run->placement.site[p]).name)
                                            : "");
        write(path("site-level.csv"), siteLevel);
        reopened.setChoiceQuestion([](const QString&, const QStringList& offered) { return offered.last(); });
        reopened.applicationsPanel()->setCurrentApplication(0);
        QVERIFY(reopened.openOrImport(path("site-level.csv")));
        QCOMPARE(reopened.document()->runs().size(), std::size_t(3));
        QVERIFY(reopened.document()->runs().back()->placement.hasHosts());
    }

    void startsEmptyAndAddsSitesOnTheMap()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.menuAction("actionNewProject")->trigger();
        auto* wizard = window.findChild<workbench::NewProjectWizard*>();
        QVERIFY(wizard);
        wizard->setProjectName("Sketch");
        QVERIFY(wizard->addSite("lab", 48.1, 11.6).isEmpty());
        QVERIFY(wizard->addSite("cloud", 50.1, 8.7).isEmpty());
        QVERIFY(wizard->addSite("lab", 0, 0).contains("lab"));
        using C = widgets::SiteTableModel;
        QVERIFY(wizard->setSiteField(0, C::Nodes, "4").isEmpty());
        QVERIFY(wizard->setSiteField(1, C::Uplink, "125").isEmpty());
        QVERIFY(wizard->setSiteField(1, C::Egress, "0.02").isEmpty());
        const QString negative = wizard->setSiteField(1, C::Uplink, "-3");
        QVERIFY2(negative.contains("cloud"), qPrintable(negative));
        QCOMPARE(wizard->project().topology.site(1).uplinkMBps, 125.0);
        QCOMPARE(wizard->sitesTable()->rowCount(), 2);
        QCOMPARE(wizard->sitesPreview()->sites().size(), 2);
        QVERIFY(wizard->addGeneratedApplication("Ring", synth::Pattern::CG, {.processes = 4}).isEmpty());
        wizard->accept();
        const auto project = window.document()->project();
        QCOMPARE(project->topology.siteCount(), 2);
        QCOMPARE(project->topology.capacity(0), 4);
        QCOMPARE(project->topology.site(1).uplinkMBps, 125.0);
        QCOMPARE(project->topology.site(1).egressUsdPerGB, 0.02);
        QCOMPARE(project->network.count(model::NetworkQuantity::Latency, model::Provenance::Measured), 0);
        QVERIFY(window.document()->completeNetwork().isComplete());
        QCOMPARE(window.document()->undoStack()->count(), 1);
    }
};

QTEST_MAIN(TestOwnDataE2e)
#include "test_own_data_e2e.moc"
