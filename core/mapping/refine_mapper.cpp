#include "core/mapping/refine_mapper.h"

#include "core/common/readable.h"
#include "core/mapping/host_assignment.h"
#include "core/mapping/local_search.h"
#include "core/mapping/search_portfolio.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

namespace meridian::mapping {

namespace {

const std::vector<std::string> kBestOf = {"geo", "greedy", "mpipp", "scotch-bw", "scotch-lat", "topology-aware"};
constexpr int kMpippLimitForBest = 1024;
/// start=auto starts from the best heuristic up to this many processes, from geo above.
constexpr int kBestStartLimit = 4096;
/// The automatic annealing budget: this many cost-table lookups per search (steps x (1 + mean degree)).
constexpr double kAnnealWork = 1.5e7;
/// ... and at most this many steps per movable process (small instances need few).
constexpr double kMaxAnnealStepsPerProcess = 20000;
/// Annealing shorter than this many steps per movable process does not pay; the search then only descends.
constexpr std::int64_t kMinAnnealStepsPerProcess = 200;
constexpr int kDefaultSearches = 8;
/// objective=time: the searches of the predicted time after the alpha-beta ones (the descent and one annealing).
constexpr int kPredictedTimeSearches = 2;
/// The automatic descent budget: this many cost-table lookups over all the passes of a search (a pass's cost as
/// LocalSearch::passesWithin counts it). Only very large instances reach it: 65,536 processes on 64 sites get one
/// to five passes.
constexpr double kDescentWork = 2e8;
/// Below this many passes the budget is said in the notes.
constexpr int kShownPassLimit = 100;

/// Runs `mapper` as a start, forwarding cancellation and mapping its progress into `range`.
Expected<MappingResult> runStart(const Mapper& mapper, const MappingProblem& problem, std::uint64_t seed,
                                 const FeedbackRange& range)
{
    Feedback inner([&](double f, std::string_view stage) { range.setProgress(f, "start: " + std::string(stage)); },
                   [&] { return range.isCanceled(); });
    return mapper.map(problem, seed, inner);
}

/// How start=best ranks the heuristic mappers' placements: by the objective's main term where it is a time.
using StartRank = std::function<double(std::span<const int>)>;

/// The best placement of the heuristic mappers (mpipp only up to kMpippLimitForBest processes).
Expected<model::Placement> bestHeuristicStart(const Registry<Mapper>& registry, const MappingProblem& problem,
                                              std::uint64_t seed, const FeedbackRange& range, const StartRank& rank,
                                              std::string& bestId)
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
        const double c = rank(r->placement.site);
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
                                          const StartRank& rank, std::vector<std::string>& notes)
{
    if (startId == "input") {
        if (!problem.start())
            return makeError(ErrorCode::InvalidInput, "refine: start=input but no start placement was given");
        return *problem.start();
    }
    if (startId == "auto")
        return startPlacement(registry, problem, problem.processCount() <= kBestStartLimit ? "best" : "geo", seed,
                              range, rank, notes);
    if (startId == "best") {
        std::string bestId;
        auto start = bestHeuristicStart(registry, problem, seed, range, rank, bestId);
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
    starts.push_back("auto");
    return {
        ParamSpec::choice("start", "auto", starts,
                          "Where the search starts: a mapper's placement, the best of the heuristic mappers, the "
                          "input placement, or auto (the best heuristic up to 4096 processes, geo above)."),
        ParamSpec::integer("searches", 0, 0, 256,
                           "Independent searches run on all cores, the best kept (the first descends from the "
                           "start, the others anneal first); 0 = automatic (8, or 1 when annealing does not "
                           "pay at this size)."),
        ParamSpec::real("effort", 1.0, 0.01, 1000.0, "Scales the automatic annealing steps of each search."),
        ParamSpec::real("time_limit_s", 0.0, 0.0, 1e6,
                        "Stop every search after this many seconds and keep the best so far; 0 = no limit. A "
                        "limit makes the result depend on the machine's speed and load."),
        ParamSpec::integer("restarts", -1, -1, 100000,
                           "Perturb-and-descend rounds of the first search; -1 = automatic (4000 / processes, "
                           "from 8 to 200)."),
        ParamSpec::flag("annealing", true, "Run the annealing searches (false: the first search alone)."),
        ParamSpec::integer("anneal_steps", 0, 0, 1000000000,
                           "Annealing steps per search; 0 = automatic (1.5e7 / (1 + mean degree), at most 20000 per "
                           "free process, times effort)."),
        ParamSpec::choice("objective", "time",
                          {"time", "alpha-beta", "dollars", "weighted", "bottleneck", "alpha-beta+bottleneck"},
                          "What the search minimises: the predicted time of a bulk-synchronous run (S steps, S the "
                          "median message count: the busiest shared link's seconds + S x the largest latency in use; "
                          "ties broken by the alpha-beta cost), the alpha-beta cost (SC17 eq. 3), the dollars "
                          "(egress + instances for the alpha-beta time; every site needs an instance price), "
                          "(1 - weight) x alpha-beta / start's + weight x dollars / start's dollars, the busiest "
                          "shared link's seconds (site uplinks, downlinks and site-pair links: contention; ties "
                          "broken by alpha-beta), or (1 - weight) x alpha-beta / start's + weight x busiest link / "
                          "start's busiest link."),
        ParamSpec::real("weight", 0.5, 0.0, 1.0,
                        "The second term's share: of dollars in objective=weighted, of the busiest link in "
                        "objective=alpha-beta+bottleneck (0 = alpha-beta alone).")};
}

namespace {

/// The searches' options from the parameters and the instance's size.
PortfolioOptions portfolioOptions(const MappingProblem& problem, const ParamValues& values,
                                  std::vector<std::string>& notes)
{
    PortfolioOptions options;
    const int n = problem.processCount();
    const auto movable = static_cast<std::int64_t>(problem.freeProcesses().size());
    options.descent.restarts = static_cast<int>(values.integer("restarts"));
    if (options.descent.restarts < 0)
        options.descent.restarts = std::clamp(4000 / std::max(1, n), 8, 200);
    const auto& volume = problem.comm().volume();
    const double meanDegree = 2.0 * static_cast<double>(volume.nonZeros()) / std::max(1, n);
    std::int64_t steps = values.integer("anneal_steps");
    if (steps == 0)
        steps = static_cast<std::int64_t>(
            values.real("effort")
            * std::min(kAnnealWork / (1.0 + meanDegree), kMaxAnnealStepsPerProcess * static_cast<double>(movable)));
    const bool annealing = values.flag("annealing")
        && (values.integer("anneal_steps") > 0 || steps >= kMinAnnealStepsPerProcess * movable);
    options.annealing.annealing = true;
    options.annealing.annealSteps = steps;
    options.annealing.restarts = 2;
    options.searches = static_cast<int>(values.integer("searches"));
    if (options.searches == 0)
        options.searches = annealing ? kDefaultSearches : 1;
    if (!annealing && options.searches > 1) {
        // Without annealing every search descends from the start with its own perturbations.
        options.annealing = options.descent;
    }
    const int passes = LocalSearch::passesWithin(kDescentWork, static_cast<double>(movable), problem.siteCount(),
                                                 meanDegree);
    options.descent.maxPasses = passes;
    options.annealing.maxPasses = passes;
    if (passes < kShownPassLimit)
        notes.push_back("at most " + std::to_string(passes) + " descent pass" + (passes == 1 ? "" : "es")
                        + " per search (work budget: 2e8 cost-table lookups)");
    options.timeLimitSeconds = values.real("time_limit_s");
    notes.push_back(std::to_string(options.searches) + (options.searches == 1 ? " search" : " independent searches")
                    + (annealing ? " (" + std::to_string(steps) + " annealing steps each after the first)" : ""));
    return options;
}

/// The prices of a dollar objective, from the sites; an error names a site that can hold processes but has no
/// instance price, or a site without an egress price when others have one.
Expected<BinPrices> binPrices(const MappingProblem& problem)
{
    const model::Topology& topology = problem.topology();
    BinPrices prices;
    bool anyEgress = false;
    for (const auto& site : topology.sites())
        anyEgress = anyEgress || std::isfinite(site.egressUsdPerGB);
    for (int s = 0; s < topology.siteCount(); ++s) {
        const model::Site& site = topology.site(s);
        const bool holds = topology.capacity(s) > 0;
        if (holds && !std::isfinite(site.instanceUsdPerHour))
            return makeError(ErrorCode::InvalidInput,
                             "refine: a dollar objective needs every site's instance price per node-hour, and site '"
                                 + site.name + "' has none (instance_usd_per_hour)");
        if (anyEgress && !std::isfinite(site.egressUsdPerGB))
            return makeError(ErrorCode::InvalidInput,
                             "refine: a dollar objective needs the egress price of every site when one has it, and "
                             "site '"
                                 + site.name + "' has none (egress_usd_per_gb)");
        prices.instanceUsdPerHour.push_back(std::isfinite(site.instanceUsdPerHour) ? site.instanceUsdPerHour : 0.0);
        prices.egressUsdPerGB.push_back(anyEgress ? site.egressUsdPerGB : 0.0);
        prices.slotsPerNode.push_back(std::max(1, topology.host(topology.firstHost(s)).slots));
    }
    return prices;
}

/// The value refine's searches minimise (objective and weight), scaled by the start's time and dollars when
/// weighted so that the weight is a share; adds a note.
Expected<SearchCost> searchCost(const MappingProblem& problem, const ParamValues& values, const std::vector<int>& start,
                                std::vector<std::string>& notes)
{
    const std::string objective = values.choice("objective");
    if (objective == "alpha-beta")
        return SearchCost(problem.cost());
    if (objective == "time") {
        const double steps = cost::bulkSynchronousSteps(problem.comm());
        auto surrogate = std::make_shared<const cost::BottleneckCost>(problem.topology(), problem.network(),
                                                                      problem.comm(), steps);
        const double seconds = problem.cost().evaluate(start);
        const double predicted = surrogate->evaluate(start);
        // As with the busiest link, many placements share the slowest step; the alpha-beta cost, a millionth of
        // the objective's scale, prefers among them the one that sends least.
        notes.push_back("objective: predicted time of " + std::to_string(static_cast<long long>(steps))
                        + " bulk-synchronous steps (busiest link + steps x largest latency in use), ties broken by "
                          "the alpha-beta cost");
        return SearchCost(problem.cost(), std::move(surrogate),
                          1e-6 * (predicted > 0.0 ? predicted : 1.0) / (seconds > 0.0 ? seconds : 1.0), 1.0);
    }
    if (objective == "bottleneck" || objective == "alpha-beta+bottleneck") {
        auto links = std::make_shared<const cost::BottleneckCost>(problem.topology(), problem.network(), problem.comm());
        const double seconds = problem.cost().evaluate(start);
        const double busiest = links->evaluate(start);
        const double timeScale = seconds > 0.0 ? seconds : 1.0;
        const double busiestScale = busiest > 0.0 ? busiest : 1.0;
        if (objective == "bottleneck") {
            // Placements with the same busiest link are many (only the links at the top count); among them the
            // alpha-beta time, a millionth of the objective's scale, prefers the one that loads the others least.
            notes.emplace_back("objective: the busiest shared link (uplinks, downlinks, site pairs), ties broken "
                               "by the alpha-beta time");
            return SearchCost(problem.cost(), std::move(links), 1e-6 * busiestScale / timeScale, 1.0);
        }
        const double weight = values.real("weight");
        notes.push_back("objective: " + std::to_string(1.0 - weight) + " x time / " + std::to_string(timeScale)
                        + " s + " + std::to_string(weight) + " x busiest link / " + std::to_string(busiestScale) + " s");
        return SearchCost(problem.cost(), std::move(links), (1.0 - weight) / timeScale, weight / busiestScale);
    }
    auto prices = binPrices(problem);
    if (!prices)
        return prices.error();
    const SearchCost dollars(problem.cost(), problem.comm(), std::move(*prices), 0.0, 1.0);
    if (objective == "dollars") {
        notes.emplace_back("objective: dollars (egress + instances for the alpha-beta time)");
        return dollars;
    }
    const double weight = values.real("weight");
    const SearchState at = dollars.evaluate(start);
    const double seconds = at.seconds > 0.0 ? at.seconds : 1.0;
    const double usd = at.value > 0.0 ? at.value : 1.0;
    notes.push_back("objective: " + std::to_string(1.0 - weight) + " x time / " + std::to_string(seconds) + " s + "
                    + std::to_string(weight) + " x dollars / " + std::to_string(usd) + " USD");
    return dollars.withWeights((1.0 - weight) / seconds, weight / usd);
}

} // namespace

namespace {

/// What the searches need besides the objective: which processes may move and each site's capacity.
struct SearchSpace {
    std::vector<bool> movable;
    std::vector<int> capacity;
};

SearchSpace searchSpace(const MappingProblem& problem)
{
    SearchSpace space;
    space.movable.assign(static_cast<std::size_t>(problem.processCount()), false);
    for (int p : problem.freeProcesses())
        space.movable[static_cast<std::size_t>(p)] = true;
    space.capacity.resize(static_cast<std::size_t>(problem.siteCount()));
    for (int s = 0; s < problem.siteCount(); ++s)
        space.capacity[static_cast<std::size_t>(s)] = problem.topology().capacity(s);
    return space;
}

/// Runs the searches of `objective` from `start`. With the predicted time (`predicted` set) an alpha-beta
/// portfolio goes first: the predicted time is flat over most moves (only the busiest link and the slowest latency
/// in use count), so a search on it alone stalls where the alpha-beta cost still points the way (e.g. off a slow
/// site pair that several pairs of processes use). Its searches then start from the alpha-beta result when that
/// is predicted faster, with a time limit shared between the two portfolios.
Expected<PortfolioResult> searchPlacement(const MappingProblem& problem, const ParamValues& values,
                                          const SearchCost& objective, bool predicted, const StartRank& rank,
                                          const std::vector<int>& start, std::uint64_t seed, const FeedbackRange& range,
                                          std::vector<std::string>& notes, std::vector<int>& trafficResult)
{
    const SearchSpace space = searchSpace(problem);
    PortfolioOptions options = portfolioOptions(problem, values, notes);
    if (!predicted)
        return runPortfolio(objective, space.capacity, space.movable, start, options, seed, range);
    options.timeLimitSeconds /= 2.0;
    std::vector<int> searchStart = start;
    PortfolioResult traffic = runPortfolio(SearchCost(problem.cost()), space.capacity, space.movable, start, options,
                                           seed, range.sub(0.0, 0.5));
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    trafficResult = traffic.assignment;
    if (rank(traffic.assignment) < rank(start)) {
        searchStart = std::move(traffic.assignment);
        notes.emplace_back("the predicted time's searches started from the alpha-beta searches' result");
    }
    if (values.integer("searches") == 0 && values.integer("anneal_steps") == 0) {
        // A step of the predicted time costs several of the alpha-beta cost's (tree reads per touched link) and
        // starts close to its optimum: the descent and one annealing search of a quarter of the steps.
        options.searches = std::min(options.searches, kPredictedTimeSearches);
        options.annealing.annealSteps = std::max<std::int64_t>(1, options.annealing.annealSteps / 4);
        notes.push_back("then " + std::to_string(options.searches) + " search" + (options.searches == 1 ? "" : "es")
                        + " of the predicted time (" + std::to_string(options.annealing.annealSteps)
                        + " annealing steps)");
    }
    return runPortfolio(objective, space.capacity, space.movable, searchStart, options, seed, range.sub(0.5, 1.0));
}

/// With a judge (the replay), the alpha-beta searches' placement replaces the predicted time's when the judge finds
/// it faster. Every time they differ: the fast estimate's optimum can be far from the replay's where the
/// application is not one bulk-synchronous exchange (a trace's chained exchanges, its collectives' own algorithms).
/// A judge's failure is a note; the placement found stays.
Status chooseByJudge(const MappingProblem& problem, const std::vector<int>& alternative, std::uint64_t seed,
                     const FeedbackRange& range, MappingResult& result)
{
    const MappingProblem::Judge* judge = problem.judge();
    if (!judge || alternative.empty() || alternative == result.placement.site)
        return {};
    auto completed = completeHosts(problem, alternative, seed, range.sub(0.0, 0.2));
    if (!completed)
        return completed.error();
    auto foundTime = (*judge)(result.placement, range.sub(0.2, 0.6));
    auto otherTime = foundTime ? (*judge)(*completed, range.sub(0.6, 1.0)) : foundTime;
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    if (!foundTime || !otherTime) {
        result.notes.push_back("the candidates were not replayed: "
                               + (foundTime ? otherTime : foundTime).error().message);
        return {};
    }
    const bool replaced = *otherTime < *foundTime;
    result.notes.push_back("replayed the last two candidates: the predicted time's searches' "
                           + readableSeconds(*foundTime) + ", the alpha-beta searches' " + readableSeconds(*otherTime)
                           + "; kept the " + (replaced ? "alpha-beta" : "predicted time") + " searches' placement");
    if (replaced)
        result.placement = std::move(*completed);
    return {};
}

/// The note that says what the search reached: the objective's value at the start and at the end.
std::string searchNote(const std::string& objectiveId, const SearchCost& objective, const std::vector<int>& start,
                       const PortfolioResult& found)
{
    const bool busiestLink = objectiveId == "bottleneck" || objectiveId == "time";
    // The busiest link's own seconds (or the predicted time), without the alpha-beta cost that breaks its ties.
    const auto shown = [&](const std::vector<int>& assignment, double value) {
        return busiestLink ? objective.evaluate(assignment).bottleneck : value;
    };
    const std::string what = objectiveId == "alpha-beta" ? "cost "
        : objectiveId == "time"                          ? "estimated time (the objective's surrogate) "
        : objectiveId == "dollars"                       ? "dollars "
        : busiestLink                                    ? "busiest link "
                                                         : "objective ";
    // Seconds and dollars with their units; a weighted objective has none.
    const auto value = [&](double v) {
        return objectiveId == "dollars"                  ? readableUsd(v)
            : objectiveId == "alpha-beta" || busiestLink ? readableSeconds(v)
                                                         : readableNumber(v);
    };
    return what + value(shown(start, objective.evaluate(start).value)) + " \u2192 "
        + value(shown(found.assignment, found.cost))
        + (found.winner >= 0 ? " (search " + std::to_string(found.winner + 1) + ")" : "");
}

} // namespace

Expected<MappingResult> RefineMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                              std::uint64_t seed, const FeedbackRange& range) const
{
    MappingResult result;
    StartRank rank = [&](std::span<const int> siteOf) { return problem.cost().evaluate(siteOf); };
    std::shared_ptr<const cost::BottleneckCost> predicted;
    if (values.choice("objective") == "time") {
        predicted = std::make_shared<const cost::BottleneckCost>(problem.topology(), problem.network(), problem.comm(),
                                                                 cost::bulkSynchronousSteps(problem.comm()));
        // The predicted time first, the alpha-beta cost among equals.
        rank = [&](std::span<const int> siteOf) {
            return predicted->evaluate(siteOf) + 1e-9 * problem.cost().evaluate(siteOf);
        };
    }
    auto started = startPlacement(m_registry, problem, values.choice("start"), seed, range.sub(0.0, 0.4), rank,
                                  result.notes);
    if (!started)
        return started.error();
    model::Placement start = std::move(*started);
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    auto objective = searchCost(problem, values, start.site, result.notes);
    if (!objective)
        return objective.error();
    std::vector<int> alternative;
    auto found = searchPlacement(problem, values, *objective, predicted != nullptr, rank, start.site, seed,
                                 range.sub(0.4, 0.85), result.notes, alternative);
    if (!found)
        return found.error();
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    result.notes.push_back(searchNote(values.choice("objective"), *objective, start.site, *found));
    if (found->timedOut)
        result.notes.push_back("stopped at the time limit (" + std::to_string(values.real("time_limit_s"))
                               + " s) with the best placement so far");
    result.searchCurve = std::move(found->curve);
    std::vector<int> siteOf = std::move(found->assignment);

    if (siteOf == start.site && start.hasHosts()) {
        result.placement = std::move(start);
    } else {
        auto completed = completeHosts(problem, siteOf, seed, range.sub(0.85, 0.9));
        if (!completed)
            return completed.error();
        result.placement = std::move(*completed);
        if (start.hasHosts())
            keepStartHosts(problem, start, result.placement);
    }
    // The judge also decides when the predicted time's searches kept the start: the alpha-beta searches may still
    // have found another placement of the same predicted time.
    if (predicted)
        if (auto chosen = chooseByJudge(problem, alternative, seed, range.sub(0.9, 1.0), result); !chosen)
            return chosen.error();
    return result;
}

} // namespace meridian::mapping
