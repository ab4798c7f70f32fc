#pragma once

#include "app/jobs/launched_command.h"

#include <QByteArray>
#include <QDir>
#include <QString>
#include <QStringList>

#include <functional>

/// A launched run as a Slurm batch job (LauncherSettings::Submission::SlurmBatch): Meridian writes the job's script,
/// sbatch queues it, and the workbench follows the job (scontrol) until it ends. Slurm's client commands (sbatch,
/// scontrol, scancel) must be on this machine's PATH, set up for the cluster (SLURM_CONF, or /etc/slurm).
/// Words in the script are quoted for sh; in its `#SBATCH` lines, in double quotes, and a folder's % as %%.
namespace meridian::jobs {

/// The script of a batch job that runs `command` (launcherWords, meridian-cli and its arguments) in `folder`:
/// `#SBATCH` lines for its name, its tasks (the settings' ranks), its standard output and error (slurm.out,
/// slurm.err in the folder) and each of the settings' sbatch options, then the command with its standard output to
/// output.json and its exit status to exit-status. It can be submitted again by hand (`sbatch job.sh`).
QString slurmBatchScript(const LauncherSettings& settings, const QStringList& command, const QDir& folder);

/// Checks the settings' sbatch options: words that start with a dash; a long option's value after '='
/// (`--time=01:00:00`), a short option's attached or in the next word (`-t60`, `-t 60`); no double quote or
/// backslash (an `#SBATCH` line cannot hold one); none of the options Meridian writes itself or that would change
/// how the job is followed (the tasks, the output and error files, the folder, --wrap, --array, --parsable, --wait,
/// --clusters, or an abbreviation of one).
Status checkBatchOptions(const QString& options);

/// Runs `command` as a batch job: writes slurmBatchScript to `folder`/job.sh, submits it (`sbatch --parsable`) and
/// polls the job until it has ended, showing its place in the queue as `feedback`'s stage while it waits and
/// passing what the job writes to its standard error to `standardError` as it arrives (meridian-cli's `--progress`
/// lines among it). A cancel calls scancel and waits for the job to end (for a minute at most). A job that ends other
/// than COMPLETED is an error naming the job, its state and its status (from the script's exit-status file, else
/// Slurm's ExitCode, with a hint when the file was never written). A controller that does not answer for a minute
/// is an error that names the job for scancel.
Status runSlurmBatch(const LauncherSettings& settings, const QStringList& command, const QDir& folder,
                     const std::function<void(const QByteArray&)>& standardError, const Feedback& feedback);

} // namespace meridian::jobs
