// meridian-cli partition and update against the workbench's partition runs and what-ifs (ops::runPartition and
// ops::runBatchUpdate, which RunController submits): the same partition and the same measures, to the last digit, on
// the sample project's graph.
#include "app/partitioning/partition_operation.h"
#include "app/project/project_file.h"
#include "cli_run.h"
#include "core/io/edge_partition_io.h"
#include "core/partition/builtin_partitioners.h"
#include "test_support.h"

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace meridian;
using meridian::test::cli;
using meridian::test::readAll;
using meridian::test::writeFile;

namespace {

const char* kSample = "geo-cut-ec2-8-regions";

QString sampleFile(const QString& name) { return QFileInfo(test::sampleProject(kSample)).dir().filePath(name); }

/// The measures meridian-cli prints beside the run's metrics of the same names.
const std::pair<const char*, const char*> kMeasures[] = {{"transfer_time_s", "transfer_time_s"},
                                                         {"gather_time_s", "gather_time_s"},
                                                         {"apply_time_s", "apply_time_s"},
                                                         {"wan_cost_usd", "wan_usd"},
                                                         {"wan_bytes", "wan_bytes"},
                                                         {"replication_factor", "replication_factor"}};

} // namespace

class TestPartitionCli : public QObject {
    Q_OBJECT
    Registry<partition::Partitioner> m_registry;
    std::shared_ptr<const document::Project> m_project;

    /// The edge partition file of a run's partition, as the workbench's graph holds it.
    QByteArray partitionText(const document::Run& run, const QString& path)
    {
        auto loaded = ops::loadRunGraph(*m_project, run, Feedback());
        if (!loaded)
            qFatal("%s", loaded.error().toString().c_str());
        if (!io::writeFilesTogether(
                {io::edgePartitionFile(path.toStdString(), loaded->graph, *run.partition, m_project->topology)}))
            qFatal("cannot write %s", qPrintable(path));
        return readAll(path);
    }

    static bool sameMeasures(const QJsonObject& printed, const document::Run& run, QString& why)
    {
        for (const auto& [printedName, metric] : kMeasures) {
            const double a = printed[printedName].toDouble();
            const double b = run.metric(metric).value_or(-1.0);
            if (a != b) {
                why = QString("%1: %2 against %3").arg(printedName).arg(a, 0, 'g', 17).arg(b, 0, 'g', 17);
                return false;
            }
        }
        return true;
    }

    ops::PartitionRequest request(const std::string& algorithm) const
    {
        ops::PartitionRequest r;
        r.project = m_project;
        r.graph = "wiki-vote";
        r.algorithm = algorithm;
        r.params = ParamValues::defaults(m_registry.find(algorithm)->parameters());
        r.seed = 1;
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        partition::registerBuiltinPartitioners(m_registry);
        auto loaded = document::ProjectFile::load(test::sampleProject(kSample));
        QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
        m_project = std::make_shared<const document::Project>(std::move(*loaded));
    }

    /// Every partitioner: the in-memory path, and for HDRF and hash the CLI's streaming one.
    void workbenchAndCliAgreeOnThePartition_data()
    {
        QTest::addColumn<QString>("algorithm");
        for (const auto& id : m_registry.ids())
            QTest::newRow(id.c_str()) << QString::fromStdString(id);
    }

    void workbenchAndCliAgreeOnThePartition()
    {
        QFETCH(QString, algorithm);
        QTemporaryDir dir;
        auto run = ops::runPartition(request(algorithm.toStdString()), m_registry, Feedback());
        QVERIFY2(run, run ? "" : run.error().toString().c_str());
        const auto printed = cli({"partition", "--project", test::sampleProject(kSample), "--graph",
                                  sampleFile("wiki-vote.txt"), "--homes", sampleFile("wiki-vote.homes.tsv"),
                                  "--algorithm", algorithm, "--seed", "1", "--no-cache", "--out",
                                  dir.filePath("cli.edges")},
                                 300000);
        QVERIFY2(printed.code == 0, printed.err.constData());
        QString why;
        QVERIFY2(sameMeasures(printed.json(), *run, why), qPrintable(why));
        QVERIFY2(readAll(dir.filePath("cli.edges")) == partitionText(*run, dir.filePath("workbench.edges")),
                 "the partitions differ");
    }

    void workbenchAndCliAgreeOnAnUpdate()
    {
        QTemporaryDir dir;
        auto base = ops::runPartition(request("geo-cut"), m_registry, Feedback());
        QVERIFY2(base, base ? "" : base.error().toString().c_str());
        // The CLI's partition is the workbench's, with its masters.
        const QString edges = dir.filePath("base.edges");
        const QString masters = dir.filePath("base.masters");
        {
            auto loaded = ops::loadRunGraph(*m_project, *base, Feedback());
            QVERIFY(loaded);
            QVERIFY(io::writeFilesTogether(
                {io::edgePartitionFile(edges.toStdString(), loaded->graph, *base->partition, m_project->topology),
                 io::mastersFile(masters.toStdString(), loaded->graph, *base->partition, m_project->topology)}));
        }
        // Deletes three edges the graph has; inserts edges between known vertices and to two new ones.
        const QString deletions = writeFile(dir, "delete.txt", "30\t1412\n30\t3352\n3\t28\n");
        const QString insertions = writeFile(dir, "insert.txt", "30\t28\n4\t25\n900001\t30\n900002\t900001\n");
        auto documentBase = std::make_shared<const document::Run>(*base);
        ops::BatchRequest batch{m_project, documentBase, insertions.toStdString(), deletions.toStdString(), 0.1, 0};
        auto updated = ops::runBatchUpdate(batch, Feedback());
        QVERIFY2(updated, updated ? "" : updated.error().toString().c_str());
        const auto printed = cli({"update", "--project", test::sampleProject(kSample), "--partition", edges,
                                  "--masters", masters, "--insert", insertions, "--delete", deletions, "--threshold",
                                  "0.1", "--seed", "1", "--out", dir.filePath("cli.edges")},
                                 300000);
        QVERIFY2(printed.code == 0, printed.err.constData());
        QCOMPARE(printed.json()["inserted"].toDouble(), 4.0);
        QCOMPARE(printed.json()["deleted"].toDouble(), 3.0);
        QString why;
        QVERIFY2(sameMeasures(printed.json(), *updated, why), qPrintable(why));
        QVERIFY2(readAll(dir.filePath("cli.edges")) == partitionText(*updated, dir.filePath("workbench.edges")),
                 "the updated partitions differ");
    }

    /// budget-sweep's points are the workbench's partition runs at the same budgets (the runs its sweep button lands),
    /// B is GrapH's cost as the workbench computes it, and a fraction below the cost bound is skipped, not run.
    void budgetSweepPointsAreTheWorkbenchsRuns()
    {
        const auto printed = cli({"budget-sweep", "--project", test::sampleProject(kSample), "--algorithms",
                                  "geo-cut,hdrf", "--fractions", "1,0.7,0.05", "--param", "geo-cut:effort=0.1"},
                                 300000);
        QVERIFY2(printed.code == 0, printed.err.constData());
        const QJsonObject swept = printed.json();
        const auto graphH = ops::graphHCost(request("graph-h"), m_registry, Feedback());
        QVERIFY(graphH);
        QCOMPARE(swept["budget_usd"].toDouble(), *graphH);
        QCOMPARE(swept["budget_from"].toString(), QString("graph-h"));
        const auto bound = ops::costBound(request("hash"), Feedback());
        QVERIFY(bound);
        QCOMPARE(swept["cost_bound_usd"].toDouble(), *bound);
        QVERIFY(*bound > 0.05 * *graphH && *bound < 0.7 * *graphH);
        QCOMPARE(swept["skipped_fractions"].toArray(), QJsonArray{0.05});
        const QJsonArray points = swept["points"].toArray();
        QCOMPARE(points.size(), 4);
        const char* order[][2] = {{"1", "geo-cut"}, {"1", "hdrf"}, {"0.7", "geo-cut"}, {"0.7", "hdrf"}};
        for (int k = 0; k < 4; ++k) {
            const QJsonObject point = points[k].toObject();
            QCOMPARE(point["algorithm"].toString(), QString(order[k][1]));
            QCOMPARE(point["fraction"].toDouble(), QString(order[k][0]).toDouble());
            auto r = request(order[k][1]);
            r.budgetUsd = *graphH * point["fraction"].toDouble();
            QCOMPARE(point["budget_usd"].toDouble(), *r.budgetUsd);
            if (r.algorithm == "geo-cut") {
                auto p = ParamValues::parse(m_registry.find("geo-cut")->parameters(), {"effort=0.1"});
                QVERIFY(p);
                r.params = *p;
            }
            auto run = ops::runPartition(r, m_registry, Feedback());
            QVERIFY2(run, run ? "" : run.error().toString().c_str());
            QCOMPARE(point["transfer_time_s"].toDouble(), *run->metric("transfer_time_s"));
            QCOMPARE(point["wan_usd"].toDouble(), *run->metric("wan_usd"));
            QCOMPARE(point["wan_bytes"].toDouble(), *run->metric("wan_bytes"));
            QCOMPARE(point["replication_factor"].toDouble(), *run->metric("replication_factor"));
            QCOMPARE(point["over_budget_usd"].toDouble(), *run->metric("over_budget_usd"));
            QCOMPARE(point["within_budget"].toBool(), *run->metric("over_budget_usd") == 0.0);
        }
        // At 1.0 B Geo-Cut meets GrapH's cost; HDRF, which ignores the budget, does not.
        QVERIFY(points[0].toObject()["within_budget"].toBool());
        QVERIFY(!points[1].toObject()["within_budget"].toBool());

        const auto csv = cli({"budget-sweep", "--project", test::sampleProject(kSample), "--algorithms", "hdrf",
                              "--budget", "1", "--fractions", "1,0.5", "--format", "csv"});
        QVERIFY2(csv.code == 0, csv.err.constData());
        const QList<QByteArray> lines = csv.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("fraction,budget_usd,algorithm,transfer_time_s,wan_usd,"));
        QVERIFY(lines[2].startsWith("0.5,0.5,hdrf,"));
    }

    /// What budget-sweep refuses, before anything runs or after the bound, each with what was expected.
    void budgetSweepRefusesWhatItCannotRun()
    {
        const QString project = test::sampleProject(kSample);
        const auto below = cli({"budget-sweep", "--project", project, "--budget", "1e-9", "--fractions", "1,0.5"});
        QCOMPARE(below.code, 2);
        QVERIFY2(below.err.contains("every budget of the sweep is below the lowest cost any partition can reach"),
                 below.err.constData());
        const auto bad = cli({"budget-sweep", "--project", project, "--fractions", "1,x"});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains("--fractions: 'x' is not a fraction of the budget above 0 and at most 10"),
                 bad.err.constData());
        const auto twice = cli({"budget-sweep", "--project", project, "--fractions", "0.9,0.9"});
        QCOMPARE(twice.code, 2);
        QVERIFY(twice.err.contains("'0.9' is given twice"));
        const auto graph = cli({"budget-sweep", "--project", project, "--graph", "web"});
        QCOMPARE(graph.code, 2);
        QVERIFY2(graph.err.contains("the project has no graph 'web'"), graph.err.constData());
        const auto noGraph = cli({"budget-sweep", "--project", test::sampleProject("ec2-4-regions")});
        QCOMPARE(noGraph.code, 2);
        QVERIFY2(noGraph.err.contains("the project has no graph to sweep"), noGraph.err.constData());
        const auto unknown = cli({"budget-sweep", "--project", project, "--algorithms", "geo-cut,metis"});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.contains("unknown algorithm 'metis' (known: hash"), unknown.err.constData());
        const auto param = cli({"budget-sweep", "--project", project, "--param", "hdrf:lambda=2"});
        QCOMPARE(param.code, 2);
        QVERIFY2(param.err.contains("--param names 'hdrf', which is not among the algorithms run"),
                 param.err.constData());
        const auto zero = cli({"budget-sweep", "--project", project, "--budget", "0"});
        QCOMPARE(zero.code, 2);
        QVERIFY(zero.err.contains("--budget must be above 0 USD"));
        const auto none = cli({"budget-sweep"});
        QCOMPARE(none.code, 2);
        QVERIFY(none.err.contains("--project is required"));
    }
};

QTEST_GUILESS_MAIN(TestPartitionCli)
#include "test_partition_cli.moc"
