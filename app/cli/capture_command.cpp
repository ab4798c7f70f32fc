#include "app/capture/capture.h"
#include "app/cli/cli_support.h"

#include <cstdio>

namespace meridian::cli {

namespace {

constexpr const char* kCaptureUsage
    = "Usage: meridian-cli capture --out PREFIX -- COMMAND [ARGUMENTS...]\n"
      "\n"
      "Runs an MPI program with Meridian's tracer preloaded and writes what it sent:\n"
      "  PREFIX.volume.mtx, PREFIX.messages.mtx  bytes and messages per sender -> receiver (world ranks)\n"
      "  PREFIX.collectives.json                 collectives per operation, communicator size and root\n"
      "  PREFIX.phaseN.*                         per phase, when the program calls MPI_Pcontrol(N)\n"
      "For Open MPI's mpirun the tracer is passed with -x; other commands get it in their environment.\n"
      "The command's output and exit status are passed on; nothing is written unless it succeeds.\n"
      "Example: meridian-cli capture --out lu -- mpirun -np 16 ./lu.B.16\n"
      "Then:    meridian-cli project add-application P.meridian --name lu --volume lu.volume.mtx "
      "--messages lu.messages.mtx\n";

} // namespace

int runCapture(const QStringList& arguments)
{
    // Everything after "--" is the command, passed on untouched (its options are not ours).
    const qsizetype separator = arguments.indexOf("--");
    const QStringList own = separator < 0 ? arguments : arguments.mid(0, separator);
    const QStringList command = separator < 0 ? QStringList() : arguments.mid(separator + 1);
    QString prefix;
    for (qsizetype i = 1; i < own.size(); ++i) {
        if (own[i] == "--help" || own[i] == "-h") {
            std::fputs(kCaptureUsage, stdout);
            return kExitOk;
        }
        if (own[i] == "--out" && i + 1 < own.size())
            prefix = own[++i];
        else if (own[i].startsWith("--out="))
            prefix = own[i].mid(6);
        else
            return usageError(QString("unexpected '%1' before '--'\n\n%2").arg(own[i], kCaptureUsage));
    }
    if (prefix.isEmpty())
        return usageError(QString("--out PREFIX is required\n\n%1").arg(kCaptureUsage));
    if (command.isEmpty())
        return usageError(QString("give the command to run after '--'\n\n%1").arg(kCaptureUsage));

    const Feedback feedback;
    auto outcome = capture::runCapture(command, prefix, {}, feedback);
    if (!outcome)
        return report(outcome.error());
    if (outcome->crashed || outcome->exitStatus != 0) {
        const QString how = outcome->crashed ? QString("was killed or crashed")
                                             : QString("exited with status %1").arg(outcome->exitStatus);
        std::fprintf(stderr, "meridian-cli capture: '%s' %s; nothing was written\n",
                     command.front().toLocal8Bit().constData(), how.toLocal8Bit().constData());
        return outcome->crashed ? kExitInternal : outcome->exitStatus;
    }
    QStringList phases;
    for (int p : outcome->phases)
        phases << QString::number(p);
    std::fprintf(stderr, "meridian-cli capture: %d processes%s; wrote %zu files:\n", outcome->processes,
                 phases.isEmpty() ? "" : qPrintable(" in phases " + phases.join(", ")), outcome->written.size());
    for (const auto& file : outcome->written)
        std::fprintf(stderr, "  %s\n", file.c_str());
    return kExitOk;
}

} // namespace meridian::cli
