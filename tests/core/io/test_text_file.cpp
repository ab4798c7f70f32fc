// Whole-file reads and atomic writes: the guards every reader and writer goes through.
#include "core/io/text_file.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace meridian;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
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
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(0);
        QVERIFY(child > 0);
        ::waitpid(child, nullptr, 0);
        const QString dead = QString::fromStdString(project) + QString(".part-%1-0-0000beef").arg(child);
        const QString mine = QString::fromStdString(project) + QString(".part-%1-7-0000beef").arg(::getpid());
        const QString other = dir.filePath("p.meridian.part-notapid");
        for (const QString& f : {dead, mine, other}) {
            QFile file(f);
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        auto text = [](const char* t) { return [t](std::ostream& out) { out << t; }; };
        QVERIFY(io::writeFilesWithJournal({{project, text("new")}}, journal));
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
        QVERIFY(io::writeFilesWithJournal({{project, text("new")}}, journal));
        QCOMPARE(readAll(QString::fromStdString(sidecar)), QByteArray("interrupted sidecar"));
        QVERIFY(!QFile::exists(QString::fromStdString(temp)));
    }
};

QTEST_GUILESS_MAIN(TestTextFile)
#include "test_text_file.moc"
