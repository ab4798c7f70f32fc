#include "widgets/site_table_model.h"

#include "test_support.h"
#include <QAbstractItemModelTester>

#include <QSignalSpy>
#include <QTest>

using namespace meridian;

class TestSiteTableModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passesTheModelTesterAndShowsSites()
    {
        widgets::SiteTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto east = meridian::test::site("us-east", 38.9, -77.4, 16, 2);
        east.uplinkMBps = 520;
        east.downlinkMBps = 2800;
        east.egressUsdPerGB = 0.02;
        auto topo = *model::Topology::create({east, meridian::test::site("sin", 1.29, 103.85, 4, 1)});
        model.setTopology(topo);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(widgets::SiteTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Name)).toString(), QString("us-east"));
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Slots)).toInt(), 32);
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Uplink), Qt::EditRole).toDouble(), 520.0);
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Uplink)).toString(), QString("520 MB/s"));
        // An unknown quantity edits as an empty field (clearing a cell means "unknown").
        QCOMPARE(model.data(model.index(1, widgets::SiteTableModel::Egress), Qt::EditRole).toString(), QString());
        QCOMPARE(model.data(model.index(1, widgets::SiteTableModel::Egress)).toString(), QString("\u2014"));
        QCOMPARE(model.headerData(widgets::SiteTableModel::Latitude, Qt::Horizontal).toString(), QString("Latitude"));
        model.setTopology(model::Topology());
        QCOMPARE(model.rowCount(), 0);
    }

    void isReadOnlyWithoutAnEditor()
    {
        widgets::SiteTableModel model;
        model.setTopology(*model::Topology::create({meridian::test::site("a", 0, 0, 1, 1)}));
        QVERIFY(!(model.flags(model.index(0, widgets::SiteTableModel::Name)) & Qt::ItemIsEditable));
        QVERIFY(!model.setData(model.index(0, widgets::SiteTableModel::Name), "b"));
    }

    void passesEditsToTheEditorAndReportsRejections()
    {
        widgets::SiteTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTopology(
            *model::Topology::create({meridian::test::site("a", 0, 0, 1, 1), meridian::test::site("b", 10, 10, 2, 2)}));
        QList<std::tuple<int, int, QString>> seen;
        model.setEditor([&](int row, int column, const QString& text) {
            seen.append({row, column, text});
            return text == "bad" ? QString("not a number") : QString();
        });
        QVERIFY(model.flags(model.index(1, widgets::SiteTableModel::Latitude)) & Qt::ItemIsEditable);
        QVERIFY(!(model.flags(model.index(1, widgets::SiteTableModel::Slots)) & Qt::ItemIsEditable));
        QVERIFY(model.setData(model.index(1, widgets::SiteTableModel::Latitude), 12.5));
        QCOMPARE(seen.last(), std::make_tuple(1, int(widgets::SiteTableModel::Latitude), QString("12.5")));
        QSignalSpy rejected(&model, &widgets::SiteTableModel::editRejected);
        QVERIFY(!model.setData(model.index(0, widgets::SiteTableModel::Uplink), "bad"));
        QCOMPARE(rejected.count(), 1);
        QCOMPARE(rejected.first().first().toString(), QString("not a number"));
        // The model never changes its own copy: the owner hands it the edited topology.
        QCOMPARE(model.data(model.index(1, widgets::SiteTableModel::Latitude), Qt::EditRole).toDouble(), 10.0);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setTopology(*model::Topology::create(
            {meridian::test::site("a", 0, 0, 1, 1), meridian::test::site("b", 12.5, 10, 2, 2)}));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(reset.count(), 0); // same row count: views keep their selection
        QCOMPARE(model.data(model.index(1, widgets::SiteTableModel::Latitude), Qt::EditRole).toDouble(), 12.5);
    }

    void listsEveryHostWithItsSite()
    {
        widgets::HostTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTopology(
            *model::Topology::create({meridian::test::site("a", 0, 0, 2, 4), meridian::test::site("b", 10, 10, 1, 8)}));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.data(model.index(2, widgets::HostTableModel::Site)).toString(), QString("b"));
        QCOMPARE(model.data(model.index(2, widgets::HostTableModel::Slots)).toInt(), 8);
        QCOMPARE(model.data(model.index(0, widgets::HostTableModel::Name)).toString(), QString("a-00"));
        QString edited;
        model.setEditor([&](int row, int column, const QString& text) {
            edited = QString("%1/%2/%3").arg(row).arg(column).arg(text);
            return QString();
        });
        QVERIFY(!(model.flags(model.index(0, widgets::HostTableModel::Site)) & Qt::ItemIsEditable));
        QVERIFY(model.setData(model.index(1, widgets::HostTableModel::Slots), 6));
        QCOMPARE(edited, QString("1/2/6"));
    }
};

QTEST_MAIN(TestSiteTableModel)
#include "test_site_table_model.moc"
