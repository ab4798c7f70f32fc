#pragma once

#include "core/mapping/builtin_mappers.h"
#include "core/mapping/mapping_problem.h"
#include "core/model/network_estimator.h"
#include "core/synth/constraint_generator.h"
#include "core/synth/patterns.h"
#include "test_support.h"

#include <QtTest>

namespace meridian::test {

/// Four EC2-like regions with the given slots each, `slotsPerHost` slots per host.
inline model::Topology fourRegions(const std::vector<int>& slots, int slotsPerHost = 1)
{
    const char* names[] = {"us-east", "us-west", "singapore", "ireland"};
    const double coords[][2] = {{38.9, -77.0}, {37.4, -122.0}, {1.35, 103.8}, {53.3, -6.3}};
    std::vector<model::Site> sites;
    for (std::size_t i = 0; i < slots.size(); ++i)
        sites.push_back(site(names[i % 4] + (i >= 4 ? std::to_string(i) : std::string()),
                             coords[i % 4][0] + static_cast<double>(i / 4), coords[i % 4][1], slots[i] / slotsPerHost,
                             slotsPerHost));
    return *model::Topology::create(std::move(sites));
}

/// The network completed from the distance prior (no measurements): latency grows with distance.
inline model::Network priorNetwork(const model::Topology& topology)
{
    return model::NetworkEstimator::complete(model::Network(topology.siteCount()), topology);
}

inline mapping::MappingProblem makeProblem(synth::Pattern pattern, int processes, const model::Topology& topology,
                                           double pinRatio = 0.0, std::uint64_t seed = 1)
{
    synth::PatternOptions options;
    options.processes = processes;
    auto comm = synth::generatePattern(pattern, options);
    model::Constraints pins;
    if (pinRatio > 0.0)
        pins = *synth::generateConstraints(processes, pinRatio, topology, seed);
    auto problem = mapping::MappingProblem::create(topology, priorNetwork(topology), *comm, pins);
    if (!problem)
        qFatal("%s", problem.error().toString().c_str());
    return *problem;
}

} // namespace meridian::test
