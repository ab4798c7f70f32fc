#include "app/workbench/main_window.h"
#include "test_support.h"
#include "app/workbench/map_panel.h"
#include "app/workbench/matrix_panel.h"
#include "widgets/heatmap_view.h"

#include <QComboBox>
#include <QDir>
#include <QTableView>
#include <QTest>

using namespace meridian;
using meridian::test::sampleProject;

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
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
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
