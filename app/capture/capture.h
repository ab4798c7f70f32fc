#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/comm_matrix.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace meridian::capture {

/// Finds libmeridian-trace.so: $MERIDIAN_TRACE_LIBRARY (which must be Meridian's tracer, a readable ELF shared
/// library of this machine), else beside the running executable (the build tree), else in the installed library
/// folder. The error says where it looked, or what is wrong with the file MERIDIAN_TRACE_LIBRARY names.
Expected<QString> traceLibrary();

/// How the tracer reaches the MPI processes: Open MPI's launcher exports variables to the ranks only
/// with `-x NAME=VALUE` (so mpirun itself is never preloaded); any other command gets them in its environment.
enum class Launcher { OpenMpi, Environment };

/// Asks the command's program whether it is Open MPI's launcher (mpirun, mpiexec, orterun by name, then
/// `--version` naming Open MPI).
Launcher detectLauncher(const QStringList& command);

/// A command ready to start with the tracer preloaded.
struct PreparedCommand {
    QString program;
    QStringList arguments;
    QProcessEnvironment environment;
};

/// Adds LD_PRELOAD (before any the user set), MERIDIAN_TRACE_PREFIX and with `trace` MERIDIAN_TRACE_TI=1 to
/// `command`: for Open MPI as `-x` options right after the launcher's name, otherwise in the environment.
PreparedCommand prepareCommand(const QStringList& command, Launcher launcher, const QString& library,
                               const QString& tracePrefix, QProcessEnvironment environment, bool trace = false);

/// Starts `process` with `prepared` and waits for it. Its merged output goes to `output` as it comes (to this
/// process's own standard output and error when `output` is empty, and then it reads this process's standard
/// input; otherwise its input is empty); a canceled `feedback` stops it
/// (terminate, then kill) and returns a Canceled error. An exit status, even a failing one, is not an error:
/// read it from `process`.
Status runToEnd(QProcess& process, const PreparedCommand& prepared,
                const std::function<void(const QByteArray&)>& output, const Feedback& feedback);

struct CaptureOptions {
    /// The command's output, as it comes; when empty, the output goes straight to this process's own
    /// standard output and error.
    std::function<void(const QByteArray& output)> output;
    /// The tracer library; traceLibrary() when empty.
    QString library;
    /// Also record the time-independent trace (PREFIX.ti, the list of PREFIX.ti.RANK).
    bool trace = false;
};

/// What a capture did.
struct CaptureOutcome {
    /// The command's exit status (when it exited normally); nothing is written unless it is 0.
    int exitStatus = 0;
    /// True when the command was killed by a signal (or crashed): nothing is written.
    bool crashed = false;
    /// The signal that killed the command (0 when it exited, or when the signal is not known).
    int signal = 0;
    /// The files written, in the order written (empty unless the command succeeded).
    std::vector<std::string> written;
    int processes = 0;
    /// The phases MPI_Pcontrol started (empty when it was never called).
    std::vector<int> phases;
};

/// Runs `command` with the tracer and, when it succeeds, writes PREFIX.volume.mtx, PREFIX.messages.mtx,
/// PREFIX.collectives.json, when phases were used PREFIX.phaseN.{volume,messages}.mtx, and with options.trace the
/// time-independent trace: PREFIX.ti.RANK per rank and the list PREFIX.ti (checked with io::readTiTrace against
/// the captured matrix; a trace the tracer marked incomplete is an error naming what it could not hold). The tracer writes
/// into a temporary folder beside PREFIX (which rank 0 must be able to write: on a cluster, a shared
/// folder); its files are read back and checked, then written together, so a failed, killed or canceled run
/// leaves the files at PREFIX as they were. Phase and trace files of an earlier capture at PREFIX that this one did not
/// write are removed. A command that fails is an outcome (its status), not an error; errors are a tracer that
/// is not a loadable library, a command that cannot start, a tracer that wrote nothing or something
/// unreadable, and files that cannot be written. The temporary folder is named
/// `.meridian-capture-<pid>@<host>-XXXXXX`; the folders of earlier captures on this host whose process no longer
/// exists (killed with SIGKILL) are removed first. A canceled capture removes its folder.
Expected<CaptureOutcome> runCapture(const QStringList& command, const QString& prefix, const CaptureOptions& options,
                                    const Feedback& feedback);

/// The phases of a capture at `prefix` (the files PREFIX.phaseN.volume.mtx that MPI_Pcontrol(N) led to): each
/// phase's N and its own prefix, PREFIX.phaseN, by increasing N. N is written as the tracer writes it ("%d"): a
/// number with a leading zero or sign (phase01 beside phase1 would be a second phase 1) or outside an int
/// (phase99999999999) is an error naming the file and what was expected.
Expected<std::vector<std::pair<int, QString>>> capturedPhases(const QString& prefix);

/// An application's communication read from a capture, whichever tool made it, told by the path: Meridian's
/// capture files (`PREFIX.volume.mtx`, with `PREFIX.messages.mtx` beside it), one of Open MPI's monitoring
/// files (`NAME.RANK.prof`: the whole run in its folder is read) or an OTF2 trace (`NAME.otf2`). `described`
/// gets a one-line account of what was read.
Expected<model::CommMatrix> readCapture(const QString& path, std::string& described);

} // namespace meridian::capture
