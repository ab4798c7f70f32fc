#include "app/capture/capture.h"
#include "app/capture/record_import.h"
#include "app/cli/cli_support.h"
#include "app/project/json_util.h"

#include <QJsonObject>

#include <csignal>
#include <cstdio>
#include <cstring>

namespace meridian::cli {

namespace {

constexpr const char* kCaptureUsage
    = "Usage: meridian-cli capture --out PREFIX [--trace] -- COMMAND [ARGUMENTS...]\n"
      "\n"
      "Runs an MPI program with Meridian's tracer preloaded and writes what it sent:\n"
      "  PREFIX.volume.mtx, PREFIX.messages.mtx  bytes and messages per sender -> receiver (world ranks)\n"
      "  PREFIX.collectives.json                 collectives per operation, communicator size and root\n"
      "  PREFIX.phaseN.*                         per phase, when the program calls MPI_Pcontrol(N)\n"
      "  PREFIX.ti, PREFIX.ti.RANK               with --trace: what each rank did, in order (sends, receives,\n"
      "                                          waits, collectives, the computing between them) in SimGrid's\n"
      "                                          time-independent format; meridian-cli predict --trace replays it\n"
      "For Open MPI's mpirun the tracer is passed with -x; other commands get it in their environment.\n"
      "The command's output and exit status are passed on; nothing is written unless it succeeds.\n"
      "Example: meridian-cli capture --out lu -- mpirun -np 16 ./lu.B.16\n"
      "Then:    meridian-cli project add-application P.meridian --name lu --volume lu.volume.mtx "
      "--messages lu.messages.mtx\n";

/// "9 (SIGKILL)": a signal's number and name.
QString signalName(int signal)
{
    const char* abbreviation = sigabbrev_np(signal);
    return abbreviation ? QString("%1 (SIG%2)").arg(signal).arg(abbreviation) : QString::number(signal);
}

} // namespace

int runCapture(const QStringList& arguments)
{
    // Everything after "--" is the command, passed on untouched (its options are not ours).
    const qsizetype separator = arguments.indexOf("--");
    const QStringList own = separator < 0 ? arguments : arguments.mid(0, separator);
    const QStringList command = separator < 0 ? QStringList() : arguments.mid(separator + 1);
    QString prefix;
    capture::CaptureOptions options;
    for (qsizetype i = 1; i < own.size(); ++i) {
        if (own[i] == "--help" || own[i] == "-h") {
            std::fputs(kCaptureUsage, stdout);
            return kExitOk;
        }
        if (own[i] == "--out" && i + 1 < own.size())
            prefix = own[++i];
        else if (own[i].startsWith("--out="))
            prefix = own[i].mid(6);
        else if (own[i] == "--trace")
            options.trace = true;
        else
            return usageError(QString("unexpected '%1' before '--'\n\n%2").arg(own[i], kCaptureUsage));
    }
    if (prefix.isEmpty())
        return usageError(QString("--out PREFIX is required\n\n%1").arg(kCaptureUsage));
    if (command.isEmpty())
        return usageError(QString("give the command to run after '--'\n\n%1").arg(kCaptureUsage));

    Expected<capture::CaptureOutcome> outcome = makeError(ErrorCode::Canceled, "canceled");
    {
        const StopSignals stopSignals;
        const Feedback feedback({}, [] { return stopSignal() != 0; });
        outcome = capture::runCapture(command, prefix, options, feedback);
    }
    if (const int stop = stopSignal(); stop != 0) {
        // The command was stopped and the temporary folder removed; end as the signal asked, as a shell expects.
        std::fprintf(stderr, "meridian-cli capture: stopped by signal %s; nothing was written\n",
                     qPrintable(signalName(stop)));
        std::signal(stop, SIG_DFL);
        std::raise(stop);
        return 128 + stop;
    }
    if (!outcome)
        return report(outcome.error());
    if (outcome->crashed || outcome->exitStatus != 0) {
        // A command killed by signal N ends this one with 128 + N, as a shell reports it.
        const QString how = !outcome->crashed ? QString("exited with status %1").arg(outcome->exitStatus)
            : outcome->signal > 0             ? QString("was killed by signal %1").arg(signalName(outcome->signal))
                                              : QString("crashed");
        std::fprintf(stderr, "meridian-cli capture: '%s' %s; nothing was written\n",
                     command.front().toLocal8Bit().constData(), how.toLocal8Bit().constData());
        return !outcome->crashed ? outcome->exitStatus : outcome->signal > 0 ? 128 + outcome->signal : kExitInternal;
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

int runImportComm(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Turns another tool's record of an MPI run into Meridian's capture files: PREFIX.volume.mtx,\n"
        "PREFIX.messages.mtx (sender -> receiver, world ranks) and PREFIX.collectives.json.\n"
        "Open MPI's monitoring: mpirun --mca pml_monitoring_enable 2 --mca pml_monitoring_enable_output 3\n"
        "  --mca pml_monitoring_filename DIR/NAME ... writes DIR/NAME.RANK.prof (Open MPI 4.1 leaves out\n"
        "  persistent sends started with MPI_Start).\n"
        "OTF2 traces, as EZTrace writes them: mpirun -np N eztrace -t openmpi PROGRAM (sends counted on the\n"
        "  sender's side; receivers resolved through their communicator).");
    parser.addOption({"openmpi-monitoring", "The folder of Open MPI's monitoring files (NAME.RANK.prof).", "DIR"});
    parser.addOption({"name", "The run's NAME, when the folder holds files of several runs.", "NAME"});
    parser.addOption({"otf2", "An OTF2 trace's anchor file (EZTrace: PROGRAM_trace/eztrace_log.otf2).", "ARCHIVE"});
    parser.addOption({"out", "The prefix of the files to write.", "PREFIX"});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (parser.isSet("openmpi-monitoring") == parser.isSet("otf2"))
        return usageError("give one of --openmpi-monitoring DIR and --otf2 ARCHIVE");
    if (!parser.isSet("out"))
        return usageError("--out PREFIX is required");
    auto record = parser.isSet("otf2")
        ? capture::importOtf2(parser.value("otf2").toStdString())
        : capture::importOpenMpiMonitoring(parser.value("openmpi-monitoring").toStdString(),
                                           parser.value("name").toStdString());
    if (!record)
        return report(record.error());
    auto written = capture::writeImportedRecord(*record, parser.value("out").toStdString());
    if (!written)
        return report(written.error());
    printJson(*written);
    return kExitOk;
}

} // namespace meridian::cli
