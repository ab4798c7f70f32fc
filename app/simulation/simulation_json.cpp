#include "app/project/json_util.h"
#include "app/simulation/simulate_operation.h"
#include "core/io/text_file.h"

#include <QJsonArray>

#include <cmath>

namespace meridian::ops {

namespace {

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

QJsonObject linkJson(const sim::SimPlatform& platform, const sim::SimResult& result, int l,
                     const document::Project& project)
{
    const sim::SimLink& link = platform.links[l];
    QJsonObject out = linkOrigin(link, project.network, project.topology);
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

QJsonArray stringsJson(const std::vector<std::string>& strings)
{
    QJsonArray out;
    for (const std::string& s : strings)
        out.append(QString::fromStdString(s));
    return out;
}

/// The phases' simulated times beside their own alpha-beta costs.
QJsonArray phasesJson(const SimulationRequest& request, const PlacementSimulation& simulation)
{
    QJsonArray list;
    for (std::size_t k = 0; k < request.phases.size(); ++k)
        list.append(QJsonObject{
            {"phase", k < request.phaseNumbers.size() ? request.phaseNumbers[k] : static_cast<int>(k)},
            {"time_s", k < simulation.result.phaseSeconds.size() ? simulation.result.phaseSeconds[k] : 0.0},
            {"alpha_beta_s", simulation.phaseAlphaBetaSeconds[k]},
            {"bytes", request.phases[k].totalBytes()},
        });
    return list;
}

} // namespace

QJsonObject platformJson(const sim::SimPlatform& platform)
{
    QJsonObject out;
    out["hosts"] = platform.hostCount();
    out["links"] = static_cast<int>(platform.links.size());
    out["routes"] = static_cast<double>(platform.declaredRoutes());
    if (platform.crossSiteHostLinks > 0)
        out["host_links_left_out"] = platform.crossSiteHostLinks;
    return out;
}

Expected<QJsonObject> exportPlatform(const document::Project& project, const std::string& path)
{
    model::DistanceModel distances;
    auto platform = sim::buildPlatform(project.topology, project.completeNetwork(&distances));
    if (!platform)
        return platform.error();
    if (auto written = io::writeTextFileAtomically(path, sim::platformXml(*platform)); !written)
        return written.error();
    QJsonObject out;
    out["platform"] = QString::fromStdString(path);
    out["summary"] = platformJson(*platform);
    out["network"] = document::distanceModelJson(distances, project.network);
    return out;
}

QJsonObject simulationJson(const PlacedApplication& placed, const SimulationRequest& request,
                           const PlacementSimulation& simulation)
{
    const auto& app = *placed.application;
    const auto& project = *placed.project;
    const sim::SimPlatform& platform = placed.platform;
    const sim::SimResult& result = simulation.result;
    QJsonObject out;
    out["application"] = QString::fromStdString(app.name);
    out["processes"] = app.comm.processCount();
    out["iterations"] = request.iterations;
    out["time_s"] = result.meanIterationSeconds;
    if (!request.phases.empty())
        out["phases"] = phasesJson(request, simulation);
    out["alpha_beta_s"] = simulation.alphaBetaSeconds;
    out["bottleneck_s"] = simulation.bottleneckSeconds;
    if (simulation.instance)
        out["instance"] = document::instanceJson(*simulation.instance);
    out["messages"] = static_cast<double>(result.messages);
    out["simulation_wall_s"] = result.wallSeconds;
    QJsonArray links;
    QJsonArray bottlenecks;
    const std::vector<int> order = result.bottlenecks(platform);
    for (int l : order)
        links.append(linkJson(platform, result, l, project));
    for (std::size_t i = 0; i < order.size() && i < static_cast<std::size_t>(kBottlenecksShown); ++i)
        bottlenecks.append(QString::fromStdString(platform.links[order[i]].id));
    for (int l = 0; l < static_cast<int>(platform.links.size()); ++l)
        if (!platform.links[l].shared && result.links[l].bytes > 0.0)
            links.append(linkJson(platform, result, l, project));
    out["links"] = links;
    out["bottlenecks"] = bottlenecks;
    out["platform"] = platformJson(platform);
    out["model"] = QJsonObject{{"simulator", QString::fromStdString(sim::simgridVersion())},
                               {"config", stringsJson(sim::simgridConfiguration())}};
    out["network"] = document::distanceModelJson(placed.distances, project.network);
    if (!app.comm.hasMessages())
        out["note"] = "no message counts were given: each entry is simulated as one message, while the alpha-beta "
                      "cost has no latency term";
    return out;
}

QJsonObject predictionJson(const PlacedApplication& placed, const PlacementPrediction& prediction)
{
    const auto& app = *placed.application;
    const sim::Prediction& predicted = prediction.predicted;
    QJsonObject out;
    out["application"] = QString::fromStdString(app.name);
    out["processes"] = app.comm.processCount();
    out["predicted_s"] = predicted.seconds;
    out["model"] = QString::fromStdString(predicted.model);
    out["trace_lines"] = static_cast<double>(predicted.traceLines);
    if (prediction.fromTrace) {
        out["trace"] = QString::fromStdString(app.traceFile);
    } else {
        out["steps"] = prediction.steps;
        out["replayed_steps"] = static_cast<double>(predicted.replayedSteps);
    }
    out["surrogate_s"] = prediction.surrogateSeconds;
    out["alpha_beta_s"] = prediction.alphaBetaSeconds;
    out["replay_wall_s"] = predicted.wallSeconds;
    out["simulator"] = QJsonObject{{"name", QString::fromStdString(sim::simgridVersion()) + " SMPI"},
                                   {"config", stringsJson(sim::smpiArguments())}};
    out["network"] = document::distanceModelJson(placed.distances, placed.project->network);
    if (!app.comm.hasMessages())
        out["note"] = "no message counts were given: one step, each pair's bytes one message";
    return out;
}

} // namespace meridian::ops
