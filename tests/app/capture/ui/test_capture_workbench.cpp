#include "app/capture/ui/capture_dialog.h"
#include "app/capture/ui/capture_feature.h"
#include "app/project/ui/applications_panel.h"
#include "app/workbench/main_window.h"
#include "test_support.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace meridian;
using meridian::test::sampleProject;

namespace {

const document::Application* findApplication(const document::Project& project, const std::string& name)
{
    for (const auto& a : project.applications)
        if (a.name == name)
            return &a;
    return nullptr;
}

// What tests/mpi/known_matrix.c sends in all (see tests/app/capture/test_capture.cpp for the pairs).
constexpr double kKnownBytes = 48628;

void saveScreenshot(QWidget& widget, const QString& name)
{
    QDir().mkpath(QString(MERIDIAN_BINARY_DIR) + "/screenshots");
    QVERIFY(widget.grab().save(QString(MERIDIAN_BINARY_DIR) + "/screenshots/" + name + ".png"));
}

} // namespace

class TestCaptureWorkbench : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName("MeridianTests");
        QSettings().clear();
    }

    // File > Import > Application from a Capture: Open MPI's monitoring files of a run, one undoable edit.
    void importsACaptureAsOneUndoableEdit()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const std::size_t before = window.document()->project()->applications.size();
        QVERIFY(window.capture()->importCapture(QString(MERIDIAN_TEST_DATA) + "/monitoring/known/app.2.prof", "known"));
        const auto* known = findApplication(*window.document()->project(), "known");
        QVERIFY(known);
        QCOMPARE(known->comm.processCount(), 4);
        QCOMPARE(known->comm.totalBytes(), kKnownBytes - 4 * 4 * 64); // monitoring misses the persistent sends
        QVERIFY(known->description.find("Open MPI's monitoring") != std::string::npos);
        window.document()->undoStack()->undo();
        QCOMPARE(window.document()->project()->applications.size(), before);

        QTemporaryDir dir;
        QVERIFY(!window.capture()->importCapture(dir.filePath("notes.txt"), "other"));
        QVERIFY2(window.lastError().contains("is not a capture"), qPrintable(window.lastError()));
        QCOMPARE(window.document()->project()->applications.size(), before);
    }

    // Run > Capture Application: the dialog asks for the command, the files and the name; Run is enabled
    // only when all three are given.
    void theCaptureDialogAsksForWhatItNeeds()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        auto* dialog = window.capture()->startCaptureDialog();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto* run = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!run->isEnabled());
        dialog->commandEdit()->setText("mpirun -np 16 ./lu.B.16");
        QVERIFY(run->isEnabled());
        dialog->prefixEdit()->setText(QDir::temp().filePath("lu"));
        QCOMPARE(dialog->nameEdit()->text(), QString("lu"));
        QCOMPARE(dialog->request().command, (QStringList{"mpirun", "-np", "16", "./lu.B.16"}));
        QVERIFY(dialog->request().trace); // the trace is recorded unless the user clears the box
        saveScreenshot(*dialog, "capture-dialog");
        dialog->nameEdit()->clear();
        QVERIFY(!run->isEnabled());
        dialog->reject();
    }

    // A capture runs as a background job under a real mpirun and lands as an application; a run that
    // aborts is reported and adds nothing.
    void aCaptureJobAddsTheApplication()
    {
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        QVERIFY2(!mpirun.isEmpty(), "install openmpi-bin");
        qputenv("OMPI_MCA_plm_rsh_agent", "false");
        qputenv("MERIDIAN_TRACE_LIBRARY", MERIDIAN_TRACE_LIB); // the test runs from tests/, not beside the tracer
        workbench::MainWindow window;
        window.setInteractive(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadProject(sampleProject("ec2-4-regions")));
        const std::size_t before = window.document()->project()->applications.size();
        QTemporaryDir dir;
        QSignalSpy ended(window.jobRunner(), &jobs::JobRunner::jobEnded);
        const QStringList command{mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "4", MERIDIAN_KNOWN_MATRIX};
        window.capture()->startCapture({command, dir.filePath("known"), "known-run"});
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 120000);
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        const auto* known = findApplication(*window.document()->project(), "known-run");
        QVERIFY(known);
        QCOMPARE(known->comm.processCount(), 4);
        QCOMPARE(known->comm.totalBytes(), kKnownBytes);
        QCOMPARE(window.centralTabs()->currentIndex(), int(workbench::MainWindow::ApplicationsTab));
        QVERIFY(!known->trace);

        // With the trace: the project keeps it with the application, the table says so, and the Applications
        // panel removes it as one undoable edit.
        window.capture()->startCapture({command + QStringList{"--without-subcommunicator-collectives"},
                                        dir.filePath("traced"), "traced-run", true});
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 120000);
        QVERIFY2(window.lastError().isEmpty(), qPrintable(window.lastError()));
        const auto* traced = findApplication(*window.document()->project(), "traced-run");
        QVERIFY(traced && traced->trace);
        QCOMPARE(traced->trace->ranks, 4);
        auto* table = window.findChild<QTableWidget*>("applicationTable");
        const int row = window.document()->project()->applicationIndex("traced-run");
        QVERIFY(table && table->item(row, 5)->text().endsWith("actions"));
        saveScreenshot(window, "capture-landed");
        QCOMPARE(window.applicationsPanel()->attachTrace(row, QString()), QString());
        QVERIFY(!findApplication(*window.document()->project(), "traced-run")->trace);
        window.document()->undoStack()->undo();
        QVERIFY(findApplication(*window.document()->project(), "traced-run")->trace);
        const QString refused = window.applicationsPanel()->attachTrace(0, dir.filePath("traced.ti"));
        QVERIFY2(refused.contains("ranks"), qPrintable(refused)); // LU has 64 processes, the trace 4 ranks

        window.capture()->startCapture({command + QStringList{"--abort"}, dir.filePath("aborted"), "aborted"});
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 3, 120000);
        QVERIFY2(window.lastError().contains("exited with status") && window.lastError().contains("nothing was written"),
                 qPrintable(window.lastError()));
        QVERIFY(!findApplication(*window.document()->project(), "aborted"));
        QCOMPARE(window.document()->project()->applications.size(), before + 2);

        // Cancel stops the command: the job ends canceled at once, nothing is added or written.
        QElapsedTimer clock;
        clock.start();
        const int id = window.capture()->startCapture({{"sleep", "60"}, dir.filePath("slept"), "slept"});
        QTest::qWait(300);
        window.jobRunner()->cancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 4, 10000);
        QCOMPARE(ended.last().at(1).value<jobs::JobEnd>(), jobs::JobEnd::Canceled);
        QVERIFY(clock.elapsed() < 10000);
        QVERIFY(!findApplication(*window.document()->project(), "slept"));
        QVERIFY(!QFile::exists(dir.filePath("slept.volume.mtx")));
    }
};

QTEST_MAIN(TestCaptureWorkbench)
#include "test_capture_workbench.moc"
