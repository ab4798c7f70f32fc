#include "app/mapping/ui/compare_panel.h"
#include "app/mapping/ui/run_table_model.h"
#include "app/project/project_edits.h"
#include "app/project/ui/project_document.h"
#include "app/report/compare_charts.h"
#include "test_support.h"

#include <QAbstractItemModelTester>
#include <QTest>
#include <QUndoStack>

using namespace meridian;

namespace {

document::Run run(const document::ProjectDocument& doc, const std::string& algorithm, double cost, double usd)
{
    document::Run r;
    r.algorithm = algorithm;
    r.application = doc.project()->applications[0].name;
    r.inputFingerprint = doc.fingerprint(r.application);
    r.metrics = {{"cost_s", "Mapping cost", "s", cost},
                 {"wan_usd", "WAN egress", "USD", usd},
                 {"runtime_s", "Runtime", "s", 0.01}};
    return r;
}

} // namespace

class TestRunTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Issue 34: a ratio without a unit read "Replication factor ()"; bytes on a chart read "250000000"; a skyline
    // without dollars names the sites that lack a price.
    void metricTitlesUnitsAndMissingPricesReadAsWords()
    {
        QCOMPARE(workbench::metricTitle({"replication_factor", "Replication factor", "", 1.5}),
                 QString("Replication factor"));
        QCOMPARE(workbench::metricTitle({"cost_s", "Mapping cost", "s", 1.0}), QString("Mapping cost (s)"));
        const auto mb = workbench::axisUnit({"wan_bytes", "Bytes between sites", "bytes", 0.0}, 2.5e8);
        QCOMPARE(mb.divisor, 1e6);
        QCOMPARE(mb.title, QString("Bytes between sites (MB)"));
        QCOMPARE(workbench::axisUnit({"wan_bytes", "Bytes between sites", "bytes", 0.0}, 512).title,
                 QString("Bytes between sites (B)"));
        auto a = test::site("a", 0, 0, 1, 1), b = test::site("b", 1, 1, 1, 1), c = test::site("c", 2, 2, 1, 1);
        a.instanceUsdPerHour = 1.0;
        a.egressUsdPerGB = b.egressUsdPerGB = c.egressUsdPerGB = 0.02;
        const auto topology = *model::Topology::create({a, b, c});
        QCOMPARE(workbench::missingPrices(topology, false), QString("b and c have no instance price"));
        QCOMPARE(workbench::missingPrices(topology, true), QString());
    }

    void listsRunsAndMarksStaleOnes()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(meridian::test::sampleProject("ec2-4-regions")));
        workbench::RunTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        doc.addRuns({run(doc, "random", 10.0, 1.0), run(doc, "geo", 4.0, 2.0)}, "runs");
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.data(model.index(1, workbench::RunTableModel::Algorithm)).toString(), QString("geo"));
        QCOMPARE(model.data(model.index(1, workbench::RunTableModel::Cost), Qt::EditRole).toDouble(), 4.0);
        QCOMPARE(model.data(model.index(1, workbench::RunTableModel::Status)).toString(), QString("current"));
        QVERIFY(!model.data(model.index(1, workbench::RunTableModel::Id), Qt::BackgroundRole).isValid());
        QVERIFY(doc.edit("Pin", [](const document::Project& p) { return document::withPin(p, 0, 0, 1); }));
        QCOMPARE(model.data(model.index(1, workbench::RunTableModel::Status)).toString(), QString("stale"));
        QVERIFY(model.data(model.index(1, workbench::RunTableModel::Id), Qt::BackgroundRole).isValid());
        QVERIFY(model.data(model.index(1, 0), Qt::ToolTipRole).toString().contains("Stale"));
        QCOMPARE(model.rowOf(doc.runs()[1]->id), 1);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(model.rowCount(), 0);
    }

    void normalisesEveryMetricToTheBaseline()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(meridian::test::sampleProject("ec2-4-regions")));
        workbench::CompareTableModel model(&doc);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto ids = doc.addRuns({run(doc, "random", 10.0, 1.0), run(doc, "geo", 4.0, 2.0)}, "runs");
        model.setBaseline(ids[0]);
        QCOMPARE(model.columnCount(), 4);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QString("Mapping cost"));
        QCOMPARE(model.data(model.index(1, 1), Qt::EditRole).toDouble(), 0.4);
        QCOMPARE(model.data(model.index(1, 2), Qt::EditRole).toDouble(), 2.0);
        // By default a cell shows the value with its unit and the ratio; either alone on request.
        QCOMPARE(model.data(model.index(1, 1)).toString(), QString("4.00 s  (0.400)"));
        model.setShow(workbench::CompareTableModel::Show::Values);
        QCOMPARE(model.data(model.index(1, 1)).toString(), QString("4.00 s"));
        model.setShow(workbench::CompareTableModel::Show::Ratios);
        QCOMPARE(model.data(model.index(0, 1)).toString(), QString("1.000"));
        model.setBaseline(ids[1]);
        QCOMPARE(model.data(model.index(0, 1), Qt::EditRole).toDouble(), 2.5);
        doc.removeRuns({ids[1]});
        QCOMPARE(model.baseline(), ids[0]); // falls back to a run that exists
    }
};

QTEST_MAIN(TestRunTableModel)
#include "test_run_table_model.moc"
