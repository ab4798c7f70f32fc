#include "core/io/openmpi_monitoring.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace meridian;

namespace {

// The monitoring files Open MPI 4.1 wrote for tests/mpi/known_matrix.c on 4 ranks (persistent sends included,
// which Open MPI's monitoring does not count).
QString knownRun() { return QString(MERIDIAN_TEST_DATA) + "/monitoring/known"; }

// Copies the known run into `dir`, leaving out the ranks in `skip`.
void copyRun(const QTemporaryDir& dir, const QString& name, const QList<int>& skip = {})
{
    for (int r = 0; r < 4; ++r)
        if (!skip.contains(r))
            QVERIFY(QFile::copy(QString("%1/app.%2.prof").arg(knownRun()).arg(r),
                                dir.filePath(QString("%1.%2.prof").arg(name).arg(r))));
}

void rewrite(const QString& path, const std::function<QByteArray(QByteArray)>& change)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = change(f.readAll());
    f.close();
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QString errorOf(const Expected<io::MonitoringCapture>& capture)
{
    return capture ? QString() : QString::fromStdString(capture.error().toString());
}

} // namespace

class TestOpenMpiMonitoring : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The E lines in world ranks with their direction: the known matrix without its persistent sends.
    void readsTheApplicationsSendsPerPair()
    {
        auto capture = io::readOpenMpiMonitoring(knownRun().toStdString());
        QVERIFY2(capture, qPrintable(errorOf(capture)));
        QCOMPARE(capture->name, std::string("app"));
        const auto& comm = capture->pointToPoint;
        QCOMPARE(comm.processCount(), 4);
        QCOMPARE(comm.nonZeros(), 12);
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(comm.volume().coeff(r, (r + 1) % 4), 3 * 1000.0 * (r + 1) + 800 + 24);
            QCOMPARE(comm.messages().coeff(r, (r + 1) % 4), 5.0);
            QCOMPARE(comm.volume().coeff(r, (r + 2) % 4), 1000.0 + 40 + 5 * 77 + 104);
            QCOMPARE(comm.messages().coeff(r, (r + 2) % 4), 9.0);
            QCOMPARE(comm.volume().coeff(r, (r + 3) % 4), 2048.0); // the 4 persistent sends of 64 B are missing
        }
        // Open MPI's internal traffic (I lines) is left out; the collectives' traffic is kept apart.
        QCOMPARE(capture->collectiveTraffic.size(), std::size_t(12));
        QVERIFY(!capture->communicators.empty());
        QCOMPARE(capture->communicators.front().name, std::string("MPI_COMM_WORLD"));
        QCOMPARE(capture->communicators.front().ranks, (std::vector<int>{0, 1, 2, 3}));
        QVERIFY(capture->communicators.front().oneToAllBytes > 0);
        const std::string json = io::monitoringCollectivesJson(*capture);
        QVERIFY(json.find("\"source\": \"openmpi-monitoring\"") != std::string::npos);
    }

    void aMissingRankIsNamed()
    {
        QTemporaryDir dir;
        copyRun(dir, "app", {2});
        const QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("1 of 4 ranks have no file") && error.contains("rank 2") && error.contains("app.2.prof"),
                 qPrintable(error));
        // The last rank's file missing is seen through MPI_COMM_WORLD's size in the other files.
        QTemporaryDir last;
        copyRun(last, "app", {3});
        QVERIFY(errorOf(io::readOpenMpiMonitoring(last.path().toStdString())).contains("rank 3"));
    }

    void aTruncatedFileIsRefused()
    {
        QTemporaryDir dir;
        copyRun(dir, "app");
        rewrite(dir.filePath("app.1.prof"), [](QByteArray text) { return text.left(text.indexOf("\nI\t")); });
        QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.1.prof") && error.contains("truncated"), qPrintable(error));
        rewrite(dir.filePath("app.1.prof"), [](QByteArray text) { return text.left(text.indexOf("bytes")); });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.1.prof:2:") && error.contains("a count followed by 'bytes'"), qPrintable(error));
    }

    void malformedLinesNameFileLineAndColumn()
    {
        QTemporaryDir dir;
        copyRun(dir, "app");
        rewrite(dir.filePath("app.0.prof"), [](QByteArray text) { return text.replace("3824 bytes", "38x4 bytes"); });
        QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.0.prof:2:7") && error.contains("'38x4 bytes'"), qPrintable(error));
        rewrite(dir.filePath("app.0.prof"),
                [](QByteArray text) { return text.replace("38x4 bytes", "3824 bytes").replace("E\t0\t1", "E\t1\t1"); });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.0.prof:2:3") && error.contains("the rank of this file (0)"), qPrintable(error));
        rewrite(dir.filePath("app.0.prof"), [](QByteArray text) { return text.replace("E\t1\t1", "Q\t0\t1"); });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.0.prof:2:1") && error.contains("a monitoring record"), qPrintable(error));
    }

    // Found by fuzz_capture: a communicator name that is not UTF-8 made the collectives summary throw.
    void aNameThatIsNotUtf8IsWrittenReplaced()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QString(MERIDIAN_TEST_DATA) + "/regressions/monitoring_invalid_utf8_name.prof",
                            dir.filePath("app.0.prof")));
        auto capture = io::readOpenMpiMonitoring(dir.path().toStdString());
        QVERIFY2(capture, qPrintable(errorOf(capture)));
        const std::string json = io::monitoringCollectivesJson(*capture);
        QJsonParseError error;
        QJsonDocument::fromJson(QByteArray::fromStdString(json), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(json.find("\xEF\xBF\xBD") != std::string::npos); // U+FFFD
    }

    // Issue 31: an empty file of a rank dropped the rank's sends without a word.
    void anEmptyFileIsRefused()
    {
        QTemporaryDir dir;
        copyRun(dir, "app");
        QVERIFY(QFile::remove(dir.filePath("app.2.prof")));
        QVERIFY(QFile::copy(QString(MERIDIAN_TEST_DATA) + "/regressions/monitoring_empty.prof",
                            dir.filePath("app.2.prof")));
        const QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.2.prof:1:1: the file is empty") && error.contains("'# POINT TO POINT'"),
                 qPrintable(error));
    }

    // Issue 31: app.0.prof and app.00.prof were both read as rank 0, its traffic counted twice.
    void aRankWrittenWithLeadingZerosIsRefused()
    {
        QTemporaryDir dir;
        copyRun(dir, "app");
        QVERIFY(QFile::copy(dir.filePath("app.0.prof"), dir.filePath("app.00.prof")));
        QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.00.prof: the rank '00' in this name is not written as Open MPI writes it")
                     && error.contains("expected " + dir.filePath("app.0.prof"))
                     && error.contains(dir.filePath("app.0.prof")
                                       + " holds rank 0 too: its traffic would be counted twice"),
                 qPrintable(error));
        QVERIFY(QFile::remove(dir.filePath("app.0.prof")));
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.00.prof: the rank '00'") && !error.contains("twice"), qPrintable(error));
    }

    // Issue 31: a file cut inside '# COLLECTIVES' (at the end of a line) was read as complete.
    void aFileCutInsideItsCollectivesIsRefused()
    {
        QTemporaryDir dir;
        copyRun(dir, "app");
        // Cut after a D line: its O2A, A2O and A2A lines are missing.
        QVERIFY(QFile::remove(dir.filePath("app.1.prof")));
        QVERIFY(QFile::copy(QString(MERIDIAN_TEST_DATA) + "/regressions/monitoring_cut_after_communicator.prof",
                            dir.filePath("app.1.prof")));
        QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains(
                     "app.1.prof:12:1: the file is truncated: the communicator of line 12 lacks its 'O2A' line"),
                 qPrintable(error));
        // Cut between two lines of a communicator's totals, then another communicator.
        rewrite(dir.filePath("app.1.prof"),
                [](QByteArray text) { return text + "O2A\t1\t0 bytes\t0 msgs sent\nD\tx\tprocs: 1\n"; });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.1.prof:14:1: expected the 'A2O' line of the communicator of line 12"),
                 qPrintable(error));
        // Cut between two communicators: another member's file lists one this file lacks.
        copyRun(dir, "cut");
        rewrite(dir.filePath("cut.3.prof"),
                [](QByteArray text) { return text.left(text.indexOf("D\tMPI COMMUNICATOR")); });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString(), "cut"));
        QVERIFY2(error.contains("cut.3.prof:16: the file is truncated in its '# COLLECTIVES' section: it lists 0 "
                                "communicator(s) of ranks 0,1,2,3 where ")
                     && error.contains("cut.0.prof lists 1"),
                 qPrintable(error));
        // Cut right after the section's heading.
        rewrite(dir.filePath("cut.3.prof"), [](QByteArray text) { return text.left(text.indexOf("C\t")); });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString(), "cut"));
        QVERIFY2(error.contains("cut.3.prof:9: the file is truncated in its '# COLLECTIVES' section"),
                 qPrintable(error));
    }

    // Issue 31: a communicator's totals added over its members' files wrapped past 2^64.
    void totalsThatWouldWrapAreRefused()
    {
        QTemporaryDir dir;
        QVERIFY(QFile::copy(QString(MERIDIAN_TEST_DATA) + "/regressions/monitoring_total_wraps.prof",
                            dir.filePath("app.0.prof")));
        QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains(
                     "app.0.prof:11:7: expected a count that keeps the communicator 'MPI_COMM_SELF''s A2A total "
                     "within 2^64 - 1"),
                 qPrintable(error));
        // Open MPI writes its counts as size_t: 2^64 - 1 is read, 2^64 is not.
        rewrite(dir.filePath("app.0.prof"), [](QByteArray text) { return text.left(text.lastIndexOf("D\t")); });
        auto capture = io::readOpenMpiMonitoring(dir.path().toStdString());
        QVERIFY2(capture, qPrintable(errorOf(capture)));
        QCOMPARE(capture->communicators.front().allToAllBytes, std::uint64_t(18446744073709551615ULL));
        rewrite(dir.filePath("app.0.prof"),
                [](QByteArray text) { return text.replace("18446744073709551615", "18446744073709551616"); });
        error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("app.0.prof:7:7: expected a count followed by 'bytes' (at most 2^64 - 1), found "
                                "'18446744073709551616 bytes'"),
                 qPrintable(error));
    }

    void theRunToReadIsChosen()
    {
        QTemporaryDir dir;
        copyRun(dir, "first");
        copyRun(dir, "second", {1});
        const QString error = errorOf(io::readOpenMpiMonitoring(dir.path().toStdString()));
        QVERIFY2(error.contains("several runs (first, second)"), qPrintable(error));
        QVERIFY(io::readOpenMpiMonitoring(dir.path().toStdString(), "first"));
        QVERIFY(errorOf(io::readOpenMpiMonitoring(dir.path().toStdString(), "third")).contains("no third.RANK.prof"));
        QTemporaryDir empty;
        QVERIFY(errorOf(io::readOpenMpiMonitoring(empty.path().toStdString())).contains("holds no NAME.RANK.prof"));
        QVERIFY(errorOf(io::readOpenMpiMonitoring(empty.filePath("nothing").toStdString())).contains("is not a folder"));
    }
};

QTEST_GUILESS_MAIN(TestOpenMpiMonitoring)
#include "test_openmpi_monitoring.moc"
