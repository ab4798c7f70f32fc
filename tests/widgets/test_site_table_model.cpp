#include "widgets/site_table_model.h"

#include <QAbstractItemModelTester>
#include "test_support.h"

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
        auto topo = *model::Topology::create({east,
                                              meridian::test::site("sin", 1.29, 103.85, 4, 1)});
        model.setTopology(topo);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(widgets::SiteTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Name)).toString(), QString("us-east"));
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Slots)).toInt(), 32);
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Uplink), Qt::EditRole).toDouble(), 520.0);
        QCOMPARE(model.data(model.index(0, widgets::SiteTableModel::Uplink)).toString(), QString("520 MB/s"));
        QVERIFY(!model.data(model.index(1, widgets::SiteTableModel::Egress), Qt::EditRole).isValid());
        QCOMPARE(model.headerData(widgets::SiteTableModel::Latitude, Qt::Horizontal).toString(), QString("Latitude"));
        model.setTopology(model::Topology());
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestSiteTableModel)
#include "test_site_table_model.moc"
