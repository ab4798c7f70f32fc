// Benchmark of refine's defaults against the best placement found by any means. Prints one RESULT line per
// case:
//   quality   per instance: the best known cost (the cheapest of every mapper's placement, refine's default,
//             and long annealing: 16 searches of 2e7 steps from the best heuristic and from a random
//             placement), refine's default cost and wall time (whole map call, start mappers included), and
//             the previous default's (start=geo, one descent search without annealing);
//   quality_summary  the largest gap of the default to the best known (target <= 1%), how many instances are
//             within 1%, and the slowest default run at 64 processes (target about 1 s).
// Instances: the sample projects' applications with their pins; 3-D stencils (4 x 4 x 4, periodic) and random
// sparse graphs (64 processes, 6 partners each, bytes log-uniform over 1e4-4e6) onto four sites with random
// heterogeneous networks (latency 5-155 ms, bandwidth 10-310 MB/s between sites), equal (4 x 16) and unequal
// (24, 16, 16, 8) capacities, with and without 20% pinned processes.
#include "app/project/project_file.h"
#include "core/common/random.h"
#include "core/mapping/builtin_mappers.h"
#include "core/synth/constraint_generator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace meridian;
using namespace meridian::mapping;
using Clock = std::chrono::steady_clock;

namespace {

struct Instance {
    std::string name;
    MappingProblem problem;
};

model::CommMatrix stencil3d(int nx, int ny, int nz)
{
    std::vector<model::CommEntry> entries;
    const auto id = [&](int x, int y, int z) { return (z * ny + y) * nx + x; };
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                const int p = id(x, y, z);
                for (int q : {id((x + 1) % nx, y, z), id((x + nx - 1) % nx, y, z), id(x, (y + 1) % ny, z),
                              id(x, (y + ny - 1) % ny, z), id(x, y, (z + 1) % nz), id(x, y, (z + nz - 1) % nz)})
                    if (q != p)
                        entries.push_back({p, q, 1e6, 10});
            }
    return *model::CommMatrix::fromEntries(nx * ny * nz, entries, true);
}

model::CommMatrix randomGraph(int n, int partners, std::uint64_t seed)
{
    Random random(seed);
    std::vector<model::CommEntry> entries;
    for (int p = 0; p < n; ++p)
        for (int k = 0; k < partners; ++k) {
            const int q = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(n)));
            if (q == p)
                continue;
            const double bytes = std::exp(random.uniform01() * 6.0) * 1e4;
            entries.push_back({p, q, bytes, 1.0 + std::floor(random.uniform01() * 20.0)});
        }
    return *model::CommMatrix::fromEntries(n, entries, true);
}

/// Four sites with the given capacities and a random heterogeneous, asymmetric network.
std::pair<model::Topology, model::Network> heterogeneousTarget(const std::vector<int>& capacities, std::uint64_t seed)
{
    Random random(seed);
    std::vector<model::Site> sites;
    const int m = static_cast<int>(capacities.size());
    for (int i = 0; i < m; ++i) {
        model::Site site;
        site.name = "site-" + std::to_string(i);
        site.nodes = capacities[i];
        sites.push_back(site);
    }
    model::Network network(m);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
            const bool same = i == j;
            network.set(model::NetworkQuantity::Latency, i, j,
                        same ? 0.05 + 0.2 * random.uniform01() : 5.0 + 150.0 * random.uniform01());
            network.set(model::NetworkQuantity::Bandwidth, i, j,
                        same ? 500.0 + 1000.0 * random.uniform01() : 10.0 + 300.0 * random.uniform01());
        }
    return {*model::Topology::create(std::move(sites)), network};
}

std::vector<Instance> instances()
{
    std::vector<Instance> out;
    for (const char* name : {"ec2-4-regions", "azure-3-regions"}) {
        auto project = document::ProjectFile::load(QString(MERIDIAN_SOURCE_DIR) + "/sample_projects/" + name + "/"
                                                   + name + ".meridian");
        if (!project) {
            std::fprintf(stderr, "bench: %s\n", project.error().toString().c_str());
            std::exit(1);
        }
        for (const auto& app : project->applications)
            out.push_back({std::string(name) + "/" + app.name,
                           *MappingProblem::create(project->topology, project->completeNetwork(), app.comm, app.pins)});
    }
    for (std::uint64_t t = 1; t <= 3; ++t) {
        for (const auto& [label, capacities] :
             std::vector<std::pair<std::string, std::vector<int>>>{{"4x16", {16, 16, 16, 16}},
                                                                   {"24-16-16-8", {24, 16, 16, 8}}}) {
            const auto [topology, network] = heterogeneousTarget(capacities, t);
            const std::string target = "/" + label + "/net" + std::to_string(t);
            const model::Constraints pins = *synth::generateConstraints(64, 0.2, topology, t);
            out.push_back({"stencil-4x4x4" + target, *MappingProblem::create(topology, network, stencil3d(4, 4, 4))});
            out.push_back(
                {"stencil-4x4x4-pins" + target, *MappingProblem::create(topology, network, stencil3d(4, 4, 4), pins)});
            out.push_back({"random-64" + target, *MappingProblem::create(topology, network, randomGraph(64, 6, t))});
            out.push_back({"random-64-pins" + target,
                           *MappingProblem::create(topology, network, randomGraph(64, 6, t + 10), pins)});
        }
    }
    return out;
}

struct Outcome {
    double cost = 0.0;
    double seconds = 0.0;
};

Outcome runRefine(const Registry<Mapper>& registry, const MappingProblem& problem,
                  const std::vector<std::string>& params, std::uint64_t seed)
{
    const Mapper* refine = registry.find("refine");
    const auto values = ParamValues::parse(refine->parameters(), params);
    const Feedback feedback;
    const auto t0 = Clock::now();
    auto r = refine->map(problem, *values, seed, feedback);
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    if (!r) {
        std::fprintf(stderr, "bench: refine failed: %s\n", r.error().toString().c_str());
        std::exit(1);
    }
    return {problem.cost().evaluate(r->placement.site), seconds};
}

/// The cheapest placement found by every mapper and by long annealing from two starts.
double bestKnown(const Registry<Mapper>& registry, const MappingProblem& problem)
{
    double best = std::numeric_limits<double>::infinity();
    const Feedback feedback;
    for (const Mapper* mapper : registry.all()) {
        if (mapper->id() == "monte-carlo")
            continue;
        auto r = mapper->map(problem, 1, feedback);
        if (r)
            best = std::min(best, problem.cost().evaluate(r->placement.site));
    }
    for (const char* start : {"start=best", "start=random"})
        best = std::min(best, runRefine(registry, problem, {start, "searches=16", "anneal_steps=20000000"}, 99).cost);
    return best;
}

} // namespace

int main(int argc, char** argv)
{
    // Optional: bench_refine SUBSTRING [key=value ...] runs the instances whose name contains SUBSTRING, with
    // refine's parameters changed from the defaults; BENCH_REFINE_BEST_KNOWN=x skips the long search and takes x.
    const std::string only = argc > 1 ? argv[1] : "";
    std::vector<std::string> params(argv + std::min(argc, 2), argv + argc);
    Registry<Mapper> registry;
    registerBuiltinMappers(registry);
    double maxGap = 0.0;
    double maxSeconds = 0.0;
    int within = 0;
    int count = 0;
    for (const Instance& instance : instances()) {
        if (instance.name.find(only) == std::string::npos)
            continue;
        const MappingProblem& problem = instance.problem;
        const Outcome byDefault = runRefine(registry, problem, params, 1);
        const Outcome previous = runRefine(registry, problem, {"start=geo", "annealing=false"}, 1);
        const char* given = std::getenv("BENCH_REFINE_BEST_KNOWN");
        const double best = std::min(given ? std::atof(given) : bestKnown(registry, problem), byDefault.cost);
        const double gap = byDefault.cost / best - 1.0;
        std::printf("RESULT case=quality instance=%s processes=%d best_known=%.6g default=%.6g default_gap=%.4f "
                    "default_s=%.3f previous_default_gap=%.4f previous_default_s=%.3f\n",
                    instance.name.c_str(), problem.processCount(), best, byDefault.cost, gap, byDefault.seconds,
                    previous.cost / best - 1.0, previous.seconds);
        std::fflush(stdout);
        maxGap = std::max(maxGap, gap);
        maxSeconds = std::max(maxSeconds, byDefault.seconds);
        within += gap <= 0.01 ? 1 : 0;
        ++count;
    }
    std::printf("RESULT case=quality_summary instances=%d within_1pct=%d max_default_gap=%.4f target_max_gap=0.01 "
                "max_default_s=%.3f target_s=1\n",
                count, within, maxGap, maxSeconds);
    return maxGap <= 0.01 ? 0 : 1;
}
