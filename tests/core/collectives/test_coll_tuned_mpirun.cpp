#include "core/collectives/coll_tuned_rules.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace meridian;
using namespace meridian::collectives;

namespace {

struct Launch {
    int exitCode = -1;
    QString output; // stdout and stderr
};

/// Runs bcast_check on 4 ranks of this machine with a coll_tuned dynamic rules file.
Launch broadcast(const QString& rules, long bytes)
{
    const QString mpirun = QStandardPaths::findExecutable("mpirun");
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QStringList env = QProcess::systemEnvironment();
    env << "OMPI_MCA_plm_rsh_agent=false"; // never try ssh: every rank runs here
    p.setEnvironment(env);
    p.start(mpirun,
            {"--allow-run-as-root", "--oversubscribe", "-np", "4", "--mca", "coll_tuned_use_dynamic_rules", "1",
             "--mca", "coll_tuned_dynamic_rules_filename", rules, MERIDIAN_BCAST_CHECK, QString::number(bytes)});
    Launch l;
    if (!p.waitForFinished(120000))
        return l;
    l.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    l.output = QString::fromLocal8Bit(p.readAll());
    return l;
}

bool write(const QString& path, const std::string& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly)
        && f.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size());
}

} // namespace

/// A rules file Meridian writes is one Open MPI reads and applies. Open MPI ignores a file it cannot parse without
/// a word, so the proof is a probe: the same file with one algorithm id that does not exist makes MPI_Bcast fail
/// (MPI_ERR_ARG), which it can only do if it read the file; the file as written then broadcasts correctly.
class TestCollTunedMpirun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void openMpiAppliesTheWrittenRules()
    {
        QVERIFY2(!QStandardPaths::findExecutable("mpirun").isEmpty(),
                 "mpirun not found: install openmpi-bin (scripts/dev does)");
        // bcast on 4 ranks: binomial (6) below 64 KiB, pipeline (3) in 64 KiB segments from 64 KiB on.
        const auto text = collTunedRulesText({{TunedOperation::Bcast, {{4, {{0, 6, 0, 0}, {65536, 3, 0, 65536}}}}}});
        QVERIFY(text);
        QTemporaryDir dir;
        const QString rules = dir.filePath("rules.conf");
        QVERIFY(write(rules, *text));

        // The probe: the large-message rule names algorithm 99.
        std::string probeText = *text;
        const auto at = probeText.find("65536 3 0 65536");
        QVERIFY(at != std::string::npos);
        probeText.replace(at, 15, "65536 99 0 65536");
        const QString probe = dir.filePath("probe.conf");
        QVERIFY(write(probe, probeText));
        const Launch refused = broadcast(probe, 1 << 20);
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.output));
        QVERIFY2(refused.output.contains("bcast error"), qPrintable(refused.output));
        // Below 64 KiB the probe's first rule (binomial) applies and the broadcast works.
        const Launch small = broadcast(probe, 1000);
        QVERIFY2(small.exitCode == 0 && small.output.contains("bcast ok 1000 bytes on 4 ranks"),
                 qPrintable(small.output));

        for (long bytes : {1000L, 1L << 20}) {
            const Launch ok = broadcast(rules, bytes);
            QVERIFY2(ok.exitCode == 0, qPrintable(ok.output));
            QVERIFY2(ok.output.contains(QString("bcast ok %1 bytes on 4 ranks").arg(bytes)), qPrintable(ok.output));
        }
    }
};

QTEST_GUILESS_MAIN(TestCollTunedMpirun)
#include "test_coll_tuned_mpirun.moc"
