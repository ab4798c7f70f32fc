#include "app/mapping/sweep_operation.h"

#include "core/mapping/mapping_problem.h"
#include "core/synth/constraint_generator.h"
#include "core/synth/patterns.h"

#include <chrono>
#include <cmath>
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

} // namespace

Expected<SweepResult> runSweep(const SweepRequest& request, const Registry<mapping::Mapper>& mappers,
                               const Feedback& feedback)
{
    const auto& project = *request.project;
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

    const model::Network scaledNetwork = siteLevel(request.completeNetwork);
    const std::size_t steps = request.points.size() * request.seeds * (m + 1);
    std::size_t step = 0;
    for (std::size_t p = 0; p < request.points.size(); ++p) {
        const double x = request.points[p];
        model::Topology topology = project.topology;
        model::CommMatrix comm;
        double ratio = request.constraintRatio;
        if (request.kind == SweepKind::ConstraintRatio) {
            const int a = project.applicationIndex(request.application);
            if (a < 0)
                return makeError(ErrorCode::InvalidInput,
                                 "the project has no application '" + request.application + "'");
            comm = project.applications[a].comm;
            ratio = x;
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
            comm = std::move(*generated);
            auto scaled = scaledTopology(project.topology, options.processes);
            if (!scaled)
                return scaled.error();
            topology = std::move(*scaled);
        }
        for (int seed = 1; seed <= request.seeds; ++seed) {
            const auto& network = request.kind == SweepKind::ProcessCount ? scaledNetwork : request.completeNetwork;
            auto problem = synth::generateConstraints(comm.processCount(), ratio, topology,
                                                      static_cast<std::uint64_t>(seed))
                               .and_then([&](const model::Constraints& pins) {
                                   return mapping::MappingProblem::create(topology, network, comm, pins);
                               })
                               .transform_error(prefixedBy(pointText(request.kind, x)));
            if (!problem)
                return problem.error();
            Feedback baselineFeedback(
                [&](double f, std::string_view) {
                    feedback.setProgress((static_cast<double>(step) + f) / static_cast<double>(steps),
                                         pointText(request.kind, x) + ": random");
                },
                [&] { return feedback.isCanceled(); });
            auto base = random->map(*problem, static_cast<std::uint64_t>(seed), baselineFeedback);
            ++step;
            if (!base)
                return base.error();
            const double baseCost = problem->cost().evaluate(base->placement.site);
            for (std::size_t k = 0; k < m; ++k) {
                // Named members, not a structured binding: clang 14 cannot capture a binding in a lambda.
                const auto& id = request.mappers[k].first;
                const auto& params = request.mappers[k].second;
                Feedback inner(
                    [&](double f, std::string_view) {
                        feedback.setProgress((static_cast<double>(step) + f) / static_cast<double>(steps),
                                             pointText(request.kind, x) + ": " + id);
                    },
                    [&] { return feedback.isCanceled(); });
                const auto begin = std::chrono::steady_clock::now();
                auto mapped = mappers.find(id)->map(*problem, params, static_cast<std::uint64_t>(seed), inner);
                ++step;
                if (!mapped)
                    return prefixedBy(pointText(request.kind, x) + ", " + id)(mapped.error());
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
                const double c = problem->cost().evaluate(mapped->placement.site);
                result.normalisedCost[k][p] += (baseCost > 0 ? c / baseCost : 1.0) / request.seeds;
                result.runtimeSeconds[k][p] += seconds / request.seeds;
            }
        }
    }
    feedback.setProgress(1.0, "done");
    return result;
}

} // namespace meridian::ops
