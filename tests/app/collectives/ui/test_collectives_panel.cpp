// The Collectives panel on a sample project's run: the plan it shows (charts, band, summary, the schedule on the
// map), what it exports, and what it says when there is nothing to plan.
#include "app/collectives/ui/collectives_panel.h"
#include "app/jobs/job_runner.h"
#include "test_support.h"
#include "widgets/world_map_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace meridian;

namespace {

/// A run of the project's LU (chosen by name: the sample opens on a captured application) that puts process p on
/// site p % sites; -1 when the project has no LU.
int addRoundRobinRun(document::ProjectDocument& doc)
{
    const int lu = doc.project()->applicationIndex("LU");
    if (lu < 0)
        return -1;
    const auto& app = doc.project()->applications[static_cast<std::size_t>(lu)];
    const int n = app.comm.processCount();
    const int sites = doc.project()->topology.siteCount();
    std::vector<int> site(static_cast<std::size_t>(n));
    for (int p = 0; p < n; ++p)
        site[static_cast<std::size_t>(p)] = p % sites;
    document::Run run;
    run.algorithm = "round-robin";
    run.application = app.name;
    run.placement = model::Placement::fromSites(site);
    run.inputFingerprint = doc.fingerprint(app.name);
    return doc.addRuns({run}, "run").front();
}

bool waitForPlan(workbench::CollectivesPanel& panel, jobs::JobRunner& runner)
{
    runner.waitForAll();
    QCoreApplication::processEvents();
    return panel.plan() != nullptr;
}

} // namespace

class TestCollectivesPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plansTheSelectedRunsBroadcast()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(test::sampleProject("azure-3-regions")));
        jobs::JobRunner runner;
        workbench::CollectivesPanel panel(&doc, &runner);
        panel.resize(1400, 800);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.summary()->text().contains("Select a mapping run"));
        QVERIFY(!panel.plan());

        const int run = addRoundRobinRun(doc);
        QVERIFY(run >= 0 && doc.run(run));
        QCOMPARE(doc.run(run)->application, std::string("LU"));
        doc.setCurrentRun(run);
        QVERIFY(waitForPlan(panel, runner));
        const auto* plan = panel.plan();
        QCOMPARE(plan->layout.processes(), 48);
        QCOMPARE(plan->request.bytes, 64.0 * 1024 * 1024);
        QCOMPARE(plan->sweep.sizes.size(), std::size_t{23}); // 1 KiB to 4 GiB
        // One line per broadcast algorithm in both charts.
        QCOMPARE(panel.sizeChart()->chart()->series().size(), 6);
        QCOMPARE(panel.countChart()->chart()->series().size(), 6);
        // Round-robin puts neighbours on different sites, so the topology-aware chain wins at 64 MiB, and the
        // map shows its schedule: one link per site crossing it makes (two, for three sites).
        QCOMPARE(plan->atSize.results.front().algorithm, collectives::Algorithm::TopologyChain);
        QCOMPARE(panel.map()->links().size(), 2);
        QVERIFY(panel.summary()->text().contains("<b>topology-chain</b>"));
        QVERIFY(panel.summary()->text().contains("Fastest by size"));

        const QString screenshots = QString(MERIDIAN_BINARY_DIR) + "/screenshots";
        QDir().mkpath(screenshots);
        panel.grab().save(screenshots + "/collectives_panel_broadcast.png");
        QTemporaryDir dir;
        QCOMPARE(panel.exportRules(dir.filePath("bcast.rules")), QString());
        QFile rules(dir.filePath("bcast.rules"));
        QVERIFY(rules.open(QIODevice::ReadOnly));
        QVERIFY(rules.readAll().startsWith("1\n7\n1\n48\n"));
        QCOMPARE(panel.exportChart(dir.filePath("chart.png")), QString());
        QVERIFY(!QImage(dir.filePath("chart.png")).isNull());

        // Another operation replans; the shuffle has no Open MPI rules.
        panel.operationChooser()->setCurrentText("allreduce");
        QVERIFY(waitForPlan(panel, runner));
        QCOMPARE(panel.plan()->request.operation, collectives::Operation::Allreduce);
        QCOMPARE(panel.sizeChart()->chart()->series().size(), 6);
        panel.grab().save(screenshots + "/collectives_panel_allreduce.png");
        panel.operationChooser()->setCurrentText("shuffle");
        QVERIFY(waitForPlan(panel, runner));
        QVERIFY(panel.exportRules(dir.filePath("shuffle.rules")).contains("no shuffle"));

        // A size that is not one says so, and the twister model refuses what it does not model.
        panel.operationChooser()->setCurrentText("broadcast");
        panel.sizeEdit()->setText("lots");
        Q_EMIT panel.sizeEdit()->editingFinished();
        runner.waitForAll();
        QVERIFY(!panel.plan());
        QVERIFY(panel.summary()->text().contains("needs a whole number of bytes"));
        panel.sizeEdit()->setText("1 GiB");
        panel.operationChooser()->setCurrentText("reduce");
        panel.modelChooser()->setCurrentIndex(1);
        runner.waitForAll();
        QCoreApplication::processEvents();
        QVERIFY(!panel.plan());
        QVERIFY(panel.summary()->text().contains("broadcast only"));
    }
};

QTEST_MAIN(TestCollectivesPanel)
#include "test_collectives_panel.moc"
