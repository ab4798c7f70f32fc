#include "app/mapping/compare_operation.h"

#include "core/common/ranks.h"
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
    if (request.seeds < 1)
        return makeError(ErrorCode::InvalidInput, "compare needs at least one seed");
    std::vector<const mapping::Mapper*> chosen;
    for (const auto& [id, params] : request.mappers) {
        chosen.push_back(mappers.find(id));
        if (!chosen.back())
            return makeError(ErrorCode::InvalidInput, "no mapper '" + id + "'");
    }

    // Run k is mapper k / seeds with seed k % seeds + 1. Each rank takes a block of runs, each run whole on one
    // rank (its mapper sees one process); rank 0 gathers the costs and runtimes in run order and shares them.
    const Ranks& ranks = feedback.ranks();
    const std::int64_t runs = static_cast<std::int64_t>(chosen.size()) * request.seeds;
    const Share share = shareOf(runs, ranks.rank(), ranks.size());
    Feedback alone([&](double fraction, std::string_view stage) { feedback.setProgress(fraction, stage); },
                   [&] { return feedback.isCanceled(); });
    alone.setExecutor(feedback.executor());
    std::vector<double> costs, runtimes;
    Status local;
    for (std::int64_t k = share.begin; k < share.end && local; ++k) {
        const auto& [id, params] = request.mappers[static_cast<std::size_t>(k / request.seeds)];
        const auto seed = static_cast<std::uint64_t>(k % request.seeds + 1);
        const auto begin = std::chrono::steady_clock::now();
        auto mapped = chosen[static_cast<std::size_t>(k / request.seeds)]->map(*problem, params, seed, alone);
        const auto end = std::chrono::steady_clock::now();
        if (!mapped) {
            local = prefixedBy(id + " (seed " + std::to_string(seed) + ")")(mapped.error());
            break;
        }
        costs.push_back(problem->cost().evaluate(mapped->placement.site));
        runtimes.push_back(std::chrono::duration<double>(end - begin).count());
    }
    if (auto agreed = agreeOn(ranks, local); !agreed)
        return agreed.error();
    costs = concatenatedOnEveryRank(ranks, costs);
    runtimes = concatenatedOnEveryRank(ranks, runtimes);

    CompareResult result;
    result.processes = problem->processCount();
    for (std::size_t m = 0; m < chosen.size(); ++m) {
        const auto& [id, params] = request.mappers[m];
        const auto first = static_cast<std::ptrdiff_t>(m) * request.seeds;
        CompareRow row{id,
                       params,
                       {costs.begin() + first, costs.begin() + first + request.seeds},
                       {runtimes.begin() + first, runtimes.begin() + first + request.seeds}};
        if (id == "random")
            result.baselineMeanCost = mean(row.costs);
        result.rows.push_back(std::move(row));
    }
    return result;
}

} // namespace meridian::ops
