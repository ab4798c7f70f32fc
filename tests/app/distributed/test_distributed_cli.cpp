#include "cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

/// `mpirun -np N meridian-cli ...` gives, for N = 1, 2 and 3, what one process without a launcher gives: the Monte
/// Carlo mapper's placement, its kept costs and best-so-far curve, and compare's table. Commands that would run
/// whole on every rank are refused, with one message.
class TestDistributedCli : public QObject {
    Q_OBJECT

private:
    QString m_project = QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/ec2-4-regions/ec2-4-regions.meridian";

    /// Runs meridian-cli under Open MPI's mpirun with `ranks` processes on this machine.
    static meridian::test::CliRun mpirun(int ranks, const QStringList& args)
    {
        QProcess p;
        QStringList env = QProcess::systemEnvironment();
        env << "OMPI_MCA_plm_rsh_agent=false"; // never ssh: every rank runs here
        // Open MPI's finalize leaves its plugins' allocations behind (its own test programs are not instrumented
        // for that reason); a sanitizer build still checks every access meridian-cli makes.
        for (QString& e : env)
            if (e.startsWith("ASAN_OPTIONS="))
                e += ":detect_leaks=0";
        p.setEnvironment(env);
        p.start(MERIDIAN_MPIRUN,
                QStringList{"--allow-run-as-root", "--oversubscribe", "-np", QString::number(ranks), MERIDIAN_CLI}
                    + args);
        p.waitForFinished(300000);
        return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError(), 0.0};
    }

    /// The JSON without what differs from run to run (the runtime) or names the output file.
    static QJsonObject comparable(QJsonObject o)
    {
        o.remove("runtime_s");
        o.remove("written");
        return o;
    }

private Q_SLOTS:
    void monteCarloIsTheSameOnAnyNumberOfRanks()
    {
        QTemporaryDir dir;
        // 30 chunks of 4096 samples: three ranks take 10 each; the kept costs span the first two ranks' shares.
        const QStringList args{"map",     "--project",      m_project, "--algorithm", "monte-carlo",
                               "--param", "samples=122000", "--param", "keep=50000",  "--seed",
                               "7"};
        const auto alone = meridian::test::cli(args + QStringList{"--out", dir.filePath("alone.csv")});
        QVERIFY2(alone.code == 0, alone.err.constData());
        const QJsonObject expected = comparable(alone.json());
        QVERIFY(expected["samples"].toObject()["kept"].toInt() == 50000);
        QVERIFY(expected["best_curve"].toArray().size() > 5);
        for (int ranks : {1, 2, 3}) {
            const QString out = dir.filePath(QString("ranks%1.csv").arg(ranks));
            const auto run = mpirun(ranks, args + QStringList{"--out", out});
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(comparable(run.json()), expected);
            QCOMPARE(meridian::test::readAll(out), meridian::test::readAll(dir.filePath("alone.csv")));
        }
    }

    void compareIsTheSameOnAnyNumberOfRanks()
    {
        // 4 mappers x 5 seeds = 20 runs: blocks of 20, 10 and 7 runs.
        const QStringList args{"compare",
                               "--project",
                               m_project,
                               "--algorithms",
                               "random,geo,greedy,monte-carlo",
                               "--param",
                               "monte-carlo:samples=3000",
                               "--seeds",
                               "5",
                               "--format",
                               "csv"};
        // The runtimes (last column) are each run's own.
        const auto table = [](const QByteArray& csv) {
            return QString::fromUtf8(csv).replace(QRegularExpression(",[^,\n]*\n"), "\n");
        };
        const auto alone = meridian::test::cli(args);
        QVERIFY2(alone.code == 0, alone.err.constData());
        QVERIFY(table(alone.out).count('\n') == 5);
        for (int ranks : {1, 2, 3}) {
            const auto run = mpirun(ranks, args);
            QVERIFY2(run.code == 0, run.err.constData());
            QCOMPARE(table(run.out), table(alone.out));
        }
    }

    void aCommandThatRunsWholeIsRefusedOnce()
    {
        for (const QStringList& args :
             {QStringList{"info", m_project}, QStringList{"map", "--project", m_project, "--algorithm", "geo"}}) {
            const auto run = mpirun(2, args);
            QCOMPARE(run.code, 2);
            QVERIFY(run.out.isEmpty());
            QCOMPARE(QString::fromUtf8(run.err).count("runs whole in one process"), 1);
        }
        // One rank is one process: nothing to refuse.
        const auto one = mpirun(1, {"info", m_project});
        QVERIFY2(one.code == 0, one.err.constData());
        QVERIFY(one.json().contains("sites"));
    }
};

QTEST_GUILESS_MAIN(TestDistributedCli)
#include "test_distributed_cli.moc"
