#include "app/partitioning/budget_sweep.h"

#include "app/partitioning/partition_operation.h"
#include "core/common/ranks.h"
#include "core/cost/gas_cost.h"
#include "core/partition/cost_bound.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace meridian::ops {

namespace {

/// The values a point travels between ranks as, in this order.
constexpr std::size_t kPointValues = 8;

/// Runs `step` with a Feedback of its own: its progress lands in [from, to] of `feedback`'s, its stages named after
/// `what`, it is canceled with `feedback`, and it runs whole on this process.
template <typename Step>
auto inRange(const Feedback& feedback, double from, double to, const std::string& what, Step step)
{
    Feedback inner(
        [&](double f, std::string_view stage) {
            feedback.setProgress(from + (to - from) * f, stage == what ? what : what + ": " + std::string(stage));
        },
        [&] { return feedback.isCanceled(); });
    inner.setExecutor(feedback.executor());
    return step(inner);
}

/// Finds B (the given budget, or GrapH's cost) on rank 0 and the bound on rank 1 (rank 0 too when alone); every rank
/// gets both, or the first failure.
Expected<std::pair<double, double>> budgetAndBound(const BudgetSweepRequest& request,
                                                   const partition::PartitionProblem& problem,
                                                   const Registry<partition::Partitioner>& registry,
                                                   const Feedback& feedback)
{
    const Ranks& ranks = feedback.ranks();
    Status local;
    std::vector<double> found;
    if (ranks.isRoot()) {
        auto cost = request.budgetUsd ? Expected<double>(*request.budgetUsd)
                                      : inRange(feedback, 0.1, 0.2, "GrapH's cost", [&](const Feedback& inner) {
                                            return graphHCostOf(problem, registry, request.seed, inner);
                                        });
        if (cost)
            found.push_back(*cost);
        else
            local = cost.error();
    }
    if (local && ranks.rank() == std::min(1, ranks.size() - 1)) {
        auto bound = inRange(feedback, 0.2, 0.25, "the lowest cost", [&](const Feedback& inner) {
            return partition::costLowerBound(problem, FeedbackRange(inner, 0.0, 1.0));
        });
        if (bound)
            found.push_back(*bound);
        else
            local = bound.error();
    }
    if (auto agreed = agreeOn(ranks, local); !agreed)
        return agreed.error();
    found = concatenatedOnEveryRank(ranks, found); // B from rank 0, then the bound
    return std::pair<double, double>{found.at(0), found.at(1)};
}

/// Runs one partitioner at one budget and returns its values (kPointValues of them, in BudgetSweepPoint's order from
/// transferSeconds on).
Expected<std::vector<double>> runPoint(partition::PartitionProblem& problem, const partition::Partitioner& partitioner,
                                       const ParamValues& params, double budgetUsd, double boundUsd, std::uint64_t seed,
                                       const Feedback& feedback)
{
    problem.budgetUsd = budgetUsd;
    auto partitioned = partitionGraph(problem, partitioner, params, seed, feedback, boundUsd);
    if (!partitioned)
        return partitioned.error();
    const auto& result = partitioned->result;
    const cost::GasMetrics m = result.metrics
        ? *result.metrics
        : cost::evaluateGas(*problem.graph, result.partition, problem.sizes, problem.network);
    const auto budget = partition::budgetStatus(problem, m.wanUsd);
    return std::vector<double>{m.transferSeconds, m.gatherSeconds,     m.applySeconds, m.wanUsd,
                               m.wanBytes,        m.replicationFactor, budget.overUsd, partitioned->runtimeSeconds};
}

BudgetSweepPoint pointOf(double fraction, double budgetUsd, const std::string& algorithm, const double* v)
{
    BudgetSweepPoint p;
    p.fraction = fraction;
    p.budgetUsd = budgetUsd;
    p.algorithm = algorithm;
    p.transferSeconds = v[0];
    p.gatherSeconds = v[1];
    p.applySeconds = v[2];
    p.wanUsd = v[3];
    p.wanBytes = v[4];
    p.replicationFactor = v[5];
    p.overBudgetUsd = v[6];
    p.runtimeSeconds = v[7];
    return p;
}

} // namespace

BudgetSweepPlan planBudgetSweep(double budgetUsd, std::optional<double> boundUsd, const std::vector<double>& fractions)
{
    BudgetSweepPlan plan;
    for (const double f : fractions)
        (boundUsd && !partition::checkBudgetReachable(budgetUsd * f, *boundUsd) ? plan.skipped : plan.run).push_back(f);
    return plan;
}

Expected<std::vector<double>> parseBudgetFractions(std::string_view text)
{
    std::vector<double> fractions;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        std::string_view part = text.substr(at, comma - at);
        at = comma + 1;
        while (!part.empty() && part.front() == ' ')
            part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ')
            part.remove_suffix(1);
        double f = 0.0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), f);
        std::string quoted = "'";
        quoted.append(part).append("'");
        if (part.empty() || ec != std::errc() || end != part.data() + part.size() || !(f > 0.0 && f <= 10.0))
            return makeError(ErrorCode::InvalidInput,
                             quoted + " is not a fraction of the budget above 0 and at most 10");
        if (std::find(fractions.begin(), fractions.end(), f) != fractions.end())
            return makeError(ErrorCode::InvalidInput, quoted + " is given twice");
        fractions.push_back(f);
    }
    return fractions;
}

Expected<BudgetSweepResult> runBudgetSweep(const BudgetSweepRequest& request,
                                           const Registry<partition::Partitioner>& registry, const Feedback& feedback)
{
    if (request.partitioners.empty())
        return makeError(ErrorCode::InvalidInput, "a budget sweep needs at least one partitioner");
    std::vector<const partition::Partitioner*> partitioners;
    for (const auto& [id, params] : request.partitioners) {
        const partition::Partitioner* p = registry.find(id);
        if (!p)
            return makeError(ErrorCode::InvalidInput, "no partitioner '" + id + "'");
        partitioners.push_back(p);
    }
    auto profile = cost::TrafficProfile::fromId(request.profile, request.activeFraction);
    if (!profile)
        return profile.error();
    const document::Project& project = *request.project;
    auto loaded = inRange(feedback, 0.0, 0.1, "reading the graph",
                          [&](const Feedback& inner) { return readProjectGraph(project, request.graph, inner); });
    auto problem = loaded
        ? partition::PartitionProblem::create(loaded->graph, project.topology, *profile, loaded->home, std::nullopt)
              .transform_error(prefixedBy("graph '" + request.graph + "'"))
        : Expected<partition::PartitionProblem>(loaded.error());
    // Every rank read the graph (a node that cannot see it, or sees another file, stops them all) before any waits
    // for another.
    if (auto agreed = agreeOn(feedback.ranks(), problem ? Status{} : Status(problem.error())); !agreed)
        return agreed.error();
    auto found = budgetAndBound(request, *problem, registry, feedback);
    if (!found)
        return found.error();
    BudgetSweepResult result;
    result.budgetUsd = found->first;
    result.budgetFromGraphH = !request.budgetUsd;
    result.costBoundUsd = found->second;
    const BudgetSweepPlan plan = planBudgetSweep(result.budgetUsd, result.costBoundUsd, request.fractions);
    result.skipped = plan.skipped;
    if (plan.run.empty())
        return makeError(ErrorCode::InvalidInput, [&] {
            char text[300];
            std::snprintf(text, sizeof text,
                          "every budget of the sweep is below the lowest cost any partition can reach (%.6g USD per "
                          "iteration; B is %.6g USD): raise B or the fractions",
                          result.costBoundUsd, result.budgetUsd);
            return std::string(text);
        }());

    // Point u is fraction u / P with partitioner u % P; each rank runs a block of points.
    const Ranks& ranks = feedback.ranks();
    const std::size_t count = partitioners.size();
    const auto units = static_cast<std::int64_t>(plan.run.size() * count);
    const Share share = shareOf(units, ranks.rank(), ranks.size());
    std::vector<double> values;
    Status local;
    for (std::int64_t u = share.begin; u < share.end && local; ++u) {
        const double fraction = plan.run[static_cast<std::size_t>(u) / count];
        const std::size_t k = static_cast<std::size_t>(u) % count;
        const auto width = static_cast<double>(share.end - share.begin);
        const double from = 0.25 + 0.75 * static_cast<double>(u - share.begin) / width;
        char stage[160];
        std::snprintf(stage, sizeof stage, "%s at %.3g B", request.partitioners[k].first.c_str(), fraction);
        auto point = inRange(feedback, from, from + 0.75 / width, stage, [&](const Feedback& inner) {
            return runPoint(*problem, *partitioners[k], request.partitioners[k].second, result.budgetUsd * fraction,
                            result.costBoundUsd, request.seed, inner);
        });
        if (!point)
            local = prefixedBy(std::string(stage))(point.error());
        else
            values.insert(values.end(), point->begin(), point->end());
    }
    if (auto agreed = agreeOn(ranks, local); !agreed)
        return agreed.error();
    values = concatenatedOnEveryRank(ranks, values);
    for (std::int64_t u = 0; u < units; ++u) {
        const double fraction = plan.run[static_cast<std::size_t>(u) / count];
        result.points.push_back(pointOf(fraction, result.budgetUsd * fraction,
                                        request.partitioners[static_cast<std::size_t>(u) % count].first,
                                        values.data() + static_cast<std::size_t>(u) * kPointValues));
    }
    feedback.setProgress(1.0, "done");
    return result;
}

} // namespace meridian::ops
