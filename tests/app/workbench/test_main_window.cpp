#include "app/project/project_file.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/map_panel.h"
#include "app/project/ui/matrix_panel.h"
#include "app/workbench/main_window.h"
#include "test_support.h"
#include "widgets/best_curve_view.h"
#include "widgets/file_dialogs.h"
#include "widgets/heatmap_view.h"

#include "app/mapping/ui/run_panel.h"
#include "app/mapping/ui/run_table_model.h"
#include "app/mapping/ui/runs_panel.h"
#include "app/simulation/ui/simulation_details_dialog.h"
#include "app/workbench/jobs_panel.h"
#include "core/synth/patterns.h"
#include "widgets/param_form.h"
#include "widgets/site_table_model.h"
#include "widgets/world_map_view.h"

#include "app/mapping/ui/compare_panel.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QPointer>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace meridian;
using meridian::test::sampleProject;

/// How long a test waits for runs to land: an upper bound, not a timing. A run of a sample application includes
/// its SimGrid simulation (LU: 0.6 s, 2 s under AddressSanitizer), and several share two cores.
constexpr int kRunLandsWithinMs = 120000;

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Keep the user's settings out of the tests.
        QCoreApplication::setOrganizationName("MeridianTests");
        QSettings().clear();
    }

    void remembersRecentFiles()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("azure-3-regions")));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const QStringList recent = QSettings().value("recentFiles").toStringList();
        QVERIFY(recent.size() >= 2);
        QCOMPARE(recent.at(0), QFileInfo(sampleProject("ec2-4-regions")).absoluteFilePath());
        QCOMPARE(recent.at(1), QFileInfo(sampleProject("azure-3-regions")).absoluteFilePath());
    }

    // Issue 31.2: a project another program holds (its lock) opens read-only, and the status bar says so for as long
    // as it is open, naming the holder in its tooltip; a project this window holds shows nothing.
    void showsAProjectAnotherProgramHoldsAsReadOnly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("p.meridian");
        QVERIFY(QFile::copy(sampleProject("azure-3-regions"), path));
        for (const QString& name :
             QFileInfo(sampleProject("azure-3-regions")).dir().entryList({"*.mtx", "*.csv", "*.ti"}))
            QFile::copy(QFileInfo(sampleProject("azure-3-regions")).dir().filePath(name), dir.filePath(name));
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(path));
        auto* notice = window.findChild<QLabel*>("readOnlyNotice");
        QVERIFY(notice);
        QVERIFY(notice->isHidden());
        QVERIFY(!window.windowTitle().contains("read-only"));
        window.document()->reset({}); // closes it: the lock goes
        QProcess holder;
        holder.start("flock", {document::ProjectFile::lockPath(path), "sleep", "20"});
        QVERIFY(holder.waitForStarted());
        QTest::qWait(300);
        QVERIFY(window.loadProject(path));
        QVERIFY(!notice->isHidden());
        QVERIFY(window.windowTitle().contains("(read-only)"));
        QVERIFY2(notice->toolTip().contains("another program is changing this project"), qPrintable(notice->toolTip()));
        holder.kill();
        holder.waitForFinished();
    }

    void selectsTheRunClickedOnTheSkylineEverywhere()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        window.runPanel()->setCheckedMappers({"random", "greedy", "geo"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 3, kRunLandsWithinMs);
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        auto* compare = window.comparePanel();
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::SkylineTab);
        QVERIFY(compare->setSkylineAxes("wan_bytes", "cost_s"));
        QTest::qWait(30);
        const auto greedy = *std::find_if(window.document()->runs().begin(), window.document()->runs().end(),
                                          [](const auto& r) { return r->algorithm == "greedy"; });
        // Drawn in the axes' units: bytes in KB ... TB, the axis says which.
        const auto point = compare->skylinePoint(greedy->id);
        QVERIFY(point);
        QVERIFY(point->x() < *greedy->metric("wan_bytes"));
        QCOMPARE(point->y(), *greedy->metric("cost_s"));
        QScatterSeries* series = nullptr;
        for (auto* s : compare->chart(workbench::ComparePanel::SkylineTab)->chart()->series())
            if (s->name() == "greedy")
                series = qobject_cast<QScatterSeries*>(s);
        QVERIFY(series);
        Q_EMIT series->clicked(*point); // what Qt Charts emits when the user clicks the point
        QCOMPARE(window.document()->currentRun(), greedy->id);
        const auto selected = window.runsPanel()->selectedRuns();
        QCOMPARE(selected, std::vector<int>{greedy->id});
        window.mapPanel()->setLinkMode(workbench::MapPanel::LinkMode::MappedTraffic);
        QVERIFY(!window.mapPanel()->map()->links().isEmpty());
        // The cheapest run is on the Pareto front, and random (beaten in both metrics here) is not.
        const auto& runs = window.document()->runs();
        const auto cheapest = *std::min_element(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
            return *a->metric("cost_s") < *b->metric("cost_s");
        });
        const auto random = *std::find_if(runs.begin(), runs.end(),
                                          [](const auto& r) { return r->algorithm == "random"; });
        const auto front = compare->skylineFront();
        QVERIFY(std::find(front.begin(), front.end(), cheapest->id) != front.end());
        QVERIFY(std::find(front.begin(), front.end(), random->id) == front.end());

        // Regression: each refresh leaked the chart's axes (removeAxis hands them back, nothing deleted them).
        QList<QPointer<QAbstractAxis>> before;
        for (auto* axis : compare->chart(workbench::ComparePanel::SkylineTab)->chart()->axes())
            before << axis;
        QVERIFY(!before.isEmpty());
        QVERIFY(compare->setSkylineAxes("cost_s", "wan_bytes"));
        for (const auto& axis : before)
            QVERIFY(axis.isNull());
    }
    void opensEverySampleProject_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : {"ec2-4-regions", "azure-3-regions", "cloudmap-a7", "geo-cut-ec2-8-regions"})
            QTest::newRow(name) << QString(name);
    }
    void opensEverySampleProject()
    {
        QFETCH(QString, name);
        workbench::MainWindow window;
        window.resize(1280, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto s = window.loadProject(sampleProject(name));
        QVERIFY2(s, s ? "" : s.error().toString().c_str());
        const auto project = window.document()->project();
        QCOMPARE(window.mapPanel()->siteTable()->model()->rowCount(), project->topology.siteCount());
        QVERIFY(window.windowTitle().contains(QString::fromStdString(project->name)));
        // Every matrix of the chooser shows as a heatmap of the right size.
        // Every input matrix of the chooser (all but the two run matrices) shows as a heatmap of the right size.
        auto* chooser = window.matrixPanel()->sourceChooser();
        QCOMPARE(chooser->count(), 4 + 3 * static_cast<int>(project->applications.size()));
        // The tab opens on the project's first matrix, not on "Selected run" (empty: no run is selected), which the
        // chooser showed for the empty project the window started with.
        QCOMPARE(chooser->currentIndex(), 0);
        QVERIFY(!chooser->currentText().startsWith("Selected run"));
        QVERIFY(window.matrixPanel()->heatmap()->data().rows() > 0);
        for (int i = 0; i < chooser->count() - 2; ++i) {
            chooser->setCurrentIndex(i);
            const auto& data = window.matrixPanel()->heatmap()->data();
            const int expected = i < chooser->count() - 4 ? project->applications[i / 3].comm.processCount()
                                                          : project->topology.siteCount();
            QCOMPARE(data.rows(), expected);
            QVERIFY(window.matrixPanel()->heatmap()->valueRange().second > 0);
        }
        chooser->setCurrentIndex(0);
        QTest::qWait(50); // let the layout settle before the screenshot
        QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
        QVERIFY(window.grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/" + name + ".png"));
    }

    void keepsTheProjectWhenOpeningABrokenFile()
    {
        workbench::MainWindow window;
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const QString title = window.windowTitle();
        const auto s = window.loadProject(meridian::test::qdata("sites.csv"));
        QVERIFY(!s);
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(window.document()->project()->topology.siteCount(), 4);
    }

    void showsNetworkProvenanceInTooltipsNotes()
    {
        workbench::MainWindow window;
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        QVERIFY(window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Bandwidth));
        const auto& data = window.matrixPanel()->heatmap()->data();
        QVERIFY(data.cellNote);
        QCOMPARE(data.cellNote(0, 1), QString("measured"));
        QCOMPARE(data.cellNote(1, 2), QString("estimated"));
        QCOMPARE(data.unit, QString("MB/s"));
    }

    void marksUnsavedChangesInTheTitleAndUndoesWithCtrlZ()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        QVERIFY(!window.isWindowModified());
        QCOMPARE(window.mapPanel()->moveSite(0, 40.0, -75.0), QString());
        QVERIFY(window.isWindowModified());
        QCOMPARE(window.document()->project()->topology.site(0).latitude, 40.0);
        QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(window.document()->project()->topology.site(0).latitude, 38.9);
        QVERIFY(!window.isWindowModified());
    }

    void editsSitesThroughTheTableAndTheMap()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        auto* model = window.mapPanel()->siteTable()->model();
        QVERIFY(model->setData(model->index(1, widgets::SiteTableModel::Uplink), "250"));
        QCOMPARE(window.document()->project()->topology.site(1).uplinkMBps, 250.0);
        QVERIFY(!model->setData(model->index(1, widgets::SiteTableModel::Latitude), "north"));
        QVERIFY(window.lastError().contains("north"));
        QCOMPARE(window.mapPanel()->addSite("frankfurt", 50.1, 8.7), QString());
        QCOMPARE(model->rowCount(), 5);
        QCOMPARE(window.mapPanel()->map()->sites().size(), 5);
        QCOMPARE(window.mapPanel()->renameSite(4, "fra"), QString());
        QCOMPARE(window.mapPanel()->map()->sites()[4].name, QString("fra"));
        QCOMPARE(window.mapPanel()->deleteSite(4), QString());
        QCOMPARE(model->rowCount(), 4);
        QVERIFY(!window.mapPanel()->addSite("us-east", 0, 0).isEmpty());
    }

    void editsANetworkCellAsEdited()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        auto* matrices = window.matrixPanel();
        QVERIFY(matrices->showSource(workbench::MatrixPanel::Source::Latency));
        QCOMPARE(matrices->editCell(1, 2, "0.42"), QString());
        QCOMPARE(matrices->heatmap()->data().cellNote(1, 2), QString("edited"));
        QCOMPARE(matrices->heatmap()->data().value(1, 2), 0.42);
        QVERIFY(!matrices->editCell(1, 2, "-1").isEmpty());
        QVERIFY(matrices->showSource(workbench::MatrixPanel::Source::Volume, 0));
        QCOMPARE(matrices->editCell(0, 5, "1000"), QString());
        QCOMPARE(matrices->heatmap()->data().value(0, 5), 1000.0);
        QVERIFY(matrices->showSource(workbench::MatrixPanel::Source::AverageSize, 0));
        QVERIFY(!matrices->editCell(0, 5, "1").isEmpty());
    }

    void marksRunsStaleAndRerunsThem()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        window.runPanel()->setCheckedMappers({"greedy"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 1, kRunLandsWithinMs);
        const int first = window.document()->runs().front()->id;
        QVERIFY(window.document()->staleRuns().empty());
        QVERIFY(window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Bandwidth));
        QCOMPARE(window.matrixPanel()->editCell(0, 1, "2"), QString());
        QCOMPARE(window.document()->staleRuns(), std::vector<int>{first});
        auto* runs = window.runsPanel()->table()->model();
        QCOMPARE(runs->data(runs->index(0, workbench::RunTableModel::Status)).toString(), QString("stale"));
        window.runsPanel()->findChild<QPushButton*>("rerunStale")->click();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 2, kRunLandsWithinMs);
        QCOMPARE(window.document()->runs().size(), std::size_t(1));
        QVERIFY(window.document()->runs().front()->id != first);
        QVERIFY(window.document()->staleRuns().empty());
    }

    // Issue 34.7: file dialogs opened in the working directory every time; they open where the user last chose a
    // file (remembered across sessions), or home when that folder is gone.
    void fileDialogsOpenInTheLastFolderUsed()
    {
        QTemporaryDir dir;
        widgets::rememberFolder(dir.filePath("sites.csv"));
        QCOMPARE(widgets::lastFolder(), dir.path());
        widgets::rememberFolder(dir.filePath("gone/pins.csv"));
        QCOMPARE(widgets::lastFolder(), QDir::homePath());
        widgets::rememberFolder(dir.path());
        QCOMPARE(widgets::lastFolder(), dir.path());
    }

    void simulatesARunOnDemandAndRefusesAStaleOne()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        window.runPanel()->setCheckedMappers({"geo"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        QSignalSpy failed(window.runController(), &actions::RunController::runFailed);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 1, kRunLandsWithinMs);
        const auto landedRun = window.document()->runs().front();
        const double simulated = *landedRun->metric("simulated_s");
        auto* table = window.runsPanel()->table();
        // Issue 34.5: Simulate on a run simulated already (as it landed) queues nothing, keeps the run and its
        // selection, and the status says it is simulated, with its times.
        window.document()->setCurrentRun(landedRun->id);
        QSignalSpy kept(window.runController(), &actions::RunController::alreadySimulated);
        window.runsPanel()->findChild<QPushButton*>("simulate")->click();
        QCOMPARE(kept.count(), 1);
        QCOMPARE(window.jobsPanel()->rowCount(), 0);
        QCOMPARE(window.document()->currentRun(), landedRun->id);
        QVERIFY2(window.statusBar()->currentMessage().contains("is simulated already"),
                 qPrintable(window.statusBar()->currentMessage()));
        // A run without a simulation (its copy without the simulated and predicted times): Simulate replaces it, with
        // the same simulated time (SimGrid is deterministic), one undo step, and the selection on the new run.
        document::Run bare = *landedRun;
        std::erase_if(bare.metrics,
                      [](const document::RunMetric& m) { return m.id == "simulated_s" || m.id == "predicted_s"; });
        window.document()->removeRuns({landedRun->id});
        const int firstId = window.document()->addRuns({bare}, "a run without its simulation").front();
        const auto first = window.document()->run(firstId);
        window.document()->setCurrentRun(first->id);
        // Through the selection model: QTableView::selectRow follows the keyboard modifiers, and after the earlier
        // tests in this binary it left the row unselected.
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        window.runsPanel()->findChild<QPushButton*>("simulate")->click();
        QTRY_VERIFY2_WITH_TIMEOUT(landed.count() == 2 || !failed.isEmpty(), "the simulation neither landed nor failed",
                                  kRunLandsWithinMs);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.front().at(1).toString()));
        QCOMPARE(window.document()->runs().size(), std::size_t(1));
        const auto second = window.document()->runs().front();
        QVERIFY(second->id != first->id);
        QCOMPARE(*second->metric("simulated_s"), simulated);
        QCOMPARE(second->placement.site, first->placement.site);
        QCOMPARE(window.document()->currentRun(), second->id);
        QVERIFY2(window.statusBar()->currentMessage().startsWith(QString("Simulated run %1").arg(first->id)),
                 qPrintable(window.statusBar()->currentMessage()));
        auto* runs = window.runsPanel()->table()->model();
        QCOMPARE(runs->data(runs->index(0, workbench::RunTableModel::Simulated), Qt::EditRole).toDouble(), simulated);
        // Where the time goes: one row per link of the comparison, the most utilised first.
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        window.runsPanel()->findChild<QPushButton*>("simulationDetails")->click();
        auto* details = window.runsPanel()->findChild<workbench::SimulationDetailsDialog*>();
        QVERIFY(details && details->isVisible());
        const auto comparison = ops::compareWithSimulation(*second);
        QCOMPARE(details->table()->rowCount(), static_cast<int>(comparison->links.size()));
        const auto& busiest = comparison->links[comparison->busiest];
        QCOMPARE(details->table()->item(0, workbench::SimulationDetailsDialog::Utilisation)->data(Qt::UserRole).toDouble(),
                 busiest.utilisation);
        QVERIFY(details->summary()->text().contains(
            workbench::SimulationDetailsDialog::linkName(busiest, *window.document()->project())));
        QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
        QVERIFY(details->grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/simulation-details.png"));
        details->close();
        // A stale run is refused with the reason.
        QVERIFY(window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Bandwidth));
        QCOMPARE(window.matrixPanel()->editCell(0, 1, "2"), QString());
        QVERIFY(window.runController()->simulate({second->id}).empty());
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().at(1).toString().contains("re-run it"));
    }

    void tellsWhereAlphaBetaAndTheSimulationDisagree()
    {
        // Eight partners in B send to A through B's uplink: alpha-beta's costliest pair is B -> A, the simulation's
        // busiest link B's uplink, shared by the eight flows.
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto& project = *doc.project();
        document::Run run;
        run.metrics = {{"cost_s", "Cost", "s", 2.08}, {"simulated_s", "Simulated time", "s", 4.01}};
        run.timeSeconds = Eigen::MatrixXd::Zero(4, 4);
        run.timeSeconds(1, 0) = 2.08;
        run.trafficBytes = Eigen::MatrixXd::Zero(4, 4);
        run.trafficBytes(1, 0) = 8e8;
        run.simulatedLinks = {{1, -1, 8e8, 1.0, 1.0}, {1, 0, 8e8, 1.0, 0.5}, {-1, 0, 8e8, 1.0, 0.5}};
        const auto comparison = ops::compareWithSimulation(run);
        QVERIFY(comparison);
        QCOMPARE(comparison->links[comparison->costliest].from, 1);
        QCOMPARE(comparison->links[comparison->costliest].to, 0);
        // The uplink is the most utilised.
        QCOMPARE(comparison->links[comparison->busiest].from, 1);
        QCOMPARE(comparison->links[comparison->busiest].to, -1);
        const QString text = workbench::SimulationDetailsDialog::summaryText(*comparison, project);
        const QString uplink = QString::fromStdString(project.topology.site(1).name) + " uplink";
        QVERIFY2(text.contains(uplink) && text.contains("They disagree"), qPrintable(text));
        // The same run with the pair as the busiest link: they agree.
        run.simulatedLinks = {{1, 0, 8e8, 1.0, 1.0}, {1, -1, 8e8, 1.0, 0.5}};
        QVERIFY(workbench::SimulationDetailsDialog::summaryText(*ops::compareWithSimulation(run), project)
                    .contains("They agree"));
    }

    void landsARunWhoseInputsChangedWhileItRanAsStale()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        window.runPanel()->setCheckedMappers({"monte-carlo"});
        qobject_cast<QSpinBox*>(window.runPanel()->form("monte-carlo")->editor("samples"))->setValue(3000000);
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QCOMPARE(window.mapPanel()->moveSite(2, 0.0, 100.0), QString()); // while it runs
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 1, 60000);
        QCOMPARE(landed.first().at(1).toBool(), true);
        QCOMPARE(window.document()->staleRuns().size(), std::size_t(1));
    }

    void cancellingLeavesTheProjectAsItWas()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const auto before = window.document()->project();
        const int undoCount = window.document()->undoStack()->count();
        window.runPanel()->setCheckedMappers({"monte-carlo"});
        qobject_cast<QSpinBox*>(window.runPanel()->form("monte-carlo")->editor("samples"))->setValue(100000000);
        QSignalSpy ended(window.jobRunner(), &jobs::JobRunner::jobEnded);
        const auto jobs = window.runPanel()->runChecked();
        QTRY_VERIFY(window.jobsPanel()->progressBar(jobs.front())
                    && window.jobsPanel()->progressBar(jobs.front())->value() > 0);
        window.jobsPanel()->cancelButton(jobs.front())->click();
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QCOMPARE(ended.first().at(1).value<jobs::JobEnd>(), jobs::JobEnd::Canceled);
        QCOMPARE(window.document()->project(), before);
        QCOMPARE(window.document()->runs().size(), std::size_t(0));
        QCOMPARE(window.document()->undoStack()->count(), undoCount);
        QCOMPARE(window.jobsPanel()->rowCount(), 0);
    }

    void showsRefinesBestCostAgainstTimeWhileItRuns()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        window.runPanel()->setCheckedMappers({"refine"});
        auto* form = window.runPanel()->form("refine");
        qobject_cast<QComboBox*>(form->editor("start"))->setCurrentText("random");
        qobject_cast<QSpinBox*>(form->editor("anneal_steps"))->setValue(400000000);
        qobject_cast<QDoubleSpinBox*>(form->editor("time_limit_s"))->setValue(4.0);
        const auto jobs = window.runPanel()->runChecked();
        QCOMPARE(jobs.size(), std::size_t(1));
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsPanel()->bestCurve(jobs.front())
                                     && window.jobsPanel()->bestCurve(jobs.front())->isVisible()
                                     && window.jobsPanel()->bestCurve(jobs.front())->curve().size() >= 3,
                                 10000);
        QTest::qWait(1500); // a longer flat stretch for the screenshot
        const auto curve = window.jobsPanel()->bestCurve(jobs.front())->curve();
        for (std::size_t i = 1; i < curve.size(); ++i)
            QVERIFY(curve[i].second < curve[i - 1].second);
        QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
        QVERIFY(window.jobsPanel()->grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/refine-best-so-far.png"));
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 1, kRunLandsWithinMs);
        // The objectives refine offers, the contention-aware ones among them, in its parameter form.
        auto* objective = qobject_cast<QComboBox*>(form->editor("objective"));
        QVERIFY(objective->findText("alpha-beta+bottleneck") >= 0);
        objective->setCurrentText("alpha-beta+bottleneck");
        auto* mappers = window.runPanel()->findChild<QListWidget*>("mapperList");
        mappers->setCurrentItem(mappers->findItems("refine", Qt::MatchExactly).front());
        for (QWidget* w = objective; w; w = w->parentWidget())
            if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
                scroll->ensureWidgetVisible(objective);
                break;
            }
        QVERIFY(window.runPanel()->grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/refine-parameters.png"));
    }

    // Issue 34.2: with a site lacking its instance price the skyline fell back to raw bytes in silence and stayed
    // there. It says which site lacks which price, shows bytes in MB or GB, and comes back to dollars against time
    // once the price is there.
    void theSkylineSaysWhyItHasNoDollars()
    {
        QFile sample(sampleProject("ec2-4-regions"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QJsonObject project = QJsonDocument::fromJson(sample.readAll()).object();
        QJsonArray sites = project["sites"].toArray();
        for (auto&& value : sites) {
            QJsonObject site = value.toObject();
            if (site["name"].toString() == "singapore")
                site.remove("instance_usd_per_hour");
            value = site;
        }
        project["sites"] = sites;
        QTemporaryDir dir;
        const QDir sampleDir = QFileInfo(sample.fileName()).dir();
        for (const QString& name : sampleDir.entryList({"*.mtx", "*.csv", "*.ti"}, QDir::Files))
            QVERIFY(QFile::copy(sampleDir.filePath(name), dir.filePath(name)));
        QFile unpriced(dir.filePath("unpriced.meridian"));
        QVERIFY(unpriced.open(QIODevice::WriteOnly));
        unpriced.write(QJsonDocument(project).toJson());
        unpriced.close();

        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(unpriced.fileName()));
        window.applicationsPanel()->setCurrentApplication(window.document()->project()->applicationIndex("LU"));
        window.runPanel()->setCheckedMappers({"greedy", "geo"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 2, kRunLandsWithinMs);
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        auto* compare = window.comparePanel();
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::SkylineTab);
        auto* note = compare->findChild<QLabel*>("skylineNote");
        auto* xAxis = compare->findChild<QComboBox*>("skylineX");
        QVERIFY(note && xAxis);
        QTRY_VERIFY(!note->isHidden());
        QVERIFY2(note->text().contains("singapore has no instance price"), qPrintable(note->text()));
        QVERIFY(xAxis->currentData().toString() != "usd");
        QVERIFY(window.grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/skyline-no-dollars.png"));

        // The price, typed into the Sites table as a user would; the runs again: dollars against time, no note.
        auto* siteModel = window.mapPanel()->siteModel();
        const int singapore = window.document()->project()->topology.siteIndex("singapore").value_or(-1);
        QVERIFY(siteModel->setData(siteModel->index(singapore, widgets::SiteTableModel::InstancePrice), 2.117));
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 4, kRunLandsWithinMs);
        QTRY_VERIFY(note->isHidden());
        QCOMPARE(xAxis->currentData().toString(), QString("usd"));

        // Bytes on an axis read in MB or GB, never as a raw count.
        QVERIFY(compare->setSkylineAxes("wan_bytes", "cost_s"));
        const auto axes = compare->chart(workbench::ComparePanel::SkylineTab)->chart()->axes(Qt::Horizontal);
        QVERIFY(!axes.isEmpty());
        QVERIFY2(axes.front()->titleText().contains(QRegularExpression("\\((KB|MB|GB|TB)\\)$")),
                 qPrintable(axes.front()->titleText()));
    }

    void paretoSweepPutsTimeAgainstDollarsOnTheSkyline()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The EC2 sample with room for 24 instances per region instead of 16: where to launch the 64 is a choice
        // between paying more (Singapore's dearer nodes) and finishing sooner.
        QFile sample(sampleProject("ec2-4-regions"));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        QJsonObject project = QJsonDocument::fromJson(sample.readAll()).object();
        QJsonArray sites = project["sites"].toArray();
        for (auto&& value : sites) {
            QJsonObject site = value.toObject();
            site["nodes"] = 24;
            value = site;
        }
        project["sites"] = sites;
        QTemporaryDir dir;
        const QDir sampleDir = QFileInfo(sample.fileName()).dir();
        for (const QString& name : sampleDir.entryList({"*.mtx", "*.csv", "*.ti"}, QDir::Files))
            QVERIFY(QFile::copy(sampleDir.filePath(name), dir.filePath(name)));
        QFile spare(dir.filePath("ec2-spare.meridian"));
        QVERIFY(spare.open(QIODevice::WriteOnly));
        spare.write(QJsonDocument(project).toJson());
        spare.close();
        QVERIFY(window.loadProject(spare.fileName()));
        // The sample opens on LAMMPS melt 32 (no pins): the 64 processes are LU's, chosen by name.
        const int lu = window.document()->project()->applicationIndex("LU");
        QVERIFY(lu >= 0);
        window.applicationsPanel()->setCurrentApplication(lu);
        QCOMPARE(window.runPanel()->applicationChooser()->currentText(), QString("LU"));
        QCOMPARE(window.document()->project()->applications[static_cast<std::size_t>(lu)].comm.processCount(), 64);
        window.runPanel()->setCheckedMappers({"random", "greedy", "geo", "scotch-bw"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 4, kRunLandsWithinMs);
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        auto* compare = window.comparePanel();
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::SkylineTab);
        // The skyline's input follows the selected run: LU's runs landed, so it shows LU, and the sweep runs on it.
        auto* skylineInput = compare->findChild<QComboBox*>("skylineInput");
        QVERIFY(skylineInput);
        QCOMPARE(skylineInput->currentText(), QString("LU"));
        compare->findChild<QSpinBox*>("paretoPoints")->setValue(6);
        auto* sweep = compare->findChild<QPushButton*>("paretoSweep");
        QVERIFY(sweep && sweep->isEnabled());
        sweep->click();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 10, 120000);
        // The six runs: weights 0, 0.2, ..., 1, in that order; the dollars fall and the time rises between the ends.
        std::vector<std::shared_ptr<const document::Run>> swept;
        for (const auto& r : window.document()->runs())
            if (r->algorithm == "refine")
                swept.push_back(r);
        QCOMPARE(swept.size(), std::size_t(6));
        for (const auto& r : window.document()->runs())
            QCOMPARE(r->application, std::string("LU"));
        QCOMPARE(swept.front()->params.real("weight"), 0.0);
        QCOMPARE(swept.back()->params.real("weight"), 1.0);
        QVERIFY(*swept.back()->metric("usd") < *swept.front()->metric("usd"));
        QVERIFY(*swept.back()->metric("cost_s") > *swept.front()->metric("cost_s"));
        // The sweep trades eq. 3's cost against dollars: its ends are on the front of those two axes (the skyline
        // opens on the predicted time, which the sweep does not weigh).
        auto* yAxis = compare->findChild<QComboBox*>("skylineY");
        QVERIFY(yAxis);
        QCOMPARE(yAxis->currentData().toString(), QString("predicted_s"));
        yAxis->setCurrentIndex(yAxis->findData(QString("cost_s")));
        QScatterSeries* series = nullptr;
        for (auto* s : compare->chart(workbench::ComparePanel::SkylineTab)->chart()->series())
            if (s->name() == "refine (weighted)")
                series = qobject_cast<QScatterSeries*>(s);
        QVERIFY(series);
        QCOMPARE(series->count(), 6);
        const auto front = compare->skylineFront();
        QVERIFY(std::find(front.begin(), front.end(), swept.front()->id) != front.end());
        QVERIFY(std::find(front.begin(), front.end(), swept.back()->id) != front.end());
        QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
        QVERIFY(compare->grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/skyline-pareto-sweep.png"));
        // Zoomed in on the sweep (what dragging a rectangle around its runs does).
        QChart* chart = compare->chart(workbench::ComparePanel::SkylineTab)->chart();
        QRectF box;
        for (const QPointF& p : series->points())
            box = box.isNull() ? QRectF(p, QSizeF(0, 0)) : box.united(QRectF(p, QSizeF(0, 0)));
        const QPointF a = chart->mapToPosition(box.topLeft(), series),
                      b = chart->mapToPosition(box.bottomRight(), series);
        chart->zoomIn(QRectF(a, b).normalized().adjusted(-6, -6, 6, 6));
        QTest::qWait(50); // the chart lays out its new labels on the next turn of the event loop
        QVERIFY(compare->grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/skyline-pareto-sweep-zoomed.png"));
        // The runs table opens sorted by predicted time, fastest first; every run here has one.
        auto* table = window.runsPanel()->table();
        double previous = 0.0;
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QVariant t = table->model()->index(row, workbench::RunTableModel::Predicted).data(Qt::EditRole);
            QVERIFY2(t.isValid() && t.toDouble() >= previous, qPrintable(QString("row %1").arg(row)));
            previous = t.toDouble();
        }
        table->selectRow(0);
        window.resize(1600, 1000);
        QTest::qWait(50); // the charts lay out again on the next turn of the event loop
        QVERIFY(window.grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/runs-by-predicted-time.png"));
    }

    void importsDroppedSitesOrSaysWhichLineIsWrong()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.geojson");
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            "{\"type\": \"FeatureCollection\",\n \"features\": [\n {\"type\": \"Feature\", \"geometry\": {\"type\": "
            "\"Point\", \"coordinates\": [2.3]}, \"properties\": {\"name\": \"paris\", \"nodes\": 2}}]}\n");
        f.close();
        const auto before = window.document()->project();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(bad)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY2(window.lastError().contains("bad.geojson:3"),
                 qPrintable(window.lastError() + " / sites "
                            + QString::number(window.document()->project()->topology.siteCount())));
        QCOMPARE(window.document()->project(), before);
        const QString good = dir.filePath("good.csv");
        QFile g(good);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("name,lat,lon,nodes\nparis,48.9,2.3,2\nus-east,38.9,-77.4,80\n");
        g.close();
        QVERIFY(window.openOrImport(good));
        QCOMPARE(window.document()->project()->topology.siteCount(), 2);
    }

    void survivesAnEmptyProjectOneSiteAnd8192Processes()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (int tab = 0; tab < window.centralTabs()->count(); ++tab) {
            window.centralTabs()->setCurrentIndex(tab);
            QVERIFY(!window.grab().isNull());
        }
        QVERIFY(window.runPanel()->requests().empty());
        QTemporaryDir dir;
        QVERIFY(window.writeReport(dir.filePath("empty.pdf")));
        QCOMPARE(window.mapPanel()->addSite("solo", 10, 10), QString());
        QVERIFY(window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Latency));
        QCOMPARE(window.matrixPanel()->heatmap()->data().rows(), 1);

        // 8192 processes: a generated LU on the solo site, mapped and shown.
        document::Project big = *window.document()->project();
        QVERIFY(window.mapPanel()
                    ->siteModel()
                    ->setData(window.mapPanel()->siteModel()->index(0, widgets::SiteTableModel::Nodes), "8192"));
        big = *window.document()->project();
        big.applications.push_back(
            {"lu8192", "", *synth::generatePattern(synth::Pattern::LU, {.processes = 8192}), {}, {}, {}, {}, nullptr, {}});
        window.document()->reset(big);
        window.runPanel()->setCheckedMappers({"greedy"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 1, 60000);
        window.document()->setCurrentRun(window.document()->runs().front()->id);
        QVERIFY(window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Volume, 0));
        window.matrixPanel()->setArrangement(workbench::MatrixPanel::Arrangement::AggregateByHost);
        QCOMPARE(window.matrixPanel()->heatmap()->data().rows(), 8192);
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::MatricesTab);
        QVERIFY(!window.grab().isNull());
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        QVERIFY(!window.grab().isNull());
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
