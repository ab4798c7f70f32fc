#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"

#include <QDir>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>

namespace meridian::jobs {

/// How a run goes to an MPI launcher instead of this process: on a cluster (`srun -n {N}`, or a Slurm batch job), or
/// on this machine (`mpirun -np {N}`). The workbench's mapping and partition runs share it (launched_mapping.h,
/// launched_partition.h).
struct LauncherSettings {
    /// How the command starts: here, as a child process of the workbench, or in a Slurm batch job that sbatch queues
    /// (slurm_batch.h), the launcher's command inside the job's script.
    enum class Submission { Command, SlurmBatch };

    /// The command before meridian-cli, split into words at spaces (QProcess::splitCommand: a word with spaces in
    /// double quotes); `{N}` becomes `ranks`.
    QString launcher = "mpirun -np {N}";
    int ranks = 1;
    /// A folder the launcher's nodes see at the same path as this machine (a shared file system): each run's files
    /// go in a folder of their own under it.
    QString workFolder;
    /// meridian-cli as the launcher's nodes start it.
    QString cliProgram;
    Submission submission = Submission::Command;
    /// A Slurm batch job's own sbatch options (`--partition=compute --time=01:00:00`), split as the launcher is; each
    /// option becomes a `#SBATCH` line of the script.
    QString batchOptions;
};

/// Refuses settings no launched run can start with: an empty launcher, fewer than 1 rank, no meridian-cli, a batch
/// job's sbatch options that checkBatchOptions refuses.
Status checkLauncherSettings(const LauncherSettings& settings);

/// The launcher's words with `{N}` replaced by the settings' ranks (meridian-cli and its arguments follow them).
QStringList launcherWords(const LauncherSettings& settings);

/// The launcher as a run's note names it: its words, and "in a Slurm batch job" for one.
QString launcherDescription(const LauncherSettings& settings);

/// A real in the fewest digits that read back as the same double.
QString roundTrip(double value);
/// A parameter as `name=value`, a real written by roundTrip.
QString paramAssignment(const std::string& name, const ParamValue& value);

/// A command as one line, for messages and the dialog: a word with a space, a quote or nothing in it is
/// double-quoted (a double quote inside it tripled, as QProcess::splitCommand reads one back). Words without
/// quotes, `$` or backquotes paste into a shell as they are; others may need the user's care.
QString shellLine(const QStringList& words);

/// How a launched job starts, in the folder runLaunchedJob made for it.
struct LaunchedJobStart {
    /// The command (launcherWords, meridian-cli, its arguments naming files in the folder).
    std::function<Expected<QStringList>(const QDir& folder)> command;
    /// Saves what the command reads into the folder.
    std::function<Status(const QDir& folder)> save;
};

/// Runs one command through a launcher, for a result read back as if computed here:
/// 1. makes a folder `meridian-job-XXXXXX` under the work folder, and gets the command and saves its inputs there;
/// 2. runs the command, its standard output to `output.json`, turning the `--progress` lines of its standard error
///    into `feedback`'s progress; a cancel sends SIGTERM to the launcher's process group (mpirun and srun pass it on
///    to their ranks), and SIGKILL to what is left of it after 2 s. Open MPI's session folders go under a temporary
///    folder of the job's own (OMPI_MCA_orte_tmpdir_base, unless set), so that jobs started side by side on one
///    machine do not remove each other's. A Slurm batch job instead goes to sbatch and is followed until it ends
///    (runSlurmBatch), a cancel going to scancel;
/// 3. calls `readBack`, which reads the result from the folder (the command's standard output is in `output.json`).
/// The folder is removed when the result came back or was canceled, and kept when a step failed: the error names
/// it, with the command and meridian-cli's last lines (else the launcher's). Settings checkLauncherSettings refuses
/// create nothing.
Status runLaunchedJob(const LauncherSettings& settings, const LaunchedJobStart& start,
                      const std::function<Status(const QDir& folder)>& readBack, const Feedback& feedback);

/// runLaunchedJob for a result: `readBack` returns it.
template <class Result>
Expected<Result> runLaunched(const LauncherSettings& settings, const LaunchedJobStart& start,
                             const std::function<Expected<Result>(const QDir& folder)>& readBack,
                             const Feedback& feedback)
{
    std::optional<Result> result;
    const auto keep = [&](const QDir& folder) -> Status {
        auto read = readBack(folder);
        if (!read)
            return read.error();
        result = std::move(*read);
        return {};
    };
    if (auto done = runLaunchedJob(settings, start, keep, feedback); !done)
        return done.error();
    return std::move(*result);
}

} // namespace meridian::jobs
