#include "core/io/network_io.h"
#include "core/io/sites_io.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace meridian;
using namespace meridian::model;
using meridian::test::data;

class TestNetworkIo : public QObject {
    Q_OBJECT
private:
    Topology m_topology;

private Q_SLOTS:
    void initTestCase()
    {
        auto t = io::loadTopology(data("sites.csv"));
        QVERIFY(t);
        m_topology = *t;
    }

    void readsAPlainMatrixInSiteOrder()
    {
        Network n(3);
        QVERIFY(io::readNetworkMatrix(data("latency_plain.csv"), NetworkQuantity::Latency, m_topology, n));
        QCOMPARE(n.latencyMs(0, 2), 10.0);
        QCOMPARE(n.provenance(NetworkQuantity::Latency, 0, 2), Provenance::Measured);
        QCOMPARE(n.provenance(NetworkQuantity::Latency, 1, 2), Provenance::Missing);
    }

    void matchesNamesInAnyOrder()
    {
        Network n(3);
        QVERIFY(io::readNetworkMatrix(data("latency_named.csv"), NetworkQuantity::Latency, m_topology, n));
        // Row "gamma", column "alpha" holds 10; row "beta, east", column "alpha" holds 5.
        QCOMPARE(n.latencyMs(2, 0), 10.0);
        QCOMPARE(n.latencyMs(1, 0), 5.0);
        QCOMPARE(n.latencyMs(2, 2), 0.3);
        QCOMPARE(n.provenance(NetworkQuantity::Latency, 2, 1), Provenance::Missing);
    }

    // Issue 31.10: a byte-order mark before a named header is skipped (the first column is "site", not
    // "\xEF\xBB\xBFsite"), and an error on a later line keeps its line number.
    void skipsAByteOrderMark()
    {
        QTemporaryDir dir;
        const auto withMark = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write("\xEF\xBB\xBF" + text);
            return dir.filePath(name).toStdString();
        };
        QFile named(QString::fromStdString(data("latency_named.csv")));
        QVERIFY(named.open(QIODevice::ReadOnly));
        Network n(3);
        const std::string good = withMark("named.csv", named.readAll());
        const auto read = io::readNetworkMatrix(good, NetworkQuantity::Latency, m_topology, n);
        QVERIFY2(read, read ? "" : read.error().toString().c_str());
        QCOMPARE(n.latencyMs(2, 0), 10.0);
        const std::string bad = withMark("bad.csv", "site,alpha,beta,gamma\nalpha,0.1,5,x\n");
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(bad, NetworkQuantity::Latency, m_topology, n), "bad.csv", 2, 13,
                              "'x'");
    }

    void readsASubsetByName()
    {
        Network n(3);
        QVERIFY(io::readNetworkMatrix(data("bandwidth_subset.csv"), NetworkQuantity::Bandwidth, m_topology, n));
        QCOMPARE(n.bandwidthMBps(0, 2), 20.0);
        QCOMPARE(n.bandwidthMBps(2, 2), 800.0);
        QCOMPARE(n.count(NetworkQuantity::Bandwidth, Provenance::Measured), 4);
    }

    // Finite values outside the physical ranges are refused where they stand, with the range in the message.
    void refusesValuesOutsideThePhysicalRanges()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString& name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("latency.csv", "0,1,2\n1,0,1e308\n2,1,0\n");
        write("bandwidth.csv", "100,1e-320,100\n100,100,100\n100,100,100\n");
        write("bandwidth.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 100\n2 1 2e6\n");
        Network n(3);
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(dir.filePath("latency.csv").toStdString(), NetworkQuantity::Latency,
                                                    m_topology, n),
                              "latency.csv", 2, 5, "expected a latency from 0 to 600000 ms (10 minutes), found");
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(dir.filePath("bandwidth.csv").toStdString(),
                                                    NetworkQuantity::Bandwidth, m_topology, n),
                              "bandwidth.csv", 1, 5,
                              "expected a bandwidth from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s (10 Tbit/s), found");
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(dir.filePath("bandwidth.mtx").toStdString(),
                                                    NetworkQuantity::Bandwidth, m_topology, n),
                              "bandwidth.mtx", 4, -1,
                              "expected a bandwidth from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s");
        QCOMPARE(n.count(NetworkQuantity::Bandwidth, Provenance::Measured), 0);
        // The ends of the ranges are accepted.
        write("edges.csv", "0,600000,1\n1,0,1\n1,1,0\n");
        QVERIFY(io::readNetworkMatrix(dir.filePath("edges.csv").toStdString(), NetworkQuantity::Latency, m_topology, n));
        QCOMPARE(n.latencyMs(0, 1), kMaxLatencyMs);
        // A value set in the model outside the range (as a project file could hold) fails validation, naming it.
        Network bad(2);
        bad.set(NetworkQuantity::Latency, 0, 1, 5.0, Provenance::Edited);
        QVERIFY(bad.validate(0));
        QVERIFY(!isValidNetworkValue(NetworkQuantity::Latency, 1e308));
        QVERIFY(!isValidNetworkValue(NetworkQuantity::Bandwidth, 1e-320));
        QVERIFY(!isValidNetworkValue(NetworkQuantity::Bandwidth, std::nan("")));
    }

    void readsMatrixMarketCoordinates()
    {
        Topology four = *Topology::create({meridian::test::site("a", 0, 0, 1, 1), meridian::test::site("b", 0, 1, 1, 1),
                                           meridian::test::site("c", 0, 2, 1, 1),
                                           meridian::test::site("d", 0, 3, 1, 1)});
        Network n(4);
        // mm_general.mtx lists (2,1) twice: a network entry given twice is an error.
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(data("mm_general.mtx"), NetworkQuantity::Latency, four, n),
                              "mm_general.mtx", 8, 1, "given twice");
        QCOMPARE(n.count(NetworkQuantity::Latency, Provenance::Missing), 16);
        Topology three = m_topology;
        QVERIFY(io::readNetworkMatrix(data("mm_symmetric.mtx"), NetworkQuantity::Bandwidth, three, n = Network(3)));
        QCOMPARE(n.bandwidthMBps(0, 1), 7.0);
        QCOMPARE(n.bandwidthMBps(1, 0), 7.0);
    }

    void rejectsBadInputAndLeavesTheNetworkUnchanged()
    {
        Network n(3);
        n.set(NetworkQuantity::Latency, 0, 0, 42.0);
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(data("matrix_unknown_site.csv"), NetworkQuantity::Latency,
                                                    m_topology, n),
                              "matrix_unknown_site.csv", 3, -1,
                              "the first column names a site the project does not have: 'delta'; "
                              "the project's sites not in the file: 'beta, east'");
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(data("matrix_wrong_size.csv"), NetworkQuantity::Latency, m_topology,
                                                    n),
                              "matrix_wrong_size.csv", 2, 1, "project has 3 sites");
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(data("bandwidth_zero.csv"), NetworkQuantity::Bandwidth, m_topology,
                                                    n),
                              "bandwidth_zero.csv", 2, 3, "expected a bandwidth from 1.25e-07 MB/s (1 bit/s)");
        MERIDIAN_VERIFY_ERROR(io::readNetworkMatrix(data("latency_negative.csv"), NetworkQuantity::Latency, m_topology,
                                                    n),
                              "latency_negative.csv", 2, 3, "expected a latency from 0 to 600000 ms (10 minutes)");
        QCOMPARE(n.latencyMs(0, 0), 42.0);
        QCOMPARE(n.count(NetworkQuantity::Latency, Provenance::Measured), 1);
    }

    void roundTripsThroughCsv()
    {
        Network n(3);
        QVERIFY(io::readNetworkMatrix(data("latency_named.csv"), NetworkQuantity::Latency, m_topology, n));
        QTemporaryDir dir;
        const std::string path = dir.filePath("lat.csv").toStdString();
        QVERIFY(io::writeNetworkMatrixCsv(path, NetworkQuantity::Latency, m_topology, n));
        Network back(3);
        QVERIFY(io::readNetworkMatrix(path, NetworkQuantity::Latency, m_topology, back));
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                QCOMPARE(back.provenance(NetworkQuantity::Latency, i, j), n.provenance(NetworkQuantity::Latency, i, j));
                if (n.provenance(NetworkQuantity::Latency, i, j) == Provenance::Measured)
                    QCOMPARE(back.latencyMs(i, j), n.latencyMs(i, j));
            }
    }
};

QTEST_GUILESS_MAIN(TestNetworkIo)
#include "test_network_io.moc"
