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
