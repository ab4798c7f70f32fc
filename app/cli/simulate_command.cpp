#include "app/capture/capture.h"
#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/problem_loader.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "app/simulation/simulate_operation.h"
#include "core/common/feedback.h"
#include "core/io/comm_io.h"
#include "core/io/placement_io.h"
#include "core/io/text_file.h"
#include "core/io/ti_trace.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonObject>

#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

namespace meridian::cli {

namespace {

/// A replay expected to take longer than this says so before it starts.
constexpr double kAnnouncedReplaySeconds = 60.0;

/// The problem the options name, with --mapping placed on it (ops::placeApplication).
struct PlacedProblem {
    LoadedProblem loaded;
    ops::PlacedApplication placed;
};

Expected<std::unique_ptr<PlacedProblem>> loadPlacedProblem(const QCommandLineParser& parser)
{
    auto problem = loadProblem(parser);
    if (!problem)
        return problem.error();
    // The project is held where the placed application's pointers into it stay valid.
    auto out = std::make_unique<PlacedProblem>();
    out->loaded = std::move(*problem);
    const auto& project = out->loaded.project;
    const int a = out->loaded.application;
    const std::string mapping = parser.value("mapping").toStdString();
    auto placement = io::readMappingCsv(mapping, project.topology, project.applications[a].comm.processCount());
    if (!placement)
        return placement.error();
    auto placed = ops::placeApplication(project, a, *placement, ops::FitCheck::Full, mapping);
    if (!placed)
        return placed.error();
    out->placed = std::move(*placed);
    return out;
}

/// A captured application's phases (capture::capturedPhases: PREFIX.phaseN.volume.mtx, with .messages.mtx when
/// present), in increasing N; `numbers` gets each one's N. Each must have the application's processes.
Expected<std::vector<model::CommMatrix>> readPhases(const QString& prefix, int processes, std::vector<int>& numbers)
{
    const auto listed = capture::capturedPhases(prefix);
    if (!listed)
        return makeError(listed.error().code, "simulate --phases: " + listed.error().message, listed.error().where);
    const auto& found = *listed;
    if (found.empty())
        return makeError(ErrorCode::InvalidInput,
                         "simulate: no phase files " + prefix.toStdString()
                             + ".phaseN.volume.mtx (meridian-cli capture writes them when the program calls "
                               "MPI_Pcontrol(N))");
    std::vector<model::CommMatrix> phases;
    for (const auto& [number, phasePrefix] : found) {
        const QString volume = phasePrefix + ".volume.mtx";
        const QString messages = phasePrefix + ".messages.mtx";
        auto comm = io::readCommMatrix(volume.toStdString(),
                                       QFileInfo::exists(messages) ? messages.toStdString() : std::string());
        if (!comm)
            return comm.error();
        if (comm->processCount() != processes)
            return makeError(ErrorCode::InvalidInput,
                             "simulate: phase " + std::to_string(number) + " has " + std::to_string(comm->processCount())
                                 + " processes, the application " + std::to_string(processes),
                             {volume.toStdString()});
        phases.push_back(std::move(*comm));
        numbers.push_back(number);
    }
    return phases;
}

int exportOnly(const QCommandLineParser& parser)
{
    document::Project project;
    if (parser.isSet("project")) {
        auto loaded = document::ProjectFile::load(parser.value("project"));
        if (!loaded)
            return report(loaded.error());
        project = std::move(*loaded);
    } else {
        auto loaded = loadProblem(parser);
        if (!loaded)
            return report(loaded.error());
        project = std::move(loaded->project);
    }
    auto exported = ops::exportPlatform(project, parser.value("export-platform").toStdString());
    if (!exported)
        return report(exported.error());
    printJson(*exported);
    return kExitOk;
}

} // namespace

int runSimulate(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Predicts a mapping's communication time per iteration by simulation with SimGrid (flow-level CM02 model, "
        "no cross-traffic, no TCP window limit): every process sends its row of the volume matrix, each entry as "
        "its message count of messages one after the other, all rows at once, then a barrier. Flows share each "
        "site's uplink and downlink and each site pair's link. Prints JSON: time_s (per iteration), the alpha-beta "
        "cost, bottleneck_s (the busiest link's bytes / bandwidth) and CloudMap's instance metrics beside it, bytes, "
        "busy fraction and utilisation per link, and the bottleneck links. Missing network "
        "entries are estimated from distance and marked. --phases replays a captured application's phases in "
        "order instead (each phase's time in `phases`). --export-platform writes the platform as SimGrid XML "
        "for smpirun.");
    addProblemOptions(parser);
    parser.addOptions({
        {"mapping", "The mapping CSV to simulate: process,site[,host,slot].", "file"},
        {"iterations", "Iterations to simulate (default 1).", "N", "1"},
        {"phases",
         "Replay a captured application's phases in order instead of one bulk-synchronous exchange: "
         "PREFIX.phaseN.volume.mtx (and .messages.mtx), as meridian-cli capture writes per "
         "MPI_Pcontrol(N), each phase ending with a barrier.",
         "PREFIX"},
        {"export-platform", "Also write the platform as SimGrid XML to this file.", "file"},
    });
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("mapping")) {
        if (parser.isSet("export-platform"))
            return exportOnly(parser);
        return usageError("--mapping is required (or --export-platform alone to write the platform)");
    }
    bool good = false;
    const int iterations = parser.value("iterations").toInt(&good);
    if (!good || iterations < 1)
        return usageError("--iterations needs a whole number of at least 1, not '" + parser.value("iterations") + "'");
    auto problem = loadPlacedProblem(parser);
    if (!problem)
        return report(problem.error());
    const ops::PlacedApplication& placed = (*problem)->placed;
    if (parser.isSet("export-platform"))
        if (auto written = io::writeTextFileAtomically(parser.value("export-platform").toStdString(),
                                                       sim::platformXml(placed.platform));
            !written)
            return report(written.error());
    ops::SimulationRequest request;
    request.iterations = iterations;
    if (parser.isSet("phases")) {
        auto read = readPhases(parser.value("phases"), placed.application->comm.processCount(), request.phaseNumbers);
        if (!read)
            return report(read.error());
        request.phases = std::move(*read);
    }
    auto simulation = ops::simulatePlacement(placed, request, Feedback());
    if (!simulation)
        return report(simulation.error());
    printJson(ops::simulationJson(placed, request, *simulation));
    return kExitOk;
}

int runPredict(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Predicts a mapping's run time by replaying the application with SimGrid's SMPI (smpirun -replay) on the "
        "project's platform (the one simulate --export-platform writes), each rank on the host the mapping names. "
        "An application known by its matrices runs as a bulk-synchronous program of S steps (S the median message "
        "count of its communicating pairs; each pair's messages spread evenly over the steps; every step each rank "
        "posts its receives and sends, then waits for all of them); SMPI models the MPI protocol (eager below 64 "
        "KiB, rendezvous above) and the sharing of every link. When the project keeps a trace with the application "
        "(project set-trace) or --trace names one, the captured application's own trace is replayed instead "
        "(meridian-cli capture --trace): every rank's sends, receives, waits, collectives and "
        "the computing between them, in order. Prints JSON: predicted_s, the model (and its steps), "
        "the step-time estimate refine's default objective minimises (surrogate_s), the alpha-beta cost (SC17 "
        "eq. 3) beside them, and the smpirun settings.");
    addProblemOptions(parser);
    parser.addOptions({{"mapping", "The mapping CSV to predict: process,site[,host,slot].", "file"},
                       {"trace",
                        "Replay the application's time-independent trace instead of the bulk-synchronous model: the "
                        "list PREFIX.ti that meridian-cli capture --trace writes, or a merged trace (checked against "
                        "the application's matrix; it replaces the trace the project keeps with the application).",
                        "PREFIX.ti"}});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("mapping"))
        return usageError("--mapping is required");
    auto problem = loadPlacedProblem(parser);
    if (!problem)
        return report(problem.error());
    const ops::PlacedApplication& placed = (*problem)->placed;
    if (const auto& trace = placed.application->trace) {
        const double estimate = static_cast<double>(trace->lines) / io::kReplayLinesPerSecond;
        if (estimate > kAnnouncedReplaySeconds)
            std::fprintf(stderr,
                         "meridian-cli predict: replaying %lld trace lines takes about %.0f minutes on this machine; "
                         "Ctrl-C stops it\n",
                         static_cast<long long>(trace->lines), estimate / 60.0);
    }
    const StopSignals stopSignals;
    const Feedback feedback({}, [] { return stopSignal() != 0; });
    auto prediction = ops::predictPlacement(placed, feedback);
    if (!prediction)
        return report(prediction.error());
    printJson(ops::predictionJson(placed, *prediction));
    return kExitOk;
}

} // namespace meridian::cli
