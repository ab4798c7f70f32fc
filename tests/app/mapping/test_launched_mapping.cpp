#include "app/jobs/job_runner.h"
#include "app/mapping/launched_mapping.h"
#include "app/mapping/map_operation.h"
#include "app/mapping/ui/launch_dialog.h"
#include "app/mapping/ui/run_controller.h"
#include "app/project/project_edits.h"
#include "app/project/ui/project_document.h"
#include "core/mapping/builtin_mappers.h"
#include "slurm_cluster.h"
#include "test_support.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>

using namespace meridian;
using meridian::test::sampleProject;

/// A mapping run sent to an MPI launcher (ops::runMappingLaunched, `mpirun -np N meridian-cli map --run-out`) comes
/// back as the run this process computes, lands in the workbench as one, reports its progress and stops on cancel;
/// a launcher that fails leaves its files and says why; the workbench's dialog shows the command it will start. The
/// same through Slurm, on a cluster of this machine (test::SlurmCluster): srun from here, and a batch job sbatch
/// queues, which waits, cancels and fails as a user of a cluster sees it.
class TestLaunchedMapping : public QObject {
    Q_OBJECT
    Registry<mapping::Mapper> m_mappers;
    std::unique_ptr<test::SlurmCluster> m_slurm;
    std::string m_slurmProblem;

    /// The test cluster, started by the first test that needs it; false (with m_slurmProblem) when it did not start.
    bool slurmUp()
    {
        if (!m_slurm) {
            m_slurm = std::make_unique<test::SlurmCluster>();
            m_slurmProblem = m_slurm->start();
        }
        return m_slurmProblem.empty();
    }

    /// Whether a canceled job left no folder under `work` and no process: its ranks ran with the job's folder under
    /// `work` on their command line.
    static bool leftNothing(const QString& work)
    {
        if (!QDir(work).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty()) {
            qWarning("the canceled job's folder is left");
            return false;
        }
        QProcess pgrep;
        pgrep.start("pgrep", {"-f", work});
        if (!pgrep.waitForFinished(10000) || !pgrep.readAllStandardOutput().trimmed().isEmpty()) {
            qWarning("a rank of the canceled job is still running");
            return false;
        }
        return true;
    }

    static jobs::LauncherSettings batchJob(const QString& folder, int ranks, const QString& options = {})
    {
        return {"srun --mpi=pmix",
                ranks,
                folder,
                MERIDIAN_CLI,
                jobs::LauncherSettings::Submission::SlurmBatch,
                options};
    }

    static jobs::LauncherSettings launcher(const QString& folder, int ranks)
    {
        return {QString("%1 --oversubscribe -np {N}").arg(MERIDIAN_MPIRUN), ranks, folder, MERIDIAN_CLI, {}, {}};
    }

    ops::MappingRequest request(const document::ProjectDocument& doc, const std::string& algorithm,
                                const std::vector<std::string>& assignments, std::uint64_t seed)
    {
        ops::MappingRequest r;
        r.project = doc.project();
        r.completeNetwork = doc.completeNetwork();
        r.application = "LU";
        r.algorithm = algorithm;
        r.params = *ParamValues::parse(m_mappers.find(algorithm)->parameters(), assignments);
        r.seed = seed;
        r.fingerprint = doc.fingerprint(r.application);
        r.simulateSmallRuns = false;
        return r;
    }

    /// The same run but for its runtime.
    static void compareRuns(const document::Run& launched, const document::Run& local)
    {
        QCOMPARE(launched.algorithm, local.algorithm);
        QCOMPARE(launched.application, local.application);
        QCOMPARE(launched.seed, local.seed);
        QCOMPARE(launched.params.toString(), local.params.toString());
        QVERIFY(launched.params.values() == local.params.values());
        QVERIFY(launched.placement.site == local.placement.site && launched.placement.host == local.placement.host
                && launched.placement.slot == local.placement.slot);
        QVERIFY(launched.costSamples == local.costSamples);
        QVERIFY(launched.bestCurve == local.bestCurve);
        QCOMPARE(launched.metrics.size(), local.metrics.size());
        for (std::size_t k = 0; k < local.metrics.size(); ++k) {
            QCOMPARE(launched.metrics[k].id, local.metrics[k].id);
            if (local.metrics[k].id != "runtime_s")
                QCOMPARE(launched.metrics[k].value, local.metrics[k].value);
        }
        QCOMPARE(launched.inputFingerprint, local.inputFingerprint);
    }

private Q_SLOTS:
    void initTestCase()
    {
        mapping::registerBuiltinMappers(m_mappers);
        QStandardPaths::setTestModeEnabled(true); // the dialog's QSettings stay out of the user's
        test::allowMpirunHere();
    }

    /// Monte Carlo over 2 ranks and refine (a real parameter with 17 digits) over 1: the runs this process computes,
    /// to the last digit, with the fingerprint of the project the workbench has open; the progress came through
    /// and the job's folder is gone.
    void launchedRunsAreTheLocalRuns()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QTemporaryDir work;
        struct Case {
            const char* algorithm;
            std::vector<std::string> params;
            int ranks;
            const char* stage;
        };
        const Case cases[] = {{"monte-carlo", {"samples=60000", "keep=1000"}, 2, "sampling placements"},
                              {"refine", {"effort=0.43333333333333335"}, 1, ""}};
        for (const Case& c : cases) {
            const auto r = request(doc, c.algorithm, c.params, 7);
            auto local = ops::runMapping(r, m_mappers, Feedback());
            QVERIFY2(local, local ? "" : local.error().toString().c_str());
            std::mutex mutex;
            std::set<std::string> stages;
            std::atomic<int> reports = 0;
            const Feedback feedback([&](double, std::string_view stage) {
                const std::lock_guard lock(mutex);
                stages.emplace(stage);
                ++reports;
            });
            auto launched = ops::runMappingLaunched(r, launcher(work.path(), c.ranks), feedback);
            QVERIFY2(launched, launched ? "" : launched.error().toString().c_str());
            compareRuns(*launched, *local);
            QCOMPARE(launched->notes.back(),
                     QString("computed by meridian-cli under %1 --oversubscribe -np %2")
                         .arg(MERIDIAN_MPIRUN)
                         .arg(c.ranks)
                         .toStdString());
            QCOMPARE(launched->inputFingerprint, doc.fingerprint("LU"));
            QVERIFY(stages.count("waiting for the launcher") == 1);
            if (*c.stage)
                QVERIFY2(stages.count(c.stage) == 1, c.algorithm);
            QVERIFY(stages.count("done") == 1);
            QCOMPARE(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
        }
    }

    /// Scotch on PT-Scotch (parallel=true) runs only under a launcher: here it fails, saying where it runs; sent to
    /// mpirun over 2 ranks it comes back as a run whose notes name PT-Scotch. (Sanitized builds cannot load it.)
    void ptScotchRunsOnALauncher()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        const auto r = request(doc, "scotch-bw", {"parallel=true"}, 3);
        auto local = ops::runMapping(r, m_mappers, Feedback());
        QVERIFY(!local);
        QVERIFY2(local.error().message.find("Run > Run Ticked Algorithms on a Launcher") != std::string::npos,
                 local.error().message.c_str());
        if (meridian::test::kUnderSanitizer)
            return;
        QTemporaryDir work;
        auto launched = ops::runMappingLaunched(r, launcher(work.path(), 2), Feedback());
        QVERIFY2(launched, launched ? "" : launched.error().toString().c_str());
        QCOMPARE(launched->placement.processCount(),
                 r.project->applications[r.project->applicationIndex("LU")].comm.processCount());
        bool named = false;
        for (const auto& note : launched->notes)
            named = named || note.rfind("PT-Scotch over 2 rank(s)", 0) == 0;
        QVERIFY(named);
    }

    /// Through the RunController as the Run menu sends it: the run lands current (not stale), like a local one, and
    /// a mapper that does not split over ranks is launched with one.
    void launchedRunLandsInTheWorkbench()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        jobs::JobRunner runner;
        actions::RunController controller(&doc, &runner, &m_mappers);
        QTemporaryDir work;
        QSignalSpy landed(&controller, &actions::RunController::runLanded);
        QSignalSpy failed(&controller, &actions::RunController::runFailed);
        actions::RunRequest mc{"LU",
                               "monte-carlo",
                               *ParamValues::parse(m_mappers.find("monte-carlo")->parameters(), {"samples=20000"}),
                               3,
                               std::nullopt,
                               std::nullopt};
        actions::RunRequest geo{"LU", "geo",        ParamValues::defaults(m_mappers.find("geo")->parameters()),
                                1,    std::nullopt, std::nullopt};
        QCOMPARE(controller.submitLaunched({mc, geo}, launcher(work.path(), 3)).size(), std::size_t(2));
        QTRY_COMPARE_WITH_TIMEOUT(landed.count() + failed.count(), 2, 120000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.front().at(1).toString()));
        for (const auto& signal : landed)
            QCOMPARE(signal.at(1).toBool(), false); // not stale
        QCOMPARE(doc.runs().size(), std::size_t(2));
        for (const auto& run : doc.runs()) {
            QVERIFY(!doc.isStale(*run));
            // Landed runs are simulated and predicted as the workbench's own small runs are.
            QVERIFY2(run->metric("simulated_s"), run->algorithm.c_str());
        }
    }

    /// A launcher that fails: the error has its exit status, what it printed, the command, and the folder it
    /// left for the user to look into.
    void failedLaunchKeepsItsFilesAndSaysWhy()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QTemporaryDir work;
        jobs::LauncherSettings settings{"sh -c \"echo no nodes left >&2; exit 3\" sh",
                                        1,
                                        work.path(),
                                        MERIDIAN_CLI,
                                        {},
                                        {}};
        auto launched = ops::runMappingLaunched(request(doc, "geo", {}, 1), settings, Feedback());
        QVERIFY(!launched);
        const std::string message = launched.error().message;
        QVERIFY2(message.find("exited with status 3") != std::string::npos, message.c_str());
        QVERIFY2(message.find("no nodes left") != std::string::npos, message.c_str());
        QVERIFY2(message.find("command: sh -c \"echo no nodes left >&2; exit 3\" sh ") != std::string::npos,
                 message.c_str());
        const QStringList left = QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::Dirs);
        QCOMPARE(left.size(), 1);
        QVERIFY2(message.find(QDir(work.path()).filePath(left.front()).toStdString()) != std::string::npos,
                 message.c_str());
        QVERIFY(QFileInfo::exists(QDir(work.path()).filePath(left.front() + "/project.meridian")));

        // meridian-cli's own refusal comes back in its words.
        settings = launcher(work.path(), 1);
        auto bad = request(doc, "geo", {}, 1);
        bad.application = "no such application";
        launched = ops::runMappingLaunched(bad, settings, Feedback());
        QVERIFY(!launched);
        QVERIFY2(launched.error().message.find("no application named 'no such application'") != std::string::npos,
                 launched.error().message.c_str());

        // Settings refused before anything starts.
        for (const auto& [s, expected] : std::vector<std::pair<jobs::LauncherSettings, std::string>>{
                 {{"", 1, work.path(), MERIDIAN_CLI, {}, {}}, "no launcher"},
                 {{"mpirun -np {N}", 2, work.path(), MERIDIAN_CLI, {}, {}}, "launch it with 1 rank"},
                 {{"mpirun -np {N}", 1, work.filePath("missing"), MERIDIAN_CLI, {}, {}}, "is not a folder"}}) {
            launched = ops::runMappingLaunched(request(doc, "geo", {}, 1), s, Feedback());
            QVERIFY(!launched);
            QVERIFY2(launched.error().message.find(expected) != std::string::npos, launched.error().message.c_str());
        }
        // Refused settings created no folder: only the failed launches' are there.
        QCOMPARE(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::Dirs).size(), 2);
    }

    /// A cancel stops the launcher and its ranks within seconds and removes the job's folder.
    void cancelStopsTheLauncher()
    {
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QTemporaryDir work;
        std::atomic<bool> sampling = false;
        const Feedback feedback(
            [&](double, std::string_view stage) {
                if (stage == "sampling placements")
                    sampling = true;
            },
            [&] { return sampling.load(); });
        const auto begin = std::chrono::steady_clock::now();
        auto launched = ops::runMappingLaunched(request(doc, "monte-carlo", {"samples=10000000000"}, 1),
                                                launcher(work.path(), 2), feedback);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        QVERIFY(!launched);
        QCOMPARE(launched.error().code, ErrorCode::Canceled);
        QVERIFY2(seconds < 60, qPrintable(QString::number(seconds)));
        QVERIFY(leftNothing(work.path()));
    }

    /// Through Slurm: a Monte Carlo over 2 ranks as a batch job (sbatch queues the script Meridian writes, srun
    /// --mpi=pmix starts the ranks in it) and through srun from here is the run this process computes, to the last
    /// digit; the progress came through the job's standard error, and the job's folder is gone.
    void slurmRunsAreTheLocalRuns()
    {
        QVERIFY2(slurmUp(), m_slurmProblem.c_str());
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QTemporaryDir work;
        const auto r = request(doc, "monte-carlo", {"samples=60000", "keep=1000"}, 7);
        auto local = ops::runMapping(r, m_mappers, Feedback());
        QVERIFY(local);
        // The batch job's folder has a space, a quote and a % in its name: the script and its #SBATCH lines quote
        // them (and --error writes % as %%).
        QTemporaryDir parent;
        const QString odd = parent.filePath("job's folder %j");
        QVERIFY(QDir().mkpath(odd));
        const jobs::LauncherSettings batch = batchJob(odd, 2, "-t 10 --job-name=meridian-test");
        const jobs::LauncherSettings here{"srun -n {N} --mpi=pmix", 2, work.path(), MERIDIAN_CLI, {}, {}};
        for (const auto& [settings, note] :
             {std::pair{batch, "srun --mpi=pmix in a Slurm batch job"}, std::pair{here, "srun -n 2 --mpi=pmix"}}) {
            std::mutex mutex;
            std::set<std::string> stages;
            const Feedback feedback([&](double, std::string_view stage) {
                const std::lock_guard lock(mutex);
                stages.emplace(stage);
            });
            auto launched = ops::runMappingLaunched(r, settings, feedback);
            QVERIFY2(launched, launched ? "" : launched.error().toString().c_str());
            compareRuns(*launched, *local);
            QCOMPARE(launched->notes.back(), std::string("computed by meridian-cli under ") + note);
            QVERIFY(stages.count("sampling placements") == 1 && stages.count("done") == 1);
            if (settings.submission == jobs::LauncherSettings::Submission::SlurmBatch) {
                QVERIFY(stages.count("submitting to Slurm") == 1);
                QVERIFY(std::any_of(stages.begin(), stages.end(),
                                    [](const std::string& s) { return s.rfind("running in Slurm as job ", 0) == 0; }));
            }
            QCOMPARE(QDir(settings.workFolder).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
        }
        QVERIFY(m_slurm->drained(30));
    }

    /// A batch job that waits in the queue says why (its place as the stage), and a cancel takes it out with
    /// scancel; a running job's cancel stops its ranks. Both leave no folder and no job.
    void slurmJobWaitsAndCancels()
    {
        QVERIFY2(slurmUp(), m_slurmProblem.c_str());
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QTemporaryDir work;
        for (const std::string waitFor : {"(BeginTime)", "sampling placements"}) {
            std::atomic<bool> seen = false;
            std::mutex mutex;
            std::string queued;
            const Feedback feedback(
                [&](double, std::string_view stage) {
                    if (stage.size() >= waitFor.size() && stage.substr(stage.size() - waitFor.size()) == waitFor) {
                        const std::lock_guard lock(mutex);
                        queued = stage;
                        seen = true;
                    }
                },
                [&] { return seen.load(); });
            // The first job may start an hour from now: it waits for its begin time.
            const QString options = waitFor == "(BeginTime)" ? "--begin=now+3600" : "";
            auto launched = ops::runMappingLaunched(request(doc, "monte-carlo", {"samples=10000000000"}, 1),
                                                    batchJob(work.path(), 2, options), feedback);
            QVERIFY(!launched);
            QCOMPARE(launched.error().code, ErrorCode::Canceled);
            if (!options.isEmpty()) {
                QVERIFY2(queued.rfind("queued in Slurm as job ", 0) == 0, queued.c_str());
                const QString id = QString::fromStdString(queued).section(' ', 5, 5);
                QCOMPARE(test::SlurmCluster::jobState(id), QString("CANCELLED"));
            }
            QVERIFY(m_slurm->drained(30));
            QVERIFY(leftNothing(work.path()));
        }
    }

    /// What fails says why: sbatch options Meridian writes itself, or that are not options, are refused before
    /// anything starts; sbatch's own refusal comes in its words; a job whose command fails names the job, its
    /// state and status, with meridian-cli's words, and keeps its folder, whose script submits again by hand.
    void slurmFailuresSayWhy()
    {
        QVERIFY2(slurmUp(), m_slurmProblem.c_str());
        document::ProjectDocument doc;
        QVERIFY(doc.load(sampleProject("ec2-4-regions")));
        QTemporaryDir work;
        for (const auto& [options, expected] : std::vector<std::pair<QString, std::string>>{
                 {"--output=mine.out", "'--output=mine.out' is Meridian's to write"},
                 {"-n 4", "'-n' is Meridian's to write"},
                 {"--out=mine.out", "'--out=mine.out' is Meridian's to write"}, // sbatch takes abbreviations
                 {"--wait", "'--wait' is Meridian's to write or would change how the job is followed"},
                 {"-M other", "'-M' is Meridian's to write"},
                 {"--time 10", "write the value of the sbatch option '--time' after '=' (--time=10)"},
                 {"-p=compute", "the value of the sbatch option '-p' follows it without '='"},
                 {"--exclusive -t", "the sbatch option '-t' needs a value after it"},
                 {"-H compute",
                  "expected an sbatch option starting with '-' (as --partition=compute or -t 60), "
                  "found 'compute'"}}) {
            auto launched = ops::runMappingLaunched(request(doc, "geo", {}, 1), batchJob(work.path(), 1, options),
                                                    Feedback());
            QVERIFY(!launched);
            QVERIFY2(launched.error().message.find(expected) != std::string::npos, launched.error().message.c_str());
        }
        QCOMPARE(QDir(work.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());

        auto launched = ops::runMappingLaunched(request(doc, "geo", {}, 1),
                                                batchJob(work.path(), 1, "--partition=nosuch"), Feedback());
        QVERIFY(!launched);
        QVERIFY2(launched.error().message.find("sbatch did not queue the job") != std::string::npos
                     && launched.error().message.find("invalid partition") != std::string::npos,
                 launched.error().message.c_str());

        auto bad = request(doc, "geo", {}, 1);
        bad.application = "no such application";
        launched = ops::runMappingLaunched(bad, batchJob(work.path(), 1), Feedback());
        QVERIFY(!launched);
        const std::string message = launched.error().message;
        QVERIFY2(message.find(" ended FAILED with status 2") != std::string::npos, message.c_str());
        QVERIFY2(message.find("no application named 'no such application'") != std::string::npos, message.c_str());
        const QString kept = QString::fromStdString(message).section("its files are kept in ", 1).trimmed();
        QFile script(QDir(kept).filePath("job.sh"));
        QVERIFY2(script.open(QIODevice::ReadOnly), qPrintable(kept));
        const QString text = QString::fromUtf8(script.readAll());
        QVERIFY2(text.contains("#SBATCH --ntasks=1\n") && text.contains("\nsrun --mpi=pmix " MERIDIAN_CLI " map "),
                 qPrintable(text));
        QProcess again;
        again.setWorkingDirectory(kept);
        again.start("sbatch", {"--wait", "job.sh"});
        QVERIFY(again.waitForFinished(60000));
        QCOMPARE(again.exitCode(), 2);
        QVERIFY(m_slurm->drained(30));
    }

    /// The dialog shows the command the first run starts, gives a mapper that does not split one rank, and says
    /// what is missing with Launch disabled.
    void dialogShowsTheCommandAndWhatIsMissing()
    {
        QTemporaryDir work;
        actions::RunRequest mc{"LU", "monte-carlo", ParamValues::defaults(m_mappers.find("monte-carlo")->parameters()),
                               5,    std::nullopt,  std::nullopt};
        actions::RunRequest geo{"LU", "geo",        ParamValues::defaults(m_mappers.find("geo")->parameters()),
                                1,    std::nullopt, std::nullopt};
        {
            workbench::LaunchDialog dialog({mc}, nullptr, work.path());
            dialog.launcherEdit()->setText("srun -n {N} --mpi=pmix");
            dialog.ranksBox()->setValue(8);
            dialog.cliEdit()->setText(MERIDIAN_CLI);
            QCOMPARE(dialog.problemText(), QString());
            const QString command = dialog.commandText();
            QVERIFY2(command.startsWith(QString("srun -n 8 --mpi=pmix %1 map --project ").arg(MERIDIAN_CLI)),
                     qPrintable(command));
            QVERIFY2(command.contains("--algorithm monte-carlo --seed 5 --param keep=100000 --param samples=100000"),
                     qPrintable(command));
            QVERIFY2(command.contains("--run-out") && command.contains("--progress"), qPrintable(command));
            QCOMPARE(dialog.settings().ranks, 8);
            dialog.folderEdit()->setText(work.filePath("missing"));
            QVERIFY2(dialog.problemText().contains("work folder"), qPrintable(dialog.problemText()));
            dialog.folderEdit()->setText(work.path());
            dialog.cliEdit()->setText(work.filePath("meridian-cli"));
            QVERIFY2(dialog.problemText().contains("is not a program"), qPrintable(dialog.problemText()));
        }
        workbench::LaunchDialog dialog({geo}, nullptr, work.path());
        dialog.launcherEdit()->setText("mpirun -np {N}");
        dialog.ranksBox()->setValue(4);
        dialog.cliEdit()->setText(MERIDIAN_CLI);
        QVERIFY2(dialog.commandText().startsWith("mpirun -np 1 "), qPrintable(dialog.commandText()));
        dialog.launcherEdit()->setText("");
        QVERIFY2(dialog.problemText().contains("no launcher"), qPrintable(dialog.problemText()));

        // A batch job: the launcher that suits it, the script with the tasks and the options, a bad option refused.
        workbench::LaunchDialog batch({mc}, nullptr, work.path());
        batch.launcherEdit()->setText("mpirun -np {N}");
        batch.ranksBox()->setValue(8);
        batch.cliEdit()->setText(MERIDIAN_CLI);
        QVERIFY(!batch.batchOptionsEdit()->isEnabled());
        batch.submissionBox()->setCurrentIndex(1);
        QVERIFY(batch.batchOptionsEdit()->isEnabled());
        QCOMPARE(batch.launcherEdit()->text(), QString("srun --mpi=pmix"));
        batch.batchOptionsEdit()->setText("--partition=compute -t 60");
        QCOMPARE(batch.problemText(), QString());
        const QString script = batch.commandText();
        for (const char* line : {"#!/bin/sh\n", "\n#SBATCH --ntasks=8\n", "\n#SBATCH --partition=compute\n",
                                 "\n#SBATCH -t 60\n", "\nsrun --mpi=pmix " MERIDIAN_CLI " map --project "})
            QVERIFY2(script.contains(line), qPrintable(script));
        QCOMPARE(batch.settings().submission, jobs::LauncherSettings::Submission::SlurmBatch);
        QCOMPARE(batch.settings().batchOptions, QString("--partition=compute -t 60"));
        if (qEnvironmentVariableIsSet("MERIDIAN_SHOT"))
            batch.grab().save(qEnvironmentVariable("MERIDIAN_SHOT"));
        batch.batchOptionsEdit()->setText("--error=e.txt");
        QVERIFY2(batch.problemText().contains("Meridian's to write"), qPrintable(batch.problemText()));
        batch.submissionBox()->setCurrentIndex(0);
        QCOMPARE(batch.launcherEdit()->text(), QString("mpirun -np {N}"));
        QCOMPARE(batch.problemText(), QString());
    }
};

QTEST_MAIN(TestLaunchedMapping)
#include "test_launched_mapping.moc"
