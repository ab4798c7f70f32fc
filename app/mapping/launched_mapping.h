#pragma once

#include "app/mapping/map_operation.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <QString>
#include <QStringList>

namespace meridian::ops {

/// How a mapping run goes to an MPI launcher instead of this process: on a cluster (`srun -n {N}`), or on this
/// machine (`mpirun -np {N}`).
struct LauncherSettings {
    /// The command before meridian-cli, split as a shell would (QProcess::splitCommand); `{N}` becomes `ranks`.
    QString launcher = "mpirun -np {N}";
    int ranks = 1;
    /// A folder the launcher's nodes see at the same path as this machine (a shared file system): each run's files
    /// go in a folder of their own under it.
    QString workFolder;
    /// meridian-cli as the launcher's nodes start it.
    QString cliProgram;
};

/// meridian-cli beside this program (where the workbench installs it), or the program MERIDIAN_CLI names.
Expected<QString> cliProgram();

/// The command line a launched run starts: the launcher's words with `{N}` replaced, then `meridian-cli map` on
/// the project saved in `jobFolder` with the request's application, algorithm, parameters (doubles written to
/// round-trip) and seed, `--run-out` and `--progress`. Errors: an empty launcher, fewer than 1 rank, more than 1
/// rank for a mapper that does not split its work (all but monte-carlo).
Expected<QStringList> launchedMapCommand(const MappingRequest& request, const LauncherSettings& settings,
                                         const QString& jobFolder);

/// A command as one line: a word with a space, a quote or nothing in it is double-quoted, as a shell and
/// QProcess::splitCommand (what reads the launcher setting) split it back (a double quote inside such a word is
/// tripled, as splitCommand reads one).
QString shellLine(const QStringList& words);

/// Computes a mapping run through a launcher, as runMapping computes it here:
/// 1. saves the request's project snapshot (and a start placement) in a new folder `meridian-job-XXXXXX` under
///    the work folder;
/// 2. runs launchedMapCommand's command, turning the `--progress` lines of its standard error into `feedback`'s
///    progress; a cancel stops the launcher (SIGTERM, which it passes to its ranks; SIGKILL after 5 s);
/// 3. reads the run back as the runs file it wrote, checked against the snapshot (document::RunFile), and,
///    when the request says so, simulates and predicts it here when it is small, as runMapping does.
/// The run's fingerprint is the one meridian-cli computed from the saved project, so a run whose inputs changed
/// in the workbench meanwhile lands stale. The job folder is removed when the run came back and kept when it did
/// not: the error names it, with the command and the last lines it printed.
Expected<document::Run> runMappingLaunched(const MappingRequest& request, const LauncherSettings& settings,
                                           const Feedback& feedback);

} // namespace meridian::ops
