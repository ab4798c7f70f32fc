#include "app/mapping/map_operation.h"

#include "app/project/run_file.h"
#include "app/simulation/simulate_operation.h"

#include <algorithm>

#include "core/common/ranks.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/cost/bottleneck_cost.h"
#include "core/cost/dollars.h"
#include "core/cost/instance_metrics.h"
#include "core/mapping/mapping_problem.h"
#include "core/sim/replay.h"

#include <chrono>
#include <cmath>

namespace meridian::ops {

namespace {

/// The run's metrics, from what its placement measures.
void addMetrics(document::Run& run, const model::Topology& topology, const PlacementMeasures& measures)
{
    const auto& b = measures.breakdown;
    run.metrics.clear();
    auto add = [&](std::string id, std::string label, std::string unit, double value) {
        run.metrics.push_back({std::move(id), std::move(label), std::move(unit), value});
    };
    add("cost_s", "Mapping cost", "s", b.total);
    add("latency_s", "Latency part", "s", b.latencyPart);
    add("bandwidth_s", "Bandwidth part", "s", b.bandwidthPart);
    add("slowest_pair_s", "Slowest site pair", "s", b.timeSeconds.size() ? b.timeSeconds.maxCoeff() : 0.0);
    // The contention bound: the busiest uplink, downlink or site-pair link at its bandwidth.
    add("bottleneck_s", "Busiest link", "s", measures.bottleneckSeconds);
    double wanBytes = 0.0;
    for (int k = 0; k < topology.siteCount(); ++k)
        for (int l = 0; l < topology.siteCount(); ++l)
            if (k != l)
                wanBytes += b.trafficBytes(k, l);
    add("wan_bytes", "Bytes between sites", "bytes", wanBytes);
    const cost::Dollars& dollars = measures.dollars;
    if (dollars.egressUsd)
        add("wan_usd", "WAN egress", "USD", *dollars.egressUsd);
    if (dollars.instanceUsdPerHour) {
        // The instances are paid while the application runs: nodes used x price x the traffic cost here, the
        // predicted time once the run is predicted (predictRun).
        add("instance_usd_per_hour", "Instances used", "USD/h", *dollars.instanceUsdPerHour);
        add("instance_usd", "Instance cost", "USD", *dollars.instanceUsd);
    }
    if (dollars.totalUsd)
        add("usd", "Dollars (egress + instances)", "USD", *dollars.totalUsd);
    if (const auto& m = measures.instance) {
        add("inter_bytes", "Inter-instance bytes", "bytes", m->interBytes);
        add("intra_bytes", "Intra-instance bytes", "bytes", m->intraBytes);
        add("comm_time_s", "CommTime (CloudMap)", "s", m->commTimeSeconds);
    }
    add("runtime_s", "Runtime", "s", run.runtimeSeconds);
    run.trafficBytes = b.trafficBytes;
    run.timeSeconds = b.timeSeconds;
}

} // namespace

Expected<PlacementMeasures> measure(const model::Placement& placement, const document::Application& app,
                                    const model::Topology& topology, const model::Network& network)
{
    if (placement.processCount() != app.comm.processCount())
        return makeError(ErrorCode::InvalidInput,
                         "the placement has " + std::to_string(placement.processCount()) + " processes, application '"
                             + app.name + "' has " + std::to_string(app.comm.processCount()));
    PlacementMeasures measures;
    measures.breakdown = cost::AlphaBetaCost(network, app.comm).breakdown(placement.site);
    measures.bottleneckSeconds = cost::bottleneck(measures.breakdown.trafficBytes, topology, network).seconds;
    measures.dollars = cost::placementDollars(placement, topology, measures.breakdown);
    if (placement.hasHosts()) {
        auto m = cost::instanceMetrics(placement, topology, network, app.comm);
        if (!m)
            return m.error();
        measures.instance = *m;
    }
    return measures;
}

Status measurePlacement(document::Run& run, const document::Project& project, const model::Network& network)
{
    const int a = project.applicationIndex(run.application);
    if (a < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no application '" + run.application + "'");
    auto measures = measure(run.placement, project.applications[a], project.topology, network);
    if (!measures)
        return measures.error();
    addMetrics(run, project.topology, *measures);
    return {};
}

Expected<MappedRun> mapAndMeasure(const MappingRequest& request, const Registry<mapping::Mapper>& mappers,
                                  const Feedback& feedback)
{
    const auto& project = *request.project;
    const int a = project.applicationIndex(request.application);
    if (a < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no application '" + request.application + "'");
    const mapping::Mapper* mapper = mappers.find(request.algorithm);
    if (!mapper)
        return makeError(ErrorCode::InvalidInput, "no mapper '" + request.algorithm + "'");
    const auto& app = project.applications[a];
    // The replay judges refine's last candidates.
    auto problem = mapping::MappingProblem::create(project.topology, request.completeNetwork, app.comm, app.pins)
                       .transform_error(prefixedBy("application '" + app.name + "'"))
                       .transform([&](const mapping::MappingProblem& p) {
                           return p.withJudge(sim::replayJudge(p, app.trace));
                       });
    if (!problem)
        return problem.error();
    if (request.start) {
        auto withStart = problem->withStart(*request.start);
        if (!withStart)
            return request.startFile.empty() ? withStart.error() : inFile(withStart.error(), request.startFile);
        problem = std::move(withStart);
    }
    const auto begin = std::chrono::steady_clock::now();
    auto result = mapper->map(*problem, request.params, request.seed, feedback);
    if (!result)
        return result.error();
    document::Run run;
    run.algorithm = request.algorithm;
    run.application = request.application;
    run.params = request.params;
    run.seed = request.seed;
    run.runtimeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    run.placement = std::move(result->placement);
    run.costSamples = std::move(result->costSamples);
    run.bestCurve = std::move(result->bestCurve);
    run.notes = std::move(result->notes);
    run.inputFingerprint = request.fingerprint;
    auto measures = measure(run.placement, app, project.topology, request.completeNetwork);
    if (!measures)
        return measures.error();
    addMetrics(run, project.topology, *measures);
    if (request.simulateSmallRuns)
        if (auto simulated = simulateIfSmall(run, project, request.completeNetwork, feedback); !simulated)
            return simulated.error();
    return MappedRun{std::move(run), std::move(*measures)};
}

Status simulateIfSmall(document::Run& run, const document::Project& project, const model::Network& completeNetwork,
                       const Feedback& feedback)
{
    if (simulatedMessages(run, project) > kAutoSimulateMessages)
        return {};
    feedback.setProgress(1.0, "simulating with SimGrid");
    if (auto s = simulateRun(run, project, completeNetwork, feedback); !s) {
        if (s.error().code == ErrorCode::Canceled)
            return s.error();
        run.notes.push_back("not simulated: " + s.error().message);
    }
    feedback.setProgress(1.0, "predicting its run time with SMPI");
    if (auto p = predictRun(run, project, completeNetwork, feedback); !p) {
        if (p.error().code == ErrorCode::Canceled)
            return p.error();
        run.notes.push_back("no predicted time: " + p.error().message);
    }
    return {};
}

Expected<document::Run> runMapping(const MappingRequest& request, const Registry<mapping::Mapper>& mappers,
                                   const Feedback& feedback)
{
    return mapAndMeasure(request, mappers, feedback).transform([](MappedRun mapped) { return std::move(mapped.run); });
}

std::vector<double> paretoWeights(int points)
{
    std::vector<double> weights;
    weights.reserve(static_cast<std::size_t>(std::max(points, 0)));
    for (int i = 0; i < points; ++i)
        weights.push_back(points == 1 ? 0.5 : static_cast<double>(i) / (points - 1));
    return weights;
}

namespace {

/// The Pareto sweep's runs with indices in [begin, end).
Expected<std::vector<document::Run>> paretoRuns(const MappingRequest& request, const std::vector<double>& weights,
                                                const mapping::Mapper& refine, const Registry<mapping::Mapper>& mappers,
                                                Share share, const Feedback& feedback)
{
    const auto specs = refine.parameters();
    std::vector<document::Run> runs;
    const auto count = static_cast<double>(share.end - share.begin);
    for (std::int64_t i = share.begin; i < share.end; ++i) {
        const double weight = weights[static_cast<std::size_t>(i)];
        const std::string label = "weight " + std::to_string(weight).substr(0, 4);
        MappingRequest one = request;
        one.algorithm = "refine";
        auto params = ParamValues::with(specs,
                                        request.params.values().empty() ? ParamValues::defaults(specs) : request.params,
                                        "objective", std::string("weighted"))
                          .and_then(
                              [&](ParamValues p) { return ParamValues::with(specs, std::move(p), "weight", weight); })
                          .transform_error(prefixedBy(label));
        if (!params)
            return params.error();
        one.params = std::move(*params);
        const double from = static_cast<double>(i - share.begin) / count;
        const double to = static_cast<double>(i - share.begin + 1) / count;
        Feedback inner(
            [&](double f, std::string_view stage) {
                feedback.setProgress(from + (to - from) * f, label + ": " + std::string(stage));
            },
            [&] { return feedback.isCanceled(); });
        inner.setExecutor(feedback.executor());
        auto run = runMapping(one, mappers, inner).transform_error(prefixedBy(label));
        if (!run)
            return run.error();
        runs.push_back(std::move(*run));
    }
    return runs;
}

/// Every rank's runs, in rank order, on every rank: each rank's go through the runs file's text (exact: numbers are
/// written in the shortest form that reads back to the same double).
Expected<std::vector<document::Run>> shareRuns(const Ranks& ranks, std::vector<document::Run> mine, Share share,
                                               const document::Project& project)
{
    std::vector<std::shared_ptr<const document::Run>> numbered;
    for (std::size_t k = 0; k < mine.size(); ++k) {
        mine[k].id = static_cast<int>(share.begin + static_cast<std::int64_t>(k)) + 1; // ids are >= 1 in the file
        numbered.push_back(std::make_shared<const document::Run>(std::move(mine[k])));
    }
    std::vector<document::Run> all;
    const auto texts = ranks.gather(document::RunFile::text(numbered));
    Packer packed;
    for (const auto& text : texts)
        packed.putVector(std::vector<char>(text.begin(), text.end()));
    ranks.broadcast(packed.bytes());
    Unpacker in(packed.bytes());
    for (int r = 0; r < ranks.size(); ++r) {
        const auto text = in.getVector<char>();
        auto loaded = document::RunFile::fromText(std::string(text.begin(), text.end()),
                                                  QString("the runs of rank %1").arg(r), project);
        if (!loaded)
            return loaded.error();
        for (auto& run : loaded->runs) {
            run.id = 0;
            all.push_back(std::move(run));
        }
    }
    return all;
}

} // namespace

Expected<std::vector<document::Run>> runParetoSweep(const MappingRequest& request, const std::vector<double>& weights,
                                                    const Registry<mapping::Mapper>& mappers, const Feedback& feedback)
{
    const mapping::Mapper* refine = mappers.find("refine");
    if (!refine)
        return makeError(ErrorCode::Internal, "the refine mapper is not registered");
    if (weights.empty())
        return makeError(ErrorCode::InvalidInput, "a Pareto sweep needs at least one weight");
    // Each rank takes a block of the weights, each run whole on one rank; every rank then holds every run.
    const Ranks& ranks = feedback.ranks();
    const Share share = shareOf(static_cast<std::int64_t>(weights.size()), ranks.rank(), ranks.size());
    auto mine = paretoRuns(request, weights, *refine, mappers, share, feedback);
    if (auto agreed = agreeOn(ranks, mine ? Status{} : Status(mine.error())); !agreed)
        return agreed.error();
    auto runs = ranks.size() == 1 ? std::move(mine) : shareRuns(ranks, std::move(*mine), share, *request.project);
    if (!runs)
        return runs.error();
    const bool oneSite = std::all_of(runs->begin(), runs->end(), [&](const document::Run& r) {
        return r.placement.site == runs->front().placement.site;
    });
    if (oneSite && runs->size() > 1)
        for (auto& r : *runs)
            r.notes.emplace_back("every weight of the sweep gave this placement: no placement here is both cheaper and "
                                 "slower (with every node in use and dollars mostly instance-hours, the fastest is "
                                 "also the cheapest; sites with spare nodes at other prices give a trade-off)");
    return runs;
}

} // namespace meridian::ops
