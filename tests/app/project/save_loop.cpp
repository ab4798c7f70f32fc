// Saves a project over and over, alternating two versions, until it is killed. Used by
// test_project_save_kill: version "A" is the project as given, version "B" has every volume doubled (and no
// traces, which no longer match).
// Prints "ready" before the first save and "saved" after each.
//   save_loop BASE TARGET      (BASE is read, never written; TARGET is saved over and over)
#include "app/project/project_file.h"

#include <QCoreApplication>

#include <cstdio>

using namespace meridian;

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 3)
        return 2;
    const QString path = QString::fromLocal8Bit(argv[2]);
    auto a = document::ProjectFile::load(QString::fromLocal8Bit(argv[1]));
    if (!a) {
        std::fprintf(stderr, "%s\n", a.error().toString().c_str());
        return 1;
    }
    a->description = "A";
    document::Project b = *a;
    b.description = "B";
    for (auto& application : b.applications) {
        auto entries = application.comm.entries();
        for (auto& e : entries)
            e.bytes *= 2;
        application.comm = *model::CommMatrix::fromEntries(application.comm.processCount(), entries,
                                                           application.comm.hasMessages());
        // A trace describes the matrix it was captured with: changed traffic drops it, as the workbench's edits do.
        application.trace.reset();
        application.traceFile.clear();
    }
    std::puts("ready");
    std::fflush(stdout);
    for (long k = 0;; ++k) {
        if (auto s = document::ProjectFile::save(k % 2 ? b : *a, path); !s) {
            std::fprintf(stderr, "%s\n", s.error().toString().c_str());
            return 1;
        }
        std::puts("saved");
        std::fflush(stdout);
    }
}
