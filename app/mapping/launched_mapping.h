#pragma once

#include "app/mapping/map_operation.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <QString>
#include <QStringList>

#include <string>

namespace meridian::ops {

/// How a mapping run goes to an MPI launcher instead of this process: on a cluster (`srun -n {N}`), or on this
/// machine (`mpirun -np {N}`).
struct LauncherSettings {
    /// The command before meridian-cli, split into words at spaces (QProcess::splitCommand: a word with spaces in
    /// double quotes); `{N}` becomes `ranks`.
    QString launcher = "mpirun -np {N}";
    int ranks = 1;
    /// A folder the launcher's nodes see at the same path as this machine (a shared file system): each run's files
    /// go in a folder of their own under it.
    QString workFolder;
    /// meridian-cli as the launcher's nodes start it.
    QString cliProgram;
};

/// The program MERIDIAN_CLI names, else meridian-cli beside this program (where the workbench installs it).
Expected<QString> cliProgram();

/// Whether a mapper splits its work over the ranks of a launcher's job (monte-carlo; scotch-bw and scotch-lat with
/// parallel=true, on PT-Scotch); the others run whole in one process, and meridian-cli refuses them under more than
/// one rank.
bool splitsOverRanks(const std::string& algorithm, const ParamValues& params);

/// What a partition run sent to a launcher is told (the workbench launches mapping runs only).
inline constexpr const char* kLaunchPartitionAdvice
    = "a partition run goes to a launcher from the command line (mpirun -np N meridian-cli partition --graph ...; "
      "its result is files, not a run), or runs on this machine";

/// Refuses settings a launched run cannot start with: an empty launcher, fewer than 1 rank, more than 1 rank for
/// a mapper that does not split its work, no meridian-cli.
Status checkLauncher(const MappingRequest& request, const LauncherSettings& settings);

/// The command line a launched run starts: the launcher's words with `{N}` replaced, then `meridian-cli map` on
/// the project saved in `jobFolder` with the request's application, algorithm, parameters (doubles written to
/// round-trip) and seed, `--run-out` and `--progress`. Errors: checkLauncher's.
Expected<QStringList> launchedMapCommand(const MappingRequest& request, const LauncherSettings& settings,
                                         const QString& jobFolder);

/// A command as one line, for messages and the dialog: a word with a space, a quote or nothing in it is
/// double-quoted (a double quote inside it tripled, as QProcess::splitCommand reads one back). Words without
/// quotes, `$` or backquotes paste into a shell as they are; others may need the user's care.
QString shellLine(const QStringList& words);

/// Computes a mapping run through a launcher, as runMapping computes it here:
/// 1. saves the request's project snapshot (and a start placement) in a new folder `meridian-job-XXXXXX` under
///    the work folder;
/// 2. runs launchedMapCommand's command, turning the `--progress` lines of its standard error into `feedback`'s
///    progress; a cancel sends SIGTERM to the launcher's process group (mpirun and srun pass it on to their
///    ranks), and SIGKILL to what is left of it after 2 s;
/// 3. reads the run back as the runs file it wrote, checked against the snapshot (document::RunFile), and,
///    when the request says so, simulates and predicts it here when it is small, as runMapping does.
/// The run's fingerprint is the one meridian-cli computed from the saved project, so a run whose inputs changed
/// in the workbench meanwhile lands stale; its notes say which launcher computed it. Settings checkLauncher refuses
/// create nothing. The job folder is removed when the run came back or was canceled, and kept when it failed: the
/// error names it, with the command and meridian-cli's last lines (else the launcher's).
Expected<document::Run> runMappingLaunched(const MappingRequest& request, const LauncherSettings& settings,
                                           const Feedback& feedback);

} // namespace meridian::ops
