#include "app/project/project_file.h"
#include "core/common/utc_date.h"
#include "probe/tournament.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace meridian;

namespace {

struct Ran {
    int exitCode = -1;
    QString err;
};

Ran run(const QString& program, const QStringList& arguments)
{
    QProcess p;
    QStringList environment = QProcess::systemEnvironment();
    environment << "OMPI_MCA_plm_rsh_agent=false";
    p.setEnvironment(environment);
    p.start(program, arguments);
    if (!p.waitForFinished(180000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAllStandardError())};
}

Ran probe(int ranks, const QStringList& options)
{
    return run(QStandardPaths::findExecutable("mpirun"),
               QStringList{"--allow-run-as-root", "--oversubscribe", "-np", QString::number(ranks), MERIDIAN_PROBE}
                   + options);
}

// The rows of a probe's matrix CSV: header names, then each row's cells.
QList<QStringList> readCsv(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.isEmpty())
            rows << QString::fromUtf8(line).split(',');
    return rows;
}

// Copies the ec2-4-regions sample into dir/sub and returns its project file.
QString copySample(const QTemporaryDir& dir, const QString& sub = "project")
{
    QDir().mkpath(dir.filePath(sub));
    const QString sample = test::sampleProject("ec2-4-regions");
    for (const QString& file : QDir(QFileInfo(sample).absolutePath()).entryList(QDir::Files))
        QFile::copy(QFileInfo(sample).absolutePath() + "/" + file, dir.filePath(sub + "/" + file));
    return dir.filePath(sub + "/" + QFileInfo(sample).fileName());
}

// The date a probe wrote into its summary.
std::int64_t probeDate(const QString& json)
{
    QFile f(json);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const auto date = QJsonDocument::fromJson(f.readAll()).object().value("date").toString().toStdString();
    return parseUtcDate(date).value_or(-1);
}

} // namespace

class TestProbe : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY2(!QStandardPaths::findExecutable("mpirun").isEmpty(), "install openmpi-bin"); }

    // Every pair of n players meets exactly once, and nobody is in two pairs of one round.
    void theTournamentCoversEveryPairOnce()
    {
        for (int n = 1; n <= 70; ++n) {
            std::set<std::pair<int, int>> met;
            for (int round = 0; round < tournamentRounds(n); ++round)
                for (int p = 0; p < n; ++p) {
                    const int q = tournamentPartner(n, round, p);
                    if (q < 0)
                        continue;
                    QVERIFY(q != p && q < n);
                    QCOMPARE(tournamentPartner(n, round, q), p); // one pair per player per round
                    if (p < q)
                        QVERIFY2(met.insert({p, q}).second,
                                 qPrintable(QString("n=%1: %2-%3 twice").arg(n).arg(p).arg(q)));
                }
            QCOMPARE(met.size(), std::size_t(n * (n - 1) / 2));
        }
    }

    // Four ranks on this machine, each measured against each other: 4 x 4 finite positive matrices.
    void measuresEveryPairOfRanks()
    {
        QTemporaryDir dir;
        const Ran ran = probe(4,
                              {"--per-rank", "--out", dir.filePath("local"), "--small-reps", "200", "--large-reps",
                               "5"});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
        for (const QString quantity : {"latency", "bandwidth"}) {
            const auto rows = readCsv(dir.filePath("local." + quantity + ".csv"));
            QCOMPARE(rows.size(), 5);
            QCOMPARE(rows[0].first(), QString("host"));
            for (int i = 1; i <= 4; ++i) {
                QCOMPARE(rows[i].size(), 5);
                QCOMPARE(rows[i].first(), rows[0][i]);
                for (int j = 1; j <= 4; ++j) {
                    if (i == j) {
                        QVERIFY(rows[i][j].isEmpty());
                        continue;
                    }
                    bool ok = false;
                    const double v = rows[i][j].toDouble(&ok);
                    QVERIFY2(ok && std::isfinite(v) && v > 0, qPrintable(quantity + ": " + rows[i][j]));
                }
            }
        }
        QFile json(dir.filePath("local.probe.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonObject summary = QJsonDocument::fromJson(json.readAll()).object();
        QCOMPARE(summary.value("participants").toArray().size(), 4);
        QCOMPARE(summary.value("pairs").toArray().size(), 6);
        const QJsonObject latency = summary.value("pairs").toArray().first().toObject().value("latency_ms").toObject();
        QVERIFY(latency.value("p10").toDouble() <= latency.value("p50").toDouble());
        QVERIFY(latency.value("p50").toDouble() <= latency.value("p90").toDouble());
        QVERIFY(!summary.value("date").toString().isEmpty());
    }

    // Ranks grouped into two of a project's sites: the site matrices import into the project as measured.
    void siteMatricesImportAsMeasured()
    {
        QTemporaryDir dir;
        QFile hosts(dir.filePath("hosts.csv"));
        QVERIFY(hosts.open(QIODevice::WriteOnly));
        const QString host = QSysInfo::machineHostName();
        hosts.write(QString("host,site\n%1/0,us-east\n%1/1,us-east\n%1/2,ireland\n%1/3,ireland\n").arg(host).toUtf8());
        hosts.close();
        const Ran ran = probe(4,
                              {"--per-rank", "--sites", hosts.fileName(), "--out", dir.filePath("sites"),
                               "--small-reps", "200", "--large-reps", "5"});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
        const auto rows = readCsv(dir.filePath("sites.latency.csv"));
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0], (QStringList{"site", "us-east", "ireland"}));

        const QString project = copySample(dir);
        const Ran imported = run(MERIDIAN_CLI, {"project", "import-probe", project, dir.filePath("sites")});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        auto loaded = document::ProjectFile::load(project);
        QVERIFY(loaded);
        const int east = 0, ireland = 3;
        QCOMPARE(loaded->topology.site(ireland).name, std::string("ireland"));
        const auto date = probeDate(dir.filePath("sites.probe.json"));
        for (auto q : {model::NetworkQuantity::Latency, model::NetworkQuantity::Bandwidth})
            for (int a : {east, ireland})
                for (int b : {east, ireland}) {
                    QCOMPARE(loaded->network.provenance(q, a, b), model::Provenance::Measured);
                    QCOMPARE(loaded->network.measuredAt(q, a, b), date);
                }
        QCOMPARE(loaded->network.value(model::NetworkQuantity::Latency, east, ireland), rows[1][2].toDouble());
        QVERIFY(loaded->sources.back().find("meridian-probe") != std::string::npos);

        // Issue 33: one median. A site pair is the usual median of its host pairs (the mean of the two middle values
        // of the four here), as import-probe takes a median, not the lower middle (an optimistic latency and a
        // pessimistic bandwidth).
        QFile json(dir.filePath("sites.probe.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        std::map<QString, std::vector<double>> across; // quantity -> the p50 of each us-east/ireland host pair
        for (const auto& value : QJsonDocument::fromJson(json.readAll()).object().value("pairs").toArray()) {
            const QJsonObject pair = value.toObject();
            const bool eastA = pair["a"].toString().endsWith("/0") || pair["a"].toString().endsWith("/1");
            const bool eastB = pair["b"].toString().endsWith("/0") || pair["b"].toString().endsWith("/1");
            if (eastA == eastB)
                continue;
            for (const QString quantity : {"latency_ms", "bandwidth_MBps"})
                across[quantity].push_back(pair[quantity].toObject()["p50"].toDouble());
        }
        const auto bandwidthRows = readCsv(dir.filePath("sites.bandwidth.csv"));
        for (const auto& [quantity, cell] : {std::pair{QString("latency_ms"), rows[1][2].toDouble()},
                                             std::pair{QString("bandwidth_MBps"), bandwidthRows[1][2].toDouble()}}) {
            std::vector<double> values = across[quantity];
            QCOMPARE(values.size(), std::size_t(4));
            std::sort(values.begin(), values.end());
            const double median = (values[1] + values[2]) / 2;
            QVERIFY2(std::abs(cell - median) <= 2e-5 * median,
                     qPrintable(QString("%1: the site value %2, the median of its host pairs %3 (%4 %5 %6 %7)")
                                    .arg(quantity)
                                    .arg(cell)
                                    .arg(median)
                                    .arg(values[0])
                                    .arg(values[1])
                                    .arg(values[2])
                                    .arg(values[3])));
        }
    }

    // Without --sites the probe measures between hosts; when those are the project's hosts, the import sets
    // host links and each site pair's median. (On this one machine the probe's four participants are ranks named
    // HOST/0 to HOST/3, which no launcher takes as host names: its files are given four machines' names, as a
    // probe across four hosts writes them.)
    void hostMatricesImportAsHostLinks()
    {
        QTemporaryDir dir;
        const QString project = copySample(dir);
        QFile hosts(dir.filePath("hosts.csv"));
        QVERIFY(hosts.open(QIODevice::WriteOnly));
        hosts.write("host,site,slots\nnode0,us-east,4\nnode1,us-east,4\nnode2,ireland,4\nnode3,ireland,4\n");
        hosts.close();
        const Ran set = run(MERIDIAN_CLI, {"project", "set-hosts", project, "--hosts", hosts.fileName()});
        QVERIFY2(set.exitCode == 0, qPrintable(set.err));
        const Ran ran = probe(4,
                              {"--per-rank", "--out", dir.filePath("hosts"), "--small-reps", "200", "--large-reps",
                               "5"});
        QVERIFY2(ran.exitCode == 0, qPrintable(ran.err));
        const QString host = QSysInfo::machineHostName();
        for (const QString suffix : {".latency.csv", ".bandwidth.csv", ".probe.json"}) {
            QFile f(dir.filePath("hosts" + suffix));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray text = f.readAll();
            f.close();
            for (int k = 0; k < 4; ++k)
                text.replace(QString("%1/%2").arg(host).arg(k).toUtf8(), "node" + QByteArray::number(k));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(text);
        }
        const Ran imported = run(MERIDIAN_CLI, {"project", "import-probe", project, dir.filePath("hosts.probe.json")});
        QVERIFY2(imported.exitCode == 0, qPrintable(imported.err));
        auto loaded = document::ProjectFile::load(project);
        QVERIFY(loaded);
        QCOMPARE(loaded->network.hostLinks().size(), std::size_t(12));
        const auto date = probeDate(dir.filePath("hosts.probe.json"));
        for (const auto& [pair, link] : loaded->network.hostLinks()) {
            QCOMPARE(link.measuredAt, date);
            QVERIFY(link.latencyMs > 0 && link.bandwidthMBps > 0);
        }
        QCOMPARE(loaded->network.measuredAt(model::NetworkQuantity::Latency, 0, 3), date);
        QCOMPARE(loaded->network.measuredAt(model::NetworkQuantity::Bandwidth, 3, 3), date);
        // A probe of hosts the project does not have changes nothing and says which.
        const QByteArray before = [&] {
            QFile f(project);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        const QString original = copySample(dir, "original");
        const Ran refused = run(MERIDIAN_CLI, {"project", "import-probe", original, dir.filePath("hosts")});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("which the project has neither as a site nor as a host")
                     && refused.err.contains("'node0'"),
                 qPrintable(refused.err));
        QFile f(project);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    void tooFewParticipantsAreRefused()
    {
        QTemporaryDir dir;
        const Ran one = probe(1, {"--per-rank", "--out", dir.filePath("x")});
        QCOMPARE(one.exitCode, 2);
        QVERIFY2(one.err.contains("needs at least 2 participants, found 1"), qPrintable(one.err));
        const Ran oneHost = probe(2, {"--out", dir.filePath("x")}); // two ranks, one host: one leader
        QCOMPARE(oneHost.exitCode, 2);
        QVERIFY2(oneHost.err.contains("--per-rank"), qPrintable(oneHost.err));
        const Ran unknown = probe(2, {"--per-rank", "--sites", dir.filePath("none.csv"), "--out", dir.filePath("x")});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("cannot read"), qPrintable(unknown.err));
        const Ran noOut = probe(2, {"--per-rank"});
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY(noOut.err.contains("--out PREFIX is required"));
        // Issue 33.5: small messages larger than the large ones overran the buffer (a segmentation fault).
        const Ran swapped = probe(2,
                                  {"--per-rank", "--small-bytes", "4194304", "--large-bytes", "1024", "--out",
                                   dir.filePath("x")});
        QCOMPARE(swapped.exitCode, 2);
        QVERIFY2(swapped.err.contains("--small-bytes (4194304) must not exceed --large-bytes (1024)"),
                 qPrintable(swapped.err));
        QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestProbe)
#include "test_probe.moc"
