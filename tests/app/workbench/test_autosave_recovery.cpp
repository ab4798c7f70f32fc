// Autosave and recovery: a workbench killed with SIGKILL after its autosave leaves its unsaved work, and the
// next workbench recovers it where it belongs, marked unsaved; a clean save or close leaves nothing behind.
#include "app/mapping/ui/run_panel.h"
#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "app/project/ui/autosave.h"
#include "app/workbench/main_window.h"
#include "test_support.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <csignal>

using namespace meridian;

class TestAutosaveRecovery : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_recovery;
    QTemporaryDir m_work;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_recovery.isValid() && m_work.isValid());
        qputenv("MERIDIAN_RECOVERY_DIR", m_recovery.path().toLocal8Bit());
    }

    void recoversWhatAKilledWorkbenchAutosaved()
    {
        // A copy of a sample project to work on.
        auto sample = document::ProjectFile::load(test::sampleProject("ec2-4-regions"));
        QVERIFY(sample);
        const QString path = m_work.filePath("mine.meridian");
        QVERIFY(document::ProjectFile::save(*sample, path));

        QProcess victim;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("MERIDIAN_RECOVERY_DIR", m_recovery.path());
        env.insert("MERIDIAN_AUTOSAVE_MS", "100");
        env.insert("QT_QPA_PLATFORM", "offscreen");
        victim.setProcessEnvironment(env);
        victim.start(MERIDIAN_AUTOSAVE_VICTIM, {path});
        QVERIFY(victim.waitForReadyRead(60000));
        QVERIFY(victim.readLine().startsWith("autosaved"));
        ::kill(static_cast<pid_t>(victim.processId()), SIGKILL);
        QVERIFY(victim.waitForFinished(30000));

        const auto orphans = document::Autosave::orphans();
        QCOMPARE(orphans.size(), std::size_t(1));
        QCOMPARE(orphans.front().originalPath, path);
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.recover(orphans.front()));
        QCOMPARE(window.document()->project()->topology.site(0).name, std::string("renamed-before-the-crash"));
        QCOMPARE(window.document()->path(), path);
        QVERIFY(window.document()->isModified());
        QVERIFY(document::Autosave::orphans().empty());
        // The Run panel offers the recovered project's applications, on the first one.
        QCOMPARE(window.runPanel()->applicationChooser()->currentText(),
                 QString::fromStdString(window.document()->project()->applications.front().name));
        workbench::MainWindow opened;
        opened.setInteractive(false);
        QVERIFY(opened.loadProject(path));
        QCOMPARE(window.runPanel()->requests().size(), opened.runPanel()->requests().size());
        // Saving puts the work where it belongs and leaves nothing to recover.
        QVERIFY(window.saveProject(path));
        auto saved = document::ProjectFile::load(path);
        QVERIFY(saved);
        QCOMPARE(saved->topology.site(0).name, std::string("renamed-before-the-crash"));
        QCOMPARE(QDir(m_recovery.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 0);
    }

    void aRunningWorkbenchsAutosaveIsNotOffered()
    {
        workbench::MainWindow window;
        window.setInteractive(false);
        QVERIFY(window.loadProject(test::sampleProject("azure-3-regions")));
        QVERIFY(window.document()->edit("rename", [](const document::Project& p) {
            return document::withSiteField(p, 0, document::SiteField::Name, "still-running");
        }));
        QVERIFY(window.autosave()->autosaveNow());
        QVERIFY(QFile::exists(QDir(window.autosave()->folder()).filePath("recovery.json")));
        QVERIFY(document::Autosave::orphans().empty()); // this process is alive
        window.document()->undoStack()->undo();         // back to the saved state: nothing to keep
        QVERIFY(!QDir(window.autosave()->folder()).exists());
    }
};

QTEST_MAIN(TestAutosaveRecovery)
#include "test_autosave_recovery.moc"
