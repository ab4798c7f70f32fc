// meridian-cli simulate: the JSON it prints, the inputs it refuses, and the platform it exports, run by SimGrid's
// own smpirun with a real MPI program compiled by smpicc.
#include "cli_run.h"
#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using meridian::test::cli;
using meridian::test::writeFile;

namespace {

/// Two sites with measured links: a -> b 10 ms and 100 MB/s, intra-site 0.5 ms and 1000 MB/s; two processes.
struct RawInputs {
    QStringList args;

    explicit RawInputs(const QTemporaryDir& dir)
    {
        const QString sites = writeFile(dir, "sites.csv", "name,lat,lon,nodes,slots\na,0,0,2,1\nb,10,10,2,1\n");
        const QString lat = writeFile(dir, "lat.csv", ",a,b\na,0.5,10\nb,10,0.5\n");
        const QString bw = writeFile(dir, "bw.csv", ",a,b\na,1000,100\nb,100,1000\n");
        const QString vol = writeFile(dir, "vol.csv", "0,100000000\n0,0\n");
        const QString msg = writeFile(dir, "msg.csv", "0,4\n0,0\n");
        args = {"--sites", sites, "--latency", lat, "--bandwidth", bw, "--volume", vol, "--messages", msg};
    }
};

} // namespace

class TestSimulateCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void simulatesAMappingOfTheSampleProject()
    {
        QTemporaryDir dir;
        const QString project = meridian::test::sampleProject("ec2-4-regions");
        const QString mapping = dir.filePath("lu.csv");
        QCOMPARE(cli({"map", "--project", project, "--application", "LU", "--algorithm", "geo", "--out", mapping}).code,
                 0);
        const auto run = cli({"simulate", "--project", project, "--application", "LU", "--mapping", mapping});
        QVERIFY2(run.code == 0, run.err.constData());
        const QJsonObject out = run.json();
        QVERIFY(out["time_s"].toDouble() > 0.0);
        QVERIFY(out["alpha_beta_s"].toDouble() > 0.0);
        QCOMPARE(out["messages"].toDouble(), 112000.0);
        QCOMPARE(out["model"].toObject()["simulator"].toString(), QString("SimGrid 3.32"));
        const QJsonArray bottlenecks = out["bottlenecks"].toArray();
        QVERIFY(!bottlenecks.isEmpty());
        // Links come most utilised first; every WAN link says whether its entry was estimated.
        const QJsonArray links = out["links"].toArray();
        QCOMPARE(links.first().toObject()["id"].toString(), bottlenecks.first().toString());
        double previous = 2.0;
        for (const auto& value : links) {
            const QJsonObject link = value.toObject();
            if (!link["shared"].toBool())
                continue;
            QVERIFY(link["utilisation"].toDouble() <= previous);
            previous = link["utilisation"].toDouble();
            QVERIFY(link["busy_fraction"].toDouble() >= 0.0 && link["busy_fraction"].toDouble() <= 1.0 + 1e-9);
            if (link["kind"].toString() == "site-pair")
                QVERIFY(link.contains("estimated"));
        }
        QVERIFY(out["network"].toObject().contains("latency_entries"));
    }

    void replaysACapturesPhasesInOrder()
    {
        // Phase 0: process 0 (in a) sends 10^8 B to 1 (in b) in one message; phase 2: 1 sends 5 x 10^7 B back, no
        // message counts (one message). Each phase alone on its route, one after the other.
        QTemporaryDir dir;
        const RawInputs raw(dir);
        const QByteArray header = "%%MatrixMarket matrix coordinate real general\n2 2 1\n";
        writeFile(dir, "cap.phase0.volume.mtx", header + "1 2 100000000\n");
        writeFile(dir, "cap.phase0.messages.mtx", header + "1 2 1\n");
        writeFile(dir, "cap.phase2.volume.mtx", header + "2 1 50000000\n");
        const QString mapping = writeFile(dir, "map.csv", "0,a,a-00,0\n1,b,b-00,0\n");
        const auto run = cli(QStringList{"simulate"} + raw.args
                             + QStringList{"--mapping", mapping, "--phases", dir.filePath("cap")});
        QVERIFY2(run.code == 0, run.err.constData());
        const QJsonObject out = run.json();
        const QJsonArray phases = out["phases"].toArray();
        QCOMPARE(phases.size(), 2);
        QCOMPARE(phases[0].toObject()["phase"].toInt(), 0);
        QCOMPARE(phases[1].toObject()["phase"].toInt(), 2);
        QVERIFY(std::abs(phases[0].toObject()["time_s"].toDouble() - (0.010 + 1e8 / 100e6)) < 1e-9);
        QVERIFY(std::abs(phases[1].toObject()["time_s"].toDouble() - (0.010 + 5e7 / 100e6)) < 1e-9);
        QVERIFY(std::abs(out["time_s"].toDouble() - (0.020 + 1.5e8 / 100e6)) < 1e-9);
        QVERIFY(std::abs(phases[0].toObject()["alpha_beta_s"].toDouble() - 1.01) < 1e-9);
        QCOMPARE(phases[1].toObject()["bytes"].toDouble(), 5e7);
        // No phase files, or a phase of other processes: refused, naming what is wrong.
        auto refused = cli(QStringList{"simulate"} + raw.args
                           + QStringList{"--mapping", mapping, "--phases", dir.filePath("none")});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("none.phaseN.volume.mtx"), refused.err.constData());
        writeFile(dir, "cap.phase5.volume.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 3 5\n");
        refused = cli(QStringList{"simulate"} + raw.args
                      + QStringList{"--mapping", mapping, "--phases", dir.filePath("cap")});
        QVERIFY(refused.code != 0);
        QVERIFY2(refused.err.contains("phase 5 has 3 processes") && refused.err.contains("cap.phase5.volume.mtx"),
                 refused.err.constData());
    }

    // Issue 31: phase01 was read as a second phase 1, and phase99999999999 as phase 0.
    void refusesPhaseNumbersTheCaptureDoesNotWrite()
    {
        QTemporaryDir dir;
        const RawInputs raw(dir);
        const QByteArray matrix = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 100\n";
        writeFile(dir, "cap.phase1.volume.mtx", matrix);
        writeFile(dir, "cap.phase01.volume.mtx", matrix);
        const QString mapping = writeFile(dir, "map.csv", "0,a,a-00,0\n1,b,b-00,0\n");
        const QStringList args = QStringList{"simulate"} + raw.args
            + QStringList{"--mapping", mapping, "--phases", dir.filePath("cap")};
        auto refused = cli(args);
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains(dir.filePath("cap.phase01.volume.mtx").toUtf8()
                                      + ": simulate --phases: the phase number '01' is not one the capture writes: "
                                        "expected cap.phase1.volume.mtx (no leading zero or sign, and that file is "
                                        "there too: both would be phase 1)"),
                 refused.err.constData());
        QVERIFY(QFile::remove(dir.filePath("cap.phase01.volume.mtx")));
        writeFile(dir, "cap.phase99999999999.volume.mtx", matrix);
        refused = cli(args);
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains(dir.filePath("cap.phase99999999999.volume.mtx").toUtf8()
                                      + ": simulate --phases: the phase number '99999999999' is not one the capture "
                                        "writes: expected a whole number from -2147483648 to 2147483647"),
                 refused.err.constData());
        QVERIFY(QFile::remove(dir.filePath("cap.phase99999999999.volume.mtx")));
        const auto run = cli(args);
        QVERIFY2(run.code == 0, run.err.constData());
        QCOMPARE(run.json()["phases"].toArray().size(), 1);
    }

    void refusesWhatDoesNotFit()
    {
        QTemporaryDir dir;
        const RawInputs raw(dir);
        // Three processes for a two-process application; then two processes in the one slot of a host.
        const QString tooMany = writeFile(dir, "m1.csv", "0,a\n1,a\n2,b\n");
        auto run = cli(QStringList{"simulate"} + raw.args + QStringList{"--mapping", tooMany});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("m1.csv"), run.err.constData());
        const QString overfull = writeFile(dir, "m2.csv", "0,a,a-00,0\n1,a,a-00,0\n");
        run = cli(QStringList{"simulate"} + raw.args + QStringList{"--mapping", overfull});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("does not fit the project"), run.err.constData());
        run = cli(QStringList{"simulate"} + raw.args + QStringList{"--mapping", overfull, "--iterations", "0"});
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("--iterations"), run.err.constData());
        run = cli(QStringList{"simulate"} + raw.args);
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains("--mapping is required"), run.err.constData());
    }

    void smpirunRunsAnMpiProgramOnTheExportedPlatform()
    {
        QTemporaryDir dir;
        const RawInputs raw(dir);
        const QString mapping = writeFile(dir, "map.csv", "0,a,a-00,0\n1,b,b-00,0\n");
        const QString platform = dir.filePath("platform.xml");
        const auto run = cli(QStringList{"simulate"} + raw.args
                             + QStringList{"--mapping", mapping, "--export-platform", platform});
        QVERIFY2(run.code == 0, run.err.constData());
        // Four messages of 25 MB one after the other: 4 x 10 ms + 1e8 B / 100 MB/s.
        QVERIFY(std::abs(run.json()["time_s"].toDouble() - 1.04) < 1e-9);

        QProcess compile;
        compile.start("smpicc",
                      {"-o", dir.filePath("transfer"), QString(MERIDIAN_SOURCE_DIR) + "/tests/mpi/smpi_transfer.c"});
        QVERIFY(compile.waitForFinished(120000));
        QVERIFY2(compile.exitCode() == 0, compile.readAllStandardError().constData());
        const QString hosts = writeFile(dir, "hosts", "a-00\nb-00\n");
        QProcess smpirun;
        smpirun.start("smpirun",
                      {"-np", "2", "-platform", platform, "-hostfile", hosts, "--cfg=smpi/host-speed:1Gf",
                       "--cfg=network/model:CM02", "--cfg=network/crosstraffic:0", "--cfg=network/TCP-gamma:0",
                       // The program only communicates: without this, SMPI adds the CPU time it measures between
                       // MPI calls, which a loaded machine stretches.
                       "--cfg=smpi/simulate-computation:no", "--log=root.thresh:warning", dir.filePath("transfer"),
                       "25000000"});
        QVERIFY(smpirun.waitForFinished(120000));
        const QString out = smpirun.readAllStandardOutput();
        QVERIFY2(smpirun.exitCode() == 0, qPrintable(out + smpirun.readAllStandardError()));
        const auto match = QRegularExpression("received 25000000 bytes in ([0-9.]+) s").match(out);
        QVERIFY2(match.hasMatch(), qPrintable(out));
        // One 25 MB message under SMPI: the route's 10 ms + 0.25 s, up to SMPI's own per-message overheads.
        const double seconds = match.captured(1).toDouble();
        QVERIFY2(std::abs(seconds - 0.26) < 1e-4, qPrintable(out));
    }

    void exportsThePlatformAlone()
    {
        QTemporaryDir dir;
        const QString platform = dir.filePath("p.xml");
        const auto run = cli(
            {"simulate", "--project", meridian::test::sampleProject("azure-3-regions"), "--export-platform", platform});
        QVERIFY2(run.code == 0, run.err.constData());
        const QByteArray xml = meridian::test::readAll(platform);
        QVERIFY(xml.startsWith("<?xml"));
        QVERIFY(xml.contains("<zoneRoute"));
        QCOMPARE(run.json()["summary"].toObject()["hosts"].toInt(), xml.count("<host "));
    }
};

QTEST_GUILESS_MAIN(TestSimulateCli)
#include "test_simulate_cli.moc"
