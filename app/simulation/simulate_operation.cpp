#include "app/simulation/simulate_operation.h"

#include "core/cost/alpha_beta_cost.h"
#include "core/cost/bottleneck_cost.h"

#include <algorithm>

namespace meridian::ops {

double simulatedMessages(const document::Run& run, const document::Project& project)
{
    const int a = project.applicationIndex(run.application);
    if (run.kind != document::RunKind::Mapping || a < 0)
        return 0.0;
    const auto& comm = project.applications[a].comm;
    return comm.hasMessages() ? std::max(comm.totalMessages(), static_cast<double>(comm.nonZeros()))
                              : static_cast<double>(comm.nonZeros());
}

Expected<PlacedApplication> placeApplication(const document::Project& project, int application,
                                             const model::Placement& placement, FitCheck check,
                                             const std::string& source, const model::Network* completeNetwork)
{
    if (application < 0 || application >= static_cast<int>(project.applications.size()))
        return makeError(ErrorCode::InvalidInput, "the project has no application " + std::to_string(application));
    PlacedApplication out;
    out.project = &project;
    out.application = &project.applications[static_cast<std::size_t>(application)];
    const SourceLocation where{source};
    if (static_cast<int>(placement.site.size()) != out.application->comm.processCount())
        return makeError(ErrorCode::InvalidInput,
                         "the mapping places " + std::to_string(placement.site.size())
                             + " processes, the application has " + std::to_string(out.application->comm.processCount()),
                         where);
    const auto violations = check == FitCheck::Full
        ? model::checkPlacement(placement, project.topology, out.application->pins)
        : std::vector<model::Violation>();
    if (!violations.empty())
        return makeError(ErrorCode::InvalidInput,
                         "the mapping does not fit the project: " + violations.front().message
                             + (violations.size() > 1 ? " (and " + std::to_string(violations.size() - 1) + " more)"
                                                      : ""),
                         where);
    auto withHosts = model::withHosts(placement, project.topology);
    if (!withHosts)
        return withHosts.error();
    out.placement = std::move(*withHosts);
    out.network = completeNetwork ? *completeNetwork : project.completeNetwork(&out.distances);
    auto platform = sim::buildPlatform(project.topology, out.network);
    if (!platform)
        return platform.error();
    out.platform = std::move(*platform);
    return out;
}

namespace {

/// A mapping run placed for SimGrid.
Expected<PlacedApplication> placedRun(const document::Run& run, const document::Project& project,
                                      const model::Network& network)
{
    const int a = project.applicationIndex(run.application);
    if (run.kind != document::RunKind::Mapping || a < 0)
        return makeError(ErrorCode::InvalidInput,
                         "run " + std::to_string(run.id) + " is not a mapping of one of the project's applications");
    return placeApplication(project, a, run.placement, FitCheck::Processes, {}, &network);
}

} // namespace

Expected<PlacementSimulation> simulatePlacement(const PlacedApplication& placed, const SimulationRequest& request,
                                                const Feedback& feedback)
{
    if (request.iterations < 1)
        return makeError(ErrorCode::InvalidInput, "a simulation needs at least one iteration");
    const model::CommMatrix& comm = placed.application->comm;
    auto result = sim::simulate(placed.platform,
                                request.phases.empty() ? sim::iterationTransfers(comm, placed.placement)
                                                       : sim::phaseTransfers(request.phases, placed.placement),
                                {request.iterations}, FeedbackRange(feedback, 0.0, 1.0));
    if (!result)
        return result.error();
    PlacementSimulation out;
    out.result = std::move(*result);
    const cost::AlphaBetaCost alphaBeta(placed.network, comm);
    out.alphaBetaSeconds = alphaBeta.evaluate(placed.placement.site);
    out.bottleneckSeconds = cost::bottleneck(alphaBeta.breakdown(placed.placement.site).trafficBytes,
                                             placed.project->topology, placed.network)
                                .seconds;
    if (auto m = cost::instanceMetrics(placed.placement, placed.project->topology, placed.network, comm); m)
        out.instance = *m;
    for (const auto& phase : request.phases)
        out.phaseAlphaBetaSeconds.push_back(cost::AlphaBetaCost(placed.network, phase).evaluate(placed.placement.site));
    return out;
}

Expected<PlacementPrediction> predictPlacement(const PlacedApplication& placed, const Feedback& feedback)
{
    const auto& app = *placed.application;
    const FeedbackRange range(feedback, 0.0, 1.0);
    auto predicted = app.trace ? sim::predictTrace(placed.platform, *app.trace, placed.placement, range)
                               : sim::predictBulkSynchronous(placed.platform, app.comm, placed.placement, range);
    if (!predicted)
        return predicted.error();
    PlacementPrediction out;
    out.predicted = std::move(*predicted);
    out.fromTrace = static_cast<bool>(app.trace);
    out.steps = out.fromTrace ? cost::bulkSynchronousSteps(app.comm) : out.predicted.steps;
    out.surrogateSeconds = cost::BottleneckCost(placed.project->topology, placed.network, app.comm, out.steps)
                               .evaluate(placed.placement.site);
    out.alphaBetaSeconds = cost::AlphaBetaCost(placed.network, app.comm).evaluate(placed.placement.site);
    return out;
}

namespace {

/// The instances are paid for the time the application runs: once a run has a predicted time, its instance cost (and
/// its dollars) are the nodes' hourly price over that time, not over the traffic cost that stood in for it.
void chargeInstancesFor(document::Run& run, double seconds)
{
    const auto perHour = run.metric("instance_usd_per_hour");
    if (!perHour)
        return;
    const double instance = *perHour * seconds / 3600.0;
    for (auto& m : run.metrics) {
        if (m.id == "instance_usd")
            m.value = instance;
        else if (m.id == "usd")
            m.value = instance + run.metric("wan_usd").value_or(0.0);
    }
}

} // namespace

Status predictRun(document::Run& run, const document::Project& project, const model::Network& network,
                  const Feedback& feedback)
{
    auto placed = placedRun(run, project, network);
    if (!placed)
        return placed.error();
    auto prediction = predictPlacement(*placed, feedback);
    if (!prediction)
        return prediction.error();
    const bool trace = prediction->fromTrace;
    const sim::Prediction& predicted = prediction->predicted;
    std::erase_if(run.metrics, [](const document::RunMetric& m) { return m.id == "predicted_s"; });
    run.metrics.insert(run.metrics.begin(), {"predicted_s", "Predicted time", "s", predicted.seconds});
    chargeInstancesFor(run, predicted.seconds);
    std::erase_if(run.notes, [](const std::string& note) { return note.starts_with("predicted time: "); });
    const auto steps = static_cast<long long>(predicted.steps);
    run.notes.push_back(trace ? "predicted time: SMPI replay of the application's captured trace ("
                                + std::to_string(predicted.traceLines) + " actions)"
                            : predicted.replayedSteps >= steps ? "predicted time: SMPI replay of all "
                                + std::to_string(steps) + " bulk-synchronous steps (the median message count)"
                                                               : "predicted time: SMPI replay of "
                                + std::to_string(predicted.replayedSteps) + " of " + std::to_string(steps)
                                + " bulk-synchronous steps (the median message count), scaled to all of them");
    return {};
}

Status simulateRun(document::Run& run, const document::Project& project, const model::Network& network,
                   const Feedback& feedback)
{
    auto placed = placedRun(run, project, network);
    if (!placed)
        return placed.error();
    auto simulation = simulatePlacement(*placed, {}, feedback);
    if (!simulation)
        return simulation.error();
    const sim::SimPlatform& platform = placed->platform;
    const sim::SimResult& result = simulation->result;
    std::vector<document::SimulatedLink> links;
    for (int l = 0; l < static_cast<int>(platform.links.size()); ++l) {
        const sim::SimLink& link = platform.links[l];
        document::SimulatedLink out;
        switch (link.kind) {
        case sim::SimLink::Kind::Uplink:
            out.from = link.site;
            break;
        case sim::SimLink::Kind::Downlink:
            out.to = link.site;
            break;
        case sim::SimLink::Kind::SitePair:
            out.from = link.from;
            out.to = link.to;
            break;
        default:
            continue;
        }
        out.bytes = result.links[l].bytes;
        out.busyFraction = result.meanIterationSeconds > 0.0 ? result.links[l].busySeconds / result.meanIterationSeconds
                                                             : 0.0;
        out.utilisation = result.utilisation(platform, l);
        if (out.bytes > 0.0)
            links.push_back(out);
    }
    std::erase_if(run.metrics, [](const document::RunMetric& m) { return m.id == "simulated_s"; });
    // Beside the alpha-beta cost (first), so that tables show the two side by side.
    auto at = std::find_if(run.metrics.begin(), run.metrics.end(),
                           [](const document::RunMetric& m) { return m.id == "cost_s"; });
    run.metrics.insert(at == run.metrics.end() ? at : at + 1,
                       {"simulated_s", "Simulated time", "s", result.meanIterationSeconds});
    run.simulatedLinks = std::move(links);
    return {};
}

std::optional<SimulationComparison> compareWithSimulation(const document::Run& run)
{
    const auto simulated = run.metric("simulated_s");
    const auto cost = run.metric("cost_s");
    if (!simulated || !cost || run.simulatedLinks.empty())
        return std::nullopt;
    SimulationComparison out;
    out.alphaBetaSeconds = *cost;
    out.simulatedSeconds = *simulated;
    const auto sites = static_cast<int>(run.timeSeconds.rows());
    const auto alphaBeta = [&](int from, int to) {
        return from >= 0 && to >= 0 && from < sites && to < sites ? run.timeSeconds(from, to) : 0.0;
    };
    for (const auto& l : run.simulatedLinks)
        out.links.push_back({l.from, l.to, l.bytes, l.from == l.to ? 0.0 : alphaBeta(l.from, l.to), true,
                             l.busyFraction * out.simulatedSeconds, l.busyFraction, l.utilisation});
    std::stable_sort(out.links.begin(), out.links.end(),
                     [](const LinkComparison& x, const LinkComparison& y) { return x.utilisation > y.utilisation; });
    // A site pair the alpha-beta cost prices but the simulation never loaded (no bytes: latency alone) keeps its
    // alpha-beta part visible.
    const auto listed = [&](int from, int to) {
        return std::any_of(out.links.begin(), out.links.end(),
                           [&](const LinkComparison& l) { return l.from == from && l.to == to; });
    };
    for (int a = 0; a < sites; ++a)
        for (int b = 0; b < sites; ++b)
            if (a != b && alphaBeta(a, b) > 0.0 && !listed(a, b))
                out.links.push_back({a, b, 0.0, alphaBeta(a, b), true, 0.0, 0.0, 0.0});
    const bool hasTraffic = run.trafficBytes.rows() == sites && run.trafficBytes.cols() == sites;
    for (int s = 0; s < sites; ++s)
        if (alphaBeta(s, s) > 0.0)
            out.links.push_back(
                {s, s, hasTraffic ? run.trafficBytes(s, s) : 0.0, alphaBeta(s, s), false, 0.0, 0.0, 0.0});
    for (int i = 0; i < static_cast<int>(out.links.size()); ++i) {
        const LinkComparison& l = out.links[static_cast<std::size_t>(i)];
        if (l.alphaBetaSeconds > 0.0
            && (out.costliest < 0
                || l.alphaBetaSeconds > out.links[static_cast<std::size_t>(out.costliest)].alphaBetaSeconds))
            out.costliest = i;
        if (!l.simulated || l.busyFraction <= 0.0)
            continue;
        const LinkComparison* b = out.busiest < 0 ? nullptr : &out.links[static_cast<std::size_t>(out.busiest)];
        if (!b || l.utilisation > b->utilisation
            || (l.utilisation == b->utilisation && l.busyFraction > b->busyFraction))
            out.busiest = i;
    }
    return out;
}

} // namespace meridian::ops
