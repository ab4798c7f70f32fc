#include "app/capture/ui/capture_feature.h"
#include "app/capture/ui/network_measurement_dialogs.h"
#include "app/project/project_edits.h"
#include "app/project/ui/network_panel.h"
#include "app/workbench/main_window.h"
#include "core/common/utc_date.h"
#include "test_support.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>
#include <QUndoStack>

using namespace meridian;
using meridian::test::sampleProject;
using model::NetworkQuantity;

namespace {

void saveScreenshot(QWidget& widget, const QString& name)
{
    QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
    QVERIFY(widget.grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/" + name + ".png"));
}

QString noteOf(workbench::NetworkPanel& panel)
{
    QString text;
    for (auto* label : panel.findChildren<QLabel*>())
        text += label->text();
    return text;
}

// The sample's sites us-east (0) and ireland (3): a hosts file giving each two of this machine's ranks.
QString writeSitesFile(const QTemporaryDir& dir)
{
    QFile hosts(dir.filePath("hosts.csv"));
    if (!hosts.open(QIODevice::WriteOnly))
        return {};
    hosts.write(QString("host,site\n%1/0,us-east\n%1/1,us-east\n%1/2,ireland\n%1/3,ireland\n")
                    .arg(QSysInfo::machineHostName())
                    .toUtf8());
    return hosts.fileName();
}

} // namespace

class TestNetworkMeasurementWorkbench : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("MeridianTests");
        QSettings().clear();
        qputenv("OMPI_MCA_plm_rsh_agent", "false");
        qputenv("MERIDIAN_PROBE", MERIDIAN_PROBE); // the test runs from tests/, not beside the probe
    }

    // The menus reach every way in: a probe's results, a NetPIPE link, and a probe run.
    void theMenusOfferEveryMeasurement()
    {
        workbench::MainWindow window;
        for (const char* name : {"actionImportProbe", "actionImportNetpipe", "actionMeasureNetwork"})
            QVERIFY2(window.menuAction(name), name);
    }

    // A probe's result dropped on the window imports as one undoable edit; the panel shows its date and the
    // runs on the older network become stale.
    void aDroppedProbeResultDatesTheNetwork()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        auto* doc = window.document();
        const double before = doc->project()->network.latencyMs(0, 3);
        QVERIFY(window.openOrImport(QString(MERIDIAN_TEST_DATA) + "/probe/localhost.latency.csv"));
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        QCOMPARE(doc->project()->network.latencyMs(0, 3), 0.002649);
        QCOMPARE(doc->project()->network.measuredAt(NetworkQuantity::Latency, 0, 3),
                 *parseUtcDate("2026-11-23T14:43:23Z"));
        QCOMPARE(window.centralTabs()->currentIndex(), int(workbench::MainWindow::NetworkTab));
        auto* panel = window.networkPanel();
        panel->setQuantity(NetworkQuantity::Latency);
        QVERIFY2(noteOf(*panel).contains("Measured 2026-11-23 14:43 UTC"), qPrintable(noteOf(*panel)));
        QVERIFY2(panel->table()->item(0, 3)->toolTip().contains("measured 2026-11-23 14:43 UTC"),
                 qPrintable(panel->table()->item(0, 3)->toolTip()));
        doc->undoStack()->undo();
        QCOMPARE(doc->project()->network.latencyMs(0, 3), before);
        QCOMPARE(doc->project()->network.measuredAt(NetworkQuantity::Latency, 0, 3), model::MeasuredAt{0});

        // A capture dropped on the window becomes an application named after it.
        const std::size_t apps = doc->project()->applications.size();
        QVERIFY(window.openOrImport(QString(MERIDIAN_TEST_DATA) + "/monitoring/known/app.1.prof"));
        QCOMPARE(doc->project()->applications.size(), apps + 1);
        QCOMPARE(doc->project()->applications.back().name, std::string("app"));
    }

    // Entries measured long ago are shaded and the note asks for a new measurement.
    void oldMeasurementsAreFlagged()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const auto longAgo = QDateTime::currentSecsSinceEpoch() - 45 * 86400;
        QVERIFY(window.document()->edit("Old", [&](const document::Project& p) {
            return document::withMeasuredLink(p, 0, 1, 70, 50, true, longAgo);
        }));
        auto* panel = window.networkPanel();
        panel->setQuantity(NetworkQuantity::Bandwidth);
        QVERIFY2(noteOf(*panel).contains("2 entries (shaded) are over 30 days old"), qPrintable(noteOf(*panel)));
        QVERIFY(panel->table()->item(0, 1)->toolTip().contains("6 weeks ago"));
        QVERIFY(panel->table()->item(0, 1)->background() != panel->table()->item(0, 2)->background());
        window.resize(1300, 800);
        window.centralTabs()->setCurrentIndex(workbench::MainWindow::NetworkTab);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        saveScreenshot(window, "network-measurement-age");
    }

    // File > Import > Link from NetPIPE: the file and the pair; the link is measured, dated by the file.
    void theNetpipeDialogSetsOneLink()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        QTemporaryDir dir;
        QVERIFY(QFile::copy(MERIDIAN_TEST_DATA "/netpipe_localhost.out", dir.filePath("np.out")));
        QFile np(dir.filePath("np.out"));
        QVERIFY(np.open(QIODevice::ReadWrite));
        QVERIFY(np.setFileTime(QDateTime(QDate(2026, 11, 2), QTime(7, 0), QTimeZone::utc()),
                               QFileDevice::FileModificationTime));
        np.close();
        auto* dialog = window.capture()->startNetpipeDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        dialog->pathEdit()->setText(dir.filePath("np.out"));
        dialog->fromBox()->setCurrentIndex(1);
        dialog->toBox()->setCurrentIndex(2);
        dialog->bothDirectionsBox()->setChecked(false);
        QVERIFY(ok->isEnabled());
        saveScreenshot(*dialog, "netpipe-dialog");
        ok->click();
        const auto& network = window.document()->project()->network;
        QCOMPARE(network.latencyMs(1, 2), 0.00036);
        QCOMPARE(network.measuredAt(NetworkQuantity::Bandwidth, 1, 2), *parseUtcDate("2026-11-02T07:00:00Z"));
        QVERIFY(network.latencyMs(2, 1) != 0.00036);

        // A file that is not NetPIPE's output is refused and changes nothing.
        QFile bad(dir.filePath("bad.out"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("1 fast 0.1\n");
        bad.close();
        dialog = window.capture()->startNetpipeDialog();
        dialog->pathEdit()->setText(bad.fileName());
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        QVERIFY2(window.lastError().contains("bad.out:1:"), qPrintable(window.lastError()));
        QCOMPARE(window.document()->project()->network.latencyMs(1, 2), 0.00036);
    }

    // Run > Measure Network runs meridian-probe under a real mpirun as a background job; its result lands in the
    // network, dated, and the runs on the older network become stale. A probe that fails says why; cancel stops it.
    void aProbeJobMeasuresTheNetwork()
    {
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        QVERIFY2(!mpirun.isEmpty(), "install openmpi-bin");
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        QTemporaryDir dir;
        auto* dialog = window.capture()->startMeasureNetworkDialog();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QCOMPARE(dialog->smallRepetitionsBox()->value(), 1000); // CloudMap's 1 KB x 1000
        dialog->launcherEdit()->setText(mpirun + " --allow-run-as-root --oversubscribe -np 4");
        dialog->perRankBox()->setChecked(true);
        dialog->prefixEdit()->setText(dir.filePath("net"));
        dialog->smallRepetitionsBox()->setValue(100);
        dialog->largeRepetitionsBox()->setValue(3);
        saveScreenshot(*dialog, "measure-network-dialog");
        capture::ProbeRequest request = dialog->request();
        dialog->reject();
        QCOMPARE(request.launcher.size(), 5);
        QVERIFY(request.perRank);
        request.sitesFile = writeSitesFile(dir);

        auto* doc = window.document();
        QSignalSpy ended(window.jobRunner(), &jobs::JobRunner::jobEnded);
        window.runController()->submit({{doc->project()->applications[0].name, "greedy", {}, 1, {}, {}}});
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 60000);
        QCOMPARE(doc->runs().size(), std::size_t(1));
        QVERIFY(doc->staleRuns().empty());

        window.capture()->startProbe(request);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 120000);
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        for (const QString suffix : {".latency.csv", ".bandwidth.csv", ".probe.json"})
            QVERIFY(QFile::exists(dir.filePath("net" + suffix)));
        const auto& network = doc->project()->network;
        const auto measured = network.measuredAt(NetworkQuantity::Latency, 0, 3);
        QVERIFY(std::abs(measured - QDateTime::currentSecsSinceEpoch()) < 300);
        QCOMPARE(network.measuredAt(NetworkQuantity::Bandwidth, 3, 3), measured);
        QCOMPARE(doc->staleRuns().size(), std::size_t(1));
        QCOMPARE(window.centralTabs()->currentIndex(), int(workbench::MainWindow::NetworkTab));
        saveScreenshot(window, "network-measured");

        // One rank: the probe refuses, and the message says why; nothing changes.
        const auto unchanged = doc->project();
        request.launcher = QStringList{mpirun, "--allow-run-as-root", "-np", "1"};
        request.prefix = dir.filePath("one");
        window.capture()->startProbe(request);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 3, 120000);
        QVERIFY2(window.lastError().contains("needs at least 2 participants")
                     && window.lastError().contains("nothing was written"),
                 qPrintable(window.lastError()));
        QCOMPARE(doc->project(), unchanged);
        QVERIFY(!QFile::exists(dir.filePath("one.probe.json")));

        // Cancel stops the launcher at once; nothing is written or changed.
        request.launcher = QStringList{"sh", "-c", "sleep 60", "sh"}; // the probe and its options become $1...
        request.prefix = dir.filePath("slept");
        const int id = window.capture()->startProbe(request);
        QTest::qWait(300);
        window.jobRunner()->cancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 4, 10000);
        QCOMPARE(ended.last().at(1).value<jobs::JobEnd>(), jobs::JobEnd::Canceled);
        QCOMPARE(doc->project(), unchanged);
        QVERIFY(!QFile::exists(dir.filePath("slept.probe.json")));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot).size(), 0);
    }
};

QTEST_MAIN(TestNetworkMeasurementWorkbench)
#include "test_network_measurement_workbench.moc"
