#include "app/simulation/simulate_operation.h"

#include "core/sim/platform.h"
#include "core/sim/replay.h"
#include "core/sim/simulator.h"

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

namespace {

/// A mapping run made ready for SimGrid: its application, its placement with hosts and the platform.
struct PlacedRun {
    const document::Application* application = nullptr;
    const model::CommMatrix* comm = nullptr;
    model::Placement placement;
    sim::SimPlatform platform;
};

Expected<PlacedRun> placedRun(const document::Run& run, const document::Project& project, const model::Network& network)
{
    const int a = project.applicationIndex(run.application);
    if (run.kind != document::RunKind::Mapping || a < 0)
        return makeError(ErrorCode::InvalidInput,
                         "run " + std::to_string(run.id) + " is not a mapping of one of the project's applications");
    auto placement = model::withHosts(run.placement, project.topology);
    if (!placement)
        return placement.error();
    auto platform = sim::buildPlatform(project.topology, network);
    if (!platform)
        return platform.error();
    const auto& app = project.applications[a];
    return PlacedRun{&app, &app.comm, std::move(*placement), std::move(*platform)};
}

} // namespace

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
    const auto& trace = placed->application->trace;
    const FeedbackRange range(feedback, 0.0, 1.0);
    auto predicted = trace ? sim::predictTrace(placed->platform, *trace, placed->placement, range)
                           : sim::predictBulkSynchronous(placed->platform, *placed->comm, placed->placement, range);
    if (!predicted)
        return predicted.error();
    std::erase_if(run.metrics, [](const document::RunMetric& m) { return m.id == "predicted_s"; });
    run.metrics.insert(run.metrics.begin(), {"predicted_s", "Predicted time", "s", predicted->seconds});
    chargeInstancesFor(run, predicted->seconds);
    std::erase_if(run.notes, [](const std::string& note) { return note.starts_with("predicted time: "); });
    const auto steps = static_cast<long long>(predicted->steps);
    run.notes.push_back(trace ? "predicted time: SMPI replay of the application's captured trace ("
                                + std::to_string(predicted->traceLines) + " actions)"
                            : predicted->replayedSteps >= steps ? "predicted time: SMPI replay of all "
                                + std::to_string(steps) + " bulk-synchronous steps (the median message count)"
                                                                : "predicted time: SMPI replay of "
                                + std::to_string(predicted->replayedSteps) + " of " + std::to_string(steps)
                                + " bulk-synchronous steps (the median message count), scaled to all of them");
    return {};
}

Status simulateRun(document::Run& run, const document::Project& project, const model::Network& network,
                   const Feedback& feedback)
{
    auto placed = placedRun(run, project, network);
    if (!placed)
        return placed.error();
    const model::CommMatrix& comm = *placed->comm;
    const model::Placement& placement = placed->placement;
    const sim::SimPlatform& platform = placed->platform;
    auto result = sim::simulate(platform, sim::iterationTransfers(comm, placement), {1},
                                FeedbackRange(feedback, 0.0, 1.0));
    if (!result)
        return result.error();
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
        out.bytes = result->links[l].bytes;
        out.busyFraction = result->meanIterationSeconds > 0.0
            ? result->links[l].busySeconds / result->meanIterationSeconds
            : 0.0;
        out.utilisation = result->utilisation(platform, l);
        if (out.bytes > 0.0)
            links.push_back(out);
    }
    std::erase_if(run.metrics, [](const document::RunMetric& m) { return m.id == "simulated_s"; });
    // Beside the alpha-beta cost (first), so that tables show the two side by side.
    auto at = std::find_if(run.metrics.begin(), run.metrics.end(),
                           [](const document::RunMetric& m) { return m.id == "cost_s"; });
    run.metrics.insert(at == run.metrics.end() ? at : at + 1,
                       {"simulated_s", "Simulated time", "s", result->meanIterationSeconds});
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
