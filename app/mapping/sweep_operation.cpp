#include "app/mapping/sweep_operation.h"

#include "core/common/ranks.h"
#include "core/mapping/mapping_problem.h"
#include "core/synth/constraint_generator.h"
#include "core/synth/patterns.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <functional>
#include <sstream>

namespace meridian::ops {

namespace {

// Sites keep their share of the slots, scaled so that the total is `processes` (one slot per host).
Expected<model::Topology> scaledTopology(const model::Topology& base, int processes)
{
    std::vector<model::Site> sites = base.sites();
    const double total = base.totalCapacity();
    int assigned = 0;
    for (int s = 0; s < base.siteCount(); ++s) {
        const int share = s + 1 == base.siteCount()
            ? processes - assigned
            : static_cast<int>(std::floor(processes * base.capacity(s) / total));
        sites[s].nodes = std::max(1, share);
        sites[s].slotsPerNode = 1;
        sites[s].hosts.clear();
        assigned += sites[s].nodes;
    }
    return model::Topology::create(std::move(sites));
}

// The site-level part of a network (host links name hosts that a scaled topology does not have).
model::Network siteLevel(const model::Network& network)
{
    model::Network out(network.siteCount());
    for (auto q : {model::NetworkQuantity::Latency, model::NetworkQuantity::Bandwidth})
        for (int i = 0; i < network.siteCount(); ++i)
            for (int j = 0; j < network.siteCount(); ++j)
                if (network.provenance(q, i, j) != model::Provenance::Missing)
                    out.set(q, i, j, network.value(q, i, j), network.provenance(q, i, j), network.measuredAt(q, i, j));
    return out;
}

std::string pointText(SweepKind kind, double x)
{
    std::ostringstream out;
    if (kind == SweepKind::ConstraintRatio)
        out << "constraint ratio " << x;
    else
        out << static_cast<long long>(x) << " processes";
    return out.str();
}

/// A sweep point's application or generated pattern and its topology, kept for the point's next seed.
struct SweepPoint {
    double x = std::nan("");
    model::Topology topology;
    model::CommMatrix comm;
};

/// One unit of a sweep: at point x with one seed, the pins drawn, then random and every mapper of the request;
/// returns each mapper's cost normalised to random's, then each one's runtime (s). `progress` receives the
/// fraction of the current run and its mapper; `stepDone` is called after each run.
Expected<std::vector<double>> sweepUnit(const SweepRequest& request, const Registry<mapping::Mapper>& mappers,
                                        const mapping::Mapper& random, const model::Network& scaledNetwork,
                                        SweepPoint& point, double x, std::uint64_t seed,
                                        const std::function<void(double, const std::string&)>& progress,
                                        const std::function<void()>& stepDone, const std::function<bool()>& canceled)
{
    const auto& project = *request.project;
    double ratio = request.constraintRatio;
    if (request.kind == SweepKind::ConstraintRatio)
        ratio = x;
    if (!(point.x == x)) { // a new point: its pattern and topology (a point's seeds follow each other)
        point.x = std::nan("");
        point.topology = project.topology;
        if (request.kind == SweepKind::ConstraintRatio) {
            const int a = project.applicationIndex(request.application);
            if (a < 0)
                return makeError(ErrorCode::InvalidInput,
                                 "the project has no application '" + request.application + "'");
            point.comm = project.applications[a].comm;
        } else {
            const auto pattern = synth::patternFromId(request.pattern);
            if (!pattern)
                return makeError(ErrorCode::InvalidInput, "unknown pattern '" + request.pattern + "'");
            synth::PatternOptions options;
            options.processes = static_cast<int>(x);
            auto generated = synth::generatePattern(*pattern, options)
                                 .transform_error(prefixedBy(pointText(request.kind, x)));
            if (!generated)
                return generated.error();
            point.comm = std::move(*generated);
            auto scaled = scaledTopology(project.topology, options.processes);
            if (!scaled)
                return scaled.error();
            point.topology = std::move(*scaled);
        }
        point.x = x;
    }
    const model::Topology& topology = point.topology;
    const model::CommMatrix& comm = point.comm;
    const auto& network = request.kind == SweepKind::ProcessCount ? scaledNetwork : request.completeNetwork;
    auto problem = synth::generateConstraints(comm.processCount(), ratio, topology, seed)
                       .and_then([&](const model::Constraints& pins) {
                           return mapping::MappingProblem::create(topology, network, comm, pins);
                       })
                       .transform_error(prefixedBy(pointText(request.kind, x)));
    if (!problem)
        return problem.error();
    Feedback baselineFeedback([&](double f, std::string_view) { progress(f, "random"); }, canceled);
    auto base = random.map(*problem, seed, baselineFeedback);
    stepDone();
    if (!base)
        return base.error();
    const double baseCost = problem->cost().evaluate(base->placement.site);
    const std::size_t m = request.mappers.size();
    std::vector<double> values(2 * m);
    for (std::size_t k = 0; k < m; ++k) {
        // Named members, not a structured binding: clang 14 cannot capture a binding in a lambda.
        const auto& id = request.mappers[k].first;
        const auto& params = request.mappers[k].second;
        Feedback inner([&](double f, std::string_view) { progress(f, id); }, canceled);
        const auto begin = std::chrono::steady_clock::now();
        auto mapped = mappers.find(id)->map(*problem, params, seed, inner);
        stepDone();
        if (!mapped)
            return prefixedBy(pointText(request.kind, x) + ", " + id)(mapped.error());
        const double c = problem->cost().evaluate(mapped->placement.site);
        values[k] = baseCost > 0 ? c / baseCost : 1.0;
        values[m + k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    }
    return values;
}

} // namespace

Expected<SweepResult> runSweep(const SweepRequest& request, const Registry<mapping::Mapper>& mappers,
                               const Feedback& feedback)
{
    if (request.points.empty() || request.mappers.empty() || request.seeds < 1)
        return makeError(ErrorCode::InvalidInput, "a sweep needs at least one point, one mapper and one seed");
    const mapping::Mapper* random = mappers.find("random");
    if (!random)
        return makeError(ErrorCode::Internal, "the random mapper is not registered");
    SweepResult result;
    result.kind = request.kind;
    result.points = request.points;
    result.seeds = request.seeds;
    result.subject = request.kind == SweepKind::ConstraintRatio ? request.application : request.pattern;
    for (const auto& [id, params] : request.mappers) {
        if (!mappers.find(id))
            return makeError(ErrorCode::InvalidInput, "no mapper '" + id + "'");
        result.mappers.push_back(id);
    }
    const std::size_t m = request.mappers.size();
    result.normalisedCost.assign(m, std::vector<double>(request.points.size(), 0.0));
    result.runtimeSeconds.assign(m, std::vector<double>(request.points.size(), 0.0));

    // Unit u is point u / seeds with seed u % seeds + 1: the random baseline and every mapper on one draw of the
    // pins. Each rank computes a block of units (a unit whole on one rank, its mappers on one process); the units'
    // values are then shared and summed in unit order by every rank, as one process sums them.
    const model::Network scaledNetwork = siteLevel(request.completeNetwork);
    const Ranks& ranks = feedback.ranks();
    const std::int64_t units = static_cast<std::int64_t>(request.points.size()) * request.seeds;
    const Share share = shareOf(units, ranks.rank(), ranks.size());
    const std::size_t steps = static_cast<std::size_t>(share.end - share.begin) * (m + 1);
    std::size_t step = 0;
    std::vector<double> values; // per unit: m normalised costs, then m runtimes
    SweepPoint point;
    Status local;
    for (std::int64_t u = share.begin; u < share.end && local; ++u) {
        const double x = request.points[static_cast<std::size_t>(u / request.seeds)];
        const auto seed = static_cast<std::uint64_t>(u % request.seeds + 1);
        auto unit = sweepUnit(
            request, mappers, *random, scaledNetwork, point, x, seed,
            [&](double f, const std::string& what) {
                feedback.setProgress((static_cast<double>(step) + f) / static_cast<double>(steps),
                                     pointText(request.kind, x) + ": " + what);
            },
            [&] { ++step; }, [&] { return feedback.isCanceled(); });
        if (!unit)
            local = unit.error();
        else
            values.insert(values.end(), unit->begin(), unit->end());
    }
    if (auto agreed = agreeOn(ranks, local); !agreed)
        return agreed.error();
    values = concatenatedOnEveryRank(ranks, values);
    for (std::int64_t u = 0; u < units; ++u) {
        const auto p = static_cast<std::size_t>(u / request.seeds);
        const double* unit = values.data() + static_cast<std::size_t>(u) * 2 * m;
        for (std::size_t k = 0; k < m; ++k) {
            result.normalisedCost[k][p] += unit[k] / request.seeds;
            result.runtimeSeconds[k][p] += unit[m + k] / request.seeds;
        }
    }
    feedback.setProgress(1.0, "done");
    return result;
}

Expected<std::vector<double>> parseSweepPoints(SweepKind kind, std::string_view text)
{
    constexpr int kMaxSweepProcesses = 1000000;
    std::vector<double> points;
    const bool ratio = kind == SweepKind::ConstraintRatio;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t comma = std::min(text.find(',', at), text.size());
        std::string part(text.substr(at, comma - at));
        at = comma + 1;
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        if (part.empty())
            continue;
        // Not strtod: the C locale of a German or French desktop would read "0.2" as 0.
        double v = 0.0;
        const auto [end, failed] = std::from_chars(part.data(), part.data() + part.size(), v);
        const bool number = failed == std::errc() && end == part.data() + part.size() && std::isfinite(v);
        if (!number || (ratio && (v < 0 || v > 1)) || (!ratio && (v < 2 || v != std::floor(v))))
            return makeError(ErrorCode::InvalidInput,
                             "'" + part + "' is not "
                                 + (ratio ? std::string("a ratio between 0 and 1")
                                          : std::string("a whole process count of at least 2")));
        if (!ratio && v > kMaxSweepProcesses)
            return makeError(ErrorCode::InvalidInput,
                             "'" + part + "' processes: a sweep generates patterns of at most "
                                 + std::to_string(kMaxSweepProcesses) + " processes");
        points.push_back(v);
    }
    if (points.empty())
        return makeError(ErrorCode::InvalidInput, "a sweep needs at least one point");
    return points;
}

} // namespace meridian::ops
