#include "core/mapping/refine_mapper.h"

#include "core/mapping/host_assignment.h"
#include "core/mapping/local_search.h"

#include <algorithm>
#include <limits>

namespace meridian::mapping {

namespace {

const std::vector<std::string> kBestOf = {"geo", "greedy", "mpipp", "scotch-bw", "scotch-lat", "topology-aware"};
constexpr int kMpippLimitForBest = 1024;

/// Runs `mapper` as a start, forwarding cancellation and mapping its progress into `range`.
Expected<MappingResult> runStart(const Mapper& mapper, const MappingProblem& problem, std::uint64_t seed,
                                 const FeedbackRange& range)
{
    Feedback inner([&](double f, std::string_view stage) { range.setProgress(f, "start: " + std::string(stage)); },
                   [&] { return range.isCanceled(); });
    return mapper.map(problem, seed, inner);
}

/// The best placement of the heuristic mappers (mpipp only up to kMpippLimitForBest processes).
Expected<model::Placement> bestHeuristicStart(const Registry<Mapper>& registry, const MappingProblem& problem,
                                              std::uint64_t seed, const FeedbackRange& range, std::string& bestId)
{
    double bestCost = std::numeric_limits<double>::infinity();
    model::Placement start;
    const int count = static_cast<int>(kBestOf.size());
    for (int i = 0; i < count; ++i) {
        const std::string& id = kBestOf[i];
        const Mapper* mapper = registry.find(id);
        if (!mapper || (id == "mpipp" && problem.processCount() > kMpippLimitForBest))
            continue;
        auto r = runStart(*mapper, problem, seed,
                          range.sub(static_cast<double>(i) / count, static_cast<double>(i + 1) / count));
        if (!r)
            return r.error();
        const double c = problem.cost().evaluate(r->placement.site);
        if (c < bestCost) {
            bestCost = c;
            bestId = id;
            start = std::move(r->placement);
        }
    }
    return start;
}

/// The placement the search starts from: the input, the best heuristic, or one mapper's; adds a note.
Expected<model::Placement> startPlacement(const Registry<Mapper>& registry, const MappingProblem& problem,
                                          const std::string& startId, std::uint64_t seed, const FeedbackRange& range,
                                          std::vector<std::string>& notes)
{
    if (startId == "input") {
        if (!problem.start())
            return makeError(ErrorCode::InvalidInput, "refine: start=input but no start placement was given");
        return *problem.start();
    }
    if (startId == "best") {
        std::string bestId;
        auto start = bestHeuristicStart(registry, problem, seed, range, bestId);
        if (start)
            notes.push_back("started from " + bestId + " (best of the heuristic mappers)");
        return start;
    }
    const Mapper* mapper = registry.find(startId);
    if (!mapper)
        return makeError(ErrorCode::InvalidInput, "refine: unknown start mapper '" + startId + "'");
    auto r = runStart(*mapper, problem, seed, range);
    if (!r)
        return r.error();
    notes.push_back("started from " + startId);
    return std::move(r->placement);
}

/// A site whose processes the search left as they were keeps the start's hosts and slots when they cost no
/// more than the new ones.
void keepStartHosts(const MappingProblem& problem, const model::Placement& start, model::Placement& placement)
{
    const std::vector<int>& siteOf = placement.site;
    for (int s = 0; s < problem.siteCount(); ++s) {
        bool same = true;
        for (int p = 0; p < problem.processCount() && same; ++p)
            same = (siteOf[p] == s) == (start.site[p] == s);
        if (same && hostLevelCost(problem, start, s) <= hostLevelCost(problem, placement, s))
            for (int p = 0; p < problem.processCount(); ++p)
                if (siteOf[p] == s) {
                    placement.host[p] = start.host[p];
                    placement.slot[p] = start.slot[p];
                }
    }
}

} // namespace

std::vector<ParamSpec> RefineMapper::parameters() const
{
    std::vector<std::string> starts;
    for (const auto& id : m_registry.ids())
        if (id != "refine")
            starts.push_back(id);
    starts.push_back("best");
    starts.push_back("input");
    return {ParamSpec::choice("start", "geo", starts,
                              "Where the search starts: a mapper's placement, the best of the heuristic mappers, or "
                              "the input placement."),
            ParamSpec::integer("restarts", -1, -1, 100000,
                               "Perturb-and-descend rounds after the first descent; -1 = automatic (4000 / processes, "
                               "from 8 to 200)."),
            ParamSpec::flag("annealing", false, "Run simulated annealing before the final descents."),
            ParamSpec::integer("anneal_steps", 0, 0, 1000000000, "Annealing steps; 0 = 200 per free process.")};
}

Expected<MappingResult> RefineMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                              std::uint64_t seed, const FeedbackRange& range) const
{
    MappingResult result;
    auto started = startPlacement(m_registry, problem, values.choice("start"), seed, range.sub(0.0, 0.4), result.notes);
    if (!started)
        return started.error();
    model::Placement start = std::move(*started);
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");

    std::vector<bool> movable(problem.processCount(), false);
    for (int p : problem.freeProcesses())
        movable[p] = true;
    std::vector<int> capacity(problem.siteCount());
    for (int s = 0; s < problem.siteCount(); ++s)
        capacity[s] = problem.topology().capacity(s);
    LocalSearch search(problem.cost(), capacity, std::move(movable));
    LocalSearchOptions options;
    options.restarts = static_cast<int>(values.integer("restarts"));
    if (options.restarts < 0)
        options.restarts = std::clamp(4000 / std::max(1, problem.processCount()), 8, 200);
    options.annealing = values.flag("annealing");
    options.annealSteps = values.integer("anneal_steps");
    Random random(seed ^ 0x5bd1e995ULL);
    std::vector<int> siteOf = start.site;
    const double startCost = problem.cost().evaluate(siteOf);
    const double cost = search.run(siteOf, options, random, range.sub(0.4, 0.9));
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    result.notes.push_back("cost " + std::to_string(startCost) + " s -> " + std::to_string(cost) + " s");

    if (siteOf == start.site && start.hasHosts()) {
        result.placement = std::move(start);
        return result;
    }
    auto completed = completeHosts(problem, siteOf, seed, range.sub(0.9, 1.0));
    if (!completed)
        return completed.error();
    result.placement = std::move(*completed);
    if (start.hasHosts())
        keepStartHosts(problem, start, result.placement);
    return result;
}

} // namespace meridian::mapping
