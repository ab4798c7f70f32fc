// Whole-file reads and atomic writes: the guards every reader and writer goes through.
#include "core/io/file_lock.h"
#include "core/io/journal.h"
#include "core/io/text_file.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace meridian;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

io::JournalScope anyFileIn(const QString& folder)
{
    return io::filesInFolder(
        folder.toStdString(), [](std::string_view) { return true; }, "any file");
}

// As a project's scope: the project file and .mtx files in the folder.
io::JournalScope ownFilesIn(const QString& folder)
{
    return io::filesInFolder(
        folder.toStdString(),
        [](std::string_view name) {
            return name == "p.meridian" || (name.size() > 4 && name.substr(name.size() - 4) == ".mtx");
        },
        "the project's own files");
}

/// The id of a process that has exited: what a killed writer's temporary names.
pid_t exitedProcessId()
{
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    if (child > 0)
        ::waitpid(child, nullptr, 0);
    return child;
}

} // namespace

class TestTextFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Records formatted in blocks by several workers come out in order, whatever the block size.
    void writesRecordsInParallelInOrder()
    {
        const auto format = [](std::size_t begin, std::size_t end, std::string& buffer) {
            for (std::size_t k = begin; k < end; ++k)
                buffer += std::to_string(k * k) + (k % 3 ? "\t" : "\n");
        };
        for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{1000}}) {
            std::string expected;
            format(0, count, expected);
            for (std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{5000}}) {
                std::ostringstream out;
                io::writeRecordsInParallel(out, count, block, format);
                QCOMPARE(out.str(), expected);
            }
        }
    }

    void readsWithinTheCapAndRefusesBeyondIt()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("small.txt");
        QVERIFY(io::writeTextFileAtomically(path.toStdString(), "0123456789"));
        auto text = io::readTextFile(path.toStdString(), 10);
        QVERIFY(text);
        QCOMPARE(*text, std::string("0123456789"));
        MERIDIAN_VERIFY_ERROR(io::readTextFile(path.toStdString(), 9), "small.txt", 0, 0,
                              "the file is 10 bytes; at most 9 bytes are read");
        MERIDIAN_VERIFY_ERROR(io::readTextFile(dir.filePath("absent").toStdString()), "absent", 0, 0,
                              "cannot open the file: No such file or directory");
    }

    void showsUserTextSafely()
    {
        QCOMPARE(io::shown("plain"), std::string("'plain'"));
        QCOMPARE(io::shown("caf\xC3\xA9 \xE2\x86\x92"), std::string("'caf\xC3\xA9 \xE2\x86\x92'")); // UTF-8 kept
        QCOMPARE(io::shown(std::string("a\tb\0c\x80", 6)), std::string("'a\\x09b\\x00c\\x80'"));
        QCOMPARE(io::shown(std::string(100, 'x')), "'" + std::string(60, 'x') + "'... (100 bytes)");
    }

    // Regression: the temporary was a fixed "<path>.part", so two writers of one file collided.
    void concurrentWritersOfOneFileNeverCollide()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("shared.csv").toStdString();
        std::vector<std::thread> writers;
        std::atomic<int> failures{0};
        for (int w = 0; w < 8; ++w)
            writers.emplace_back([&, w] {
                const std::string content(100000, static_cast<char>('a' + w));
                for (int k = 0; k < 20; ++k)
                    if (!io::writeTextFileAtomically(path, content))
                        ++failures;
            });
        for (auto& t : writers)
            t.join();
        QCOMPARE(failures.load(), 0);
        const QByteArray final = readAll(QString::fromStdString(path));
        QCOMPARE(final.size(), 100000);
        QCOMPARE(final.count(final.front()), 100000);                // one writer's whole content, never a mix
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1); // no temporary left behind
    }

    void filesWrittenTogetherReplaceNothingWhenOneFails()
    {
        QTemporaryDir dir;
        const QString first = dir.filePath("partition.tsv");
        QVERIFY(io::writeTextFileAtomically(first.toStdString(), "old"));
        auto text = [](const char* t) { return [t](std::ostream& out) { out << t; }; };
        const auto s = io::writeFilesTogether(
            {{first.toStdString(), text("new")}, {dir.filePath("missing/masters.tsv").toStdString(), text("new")}});
        QVERIFY(!s);
        QVERIFY2(s.error().message.find("No such file or directory") != std::string::npos, s.error().message.c_str());
        QCOMPARE(readAll(first), QByteArray("old"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
        QVERIFY(io::writeFilesTogether(
            {{first.toStdString(), text("new")}, {dir.filePath("masters.tsv").toStdString(), text("new too")}}));
        QCOMPARE(readAll(first), QByteArray("new"));
        QCOMPARE(readAll(dir.filePath("masters.tsv")), QByteArray("new too"));
    }

    void aSaveRemovesTheTemporariesOfKilledWritersOnly()
    {
        QTemporaryDir dir;
        const std::string project = dir.filePath("p.meridian").toStdString();
        const std::string journal = project + ".saving";
        // A writer that has exited (its process id no longer exists), this process, and an unrelated name.
        const pid_t child = exitedProcessId();
        QVERIFY(child > 0);
        const QString dead = QString::fromStdString(project) + QString(".part-%1-0-0000beef").arg(child);
        const QString mine = QString::fromStdString(project) + QString(".part-%1-7-0000beef").arg(::getpid());
        const QString other = dir.filePath("p.meridian.part-notapid");
        for (const QString& f : {dead, mine, other}) {
            QFile file(f);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        auto text = [](const char* t) { return [t](std::ostream& out) { out << t; }; };
        QVERIFY(io::writeFilesWithJournal({{project, text("new")}}, journal, anyFileIn(dir.path())));
        QCOMPARE(readAll(QString::fromStdString(project)), QByteArray("new"));
        QVERIFY(!QFile::exists(dead));
        QVERIFY(QFile::exists(mine));
        QVERIFY(QFile::exists(other));
        QVERIFY(!QFile::exists(QString::fromStdString(journal)));
    }

    void aSaveFinishesAnOlderInterruptedSaveFirst()
    {
        QTemporaryDir dir;
        const std::string project = dir.filePath("p.meridian").toStdString();
        const std::string sidecar = dir.filePath("a.mtx").toStdString();
        const std::string journal = project + ".saving";
        // A save killed after its journal: the sidecar's temporary is still waiting to be renamed.
        const std::string temp = sidecar + ".part-1-0-00000000";
        QVERIFY(io::writeTextFileAtomically(temp, "interrupted sidecar"));
        QVERIFY(io::writeTextFileAtomically(journal, "meridian-journal 1\n" + temp + "\t" + sidecar + "\n"));
        auto text = [](const char* t) { return [t](std::ostream& out) { out << t; }; };
        QVERIFY(io::writeFilesWithJournal({{project, text("new")}}, journal, anyFileIn(dir.path())));
        QCOMPARE(readAll(QString::fromStdString(sidecar)), QByteArray("interrupted sidecar"));
        QVERIFY(!QFile::exists(QString::fromStdString(temp)));
    }

    // Security: a journal handed over with a project folder renamed its lines without checks, so it could replace
    // any file of the user. Each kind of line below is refused whole, nothing is renamed, the journal stays.
    void aJournalThatNamesAnythingButItsOwnFilesIsRefusedWhole()
    {
        QTemporaryDir outside, project;
        const QString victim = outside.filePath("victim.txt");
        QVERIFY(io::writeTextFileAtomically(victim.toStdString(), "the user's file"));
        const QString planted = victim + ".part-1-0-0000beef";
        QVERIFY(io::writeTextFileAtomically(planted.toStdString(), "the attacker's content"));
        const QString inside = project.filePath("a.mtx");
        QVERIFY(io::writeTextFileAtomically(inside.toStdString(), "old sidecar"));
        const QString insideTemp = inside + ".part-1-0-0000beef";
        QVERIFY(io::writeTextFileAtomically(insideTemp.toStdString(), "new sidecar"));
        QVERIFY(QFile::link(victim, project.filePath("link.mtx")));
        const std::string journal = project.filePath("p.meridian.saving").toStdString();
        const QString goodLine = "a.mtx.part-1-0-0000beef\ta.mtx\n";
        const struct {
            QString text;
            const char* fragment;
        } cases[] = {
            {"meridian-journal 1\n" + planted + "\t" + victim + "\n", "is outside the folder"},
            {"meridian-journal 2\n" + goodLine + "../" + QFileInfo(outside.path()).fileName()
                 + "/victim.txt.part-1-0-0000beef\t../" + QFileInfo(outside.path()).fileName() + "/victim.txt\n",
             "climbs out of its folder"},
            {"meridian-journal 2\nevil\ta.mtx\n", "is not a temporary of"},
            {"meridian-journal 2\n" + goodLine + "p.meridian.saving.part-1-0-0000beef\tp.meridian.saving\n",
             "is not one of"},
            {"meridian-journal 2\n" + goodLine + "sub/x.mtx.part-1-0-0000beef\tsub/x.mtx\n", "is outside the folder"},
            {"meridian-journal 2\nno tab here\n", "is damaged"},
            {"something else\n", "not a Meridian save journal"},
        };
        // A subfolder that is a link to the outside folder: its files are outside, whatever the path says.
        QVERIFY(QFile::link(outside.path(), project.filePath("sub")));
        for (const auto& c : cases) {
            QVERIFY(io::writeTextFileAtomically(journal, c.text.toStdString()));
            const auto s = io::completeJournal(journal, ownFilesIn(project.path()));
            QVERIFY2(!s, qPrintable(c.text));
            QVERIFY2(s.error().message.find(c.fragment) != std::string::npos, s.error().toString().c_str());
            QVERIFY(s.error().message.find("nothing was renamed") != std::string::npos
                    || s.error().message.find("Move it away") != std::string::npos);
            QCOMPARE(readAll(victim), QByteArray("the user's file"));
            QCOMPARE(readAll(inside), QByteArray("old sidecar"));
            QVERIFY(QFile::exists(QString::fromStdString(journal)));
        }
        // A temporary that is a symbolic link (to the user's file) is refused too.
        QVERIFY(QFile::remove(insideTemp));
        QVERIFY(QFile::link(victim, insideTemp));
        QVERIFY(io::writeTextFileAtomically(journal, ("meridian-journal 2\n" + goodLine).toStdString()));
        MERIDIAN_VERIFY_ERROR(io::completeJournal(journal, ownFilesIn(project.path())), "p.meridian.saving", 2, 0,
                              "which is not a regular file");
        // The journal's own lines, relative to its folder, are finished.
        QVERIFY(QFile::remove(insideTemp));
        QVERIFY(io::writeTextFileAtomically(insideTemp.toStdString(), "new sidecar"));
        QVERIFY(io::completeJournal(journal, ownFilesIn(project.path())));
        QCOMPARE(readAll(inside), QByteArray("new sidecar"));
        QVERIFY(!QFile::exists(QString::fromStdString(journal)));
    }

    // A reader never waits on a FIFO (it blocked forever) and refuses a binary file at its first block.
    void readersRefuseFifosAndNulBytesAtOnce()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("fifo.csv");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        MERIDIAN_VERIFY_ERROR(io::readTextFile(fifo.toStdString()), "fifo.csv", 0, 0, "not a regular file");
        const QString binary = dir.filePath("zeros.csv");
        QVERIFY(io::writeTextFileAtomically(binary.toStdString(), std::string("a,b\nc,d") + std::string(1 << 20, '\0')));
        MERIDIAN_VERIFY_ERROR(io::readTextFile(binary.toStdString()), "zeros.csv", 2, 4, "a NUL byte (at byte 7)");
    }

    // A set of outputs is all or none: a folder in the way of one refuses the set before anything is written.
    void aFolderInTheWayOfOneOutputChangesNone()
    {
        QTemporaryDir dir;
        const QString first = dir.filePath("map.csv");
        QVERIFY(io::writeTextFileAtomically(first.toStdString(), "old"));
        QVERIFY(QDir(dir.path()).mkdir("rankfile.txt"));
        auto text = [](const char* t) { return [t](std::ostream& out) { out << t; }; };
        MERIDIAN_VERIFY_ERROR(io::writeFilesTogether({{first.toStdString(), text("new")},
                                                      {dir.filePath("rankfile.txt").toStdString(), text("new")}}),
                              "rankfile.txt", 0, 0, "a folder is in the way");
        QCOMPARE(readAll(first), QByteArray("old"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
    }

    // A rename that fails halfway puts the files already renamed back as they were, and leaves no journal.
    void aFailedRenameRestoresTheFilesRenamedBeforeIt()
    {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a.csv").toStdString(), b = dir.filePath("b.csv").toStdString();
        QVERIFY(io::writeTextFileAtomically(a, "old a"));
        const std::string tempA = io::uniqueTemporaryName(a);
        QVERIFY(io::writeTextFileAtomically(tempA, "new a"));
        const std::string journal = a + ".saving";
        // b's temporary does not exist: its rename fails after a's.
        const auto s = io::detail::renameWithJournal({{tempA, a}, {io::uniqueTemporaryName(b), b}}, journal);
        QVERIFY(!s);
        QVERIFY2(s.error().message.find("no file of the set was changed") != std::string::npos,
                 s.error().message.c_str());
        QCOMPARE(readAll(QString::fromStdString(a)), QByteArray("old a"));
        QVERIFY(!QFile::exists(QString::fromStdString(b)));
        QVERIFY(!QFile::exists(QString::fromStdString(journal)));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"a.csv"});
    }

    // A kill between the renames of a set of outputs leaves its journal; the next write of the set finishes it
    // first, and a journal naming a file the new set does not write is refused.
    void aKilledSetOfOutputsIsFinishedByTheNextWrite()
    {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a.csv").toStdString(), b = dir.filePath("b.csv").toStdString();
        const std::string tempB = io::uniqueTemporaryName(b);
        QVERIFY(io::writeTextFileAtomically(tempB, "interrupted b"));
        QVERIFY(io::writeTextFileAtomically(a + ".saving",
                                            "meridian-journal 2\n"
                                                + QFileInfo(QString::fromStdString(tempB)).fileName().toStdString()
                                                + "\tb.csv\n"));
        auto text = [](const char* t) { return [t](std::ostream& out) { out << t; }; };
        MERIDIAN_VERIFY_ERROR(io::writeFilesTogether({{a, text("a")}, {dir.filePath("c.csv").toStdString(), text("c")}}),
                              "a.csv.saving", 2, 0, "is not among the files this command writes");
        QVERIFY(!QFile::exists(dir.filePath("c.csv")));
        QVERIFY(io::writeFilesTogether({{a, text("new a")}, {b, text("new b")}}));
        QCOMPARE(readAll(QString::fromStdString(b)), QByteArray("new b"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), (QStringList{"a.csv", "b.csv"}));
    }

    // A killed writer's temporary that a pending journal still names stays: removing it would make finishing that
    // journal mix two saves. Only the strict temporary names go ("data.csv.part-4242-notes" is a user's file).
    void staleTemporariesThatAJournalNamesStay()
    {
        QTemporaryDir dir;
        const pid_t child = exitedProcessId();
        QVERIFY(child > 0);
        const std::string sidecar = dir.filePath("b.volume.mtx").toStdString();
        const QString named = QString::fromStdString(sidecar) + QString(".part-%1-0-0000beef").arg(child);
        const QString loose = QString::fromStdString(sidecar) + QString(".part-%1-1-0000beef").arg(child);
        const QString notes = QString::fromStdString(sidecar) + QString(".part-%1-notes").arg(child);
        for (const QString& f : {named, loose, notes})
            QVERIFY(io::writeTextFileAtomically(f.toStdString(), "x"));
        QVERIFY(io::writeTextFileAtomically(dir.filePath("B.meridian.saving").toStdString(),
                                            "meridian-journal 2\n" + QFileInfo(named).fileName().toStdString()
                                                + "\tb.volume.mtx\n"));
        QCOMPARE(io::removeStaleTemporaries(sidecar), std::size_t{1});
        QVERIFY(QFile::exists(named));
        QVERIFY(!QFile::exists(loose));
        QVERIFY(QFile::exists(notes));
    }

    // Streamed outputs (a partition's E.tsv and masters) clean up after killed writers as written ones do: a
    // temporary of a process that no longer exists goes when the set is committed; this process's stay until then.
    void streamedFilesRemoveWhatKilledWritersLeft()
    {
        QTemporaryDir dir;
        const pid_t child = exitedProcessId();
        QVERIFY(child > 0);
        const std::string edges = dir.filePath("e.tsv").toStdString();
        const std::string masters = dir.filePath("m.tsv").toStdString();
        for (const auto& f : {edges, masters, edges + ".saving"})
            QVERIFY(io::writeTextFileAtomically(f + QString(".part-%1-0-0000beef").arg(child).toStdString(), "x"));
        auto e = io::StreamedFile::create(edges);
        auto m = io::StreamedFile::create(masters);
        QVERIFY(e && m);
        QVERIFY(e->append("0\t1\t0\n") && m->append("0\t0\n"));
        QVERIFY(e->finish() && m->finish());
        QVERIFY(io::commitTogether({&*e, &*m}));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), (QStringList{"e.tsv", "m.tsv"}));
        QCOMPARE(readAll(QString::fromStdString(edges)), QByteArray("0\t1\t0\n"));
    }

    // A waiter whose lock file was removed (a holder discarded it) takes the lock on the file now at the path.
    void aWaiterTakesTheLockAgainAfterTheFileWasRemoved()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("p.meridian.lock").toStdString();
        const pid_t child = ::fork();
        if (child == 0) {
            auto lock = io::FileLock::acquire(path, 0, "a workbench whose open failed");
            ::usleep(400000);
            if (lock)
                lock->discard();
            ::_exit(lock ? 0 : 1);
        }
        QTest::qWait(150);
        auto lock = io::FileLock::acquire(path, 5, "the waiter");
        int status = 0;
        ::waitpid(child, &status, 0);
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY2(lock, lock ? "" : lock.error().toString().c_str());
        QVERIFY(io::FileLock::heldHere(path));
        QVERIFY(QFile::exists(QString::fromStdString(path)));
        QVERIFY(readAll(QString::fromStdString(path)).contains("the waiter"));
    }

    void temporaryNamesAreRecognised()
    {
        const std::string name = io::uniqueTemporaryName("dir/p.meridian");
        QVERIFY(io::isTemporaryNameOf(name.substr(4), "p.meridian"));
        QVERIFY(!io::isTemporaryNameOf("p.meridian.part-1-2-0000beeg", "p.meridian"));
        QVERIFY(!io::isTemporaryNameOf("p.meridian.part-1-0000beef", "p.meridian"));
        QVERIFY(!io::isTemporaryNameOf("p.meridian.part-1-2-0000beef/x", "p.meridian"));
        QVERIFY(!io::isTemporaryNameOf("q.meridian.part-1-2-0000beef", "p.meridian"));
    }
};

QTEST_GUILESS_MAIN(TestTextFile)
#include "test_text_file.moc"
