// meridian-cli collective: the JSON it prints for a sample project's mapping, the inputs it refuses, and the rules
// file it writes, applied by a real MPI_Bcast under mpirun on this machine.
#include "cli_run.h"
#include "test_support.h"

#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using meridian::test::cli;
using meridian::test::writeFile;

namespace {

/// One site of four one-slot nodes (0.05 ms, 1000 MB/s inside), processes 0..3 on them: this machine's mpirun -np 4.
QStringList fourLocal(const QTemporaryDir& dir)
{
    return {"--sites",     writeFile(dir, "sites.csv", "name,lat,lon,nodes,slots\nhere,0,0,4,1\n"),
            "--latency",   writeFile(dir, "lat.csv", "0.05\n"),
            "--bandwidth", writeFile(dir, "bw.csv", "1000\n"),
            "--mapping",   writeFile(dir, "map.csv", "0,here\n1,here\n2,here\n3,here\n")};
}

struct Launch {
    int exitCode = -1;
    QString output;
};

Launch broadcast(const QString& rules, long bytes)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QStringList env = QProcess::systemEnvironment();
    env << "OMPI_MCA_plm_rsh_agent=false";
    p.setEnvironment(env);
    p.start(QStandardPaths::findExecutable("mpirun"),
            {"--allow-run-as-root", "--oversubscribe", "-np", "4", "--mca", "coll_tuned_use_dynamic_rules", "1",
             "--mca", "coll_tuned_dynamic_rules_filename", rules, MERIDIAN_BCAST_CHECK, QString::number(bytes)});
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromLocal8Bit(p.readAll())};
}

} // namespace

class TestCollectiveCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The sample project's LU placed by geo: every broadcast algorithm ranked, fastest first, with its chunks and
    // bytes; the topology-aware chain crosses the wide area once per site, the rank-order chain far more often.
    void ranksTheBroadcastsOfASampleProjectMapping()
    {
        QTemporaryDir dir;
        const QString project = meridian::test::sampleProject("azure-3-regions");
        const QString mapping = dir.filePath("lu.csv");
        QCOMPARE(cli({"map", "--project", project, "--application", "LU", "--algorithm", "geo", "--out", mapping}).code,
                 0);
        const auto run = cli({"collective", "--project", project, "--application", "LU", "--mapping", mapping, "--op",
                              "broadcast", "--bytes", "64MiB"});
        QVERIFY2(run.code == 0, run.err.constData());
        const QJsonObject out = run.json();
        QCOMPARE(out["processes"].toInt(), 48);
        const QJsonArray results = out["results"].toArray();
        QCOMPARE(results.size(), 6);
        double previous = 0.0;
        QJsonObject chain, aware;
        for (const auto& v : results) {
            const QJsonObject r = v.toObject();
            QVERIFY(r["time_s"].toDouble() >= previous);
            previous = r["time_s"].toDouble();
            QCOMPARE(r["bytes"].toDouble(), 67108864.0);
            if (r["algorithm"] == "chain")
                chain = r;
            if (r["algorithm"] == "topology-chain")
                aware = r;
        }
        QVERIFY(aware["chunks"].toInt() > 1);
        QCOMPARE(aware["cross_site_bytes"].toDouble(), 2 * 67108864.0);
        QVERIFY(chain["cross_site_bytes"].toDouble() > 4 * 67108864.0);
        QVERIFY(aware["time_s"].toDouble() < chain["time_s"].toDouble());

        // SimGrid's time for the same schedules (max-min sharing) within a percent of the network model's.
        const auto simulated = cli({"collective", "--project", project, "--mapping", mapping, "--op", "broadcast",
                                    "--bytes", "64MiB", "--algorithms", "mst,topology-chain", "--simulate"});
        QVERIFY2(simulated.code == 0, simulated.err.constData());
        for (const auto& v : simulated.json()["results"].toArray()) {
            const QJsonObject r = v.toObject();
            QVERIFY(std::abs(r["simulated_s"].toDouble() - r["time_s"].toDouble()) < 0.01 * r["time_s"].toDouble());
        }

        const auto csv = cli({"collective", "--project", project, "--mapping", mapping, "--op", "allreduce",
                              "--sweep-bytes", "1KiB:1MiB", "--format", "csv"});
        QVERIFY2(csv.code == 0, csv.err.constData());
        const QStringList lines = QString::fromUtf8(csv.out).trimmed().split('\n');
        QCOMPARE(lines.front(), QString("bytes,algorithm,time_s,chunks,bytes_sent,cross_site_bytes"));
        QCOMPARE(lines.size(), 1 + 11 * 6); // 11 sizes, 6 allreduce algorithms
    }

    void refusesBadInput()
    {
        QTemporaryDir dir;
        const QStringList base = fourLocal(dir);
        const auto error = [&](const QStringList& extra) {
            const auto r = cli(QStringList{"collective"} + base + extra);
            return r.code == 2 ? QString::fromUtf8(r.err) : QString("exit %1").arg(r.code);
        };
        QVERIFY(error({"--op", "broadcast", "--bytes", "0"}).contains("must be a positive number of bytes"));
        QVERIFY(error({"--op", "broadcast", "--bytes", "-3"}).contains("needs a whole number of bytes"));
        // Sizes above the stated limit of 1 TiB per message are refused as the user wrote them, never wrapped.
        const QString limit = "is above the largest message Meridian plans, 1 TiB (1099511627776 bytes)";
        QCOMPARE(error({"--op", "broadcast", "--bytes", "999999999999999TiB"}).trimmed(),
                 "meridian-cli: error: --bytes '999999999999999TiB' " + limit);
        QVERIFY(error({"--op", "broadcast", "--bytes", "2TB"}).contains("--bytes '2TB' " + limit));
        QVERIFY(error({"--op", "broadcast", "--bytes", "123456789012345678901234567890"})
                    .contains("--bytes '123456789012345678901234567890' " + limit));
        QVERIFY(error({"--op", "broadcast", "--sweep-bytes", "1KiB:999999999999999TiB"})
                    .contains("--sweep-bytes MAX '999999999999999TiB' " + limit));
        QVERIFY(!error({"--op", "broadcast", "--sweep-bytes", "1KiB:999999999999999TiB"}).contains("-922337"));
        QVERIFY(error({"--op", "shuffle", "--bytes", "1MB", "--reduced-bytes", "9999999999999999999GiB"})
                    .contains("--reduced-bytes '9999999999999999999GiB' " + limit));
        QVERIFY(error({"--op", "broadcast", "--bytes", "1MB", "--root", "4"})
                    .contains("the root 4 is not in the communicator: its ranks are 0 to 3"));
        QVERIFY(error({"--op", "broadcast", "--bytes", "10", "--chunks", "11", "--algorithms", "chain"})
                    .contains("11 chunks of a 10-byte message"));
        QVERIFY(error({"--op", "alltoall", "--bytes", "1MB", "--algorithms", "ring"})
                    .contains("ring does not implement alltoall; these do: flat, hypercube, hierarchical"));
        QVERIFY(error({"--op", "gossip", "--bytes", "1MB"}).contains("unknown operation 'gossip'"));
        QVERIFY(error({"--op", "allreduce", "--bytes", "1MB", "--model", "twister"}).contains("broadcast only"));
        QVERIFY(error({"--op", "broadcast", "--bytes", "1MB", "--map-tasks", "3"}).contains("are for --op shuffle"));
        QVERIFY(error({"--op", "shuffle", "--bytes", "1MB", "--rules-out", dir.filePath("r.conf")})
                    .contains("coll_tuned has no shuffle"));
        QVERIFY(!QFile::exists(dir.filePath("r.conf")));
    }

    // The rules the CLI writes for 4 local processes are ones mpirun applies: the file broadcasts correctly at
    // every size, and the same file with its last rule's algorithm replaced by 99 makes MPI_Bcast fail above that
    // rule's size (MPI_ERR_ARG), which Open MPI can only do if it read the file.
    void mpirunAppliesTheRulesItWrites()
    {
        QVERIFY2(!QStandardPaths::findExecutable("mpirun").isEmpty(),
                 "mpirun not found: install openmpi-bin (scripts/dev does)");
        QTemporaryDir dir;
        const QString rules = dir.filePath("bcast.rules");
        const auto run = cli(QStringList{"collective"} + fourLocal(dir)
                             + QStringList{"--op", "broadcast", "--sweep-bytes", "1KiB:16MiB", "--rules-out", rules});
        QVERIFY2(run.code == 0, run.err.constData());
        QCOMPARE(run.json()["rules"].toObject()["communicator_size"].toInt(), 4);
        QFile f(rules);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split('\n');
        QCOMPARE(lines.mid(0, 3), (QStringList{"1", "7", "1"})); // one collective, bcast (7), one communicator
        QCOMPARE(lines[3], QString("4"));                        // communicator size
        const QStringList last = lines.back().split(' ');
        QCOMPARE(last.size(), 4);
        const long from = last[0].toLong();
        for (long bytes : {1000L, 1L << 20, 16L << 20}) {
            const Launch ok = broadcast(rules, bytes);
            QVERIFY2(ok.exitCode == 0 && ok.output.contains(QString("bcast ok %1 bytes on 4 ranks").arg(bytes)),
                     qPrintable(ok.output));
        }
        lines.back() = QString("%1 99 0 0").arg(from);
        const QString probe = writeFile(dir, "probe.rules", lines.join('\n').toUtf8() + "\n");
        const Launch refused = broadcast(probe, std::max(from, 1L << 10) + 1);
        QVERIFY2(refused.exitCode != 0 && refused.output.contains("bcast error"), qPrintable(refused.output));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveCli)
#include "test_collective_cli.moc"
