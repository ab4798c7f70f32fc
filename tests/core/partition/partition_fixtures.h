#pragma once

#include "core/io/edge_partition_io.h"
#include "core/io/graph_io.h"
#include "core/io/sites_io.h"
#include "core/partition/builtin_partitioners.h"
#include "test_support.h"

#include <QtTest>

namespace meridian::test {

/// Wiki-Vote (SNAP) and eight sites with Geo-Cut-like heterogeneous uplinks, downlinks and prices.
struct WikiVote {
    model::Graph graph = *io::readSnapGraph(data("graphs/Wiki-Vote.txt"));
    model::Topology topology;
    std::vector<int> home;

    WikiVote()
    {
        const double up[] = {520, 517, 517, 517, 550, 480, 480, 300};
        const double down[] = {2800, 2933, 2933, 2933, 3500, 2500, 2500, 1500};
        const double price[] = {0.02, 0.02, 0.02, 0.02, 0.09, 0.09, 0.14, 0.16};
        std::vector<model::Site> sites;
        for (int r = 0; r < 8; ++r) {
            auto s = site("dc" + std::to_string(r), 10.0 * r, 20.0 * r, 1, 1);
            s.uplinkMBps = up[r];
            s.downlinkMBps = down[r];
            s.egressUsdPerGB = price[r];
            sites.push_back(s);
        }
        topology = *model::Topology::create(sites);
        home.assign(graph.vertexCount, -1);
        partition::assignRandomHomes(home, 8, 7);
    }

    partition::PartitionProblem problem(std::optional<double> budget = {}, const char* profile = "pagerank") const
    {
        return *partition::PartitionProblem::create(graph, topology, *cost::TrafficProfile::fromId(profile), home,
                                                    budget);
    }
};

} // namespace meridian::test
