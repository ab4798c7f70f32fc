// Graph partitioning in the workbench, as a user: open the Geo-Cut sample (Wiki-Vote with homes), run hash,
// hdrf, g-cut and geo-cut from the run panel, read the runs list and the skyline, export E.tsv and M.tsv,
// save and reopen, and see a graph changed on disk make its runs stale. Screenshots go to build/screenshots/.
#include "app/mapping/ui/batch_dialog.h"
#include "app/mapping/ui/compare_panel.h"
#include "app/mapping/ui/run_panel.h"
#include "app/mapping/ui/run_table_model.h"
#include "app/mapping/ui/runs_panel.h"
#include "app/partitioning/ui/graph_actions.h"
#include "app/partitioning/ui/graphs_feature.h"
#include "app/partitioning/ui/graphs_panel.h"
#include "app/project/project_file.h"
#include "app/project/ui/map_panel.h"
#include "app/workbench/main_window.h"
#include "test_support.h"
#include "widgets/site_table_model.h"

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace meridian;

namespace {

QString shotPath(const QString& view)
{
    const QString dir = QString(MERIDIAN_BINARY_DIR) + "/screenshots";
    QDir().mkpath(dir);
    return dir + "/geo-cut-ec2-8-regions-" + view + ".png";
}

/// Copies the Geo-Cut sample into `dir` (the project refers to its graph by a relative path); returns the project.
QString copySample(const QTemporaryDir& dir)
{
    const QString from = QFileInfo(test::sampleProject("geo-cut-ec2-8-regions")).absolutePath();
    for (const QString& name : QDir(from).entryList(QDir::Files))
        QFile::copy(from + "/" + name, dir.filePath(name));
    return dir.filePath("geo-cut-ec2-8-regions.meridian");
}

int lineCount(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    int n = 0;
    while (!f.atEnd()) {
        f.readLine();
        ++n;
    }
    return n;
}

} // namespace

class TestPartitionWorkbench : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsPartitionersComparesExportsAndDetectsChanges()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir);
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto loaded = window.loadProject(path);
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());

        // The Graphs tab shows Wiki-Vote's statistics and its degree distribution.
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::GraphsTab);
        auto* graphs = window.graphsPanel();
        QCOMPARE(graphs->graphList()->count(), 1);
        QCOMPARE(graphs->currentGraph(), QString("wiki-vote"));
        QVERIFY(graphs->details()->text().contains("103,689"));
        QVERIFY(graphs->details()->text().contains("7,115 from wiki-vote.homes.tsv"));
        QVERIFY(!graphs->degreeChart()->chart()->series().isEmpty());
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("graphs")));
        {
            // File > Import > Graph: the format follows the file's name, the name is free, the seed is shown.
            auto* dialog = window.graphs()->startImportGraphDialog();
            dialog->pathEdit()->setText(dir.filePath("wiki-vote.txt"));
            QCOMPARE(dialog->formatBox()->currentData().toString(), QString("snap"));
            QCOMPARE(dialog->nameEdit()->text(), QString("wiki-vote (2)"));
            dialog->homesEdit()->setText(dir.filePath("wiki-vote.homes.tsv"));
            QTest::qWait(50);
            QVERIFY(dialog->grab().save(shotPath("import-graph-dialog")));
            QCOMPARE(dialog->request().homesSeed, std::uint64_t(1));
            dialog->reject();
        }

        // The run panel offers the partitioners for the graph.
        auto* runPanel = window.runPanel();
        QVERIFY(runPanel->isGraphInput());
        QVERIFY(runPanel->form("geo-cut") != nullptr);
        runPanel->setCheckedMappers({"hash", "hdrf", "g-cut", "geo-cut", "refine"});
        QCOMPARE(runPanel->checkedMappers(), QStringList({"hash", "hdrf", "g-cut", "geo-cut"}));

        // GrapH's cost fills the budget (Geo-Cut's setting).
        QSignalSpy budget(window.runController(), &actions::RunController::graphHCostReady);
        runPanel->findChild<QPushButton*>("graphHCost")->click();
        QVERIFY(budget.wait(60000));
        QVERIFY(runPanel->findChild<QCheckBox*>("budgetOn")->isChecked());
        const double b = runPanel->findChild<QLineEdit*>("budget")->text().toDouble();
        QVERIFY(b > 0.0);
        QCOMPARE(runPanel->partitionSettings().budgetUsd.value_or(-1), b);
        // With a budget on, the lowest cost any partition can reach is computed and shown before anything runs.
        QTRY_VERIFY_WITH_TIMEOUT(runPanel->costBound().has_value(), 60000);
        const double bound = *runPanel->costBound();
        QVERIFY(bound > 0.0 && bound < b);
        auto* boundNote = runPanel->findChild<QLabel*>("costBound");
        QVERIFY2(boundNote->text().contains("can cost less than"), qPrintable(boundNote->text()));
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("cost-bound")));
        // Geo-Cut's form, with its search effort, shows when it is selected.
        auto* list = runPanel->findChild<QListWidget*>("mapperList");
        const auto geoCutItems = list->findItems("geo-cut", Qt::MatchExactly);
        QCOMPARE(geoCutItems.size(), 1);
        list->setCurrentItem(geoCutItems.front());
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("geo-cut-form")));

        QSignalSpy landed(window.runController(), &actions::RunController::runLanded);
        QSignalSpy failed(window.runController(), &actions::RunController::runFailed);
        // A budget below the bound is refused before anything runs, saying both numbers.
        QSignalSpy refused(runPanel, &workbench::RunPanel::errorOccurred);
        runPanel->findChild<QLineEdit*>("budget")->setText(QString::number(bound * 0.5, 'g', 12));
        QVERIFY(boundNote->text().contains("no partitioner can meet it"));
        runPanel->findChild<QPushButton*>("runButton")->click();
        QCOMPARE(refused.count(), 1);
        QVERIFY2(refused.front().at(1).toString().contains("cannot be met"),
                 qPrintable(refused.front().at(1).toString()));
        QTest::qWait(100);
        QCOMPARE(landed.count() + failed.count(), 0);
        const QString refusal = window.lastError(); // the refusal is the last error, until another one comes
        QVERIFY(refusal.contains("cannot be met"));
        runPanel->findChild<QLineEdit*>("budget")->setText(QString::number(b, 'g', 12));
        runPanel->findChild<QPushButton*>("runButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 4, 120000);
        QCOMPARE(failed.count(), 0);
        auto* doc = window.document();
        std::map<std::string, std::shared_ptr<const document::Run>> byAlgorithm;
        for (const auto& r : doc->runs()) {
            QCOMPARE(r->kind, document::RunKind::Partition);
            QVERIFY(!doc->isStale(*r));
            QVERIFY(r->metric("transfer_time_s").value_or(0) > 0);
            QVERIFY(r->metric("replication_factor").value_or(0) >= 1.0);
            QVERIFY(r->metric("over_budget_usd").has_value());
            QCOMPARE(r->partition->edgeSite.size(), std::size_t(103689));
            // The per-pair traffic adds up to each site's upload.
            for (int s = 0; s < 8; ++s)
                QVERIFY(std::abs(r->trafficBytes.row(s).sum() - r->siteUploadBytes[s])
                        <= 1e-6 * (1 + r->siteUploadBytes[s]));
            byAlgorithm[r->algorithm] = r;
        }
        QCOMPARE(byAlgorithm.size(), std::size_t(4));
        // Geo-Cut meets GrapH's budget; hash, which ignores prices, costs more than it. Geo-Cut is the fastest of the
        // four and the cheapest; every run knows the bound.
        QCOMPARE(*byAlgorithm["geo-cut"]->metric("over_budget_usd"), 0.0);
        QVERIFY(*byAlgorithm["hash"]->metric("wan_usd") > b);
        for (const auto& [id, run] : byAlgorithm) {
            QCOMPARE(run->metric("cost_bound_usd").value_or(-1.0), bound);
            if (id == "geo-cut")
                continue;
            QVERIFY2(*byAlgorithm["geo-cut"]->metric("transfer_time_s") < *run->metric("transfer_time_s"), id.c_str());
            QVERIFY2(*byAlgorithm["geo-cut"]->metric("wan_usd") < *run->metric("wan_usd"), id.c_str());
        }

        // The runs list shows the partition's numbers.
        auto* model = window.runsPanel()->model();
        const int row = model->rowOf(byAlgorithm["geo-cut"]->id);
        QCOMPARE(model->data(model->index(row, workbench::RunTableModel::Budget)).toString(), QString("met"));
        QCOMPARE(model->data(model->index(row, workbench::RunTableModel::Cost), Qt::EditRole).toDouble(),
                 *byAlgorithm["geo-cut"]->metric("transfer_time_s"));

        // The skyline of the graph: WAN dollars against transfer time, geo-cut on the Pareto front.
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        auto* compare = window.comparePanel();
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::SkylineTab);
        QVERIFY(compare->setSkylineAxes("wan_usd", "transfer_time_s"));
        const auto front = compare->skylineFront();
        QVERIFY(std::find(front.begin(), front.end(), byAlgorithm["geo-cut"]->id) != front.end());
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("skyline")));

        // Geo-Cut's bars normalised to hash, and the selected run's per-site shares.
        doc->setCurrentRun(byAlgorithm["geo-cut"]->id);
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::PartitionsTab);
        const auto* bars = compare->chart(workbench::ComparePanel::PartitionsTab)->chart();
        QVERIFY2(bars->title().contains("normalised to hash"), qPrintable(bars->title()));
        QCOMPARE(bars->series().size(), 1);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("partitions")));

        // The map shows the selected run's per-site upload and download with the bottleneck.
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::MapTab);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("partition-map")));

        // What-if: the paper's data-centre removal, SYD and SA gone, as a new run derived from geo-cut's.
        landed.clear();
        QVERIFY(window.runController()->removeSites(byAlgorithm["geo-cut"]->id, {6, 7}) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 1, 60000);
        QCOMPARE(failed.count(), 0);
        const auto derived = doc->run(landed.front().at(0).toInt());
        QCOMPARE(derived->derivedFrom, byAlgorithm["geo-cut"]->id);
        QVERIFY2(derived->label().find("without SYD, SA") != std::string::npos, derived->label().c_str());
        for (auto site : derived->partition->edgeSite)
            QVERIFY(site < 6);
        QCOMPARE(derived->siteUploadBytes[6] + derived->siteDownloadBytes[7], 0.0);
        QVERIFY(!doc->isStale(*derived));

        // What-if on a dynamic graph: delete three edges, insert two that bring two new vertices, through the
        // Runs list's dialog; then remove a site from the updated run, and export it.
        auto writeFile = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        writeFile("ins.txt", "# new voters\n90000001\t30\n30\t90000002\n");
        writeFile("del.txt", "30\t1412\n30\t3352\n30\t5254\n");
        writeFile("missing.txt", "30\t1412\n1412\t30\n");
        auto* runsPanel = window.runsPanel();
        doc->setCurrentRun(byAlgorithm["geo-cut"]->id); // selects it in the Runs list
        QCOMPARE(runsPanel->selectedRuns(), std::vector<int>{byAlgorithm["geo-cut"]->id});
        landed.clear();
        failed.clear();
        {
            auto* dialog = runsPanel->applyBatchWithDialog();
            QVERIFY(dialog);
            auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            QVERIFY(!ok->isEnabled()); // nothing named yet
            dialog->insertEdit()->setText(dir.filePath("ins.txt"));
            dialog->deleteEdit()->setText(dir.filePath("del.txt"));
            QVERIFY(ok->isEnabled());
            QCOMPARE(dialog->threshold(), 0.1);
            QTest::qWait(50);
            QVERIFY(dialog->grab().save(shotPath("batch-dialog")));
            dialog->accept();
        }
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 1, 60000);
        QCOMPARE(failed.count(), 0);
        const auto updated = doc->run(landed.front().at(0).toInt());
        QCOMPARE(updated->derivedFrom, byAlgorithm["geo-cut"]->id);
        QVERIFY2(updated->label().find("+2 \u22123 edges (+ins.txt, \u2212del.txt)") != std::string::npos,
                 updated->label().c_str());
        QCOMPARE(updated->partition->edgeSite.size(), std::size_t(103689 - 3 + 2));
        QCOMPARE(updated->partition->masterSite.size(), std::size_t(7115 + 2));
        QCOMPARE(updated->batches.size(), std::size_t(1));
        QVERIFY(updated->metric("transfer_time_s").value_or(0) > 0);
        QVERIFY(!doc->isStale(*updated));
        // The updated graph carries on: sites removed from it, then its partition exported.
        landed.clear();
        QVERIFY(window.runController()->removeSites(updated->id, {7}) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 1, 60000);
        QCOMPARE(failed.count(), 0);
        const auto chained = doc->run(landed.front().at(0).toInt());
        QCOMPARE(chained->batches.size(), std::size_t(1));
        QCOMPARE(chained->partition->edgeSite.size(), std::size_t(103688));
        doc->setCurrentRun(chained->id);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("what-ifs")));
        const QString updatedEdges = dir.filePath("updated.E.tsv"), updatedMasters = dir.filePath("updated.M.tsv");
        QVERIFY(window.graphs()->exportPartition(chained->id, updatedEdges, updatedMasters) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(lineCount(updatedMasters), 7117, 30000);
        QCOMPARE(lineCount(updatedEdges), 103688);
        // Export E.tsv and M.tsv.
        const QString edges = dir.filePath("geo-cut.E.tsv"), masters = dir.filePath("geo-cut.M.tsv");
        QVERIFY(window.graphs()->exportPartition(byAlgorithm["geo-cut"]->id, edges, masters) >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(lineCount(edges), 103689, 30000);
        QCOMPARE(lineCount(masters), 7115);
        QCOMPARE(window.lastError(), refusal);
        // Deleting an edge the graph does not have names the file and line, and nothing lands.
        landed.clear();
        QVERIFY(window.runController()->applyBatch(byAlgorithm["geo-cut"]->id, {}, dir.filePath("missing.txt"), 0.1)
                >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY2(failed.front().at(1).toString().contains("missing.txt:2: deleting edge 1412 -> 30"),
                 qPrintable(failed.front().at(1).toString()));
        QCOMPARE(landed.count(), 0);
        QVERIFY(window.lastError().contains("missing.txt:2:"));
        failed.clear();

        // A what-if is not re-run by itself: its source is.
        failed.clear();
        QVERIFY(window.runController()->rerun({derived->id}).empty());
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.front().at(1).toString().contains("re-run that one"));
        failed.clear();
        landed.clear();

        // The report lists the partition runs, normalised to hash.
        const QString report = QString(MERIDIAN_BINARY_DIR) + "/screenshots/geo-cut-ec2-8-regions-report.html";
        QVERIFY(window.writeReport(report));
        QFile html(report);
        QVERIFY(html.open(QIODevice::ReadOnly));
        const QByteArray text = html.readAll();
        QVERIFY(text.contains("Partition runs") && text.contains("vs hash") && text.contains("without SYD, SA"));
        QVERIFY(window.writeReport(QString(MERIDIAN_BINARY_DIR) + "/screenshots/geo-cut-ec2-8-regions-report.pdf"));

        // Saved and reopened, the partition runs are still current.
        QVERIFY(window.saveProject(path));
        workbench::MainWindow reopened;
        reopened.setInteractive(false);
        QVERIFY(reopened.loadProject(path));
        QCOMPARE(reopened.document()->runs().size(), std::size_t(7));
        for (const auto& r : reopened.document()->runs()) {
            QVERIFY(!reopened.document()->isStale(*r));
            QCOMPARE(r->partition->edgeSite, doc->run(r->id)->partition->edgeSite);
            QCOMPARE(r->derivedFrom, doc->run(r->id)->derivedFrom);
            QCOMPARE(r->label(), doc->run(r->id)->label());
            QVERIFY(r->trafficBytes.rows() == 8 && r->trafficBytes.isApprox(doc->run(r->id)->trafficBytes));
            QCOMPARE(r->siteUploadSeconds, doc->run(r->id)->siteUploadSeconds);
            QCOMPARE(r->batches.size(), doc->run(r->id)->batches.size());
            for (std::size_t k = 0; k < r->batches.size(); ++k)
                QVERIFY(r->batches[k]->insertions == doc->run(r->id)->batches[k]->insertions
                        && r->batches[k]->deletions == doc->run(r->id)->batches[k]->deletions
                        && r->batches[k]->edgesAfter == doc->run(r->id)->batches[k]->edgesAfter);
        }

        // The graph file changes on disk: every run on it becomes stale, the Graphs tab says why, and a new run
        // refuses the changed file until it is imported again.
        {
            QFile f(dir.filePath("wiki-vote.txt"));
            QVERIFY(f.open(QIODevice::Append));
            f.write("\n1\t2\n"); // the file ends without a line break
        }
        QTRY_VERIFY_WITH_TIMEOUT(!doc->graphChangeOnDisk("wiki-vote").empty(), 5000);
        for (const auto& r : doc->runs())
            QVERIFY(doc->isStale(*r));
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::GraphsTab);
        QTRY_VERIFY_WITH_TIMEOUT(graphs->details()->text().contains("changed since it was imported"), 5000);
        QVERIFY(window.grab().save(shotPath("graph-changed")));
        runPanel->setCheckedMappers({"hash"});
        landed.clear();
        failed.clear();
        runPanel->findChild<QPushButton*>("runButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QVERIFY(failed.front().at(1).toString().contains("import it again"));

        // Imported again, the graph has the new edge and new runs are current.
        const auto& g = doc->project()->graphs.front();
        window.graphs()->importGraph({g.name, g.path, g.format, g.homesPath, g.homesSeed});
        QTRY_COMPARE_WITH_TIMEOUT(doc->project()->graphs.front().stats.edges, std::uint64_t(103690), 30000);
        QVERIFY(doc->graphChangeOnDisk("wiki-vote").empty());

        // The budget sweep: the ticked partitioners at 1.0 to 0.6 times B, landing as runs on the skyline.
        runPanel->applicationChooser()->setCurrentText("wiki-vote");
        runPanel->setCheckedMappers({"geo-cut"});
        landed.clear();
        failed.clear();
        QVERIFY(runPanel->runBudgetSweep().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 5, 120000);
        QCOMPARE(failed.count(), 0);
        std::vector<double> budgets;
        for (const auto& args : landed)
            budgets.push_back(doc->run(args.at(0).toInt())->budgetUsd.value_or(-1.0) / b);
        std::sort(budgets.begin(), budgets.end());
        for (std::size_t k = 0; k < budgets.size(); ++k)
            QVERIFY(std::abs(budgets[k] - (0.6 + 0.1 * static_cast<double>(k))) < 1e-9);
        // Geo-Cut meets B and 0.9 B; where it cannot reach a budget the run says by how much it is over, and that
        // budget lies between the bound and what Geo-Cut reached.
        for (const auto& args : landed) {
            const auto run = doc->run(args.at(0).toInt());
            const double over = run->metric("over_budget_usd").value_or(-1.0);
            if (*run->budgetUsd >= 0.9 * b * (1 - 1e-9))
                QCOMPARE(over, 0.0);
            QVERIFY(over >= 0.0);
            QVERIFY(*run->budgetUsd >= *run->metric("cost_bound_usd"));
        }
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::CompareTab);
        compare->tabs()->setCurrentIndex(workbench::ComparePanel::SkylineTab);
        QTest::qWait(50);
        QVERIFY(window.grab().save(shotPath("budget-sweep-skyline")));
        runPanel->findChild<QCheckBox*>("budgetOn")->setChecked(false);
        QVERIFY(!runPanel->runBudgetSweep().isEmpty());
    }

    // Issue 34.3: with sites lacking their uplink the partitioners started and failed, one modal dialog each. The Run
    // panel says what is missing once, before anything runs, and how to fix it; the button waits until it is there.
    void saysWhatPartitionersNeedBeforeTheyRun()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QJsonObject project = QJsonDocument::fromJson(f.readAll()).object();
            f.close();
            QJsonArray sites = project["sites"].toArray();
            for (auto&& value : sites) {
                QJsonObject site = value.toObject();
                if (site["name"].toString() == "TKY" || site["name"].toString() == "SYD")
                    site.remove("up_MBps");
                value = site;
            }
            project["sites"] = sites;
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(project).toJson());
        }
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto loaded = window.loadProject(path);
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        auto* runPanel = window.runPanel();
        auto* note = runPanel->findChild<QLabel*>("runRequirements");
        auto* run = runPanel->findChild<QPushButton*>("runButton");
        QVERIFY(note && run);
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains("TKY and SYD have no uplink bandwidth (up_MBps)"), qPrintable(note->text()));
        QVERIFY(!run->isEnabled());
        QVERIFY(window.grab().save(shotPath("partitioners-need-uplinks")));
        runPanel->setCheckedMappers({"hdrf", "g-cut", "geo-cut"});
        QSignalSpy failed(window.runController(), &actions::RunController::runFailed);
        QVERIFY(runPanel->runChecked().empty());
        QTest::qWait(200);
        QCOMPARE(failed.count(), 0);
        QVERIFY(window.document()->runs().empty());

        // The uplinks, typed into the Sites table: the note goes and the partitioners run.
        auto* sites = window.mapPanel()->siteModel();
        for (const char* name : {"TKY", "SYD"}) {
            const int s = window.document()->project()->topology.siteIndex(name).value_or(-1);
            QVERIFY(sites->setData(sites->index(s, widgets::SiteTableModel::Uplink), 500.0));
        }
        QTRY_VERIFY(note->isHidden());
        QVERIFY(run->isEnabled());
        QCOMPARE(runPanel->runChecked().size(), std::size_t(3));
    }

    void refusesHomesOfAnotherGraph()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir);
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(path));
        // A homes file naming a vertex Wiki-Vote does not have: the import fails at that line, nothing changes.
        const QString homes = dir.filePath("other.homes.tsv");
        {
            QFile f(homes);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# homes of another graph\n3\tUSE\n99999999\tEU\n");
        }
        const auto before = window.document()->project();
        window.graphs()->importGraph(
            {"other", dir.filePath("wiki-vote.txt").toStdString(), io::GraphFormat::Snap, homes.toStdString(), 1});
        QTRY_VERIFY_WITH_TIMEOUT(!window.lastError().isEmpty(), 30000);
        QVERIFY2(window.lastError().contains("other.homes.tsv:3"), qPrintable(window.lastError()));
        QVERIFY(window.lastError().contains("vertex 99999999 is not in the graph"));
        QCOMPARE(window.document()->project(), before);
    }
};

QTEST_MAIN(TestPartitionWorkbench)
#include "test_partition_workbench.moc"
