#include "app/mapping/compare_operation.h"

#include "core/mapping/mapping_problem.h"
#include "core/sim/replay.h"

#include <chrono>
#include <numeric>

namespace meridian::ops {

double mean(const std::vector<double>& values)
{
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

Expected<CompareResult> compareMappers(const CompareRequest& request, const Registry<mapping::Mapper>& mappers,
                                       const Feedback& feedback)
{
    const auto& project = *request.project;
    const int a = project.applicationIndex(request.application);
    if (a < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no application '" + request.application + "'");
    const auto& app = project.applications[a];
    auto problem = mapping::MappingProblem::create(project.topology, request.completeNetwork, app.comm, app.pins)
                       .transform([&](const mapping::MappingProblem& p) {
                           return p.withJudge(sim::replayJudge(p, app.trace));
                       });
    if (!problem)
        return problem.error();
    CompareResult result;
    result.processes = problem->processCount();
    for (const auto& [id, params] : request.mappers) {
        const mapping::Mapper* mapper = mappers.find(id);
        if (!mapper)
            return makeError(ErrorCode::InvalidInput, "no mapper '" + id + "'");
        CompareRow row{id, params, {}, {}};
        for (int s = 1; s <= request.seeds; ++s) {
            const auto begin = std::chrono::steady_clock::now();
            auto mapped = mapper->map(*problem, params, static_cast<std::uint64_t>(s), feedback);
            const auto end = std::chrono::steady_clock::now();
            if (!mapped)
                return prefixedBy(id + " (seed " + std::to_string(s) + ")")(mapped.error());
            row.costs.push_back(problem->cost().evaluate(mapped->placement.site));
            row.runtimes.push_back(std::chrono::duration<double>(end - begin).count());
        }
        if (id == "random")
            result.baselineMeanCost = mean(row.costs);
        result.rows.push_back(std::move(row));
    }
    return result;
}

} // namespace meridian::ops
