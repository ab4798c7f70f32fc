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
};

QTEST_GUILESS_MAIN(TestPartitionCli)
#include "test_partition_cli.moc"
