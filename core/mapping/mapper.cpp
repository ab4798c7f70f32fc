#include "core/mapping/mapper.h"

#include "core/mapping/host_assignment.h"

#include <cmath>

namespace meridian::mapping {

namespace {

Error canceled() { return makeError(ErrorCode::Canceled, "canceled"); }

} // namespace

Expected<MappingResult> Mapper::map(const MappingProblem& problem, std::uint64_t seed, const Feedback& feedback) const
{
    return map(problem, ParamValues::defaults(parameters()), seed, feedback);
}

Expected<MappingResult> Mapper::map(const MappingProblem& problem, const ParamValues& given, std::uint64_t seed,
                                    const Feedback& feedback) const
{
    const ParamValues values = given.completed(parameters()); // a saved run's, from before a parameter was added
    if (auto ok = values.validate(parameters()); !ok)
        return ok.error();
    if (feedback.isCanceled())
        return canceled();
    const FeedbackRange all(feedback, 0.0, 1.0);
    auto result = mapImpl(problem, values, seed, all.sub(0.0, 0.9));
    if (!result)
        return result.error();
    if (feedback.isCanceled())
        return canceled();
    model::Placement& placement = result->placement;
    if (placement.processCount() != problem.processCount())
        return makeError(ErrorCode::Internal, std::string(id()) + " returned a placement of the wrong size");
    if (!placement.hasHosts()) {
        auto completed = completeHosts(problem, placement.site, seed, all.sub(0.9, 1.0));
        if (!completed)
            return completed.error();
        placement = std::move(*completed);
    }
    const auto violations = model::checkPlacement(placement, problem.topology(), problem.constraints());
    if (!violations.empty())
        return makeError(ErrorCode::Internal,
                         std::string(id()) + " produced an invalid placement: " + violations.front().message);
    // MappingProblem::create refuses traffic whose cost could overflow; a mapper never hands back a placement
    // whose cost is not a number (it would print as null).
    if (const double cost = problem.cost().evaluate(placement.site); !std::isfinite(cost))
        return makeError(ErrorCode::Internal,
                         std::string(id()) + " produced a placement whose cost is not a finite number");
    feedback.setProgress(1.0, "done");
    return result;
}

} // namespace meridian::mapping
