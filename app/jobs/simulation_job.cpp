#include "app/jobs/simulation_job.h"

#include "core/sim/platform.h"
#include "core/sim/simulator.h"

#include <algorithm>

namespace meridian::jobs {

double simulatedMessages(const document::Run& run, const document::Project& project)
{
    const int a = project.applicationIndex(run.application);
    if (run.kind != document::RunKind::Mapping || a < 0)
        return 0.0;
    const auto& comm = project.applications[a].comm;
    return comm.hasMessages() ? std::max(comm.totalMessages(), static_cast<double>(comm.nonZeros()))
                              : static_cast<double>(comm.nonZeros());
}

Status simulateRun(document::Run& run, const document::Project& project, const model::Network& network,
                   const Feedback& feedback)
{
    const int a = project.applicationIndex(run.application);
    if (run.kind != document::RunKind::Mapping || a < 0)
        return makeError(ErrorCode::InvalidInput,
                         "run " + std::to_string(run.id)
                             + " is not a mapping of one of "
                               "the project's applications");
    auto placement = sim::withHosts(run.placement, project.topology);
    if (!placement)
        return placement.error();
    auto platform = sim::buildPlatform(project.topology, network);
    if (!platform)
        return platform.error();
    const auto& comm = project.applications[a].comm;
    auto result = sim::simulate(*platform, sim::iterationTransfers(comm, *placement), {1},
                                FeedbackRange(feedback, 0.0, 1.0));
    if (!result)
        return result.error();
    std::vector<document::SimulatedLink> links;
    for (int l = 0; l < static_cast<int>(platform->links.size()); ++l) {
        const sim::SimLink& link = platform->links[l];
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
        out.utilisation = result->utilisation(*platform, l);
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

} // namespace meridian::jobs
