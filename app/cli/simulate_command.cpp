#include "app/capture/capture.h"
#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/problem_loader.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "core/common/feedback.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/cost/bottleneck_cost.h"
#include "core/cost/instance_metrics.h"
#include "core/io/comm_io.h"
#include "core/io/placement_io.h"
#include "core/io/text_file.h"
#include "core/io/ti_trace.h"
#include "core/sim/platform.h"
#include "core/sim/replay.h"
#include "core/sim/simulator.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

namespace meridian::cli {

namespace {

/// A replay expected to take longer than this says so before it starts.
constexpr double kAnnouncedReplaySeconds = 60.0;

/// How many bottleneck links the JSON names.
constexpr int kBottlenecksShown = 5;

QString kindId(sim::SimLink::Kind kind)
{
    switch (kind) {
    case sim::SimLink::Kind::Intra:
        return "intra-site";
    case sim::SimLink::Kind::Uplink:
        return "uplink";
    case sim::SimLink::Kind::Downlink:
        return "downlink";
    case sim::SimLink::Kind::SitePair:
        return "site-pair";
    case sim::SimLink::Kind::HostPair:
        return "host-pair";
    case sim::SimLink::Kind::Gateway:
        return "gateway";
    }
    return "link";
}

/// Whether a link's values came from the distance model (the project had no measured or edited entry), and
/// for uplinks and downlinks whether they were derived from the site-pair links (no up/down MB/s given).
QJsonObject linkOrigin(const sim::SimLink& link, const model::Network& input, const model::Topology& topology)
{
    QJsonObject out;
    switch (link.kind) {
    case sim::SimLink::Kind::Intra:
        out["estimated"] = input.isMissing(link.site, link.site);
        break;
    case sim::SimLink::Kind::SitePair:
        out["estimated"] = input.isMissing(link.from, link.to);
        break;
    case sim::SimLink::Kind::Uplink:
        out["derived"] = !std::isfinite(topology.site(link.site).uplinkMBps);
        break;
    case sim::SimLink::Kind::Downlink:
        out["derived"] = !std::isfinite(topology.site(link.site).downlinkMBps);
        break;
    default:
        break;
    }
    return out;
}

QJsonObject linkJson(const sim::SimPlatform& platform, const sim::SimResult& result, int l, const model::Network& input,
                     const model::Topology& topology)
{
    const sim::SimLink& link = platform.links[l];
    QJsonObject out = linkOrigin(link, input, topology);
    out["id"] = QString::fromStdString(link.id);
    out["kind"] = kindId(link.kind);
    out["latency_s"] = link.latencyS;
    out["bandwidth_Bps"] = link.bandwidthBps;
    out["shared"] = link.shared;
    out["bytes"] = result.links[l].bytes;
    out["busy_fraction"] = result.meanIterationSeconds > 0.0 ? result.links[l].busySeconds / result.meanIterationSeconds
                                                             : 0.0;
    out["utilisation"] = result.utilisation(platform, l);
    return out;
}

QJsonObject platformSummary(const sim::SimPlatform& platform)
{
    QJsonObject out;
    out["hosts"] = platform.hostCount();
    out["links"] = static_cast<int>(platform.links.size());
    out["routes"] = static_cast<double>(platform.declaredRoutes());
    if (platform.crossSiteHostLinks > 0)
        out["host_links_left_out"] = platform.crossSiteHostLinks;
    return out;
}

/// The placement to simulate, refused with the reason when it does not fit the project.
Expected<model::Placement> fittingPlacement(const QCommandLineParser& parser, const document::Project& project,
                                            const document::Application& app)
{
    auto placement = io::readMappingCsv(parser.value("mapping").toStdString(), project.topology,
                                        app.comm.processCount());
    if (!placement)
        return placement.error();
    const auto violations = model::checkPlacement(*placement, project.topology, app.pins);
    if (!violations.empty())
        return makeError(ErrorCode::InvalidInput,
                         "simulate: the mapping does not fit the project: " + violations.front().message
                             + (violations.size() > 1 ? " (and " + std::to_string(violations.size() - 1) + " more)"
                                                      : ""),
                         {parser.value("mapping").toStdString()});
    return model::withHosts(*placement, project.topology);
}

/// A problem loaded from the command line, with the mapping that fits it and the platform of its network (missing
/// entries estimated).
struct PlacedProblem {
    LoadedProblem loaded;
    model::Placement placement;
    model::DistanceModel distances;
    model::Network network;
    sim::SimPlatform platform;

    const document::Project& project() const { return loaded.project; }
    const document::Application& application() const { return loaded.project.applications[loaded.application]; }
};

Expected<PlacedProblem> loadPlacedProblem(const QCommandLineParser& parser)
{
    auto problem = loadProblem(parser);
    if (!problem)
        return problem.error();
    PlacedProblem out;
    out.loaded = std::move(*problem);
    auto placement = fittingPlacement(parser, out.project(), out.application());
    if (!placement)
        return placement.error();
    out.placement = std::move(*placement);
    out.network = out.project().completeNetwork(&out.distances);
    auto platform = sim::buildPlatform(out.project().topology, out.network);
    if (!platform)
        return platform.error();
    out.platform = std::move(*platform);
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
    model::DistanceModel dm;
    auto platform = sim::buildPlatform(project.topology, project.completeNetwork(&dm));
    if (!platform)
        return report(platform.error());
    if (auto written = io::writeTextFileAtomically(parser.value("export-platform").toStdString(),
                                                   sim::platformXml(*platform));
        !written)
        return report(written.error());
    QJsonObject out;
    out["platform"] = parser.value("export-platform");
    out["summary"] = platformSummary(*platform);
    out["network"] = distanceModelJson(dm, project.network);
    printJson(out);
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
    auto placed = loadPlacedProblem(parser);
    if (!placed)
        return report(placed.error());
    const auto& project = placed->project();
    const auto& app = placed->application();
    const model::Placement& placement = placed->placement;
    const model::DistanceModel& dm = placed->distances;
    const model::Network& network = placed->network;
    const sim::SimPlatform& platform = placed->platform;
    if (parser.isSet("export-platform"))
        if (auto written = io::writeTextFileAtomically(parser.value("export-platform").toStdString(),
                                                       sim::platformXml(platform));
            !written)
            return report(written.error());

    std::vector<int> phaseNumbers;
    std::vector<model::CommMatrix> phases;
    if (parser.isSet("phases")) {
        auto read = readPhases(parser.value("phases"), app.comm.processCount(), phaseNumbers);
        if (!read)
            return report(read.error());
        phases = std::move(*read);
    }
    const Feedback feedback;
    auto result = sim::simulate(platform,
                                phases.empty() ? sim::iterationTransfers(app.comm, placement)
                                               : sim::phaseTransfers(phases, placement),
                                {iterations}, FeedbackRange(feedback, 0.0, 1.0));
    if (!result)
        return report(result.error());
    QJsonObject out;
    out["application"] = QString::fromStdString(app.name);
    out["processes"] = app.comm.processCount();
    out["iterations"] = iterations;
    out["time_s"] = result->meanIterationSeconds;
    if (!phases.empty()) {
        // Each phase's simulated time beside its own alpha-beta cost.
        QJsonArray list;
        for (std::size_t k = 0; k < phases.size(); ++k)
            list.append(QJsonObject{
                {"phase", phaseNumbers[k]},
                {"time_s", k < result->phaseSeconds.size() ? result->phaseSeconds[k] : 0.0},
                {"alpha_beta_s", cost::AlphaBetaCost(network, phases[k]).evaluate(placement.site)},
                {"bytes", phases[k].totalBytes()},
            });
        out["phases"] = list;
    }
    const cost::AlphaBetaCost alphaBeta(network, app.comm);
    out["alpha_beta_s"] = alphaBeta.evaluate(placement.site);
    // The analytic contention bound beside it: the busiest link's bytes over its bandwidth.
    const cost::Bottleneck busiest = cost::bottleneck(alphaBeta.breakdown(placement.site).trafficBytes,
                                                      project.topology, network);
    out["bottleneck_s"] = busiest.seconds;
    // CloudMap's instance metrics (eq. 1-4), the analytic measure that sees hosts within a site.
    if (auto m = cost::instanceMetrics(placement, project.topology, network, app.comm); m)
        out["instance"] = instanceJson(*m);
    out["messages"] = static_cast<double>(result->messages);
    out["simulation_wall_s"] = result->wallSeconds;
    QJsonArray links;
    QJsonArray bottlenecks;
    const std::vector<int> order = result->bottlenecks(platform);
    for (int l : order)
        links.append(linkJson(platform, *result, l, project.network, project.topology));
    for (std::size_t i = 0; i < order.size() && i < static_cast<std::size_t>(kBottlenecksShown); ++i)
        bottlenecks.append(QString::fromStdString(platform.links[order[i]].id));
    for (int l = 0; l < static_cast<int>(platform.links.size()); ++l)
        if (!platform.links[l].shared && result->links[l].bytes > 0.0)
            links.append(linkJson(platform, *result, l, project.network, project.topology));
    out["links"] = links;
    out["bottlenecks"] = bottlenecks;
    out["platform"] = platformSummary(platform);
    QJsonArray config;
    for (const std::string& setting : sim::simgridConfiguration())
        config.append(QString::fromStdString(setting));
    out["model"] = QJsonObject{{"simulator", QString::fromStdString(sim::simgridVersion())}, {"config", config}};
    out["network"] = distanceModelJson(dm, project.network);
    if (!app.comm.hasMessages())
        out["note"] = "no message counts were given: each entry is simulated as one message, while the alpha-beta "
                      "cost has no latency term";
    printJson(out);
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
    auto placed = loadPlacedProblem(parser);
    if (!placed)
        return report(placed.error());
    const auto& project = placed->project();
    const auto& app = placed->application();
    const auto& trace = app.trace;
    if (trace) {
        const double estimate = static_cast<double>(trace->lines) / io::kReplayLinesPerSecond;
        if (estimate > kAnnouncedReplaySeconds)
            std::fprintf(stderr,
                         "meridian-cli predict: replaying %lld trace lines takes about %.0f minutes on this machine; "
                         "Ctrl-C stops it\n",
                         static_cast<long long>(trace->lines), estimate / 60.0);
    }
    const StopSignals stopSignals;
    const Feedback feedback({}, [] { return stopSignal() != 0; });
    auto predicted = trace
        ? sim::predictTrace(placed->platform, *trace, placed->placement, FeedbackRange(feedback, 0.0, 1.0))
        : sim::predictBulkSynchronous(placed->platform, app.comm, placed->placement, FeedbackRange(feedback, 0.0, 1.0));
    if (!predicted)
        return report(predicted.error());
    QJsonObject out;
    out["application"] = QString::fromStdString(app.name);
    out["processes"] = app.comm.processCount();
    out["predicted_s"] = predicted->seconds;
    out["model"] = QString::fromStdString(predicted->model);
    out["trace_lines"] = static_cast<double>(predicted->traceLines);
    const double steps = trace ? cost::bulkSynchronousSteps(app.comm) : predicted->steps;
    if (trace) {
        out["trace"] = QString::fromStdString(app.traceFile);
    } else {
        out["steps"] = steps;
        out["replayed_steps"] = static_cast<double>(predicted->replayedSteps);
    }
    const cost::BottleneckCost surrogate(project.topology, placed->network, app.comm, steps);
    out["surrogate_s"] = surrogate.evaluate(placed->placement.site);
    out["alpha_beta_s"] = cost::AlphaBetaCost(placed->network, app.comm).evaluate(placed->placement.site);
    out["replay_wall_s"] = predicted->wallSeconds;
    QJsonArray config;
    for (const std::string& setting : sim::smpiArguments())
        config.append(QString::fromStdString(setting));
    out["simulator"] = QJsonObject{{"name", QString::fromStdString(sim::simgridVersion()) + " SMPI"},
                                   {"config", config}};
    out["network"] = distanceModelJson(placed->distances, project.network);
    if (!app.comm.hasMessages())
        out["note"] = "no message counts were given: one step, each pair's bytes one message";
    printJson(out);
    return kExitOk;
}

} // namespace meridian::cli
