// Opens a project in the workbench, edits it, and waits for the autosave timer to write the recovery
// folder; then prints "autosaved" and idles until test_autosave_recovery kills it with SIGKILL.
//   autosave_victim PROJECT        (MERIDIAN_RECOVERY_DIR and MERIDIAN_AUTOSAVE_MS set by the test)
#include "app/project/project_edits.h"
#include "app/workbench/main_window.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QTimer>

#include <cstdio>

using namespace meridian;

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    if (argc != 2)
        return 2;
    workbench::MainWindow window;
    window.setInteractive(false);
    if (!window.loadProject(QString::fromLocal8Bit(argv[1])))
        return 1;
    if (!window.document()->edit("rename", [](const document::Project& p) {
            return document::withSiteField(p, 0, document::SiteField::Name, "renamed-before-the-crash");
        }))
        return 1;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (QFile::exists(QDir(window.autosave()->folder()).filePath("recovery.json"))) {
            std::puts("autosaved");
            std::fflush(stdout);
            poll.stop();
        }
    });
    poll.start(20);
    return app.exec();
}
