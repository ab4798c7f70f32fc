// End to end, as a user: open each sample project, run two mappers from the run panel, wait for them,
// export a rankfile and a PDF report, and save screenshots of the main views to build/screenshots/.
// Runs under xvfb-run when it is installed (a real X server), else offscreen.
#include "app/mapping/ui/compare_panel.h"
#include "app/mapping/ui/run_panel.h"
#include "app/mapping/ui/runs_panel.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/diff_panel.h"
#include "app/project/ui/map_panel.h"
#include "app/project/ui/matrix_panel.h"
#include "app/workbench/jobs_panel.h"
#include "app/workbench/main_window.h"
#include "report_figure_checks.h"
#include "test_support.h"
#include "widgets/heatmap_view.h"
#include "widgets/param_form.h"
#include "widgets/world_map_view.h"

#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

using namespace meridian;
using meridian::test::sampleProject;

namespace {

QString shotPath(const QString& project, const QString& view)
{
    const QString dir = QString(MERIDIAN_BINARY_DIR) + "/screenshots";
    QDir().mkpath(dir);
    return dir + "/" + project + "-" + view + ".png";
}

/// The index of the site with that name, or -1.
int siteIndex(const document::Project& project, const std::string& name)
{
    for (int s = 0; s < project.topology.siteCount(); ++s)
        if (project.topology.site(s).name == name)
            return s;
    return -1;
}

} // namespace

class TestWorkbenchE2e : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsTwoMappersExportsAndReportsOnEverySample_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : {"ec2-4-regions", "azure-3-regions", "cloudmap-a7", "geo-cut-ec2-8-regions"})
            QTest::newRow(name) << QString(name);
    }

    void runsTwoMappersExportsAndReportsOnEverySample()
    {
        QFETCH(QString, name);
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto loaded = window.loadProject(sampleProject(name));
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath(name, "1-map")));

        auto* runPanel = window.runPanel();
        const bool hasApplications = !window.document()->project()->applications.empty();
        if (!hasApplications) {
            // The Geo-Cut project holds sites for the partitioners and no application: nothing to map.
            QCOMPARE(runPanel->requests().size(), std::size_t(0));
            window.centralTabs()->setCurrentIndex(workbench::MainWindow::MatricesTab);
            window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Bandwidth);
            QTest::qWait(50);
            QVERIFY(window.grab().save(shotPath(name, "2-matrices")));
            return;
        }
        runPanel->setCheckedMappers({"greedy", "geo"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        runPanel->findChild<QPushButton*>("runButton")->click();
        QVERIFY(window.jobsPanel()->rowCount() >= 1 || landed.count() == 2);
        QVERIFY(landed.wait(60000) || landed.count() > 0);
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 2, 60000);
        QCOMPARE(window.document()->runs().size(), std::size_t(2));
        QCOMPARE(window.runsPanel()->table()->model()->rowCount(), 2);
        QCOMPARE(window.jobsPanel()->rowCount(), 0);

        // Select geo's run and export it.
        const int geo = window.document()->runs()[1]->algorithm == "geo" ? window.document()->runs()[1]->id
                                                                         : window.document()->runs()[0]->id;
        window.document()->setCurrentRun(geo);
        QTemporaryDir dir;
        const QString rankfile = dir.filePath(name + ".rankfile");
        io::LaunchAdvice advice;
        QCOMPARE(window.runsPanel()->exportRun(geo, io::LauncherFormat::OpenMpiRankfile, rankfile, &advice), QString());
        QFile ranks(rankfile);
        QVERIFY(ranks.open(QIODevice::ReadOnly));
        const QByteArray text = ranks.readAll();
        const int processes = window.document()->run(geo)->placement.processCount();
        QCOMPARE(text.count("\nrank "), static_cast<qsizetype>(processes));
        // The export says how to launch the file, and that the sample's hosts are placeholders until named.
        QMessageBox* launch = window.runsPanel()->showLaunchAdvice(advice, rankfile);
        QTest::qWait(50);
        QVERIFY2(launch->text().contains(QString("mpirun -np %1 --rankfile").arg(processes)),
                 qPrintable(launch->text()));
        const bool placeholders = !advice.placeholders.empty();
        QCOMPARE(launch->text().contains("It cannot be launched yet"), placeholders);
        QCOMPARE(launch->icon(), placeholders ? QMessageBox::Warning : QMessageBox::Information);
        QVERIFY(launch->grab().save(shotPath(name, "3-launch")));
        launch->close();

        window.mapPanel()->setLinkMode(workbench::MapPanel::LinkMode::MappedTraffic);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath(name, "1-map-traffic")));
        // The run was simulated as it landed: its site pairs coloured by their simulated busy fraction.
        const bool mapping = window.document()->run(geo)->kind == document::RunKind::Mapping;
        QCOMPARE(window.document()->run(geo)->metric("simulated_s").has_value(), mapping);
        window.mapPanel()->setLinkMode(workbench::MapPanel::LinkMode::SimulatedBusy);
        QTest::qWait(50);
        if (mapping) {
            // The samples open on a captured application (LAMMPS melt 32, MUMPS Laplace 16, HPCC 16), the one mapped
            // here. A link joins two sites the run uses, so a run on one site has none: geo keeps 16 processes on one
            // site of 16 nodes, and needs two sites for LAMMPS's 32.
            QCOMPARE(window.document()->run(geo)->application, window.document()->project()->applications.front().name);
            const auto& placed = window.document()->run(geo)->placement.site;
            const std::set<int> used(placed.begin(), placed.end());
            const auto& links = window.mapPanel()->map()->links();
            QCOMPARE(links.isEmpty(), used.size() < 2);
            for (const auto& l : links)
                QVERIFY(l.from != l.to && used.contains(l.from) && used.contains(l.to));
            if (!links.isEmpty())
                QVERIFY(links.front().detail.contains("alpha-beta"));
            // ec2-4-regions measured only the pairs with US East: the others were estimated, and say so (the
            // estimated ones are crossed by LU, in marksTheEc2SamplesEstimatedLinksOnItsLu).
            if (name == "ec2-4-regions") {
                QVERIFY(!links.isEmpty());
                const int usEast = siteIndex(*window.document()->project(), "us-east");
                QVERIFY(usEast >= 0);
                for (const auto& l : links)
                    QCOMPARE(l.detail.contains("estimated"), l.from != usEast && l.to != usEast);
            }
        }
        QVERIFY(window.grab().save(shotPath(name, "1-map-simulated")));

        window.centralTabs()->setCurrentIndex(workbench::MainWindow::MatricesTab);
        window.matrixPanel()->showSource(workbench::MatrixPanel::Source::Volume, 0);
        window.matrixPanel()->setArrangement(workbench::MatrixPanel::Arrangement::ReorderBySite);
        QTest::qWait(50);
        QVERIFY(window.matrixPanel()->heatmap()->data().title.contains("ordered by the sites"));
        QVERIFY(window.grab().save(shotPath(name, "2-matrices")));

        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        auto* compare = window.comparePanel();
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::SkylineTab);
        QTest::qWait(50);
        QVERIFY(!compare->skylineFront().empty());
        QVERIFY(window.grab().save(shotPath(name, "3-skyline")));
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::TableTab);
        QTest::qWait(30);
        QVERIFY(window.grab().save(shotPath(name, "3-compare-table")));

        window.centralTabs()->setCurrentIndex(workbench::MainWindow::DiffTab);
        const auto& runs = window.document()->runs();
        QVERIFY(window.diffPanel()->showDiff(runs[0]->id, runs[1]->id));
        QTest::qWait(30);
        QVERIFY(window.grab().save(shotPath(name, "4-diff")));

        const QString pdf = dir.filePath(name + ".pdf");
        const auto written = window.writeReport(pdf);
        QVERIFY2(written, written ? "" : written.error().toString().c_str());
        QFile report(pdf);
        QVERIFY(report.open(QIODevice::ReadOnly));
        QCOMPARE(report.read(5), QByteArray("%PDF-"));
        QVERIFY(report.size() > 20000); // text plus the map, heatmaps and charts
        QVERIFY(window.lastError().isEmpty());
        // Its figures, as printed: every text 7 pt or more, none elided, on every sample.
        const QString html = dir.filePath(name + ".html");
        QVERIFY(window.writeReport(html));
        QFile page(html);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const auto texts = test::figureTexts(QString::fromUtf8(page.readAll()));
        QVERIFY(!texts.empty());
        const QStringList problems = test::figureTextProblems(texts);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
        // Kept beside the screenshots, to be looked at page by page (pdftoppm -png).
        const QString kept = shotPath(name, "5-report").replace(".png", ".pdf");
        QFile::remove(kept);
        QVERIFY(QFile::copy(pdf, kept));
    }

    void marksTheEc2SamplesEstimatedLinksOnItsLu()
    {
        // The sample opens on LAMMPS melt 32, which geo places on two regions joined by a measured link. LU's 64
        // processes fill the 64 nodes of the four regions, so its run crosses pairs without US East too, whose
        // links were estimated from distance: the map says which.
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const int lu = window.document()->project()->applicationIndex("LU");
        QVERIFY(lu >= 0);
        window.applicationsPanel()->setCurrentApplication(lu);
        QCOMPARE(window.runPanel()->applicationChooser()->currentText(), QString("LU"));
        window.runPanel()->setCheckedMappers({"geo"});
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        window.runPanel()->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 1, 60000);
        QCOMPARE(window.document()->runs().size(), std::size_t(1));
        const auto run = window.document()->runs().front();
        QCOMPARE(run->application, std::string("LU"));
        QCOMPARE(run->algorithm, std::string("geo"));
        QVERIFY(run->metric("simulated_s").has_value());
        window.document()->setCurrentRun(run->id);
        window.mapPanel()->setLinkMode(workbench::MapPanel::LinkMode::SimulatedBusy);
        QTest::qWait(50);
        const auto& links = window.mapPanel()->map()->links();
        QVERIFY(!links.isEmpty());
        QVERIFY(links.front().detail.contains("alpha-beta"));
        QVERIFY(std::any_of(links.begin(), links.end(),
                            [](const widgets::MapLink& l) { return l.detail.contains("estimated"); }));
        QVERIFY(std::any_of(links.begin(), links.end(),
                            [](const widgets::MapLink& l) { return !l.detail.contains("estimated"); }));
        const int usEast = siteIndex(*window.document()->project(), "us-east");
        QVERIFY(usEast >= 0);
        for (const auto& l : links)
            QCOMPARE(l.detail.contains("estimated"), l.from != usEast && l.to != usEast);
        QVERIFY(window.grab().save(shotPath("ec2-4-regions", "1-map-simulated-lu")));
    }

    void showsMonteCarloSweepsAndBarsOnTheEc2Sample()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        auto* runPanel = window.runPanel();
        runPanel->setCheckedMappers({"random", "greedy", "geo", "monte-carlo", "refine"});
        qobject_cast<QSpinBox*>(runPanel->form("monte-carlo")->editor("samples"))->setValue(20000);
        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        runPanel->runChecked();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count(), 5, 120000);
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        auto* compare = window.comparePanel();
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::MonteCarloTab);
        QTest::qWait(50);
        QVERIFY(compare->chart(workbench::ComparePanel::MonteCarloTab)->chart()->series().size() >= 4);
        QVERIFY(window.grab().save(shotPath("ec2-4-regions", "5-monte-carlo")));
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::BarsTab);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("ec2-4-regions", "5-bars")));

        runPanel->setCheckedMappers({"greedy", "geo"});
        compare->setSweep(ops::SweepKind::ConstraintRatio, "0, 0.4, 0.8", 2);
        QSignalSpy swept(window.runController(), &actions::RunController::sweepFinished);
        QVERIFY(compare->startSweep() > 0);
        QVERIFY(swept.wait(120000));
        QTest::qWait(50);
        QCOMPARE(compare->lastSweep()->points.size(), std::size_t(3));
        QVERIFY(window.grab().save(shotPath("ec2-4-regions", "5-sweep")));
        QTemporaryDir dir;
        QCOMPARE(compare->exportChart(workbench::ComparePanel::SweepsTab, dir.filePath("sweep.svg")), QString());
        QCOMPARE(compare->exportChart(workbench::ComparePanel::SkylineTab, dir.filePath("skyline.png")), QString());
        QFile svg(dir.filePath("sweep.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("<svg"));
    }
};

QTEST_MAIN(TestWorkbenchE2e)
#include "test_workbench_e2e.moc"
