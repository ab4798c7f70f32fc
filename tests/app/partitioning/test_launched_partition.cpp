// A partition run sent to an MPI launcher (ops::runPartitionLaunched, `mpirun -np N meridian-cli partition`) comes
// back as the run this process computes: the same partition and measures, on any number of ranks for hash, HDRF in
// batches and Geo-Cut's stage 1 in batches; it lands in the workbench as one; files that are not the graph's partition are refused, with the job's
// folder kept; the dialog shows the command.
#include "app/jobs/job_runner.h"
#include "app/mapping/ui/launch_dialog.h"
#include "app/mapping/ui/run_controller.h"
#include "app/mapping/ui/run_panel.h"
#include "app/partitioning/launched_partition.h"
#include "app/partitioning/partition_operation.h"
#include "app/project/project_file.h"
#include "app/project/ui/project_document.h"
#include "core/mapping/builtin_mappers.h"
#include "core/partition/builtin_partitioners.h"
#include "slurm_cluster.h"
#include "test_support.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

#include <memory>
#include <string>
#include <vector>

using namespace meridian;
using meridian::test::sampleProject;

namespace {

const char* kSample = "geo-cut-ec2-8-regions";

jobs::LauncherSettings launcher(const QString& folder, int ranks)
{
    return {QString("%1 --oversubscribe -np {N}").arg(MERIDIAN_MPIRUN), ranks, folder, MERIDIAN_CLI, {}, {}};
}

bool hasNote(const document::Run& run, const std::string& start)
{
    for (const auto& note : run.notes)
        if (note.rfind(start, 0) == 0)
            return true;
    return false;
}

/// Where launched runs land without a window: the sample's document, the mappers, a job runner and the run controller.
struct Landing {
    document::ProjectDocument doc;
    Registry<mapping::Mapper> mappers;
    jobs::JobRunner runner;
    std::unique_ptr<actions::RunController> controller;

    /// The sample loaded, or none when it does not load.
    static std::unique_ptr<Landing> ofSample()
    {
        auto landing = std::make_unique<Landing>();
        if (!landing->doc.load(sampleProject(kSample)))
            return nullptr;
        mapping::registerBuiltinMappers(landing->mappers);
        landing->controller = std::make_unique<actions::RunController>(&landing->doc, &landing->runner,
                                                                       &landing->mappers);
        return landing;
    }
};

} // namespace

class TestLaunchedPartition : public QObject {
    Q_OBJECT
    Registry<partition::Partitioner> m_partitioners;
    std::shared_ptr<const document::Project> m_project; ///< the sample, its homes from its file
    std::shared_ptr<const document::Project> m_drawn;   ///< the same graph with every home drawn, homes seed 7

    ops::PartitionRequest request(const std::shared_ptr<const document::Project>& project, const std::string& algorithm,
                                  const std::vector<std::string>& assignments, std::uint64_t seed)
    {
        ops::PartitionRequest r;
        r.project = project;
        r.graph = "wiki-vote";
        r.algorithm = algorithm;
        r.params = *ParamValues::parse(m_partitioners.find(algorithm)->parameters(), assignments);
        r.seed = seed;
        return r;
    }

    /// The same run but for its runtime and notes.
    static void compareRuns(const document::Run& launched, const document::Run& local)
    {
        QCOMPARE(launched.kind, document::RunKind::Partition);
        QCOMPARE(launched.algorithm, local.algorithm);
        QCOMPARE(launched.application, local.application);
        QCOMPARE(launched.seed, local.seed);
        QVERIFY(launched.params.values() == local.params.values());
        QVERIFY(launched.partition->edgeSite == local.partition->edgeSite);
        QVERIFY(launched.partition->masterSite == local.partition->masterSite);
        QCOMPARE(launched.metrics.size(), local.metrics.size());
        for (std::size_t k = 0; k < local.metrics.size(); ++k) {
            QCOMPARE(launched.metrics[k].id, local.metrics[k].id);
            if (local.metrics[k].id != "runtime_s")
                QCOMPARE(launched.metrics[k].value, local.metrics[k].value);
        }
        QVERIFY(launched.trafficBytes == local.trafficBytes);
        QVERIFY(launched.siteUploadBytes == local.siteUploadBytes);
    }

private Q_SLOTS:
    void initTestCase()
    {
        partition::registerBuiltinPartitioners(m_partitioners);
        QStandardPaths::setTestModeEnabled(true); // the dialog's QSettings stay out of the user's
        test::allowMpirunHere();
        auto project = document::ProjectFile::load(sampleProject(kSample));
        QVERIFY2(project, project ? "" : project.error().toString().c_str());
        m_project = std::make_shared<const document::Project>(*project);
        document::Project drawn = *project;
        drawn.graphs.front().homesPath.clear();
        drawn.graphs.front().homesChecksum = 0;
        drawn.graphs.front().homesSeed = 7;
        m_drawn = std::make_shared<const document::Project>(std::move(drawn));
    }

    /// hash, HDRF and Geo-Cut's stage 1 in batches split over 2 and 3 ranks, Geo-Cut with a budget on 1: each run is
    /// the one computed here, with drawn homes (their seed is the graph's, not the run's), the sssp profile, and the
    /// cost bound.
    void launchedRunIsTheLocalRun()
    {
        QTemporaryDir work;
        struct Case {
            std::shared_ptr<const document::Project> project;
            std::string algorithm;
            std::vector<std::string> params;
            int ranks;
            bool sssp;
            bool budget;
        };
        for (const Case& c : std::vector<Case>{{m_drawn, "hash", {}, 2, false, false},
                                               {m_drawn, "hash", {}, 1, false, false},
                                               {m_drawn, "hdrf", {"batch=4096"}, 3, true, false},
                                               {m_project, "hdrf", {"batch=512"}, 2, false, false},
                                               {m_drawn,
                                                "geo-cut",
                                                {"start=cost", "batch=1024", "lq_fraction=0", "replica_passes=0"},
                                                2,
                                                true,
                                                false},
                                               {m_project, "geo-cut", {}, 1, false, true}}) {
            ops::PartitionRequest r = request(c.project, c.algorithm, c.params, 5);
            if (c.sssp) {
                r.profile = "sssp";
                r.activeFraction = 0.25;
            }
            if (c.budget) {
                const auto bound = ops::costBound(r, Feedback());
                QVERIFY(bound);
                r.budgetUsd = *bound * 1.5;
            }
            QCOMPARE(ops::partitionRunSplitsOverRanks(r), !c.budget);
            const auto local = ops::runPartition(r, m_partitioners, Feedback());
            QVERIFY2(local, local ? "" : local.error().toString().c_str());
            const auto launched = ops::runPartitionLaunched(r, launcher(work.path(), c.ranks), Feedback());
            QVERIFY2(launched, launched ? "" : launched.error().toString().c_str());
            compareRuns(*launched, *local);
            QVERIFY(hasNote(*launched,
                            "computed by meridian-cli under " + std::string(MERIDIAN_MPIRUN) + " --oversubscribe -np "
                                + std::to_string(c.ranks)));
            if (c.ranks > 1)
                QVERIFY(hasNote(*launched, "split over " + std::to_string(c.ranks) + " ranks"));
            // The local run's notes come back too (the partitioner's, the bottlenecks, the budget, the bound).
            for (const auto& note : local->notes)
                QVERIFY2(hasNote(*launched, note), note.c_str());
            QCOMPARE(launched->metric("cost_bound_usd").has_value(), c.budget);
        }
        // Each job's folder is removed once its run came back.
        QCOMPARE(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
    }

    /// HDRF in batches over 2 ranks as a Slurm batch job (a cluster of this machine, test::SlurmCluster; srun
    /// --mpi=pmix in the script Meridian writes): the run computed here, its note naming the batch job.
    void slurmBatchJobIsTheLocalRun()
    {
        test::SlurmCluster slurm;
        const std::string problem = slurm.start();
        QVERIFY2(problem.empty(), problem.c_str());
        QTemporaryDir work;
        ops::PartitionRequest r = request(m_drawn, "hdrf", {"batch=4096"}, 5);
        r.profile = "sssp";
        r.activeFraction = 0.25;
        const auto local = ops::runPartition(r, m_partitioners, Feedback());
        QVERIFY(local);
        const jobs::LauncherSettings batch{"srun --mpi=pmix",
                                           2,
                                           work.path(),
                                           MERIDIAN_CLI,
                                           jobs::LauncherSettings::Submission::SlurmBatch,
                                           "--time=10"};
        const auto launched = ops::runPartitionLaunched(r, batch, Feedback());
        QVERIFY2(launched, launched ? "" : launched.error().toString().c_str());
        compareRuns(*launched, *local);
        QVERIFY(hasNote(*launched, "computed by meridian-cli under srun --mpi=pmix in a Slurm batch job in "));
        QVERIFY(hasNote(*launched, "split over 2 ranks"));
        QCOMPARE(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
        QVERIFY(slurm.drained(30));
    }

    /// Settings a run cannot start with are refused before any folder is made.
    void refusedBeforeAnything()
    {
        QTemporaryDir work;
        ops::PartitionRequest budgeted = request(m_project, "hash", {}, 1);
        budgeted.budgetUsd = 1.0;
        ops::PartitionRequest missing = request(m_project, "hash", {}, 1);
        missing.graph = "no such graph";
        const std::vector<std::pair<ops::PartitionRequest, std::string>> cases{{request(m_project, "geo-cut", {}, 1),
                                                                                "launch it with 1 rank"},
                                                                               {request(m_project, "hdrf", {}, 1),
                                                                                "launch it with 1 rank"},
                                                                               {budgeted, "launch it with 1 rank"},
                                                                               {missing, "no graph 'no such graph'"}};
        for (const auto& [r, expected] : cases) {
            const auto launched = ops::runPartitionLaunched(r, launcher(work.path(), 2), Feedback());
            QVERIFY(!launched);
            QVERIFY2(launched.error().message.find(expected) != std::string::npos, launched.error().message.c_str());
        }
        QCOMPARE(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
    }

    /// Files that are not the graph's partition are refused, the line named, and the job's folder kept: a launcher
    /// whose meridian-cli leaves its lines out of order, then one whose file lacks its last line.
    void filesOfAnotherGraphAreRefused()
    {
        QTemporaryDir work;
        const QString script = work.filePath("launcher.sh");
        for (const auto& [edit, expected] :
             std::vector<std::pair<QString, std::string>>{{"1{h;d};2{G}", "edges.tsv:1:1: expected the graph's edge 1"},
                                                          {"$d", "103688 lines for the graph's 103689 edges"}}) {
            QFile file(script);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QString("#!/bin/sh\n"
                               "\"$@\" || exit $?\n"
                               "while [ \"$1\" != --out ]; do shift; done\n"
                               "sed -i '%1' \"$2\"\n")
                           .arg(edit)
                           .toUtf8());
            file.close();
            jobs::LauncherSettings settings{"sh " + script, 1, work.path(), MERIDIAN_CLI, {}, {}};
            const auto launched = ops::runPartitionLaunched(request(m_project, "hash", {}, 1), settings, Feedback());
            QVERIFY(!launched);
            const std::string message = launched.error().toString();
            QVERIFY2(message.find(expected) != std::string::npos, message.c_str());
            QVERIFY2(message.find("its files are kept in " + work.path().toStdString() + "/meridian-job-")
                         != std::string::npos,
                     message.c_str());
        }
        QCOMPARE(QDir(work.path()).entryList({"meridian-job-*"}, QDir::Dirs).size(), 2);

        // A launcher whose nodes draw other homes (here another seed): its masters do not follow the project's.
        QFile other(script);
        QVERIFY(other.open(QIODevice::WriteOnly | QIODevice::Truncate));
        other.write("#!/bin/bash\n"
                    "args=(\"$@\")\n"
                    "for i in \"${!args[@]}\"; do [ \"${args[$i]}\" = --homes-seed ] && args[$((i + 1))]=8; done\n"
                    "exec \"${args[@]}\"\n");
        other.close();
        jobs::LauncherSettings settings{"bash " + script, 1, work.path(), MERIDIAN_CLI, {}, {}};
        const auto launched = ops::runPartitionLaunched(request(m_drawn, "hash", {}, 1), settings, Feedback());
        QVERIFY(!launched);
        QVERIFY2(launched.error().message.find("the partition was computed from other homes than the project's")
                     != std::string::npos,
                 launched.error().message.c_str());
    }

    /// Through the RunController as the Run menu sends it: both runs land current, and geo-cut, which does not split,
    /// went on one rank.
    void launchedRunLandsInTheWorkbench()
    {
        const auto bench = Landing::ofSample();
        QVERIFY(bench);
        document::ProjectDocument& doc = bench->doc;
        actions::RunController& controller = *bench->controller;
        QTemporaryDir work;
        QSignalSpy landed(&controller, &actions::RunController::runLanded);
        QSignalSpy failed(&controller, &actions::RunController::runFailed);
        actions::RunRequest hash{"wiki-vote",
                                 "hash",
                                 ParamValues::defaults(m_partitioners.find("hash")->parameters()),
                                 1,
                                 std::nullopt,
                                 actions::PartitionSettings{}};
        actions::RunRequest geoCut = hash;
        geoCut.algorithm = "geo-cut";
        geoCut.params = ParamValues::defaults(m_partitioners.find("geo-cut")->parameters());
        QCOMPARE(controller.submitLaunched({hash, geoCut}, launcher(work.path(), 2)).size(), std::size_t(2));
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 2, 120000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        QCOMPARE(doc.runs().size(), std::size_t(2));
        for (const auto& run : doc.runs()) {
            QVERIFY(!doc.isStale(*run));
            QVERIFY(run->partition);
            QVERIFY(hasNote(*run,
                            "computed by meridian-cli under " + std::string(MERIDIAN_MPIRUN) + " --oversubscribe -np "
                                + (run->algorithm == "hash" ? "2" : "1")));
        }
    }

    /// A budget sweep sent to a launcher (Run > Sweep the Budget on a Launcher): the run panel's sweep, each point a
    /// job on one rank (a budget keeps a run whole), lands as the runs the sweep computes here, at 1.0 to 0.6 B.
    void budgetSweepLandsFromALauncher()
    {
        const auto bench = Landing::ofSample();
        QVERIFY(bench);
        document::ProjectDocument& doc = bench->doc;
        actions::RunController& controller = *bench->controller;
        workbench::RunPanel panel(&doc, &controller);
        panel.applicationChooser()->setCurrentText("wiki-vote");
        panel.setCheckedMappers({"geo-cut"});
        const auto bound = ops::costBound(request(m_project, "geo-cut", {}, 1), Feedback());
        QVERIFY(bound);
        const double b = *bound * 2.0; // 0.6 B is above the bound: every point can be met
        QString refusal;
        QVERIFY(panel.budgetSweepRequests(refusal).empty()); // no budget yet
        QVERIFY(refusal.contains("set a WAN budget"));
        panel.setPartitionSettings(actions::PartitionSettings{"pagerank", 0.1, b});
        const auto sweep = panel.budgetSweepRequests(refusal);
        QVERIFY2(refusal.isEmpty(), qPrintable(refusal));
        QCOMPARE(sweep.size(), std::size_t(5));
        QTemporaryDir work;
        // The dialog shows the first point's command: on one rank, at B.
        workbench::LaunchDialog dialog(sweep, m_project, work.path());
        dialog.launcherEdit()->setText("mpirun -np {N}");
        dialog.ranksBox()->setValue(4);
        dialog.cliEdit()->setText(MERIDIAN_CLI);
        QVERIFY2(dialog.commandText().startsWith("mpirun -np 1 ")
                     && dialog.commandText().contains("--algorithm geo-cut")
                     && dialog.commandText().contains(" --budget "),
                 qPrintable(dialog.commandText()));
        if (qEnvironmentVariableIsSet("MERIDIAN_SHOT"))
            dialog.grab().save(qEnvironmentVariable("MERIDIAN_SHOT"));
        QSignalSpy landed(&controller, &actions::RunController::runLanded);
        QSignalSpy failed(&controller, &actions::RunController::runFailed);
        QCOMPARE(controller.submitLaunched(sweep, launcher(work.path(), 2)).size(), std::size_t(5));
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 5, 180000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        std::vector<double> fractions;
        for (const auto& run : doc.runs()) {
            fractions.push_back(run->budgetUsd.value_or(-1.0) / b);
            QVERIFY(
                hasNote(*run,
                        "computed by meridian-cli under " + std::string(MERIDIAN_MPIRUN) + " --oversubscribe -np 1"));
            ops::PartitionRequest local = request(m_project, "geo-cut", {}, run->seed);
            local.params = run->params;
            local.budgetUsd = run->budgetUsd;
            const auto here = ops::runPartition(local, m_partitioners, Feedback());
            QVERIFY2(here, here ? "" : here.error().toString().c_str());
            compareRuns(*run, *here);
        }
        std::sort(fractions.begin(), fractions.end());
        for (std::size_t k = 0; k < fractions.size(); ++k)
            QVERIFY(std::abs(fractions[k] - (0.6 + 0.1 * static_cast<double>(k))) < 1e-9);
    }

    /// The dialog shows the partition command of the first run, with the graph's file and homes.
    void dialogShowsThePartitionCommand()
    {
        QTemporaryDir work;
        actions::RunRequest hdrf{"wiki-vote",
                                 "hdrf",
                                 *ParamValues::parse(m_partitioners.find("hdrf")->parameters(), {"batch=65536"}),
                                 3,
                                 std::nullopt,
                                 actions::PartitionSettings{}};
        workbench::LaunchDialog dialog({hdrf}, m_project, work.path());
        dialog.launcherEdit()->setText("srun -n {N}");
        dialog.ranksBox()->setValue(4);
        dialog.cliEdit()->setText(MERIDIAN_CLI);
        QCOMPARE(dialog.problemText(), QString());
        const QString command = dialog.commandText();
        const auto& graph = m_project->graphs.front();
        QVERIFY2(command.startsWith(QString("srun -n 4 %1 partition --graph %2 --format snap --homes %3 --homes-seed 1 "
                                            "--project ")
                                        .arg(MERIDIAN_CLI, QString::fromStdString(graph.path),
                                             QString::fromStdString(graph.homesPath))),
                 qPrintable(command));
        QVERIFY2(command.contains("--algorithm hdrf --seed 3 --param batch=65536"), qPrintable(command));
        QVERIFY2(command.contains("--out") && command.contains("--masters") && command.contains("--progress"),
                 qPrintable(command));
        hdrf.params = ParamValues::defaults(m_partitioners.find("hdrf")->parameters());
        workbench::LaunchDialog oneAtATime({hdrf}, m_project, work.path());
        oneAtATime.launcherEdit()->setText("mpirun -np {N}");
        oneAtATime.ranksBox()->setValue(4);
        oneAtATime.cliEdit()->setText(MERIDIAN_CLI);
        QVERIFY2(oneAtATime.commandText().startsWith("mpirun -np 1 "), qPrintable(oneAtATime.commandText()));
    }
};

QTEST_MAIN(TestLaunchedPartition)
#include "test_launched_partition.moc"
