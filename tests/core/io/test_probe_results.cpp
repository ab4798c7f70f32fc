#include "core/common/utc_date.h"
#include "core/io/netpipe.h"
#include "core/io/probe_results.h"
#include "test_support.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <ctime>

using namespace meridian;
using meridian::test::data;
using meridian::test::qdata;

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestProbeResults : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    // Copies the real probe run into the temporary folder as PREFIX, with `file` replaced by `text`.
    QString copyWith(const QString& prefix, const QString& suffix = {}, const QByteArray& text = {})
    {
        for (const QString s : {".latency.csv", ".bandwidth.csv", ".probe.json"}) {
            const QString to = m_dir.filePath(prefix + s);
            QFile::remove(to);
            write(to, s == suffix ? text : readAll(QString::fromStdString(data("probe/localhost" + s.toStdString()))));
        }
        return m_dir.filePath(prefix);
    }

private Q_SLOTS:
    void utcDatesParseStrictlyAndRoundTrip()
    {
        QCOMPARE(parseUtcDateText("1970-01-01T00:00:00Z"), std::optional<std::int64_t>(0));
        QCOMPARE(parseUtcDate("2026-11-23T14:43:08Z"), std::optional<std::int64_t>(1795444988));
        QCOMPARE(parseUtcDate("2024-02-29T23:59:59Z"), std::optional<std::int64_t>(1709251199));
        for (const char* bad : {"2023-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-31T00:00:00Z",
                                "2026-11-23 14:43:08Z", "2026-11-23T14:43:08", "2026-11-23T24:00:00Z",
                                "1969-12-31T23:59:59Z", "2026-11-23T14:43:08+01:00", "", "2026-1a-23T14:43:08Z"})
            QVERIFY2(!parseUtcDateText(bad), bad);
        for (std::int64_t t : {std::int64_t{0}, std::int64_t{1709251199}, std::int64_t{1795444988}})
            QCOMPARE(parseUtcDateText(formatUtcDate(t)), std::optional<std::int64_t>(t));
    }

    // Issue 31: a measurement dated 1970-01-01 was read as 0, the model's "unknown", and its date dropped; one
    // dated 2999 was accepted. A measurement's date runs from 2000-01-01 to a day after now.
    void measurementDatesArePlausible()
    {
        for (const char* bad : {"1970-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2999-01-01T00:00:00Z"})
            QVERIFY2(!parseUtcDate(bad), bad);
        QCOMPARE(parseUtcDate("2000-01-01T00:00:00Z"), std::optional<std::int64_t>(kEarliestMeasurementDate));
        const std::int64_t now = std::time(nullptr);
        QCOMPARE(parseUtcDate(formatUtcDate(now + 3600)), std::optional<std::int64_t>(now + 3600));
        QVERIFY(!parseUtcDate(formatUtcDate(now + 2 * 86400)));
        const auto problem = measurementDateProblem(0);
        QVERIFY(problem);
        QVERIFY2(problem->find("expected a date from 2000-01-01T00:00:00Z to ") == 0
                     && problem->find(" (a day after now), found 1970-01-01T00:00:00Z") != std::string::npos,
                 problem->c_str());
    }

    // A NetPIPE run is dated by its file's modification time: 1970 (a clock never set) or the future is refused.
    void netpipeDatesArePlausible()
    {
        const QString path = m_dir.filePath("dated.out");
        for (const std::int64_t when : {std::int64_t{0}, std::int64_t{4102444800}}) { // 1970, 2100
            write(path, "1 80 0.00001\n1024 100 0.5\n");
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.setFileTime(QDateTime::fromSecsSinceEpoch(when, QTimeZone::utc()),
                                  QFileDevice::FileModificationTime));
            f.close();
            const auto r = io::readNetpipe(path.toStdString());
            QVERIFY(!r);
            QVERIFY2(r.error().toString()
                         == path.toStdString()
                             + ": the file's modification time dates the measurement, and it is not plausible: "
                             + *measurementDateProblem(when) + " (set it with touch -d YYYY-MM-DDTHH:MM:SSZ)",
                     r.error().toString().c_str());
        }
        write(path, "1 80 0.00001\n1024 100 0.5\n");
        const auto r = io::readNetpipe(path.toStdString());
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        QVERIFY(r->measuredAt >= kEarliestMeasurementDate);
    }

    // A real run: mpirun -np 4 meridian-probe --per-rank --sites (two ranks each to us-east and ireland).
    void readsARealProbeRun()
    {
        for (const char* path : {"probe/localhost", "probe/localhost.probe.json", "probe/localhost.latency.csv"}) {
            auto r = io::readProbeResults(data(path));
            QVERIFY2(r, r ? "" : r.error().message.c_str());
            QCOMPARE(r->names, (std::vector<std::string>{"us-east", "ireland"}));
            QCOMPARE(r->measuredAt, *parseUtcDate("2026-11-23T14:43:23Z"));
            QVERIFY(r->perRank);
            QCOMPARE(r->participants, 4);
            QCOMPARE(r->smallBytes, std::int64_t{1024});
            QCOMPARE(r->smallRepetitions, std::int64_t{1000});
            QCOMPARE(r->latencyMs(0, 1), 0.002649);
            QCOMPARE(r->bandwidthMBps(1, 0), 6640.75);
        }
    }

    void badOutputIsAnErrorNamingFileAndLine_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("json truncated") << ".probe.json" << QByteArray("{\n  \"format\": \"meridian-probe\",\n  \"ver")
                                        << "x.probe.json:3:";
        QTest::newRow("not a probe") << ".probe.json" << QByteArray("{\"format\": \"geojson\"}")
                                     << "expected a meridian-probe result";
        QTest::newRow("version 2") << ".probe.json" << QByteArray("{\"format\": \"meridian-probe\",\n\"version\": 2}")
                                   << "x.probe.json:2: expected \"version\": 1";
        QTest::newRow("bad date") << ".probe.json"
                                  << QByteArray("{\"format\": \"meridian-probe\", \"version\": 1,\n\n\"date\": "
                                                "\"yesterday\"}")
                                  << "x.probe.json:3: expected \"date\"";
        QTest::newRow("dated 1970")
            << ".probe.json"
            << readAll(qdata("probe/localhost.probe.json")).replace("2026-11-23T14:43:23Z", "1970-01-01T00:00:00Z")
            << "x.probe.json:4: the measurement's \"date\" is not plausible: expected a date from "
               "2000-01-01T00:00:00Z to ";
        QTest::newRow("dated 2999") << ".probe.json"
                                    << readAll(qdata("probe/localhost.probe.json"))
                                           .replace("2026-11-23T14:43:23Z", "2999-01-01T00:00:00Z")
                                    << "(a day after now), found 2999-01-01T00:00:00Z (was the clock";
        QTest::newRow("a site twice")
            << ".latency.csv" << QByteArray("site,us-east,us-east\nus-east,0,1\nus-east,1,0\n")
            << "x.latency.csv:3:1: the host or site 'us-east' is named twice (also on line 2)";
        QTest::newRow("a name not UTF-8")
            << ".latency.csv" << QByteArray("site,us-east,ir\xFFland\nus-east,0,1\nir\xFFland,1,0\n")
            << "x.latency.csv:1:16: expected a name in UTF-8, found 'ir\\xFFland'";
        QTest::newRow("no participants")
            << ".probe.json"
            << QByteArray("{\"format\": \"meridian-probe\", \"version\": 1, \"date\": \"2026-11-23T14:43:23Z\", "
                          "\"per_rank\": false, \"small_bytes\": 1024, \"small_repetitions\": 10, \"large_bytes\": "
                          "4096, \"large_repetitions\": 2, \"participants\": []}")
            << "at least two ranks";
        QTest::newRow("names differ") << ".bandwidth.csv"
                                      << QByteArray("site,us-east,dublin\nus-east,1,2\ndublin,3,4\n")
                                      << "x.bandwidth.csv:1:1: expected the same hosts or sites as";
        QTest::newRow("zero bandwidth") << ".bandwidth.csv"
                                        << QByteArray("site,us-east,ireland\nus-east,1,0\nireland,3,4\n")
                                        << "x.bandwidth.csv:2:";
        QTest::newRow("latency 1e308") << ".latency.csv"
                                       << QByteArray("site,us-east,ireland\nus-east,0,1e308\nireland,3,4\n")
                                       << "x.latency.csv:2:11: expected a latency from 0 to 600000 ms (10 minutes)";
        QTest::newRow("bandwidth 1e-320")
            << ".bandwidth.csv" << QByteArray("site,us-east,ireland\nus-east,1,1e-320\nireland,3,4\n")
            << "x.bandwidth.csv:2:11: expected a bandwidth from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s (10 Tbit/s)";
        QTest::newRow("half a pair") << ".bandwidth.csv"
                                     << QByteArray("site,us-east,ireland\nus-east,1,\nireland,3,4\n")
                                     << "has a latency or a bandwidth but not both";
        QTest::newRow("no names") << ".latency.csv" << QByteArray("1,2\n3,4\n")
                                  << "x.latency.csv:1:1: expected a header row and a first column";
        QTest::newRow("rows differ") << ".latency.csv" << QByteArray("site,us-east,ireland\nireland,1,2\nus-east,3,4\n")
                                     << "expected the header row to name the rows'";
    }

    void badOutputIsAnErrorNamingFileAndLine()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const auto r = io::readProbeResults(copyWith("x", suffix, text).toStdString());
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().toString()).contains(expected), r.error().toString().c_str());
    }

    // NetPIPE's throughput and its smallest message's time (the latency) must be in the physical ranges.
    void netpipeValuesOutsideThePhysicalRangesAreRefused()
    {
        const QString path = m_dir.filePath("np.out");
        write(path, "1 1e-320 0.001\n");
        MERIDIAN_VERIFY_ERROR(io::readNetpipe(path.toStdString()), "np.out", 1, 3,
                              "expected a throughput in Mbps from 1e-06 (1 bit/s) to 1e+07 (10 Tbit/s)");
        write(path, "1024 100 0.5\n1 80 1e306\n");
        MERIDIAN_VERIFY_ERROR(io::readNetpipe(path.toStdString()), "np.out", 2, 6,
                              "expected a latency from 0 to 600000 ms (10 minutes)");
        write(path, "1 80 0.00001\n1024 100 0.5\n");
        const auto ok = io::readNetpipe(path.toStdString());
        QVERIFY2(ok, ok ? "" : ok.error().toString().c_str());
        QCOMPARE(ok->bandwidthMBps, 13.1072); // NetPIPE's Mbps are 2^20 bit/s
    }

    // Issue 33.4: the bandwidth in MB/s of NetPIPE 3.7's own line (196,611 B in 66.98 us, 22395.04 "Mbps"), and the
    // latency from the fastest small message, not the 1-byte one that warm-up slows.
    void netpipeUnitsAndLatencyAreNetpipes()
    {
        const QString path = m_dir.filePath("np37.out");
        write(path,
              "       1 1.077866   0.00000708\n       2 4.168331   0.00000366\n       4 16.673325   0.00000183\n"
              "       8 32.591470   0.00000187\n     128 387.434548   0.00000315\n"
              "  196611 22395.040000   0.00006698\n");
        const auto np = io::readNetpipe(path.toStdString());
        QVERIFY2(np, np ? "" : np.error().toString().c_str());
        QVERIFY2(std::abs(np->bandwidthMBps - 196611 / 66.98e-6 / 1e6) < 0.01,
                 qPrintable(QString::number(np->bandwidthMBps)));
        QCOMPARE(np->latencyBytes, std::int64_t(4));
        QCOMPARE(np->latencyMs, 0.00183);
    }

    void aMissingFileIsNamed()
    {
        const QString prefix = copyWith("gone");
        QVERIFY(QFile::remove(prefix + ".bandwidth.csv"));
        const auto r = io::readProbeResults(prefix.toStdString());
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().toString()).contains("gone.bandwidth.csv"),
                 r.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestProbeResults)
#include "test_probe_results.moc"
