#include "core/partition/partitioner.h"

#include "core/common/random.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace meridian::partition {

Expected<PartitionProblem> PartitionProblem::create(const model::Graph& graph, const model::Topology& topology,
                                                    const cost::TrafficProfile& profile, const std::vector<int>& home,
                                                    std::optional<double> budgetUsd)
{
    auto network = cost::GasNetwork::fromTopology(topology);
    if (!network)
        return network.error();
    if (graph.edgeCount() == 0)
        return makeError(ErrorCode::InvalidInput, "the graph has no edges");
    if (home.size() != graph.vertexCount)
        return makeError(ErrorCode::Internal, "one home per vertex is needed");
    if (budgetUsd && !(*budgetUsd >= 0.0 && std::isfinite(*budgetUsd)))
        return makeError(ErrorCode::InvalidInput, "the budget must be a non-negative number of USD");
    PartitionProblem p;
    p.graph = &graph;
    p.topology = &topology;
    p.network = std::move(*network);
    p.profile = profile;
    p.sizes = cost::vertexSizes(graph, profile);
    p.home.resize(home.size());
    for (std::size_t v = 0; v < home.size(); ++v) {
        if (home[v] < 0 || home[v] >= topology.siteCount())
            return makeError(ErrorCode::InvalidInput,
                             "vertex " + std::to_string(graph.originalId[v]) + " has no home site");
        p.home[v] = static_cast<std::uint8_t>(home[v]);
    }
    p.budgetUsd = budgetUsd;
    return p;
}

std::size_t assignRandomHomes(std::vector<int>& home, int siteCount, std::uint64_t seed)
{
    HomeDraws draws(siteCount, seed);
    std::size_t set = 0;
    for (int& h : home) {
        const int draw = draws.next();
        if (h < 0) {
            h = draw;
            ++set;
        }
    }
    return set;
}

std::string BudgetStatus::text() const
{
    if (!given)
        return "no budget";
    if (met)
        return "within budget";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "over budget by %.6g USD", overUsd);
    return buffer;
}

BudgetStatus budgetStatus(const PartitionProblem& problem, double wanUsd)
{
    BudgetStatus s;
    if (!problem.budgetUsd)
        return s;
    s.given = true;
    s.met = withinBudget(wanUsd, *problem.budgetUsd);
    s.overUsd = s.met ? 0.0 : wanUsd - *problem.budgetUsd;
    return s;
}

Expected<PartitionResult> Partitioner::run(const PartitionProblem& problem, std::uint64_t seed,
                                           const Feedback& feedback) const
{
    return run(problem, ParamValues::defaults(parameters()), seed, feedback);
}

Expected<PartitionResult> Partitioner::run(const PartitionProblem& problem, const ParamValues& given,
                                           std::uint64_t seed, const Feedback& feedback) const
{
    const ParamValues values = given.completed(parameters()); // a saved run's, from before a parameter was added
    if (auto ok = values.validate(parameters()); !ok)
        return ok.error();
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    auto result = runImpl(problem, values, seed, FeedbackRange(feedback, 0.0, 1.0));
    if (!result)
        return result;
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    const auto& g = *problem.graph;
    const auto& p = result->partition;
    if (p.edgeSite.size() != g.edgeCount() || p.masterSite.size() != g.vertexCount)
        return makeError(ErrorCode::Internal, std::string(id()) + " returned a partition of the wrong size");
    const int m = problem.siteCount();
    const auto& moved = result->siteMapping;
    if (!moved.empty() && static_cast<int>(moved.size()) != m)
        return makeError(ErrorCode::Internal, std::string(id()) + " returned a site mapping of the wrong size");
    if (std::any_of(p.edgeSite.begin(), p.edgeSite.end(), [m](std::uint8_t s) { return s >= m; }))
        return makeError(ErrorCode::Internal, std::string(id()) + " left an edge without a site");
    for (std::uint32_t v = 0; v < g.vertexCount; ++v)
        if (p.masterSite[v] != (moved.empty() ? problem.home[v] : moved[problem.home[v]]))
            return makeError(ErrorCode::Internal, std::string(id()) + " moved a master away from its vertex's home");
    feedback.setProgress(1.0, "done");
    return result;
}

StreamOrder::StreamOrder(std::size_t edges, std::uint64_t seed)
{
    const std::size_t count = (edges + kBlock - 1) / kBlock;
    blocks.resize(count);
    for (std::size_t b = 0; b < count; ++b)
        blocks[b] = static_cast<std::uint32_t>(b);
    Random random(seed ^ 0x53545245414dull);
    random.shuffle(blocks);
    offsets.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        offsets[i] = static_cast<std::uint32_t>(
            random.uniformInt(std::min(kBlock, edges - static_cast<std::size_t>(blocks[i]) * kBlock)));
}

} // namespace meridian::partition
