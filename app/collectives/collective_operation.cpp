#include "app/collectives/collective_operation.h"

#include "core/collectives/schedule.h"

namespace meridian::ops {

Expected<std::shared_ptr<const CollectivePlan>> planCollective(CollectivePlan plan, const model::Topology& topology,
                                                               const model::Network& network, const Feedback& feedback)
{
    using namespace collectives;
    const PlanContext context{plan.layout, topology, network};
    feedback.setProgress(0.05, "sizes");
    auto sweep = sweepSizes(plan.request, context, kCollectiveSweepMin, kCollectiveSweepMax);
    if (!sweep)
        return sweep.error();
    plan.sweep = std::move(*sweep);
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    feedback.setProgress(0.6, "chosen size and process counts");
    auto ranking = rankAlgorithms(plan.request, context);
    if (!ranking)
        return ranking.error();
    plan.atSize = std::move(*ranking);
    auto byCount = sweepProcesses(plan.request, context);
    if (!byCount)
        return byCount.error();
    plan.byCount = std::move(*byCount);
    const AlgorithmTime& best = plan.atSize.results.front();
    const CollectiveSpec spec{plan.request.operation, best.algorithm, plan.request.root,
                              plan.request.bytes,     best.chunks,    plan.request.shuffle};
    auto schedule = buildSchedule(spec, plan.layout, &network);
    if (!schedule)
        return schedule.error();
    plan.bestSchedule = std::move(*schedule);
    return std::make_shared<const CollectivePlan>(std::move(plan));
}

} // namespace meridian::ops
