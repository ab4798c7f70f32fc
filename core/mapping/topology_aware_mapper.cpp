#include "core/mapping/topology_aware_mapper.h"

#include "core/cluster/modularity_clustering.h"
#include "core/cluster/spectral_clustering.h"
#include "core/mapping/placement_units.h"

#include <algorithm>
#include <numeric>

namespace meridian::mapping {

std::vector<ParamSpec> TopologyAwareMapper::parameters() const
{
    return {ParamSpec::integer("k_phy", 0, 0, 64, "Number of physical clusters; 0 = chosen by the eigengap."),
            ParamSpec::real("ratio", 0.6, 0.05, 1.0,
                            "Logical groups are merged while k_log / k_phy is at least this (Section 4.4)."),
            ParamSpec::choice(
                "units", "auto", {"auto", "sites", "hosts"},
                "Cluster sites or hosts; auto = hosts when the project has host-level links and at most 512 hosts.")};
}

Expected<MappingResult> TopologyAwareMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const int n = problem.processCount();
    const std::string& unitsMode = values.choice("units");
    const int hostCount = problem.topology().hostCount();
    if (unitsMode == "hosts" && hostCount > 512)
        return makeError(ErrorCode::InvalidInput,
                         "units=hosts: " + std::to_string(hostCount)
                             + " hosts is more than spectral clustering handles here (512); use units=sites");
    const bool hostLevel = unitsMode == "hosts" || (unitsMode == "auto" && problem.hasHostLinks() && hostCount <= 512);
    const PlacementUnits units(problem, hostLevel);
    const int u = units.count();

    // 1. Logical topology.
    range.setProgress(0.0, "logical topology (modularity clustering)");
    const Adjacency& traffic = problem.traffic();
    cluster::WeightedGraph graph(n);
    for (int p = 0; p < n; ++p)
        for (int e = traffic.ptr[p]; e < traffic.ptr[p + 1]; ++e)
            graph[p].emplace_back(traffic.idx[e], traffic.weight[e]);
    const cluster::ModularityResult logical = cluster::modularityClustering(graph, [&] { return range.isCanceled(); });
    if (logical.canceled || range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");

    // 2. Physical topology over the units that still have room.
    range.setProgress(0.4, "physical topology (spectral clustering)");
    std::vector<int> open;
    for (int a = 0; a < u; ++a)
        if (units.room(a) > 0)
            open.push_back(a);
    const int o = static_cast<int>(open.size());
    Eigen::MatrixXd latency(o, o);
    for (int a = 0; a < o; ++a)
        for (int b = 0; b < o; ++b)
            latency(a, b) = units.latencySeconds(open[a], open[b]);
    const auto kPhyParam = static_cast<int>(values.integer("k_phy"));
    const cluster::SpectralResult physical = cluster::spectralClustering(latency, std::min(kPhyParam, o), seed);
    const int kPhy = std::max(1, physical.clusters);

    // 3. Greedy ranking of the physical clusters.
    std::vector<std::vector<int>> members(kPhy); // indices into open
    for (int a = 0; a < o; ++a)
        members[physical.label[a]].push_back(a);
    const auto meanLatency = [&](const std::vector<int>& x, const std::vector<int>& y) {
        double sum = 0.0;
        for (int a : x)
            for (int b : y)
                sum += 0.5 * (latency(a, b) + latency(b, a));
        return x.empty() || y.empty() ? 0.0 : sum / static_cast<double>(x.size() * y.size());
    };
    const auto roomOf = [&](const std::vector<int>& x) {
        int r = 0;
        for (int a : x)
            r += units.room(open[a]);
        return r;
    };
    std::vector<int> ranked;
    std::vector<bool> used(kPhy, false);
    std::vector<int> rankedUnits; // indices into open, ranked
    for (int step = 0; step < kPhy; ++step) {
        int best = -1;
        double bestScore = 0.0;
        for (int c = 0; c < kPhy; ++c) {
            if (used[c] || members[c].empty())
                continue;
            const double score = ranked.empty() ? meanLatency(members[c], members[c])
                                                : meanLatency(members[c], rankedUnits);
            if (best < 0 || score < bestScore || (score == bestScore && roomOf(members[c]) > roomOf(members[best]))) {
                best = c;
                bestScore = score;
            }
        }
        if (best < 0)
            break;
        used[best] = true;
        ranked.push_back(best);
        // Units inside a cluster: fastest own link first, then most room.
        std::vector<int> inside = members[best];
        std::stable_sort(inside.begin(), inside.end(), [&](int a, int b) {
            return latency(a, a) < latency(b, b)
                || (latency(a, a) == latency(b, b) && units.room(open[a]) > units.room(open[b]));
        });
        members[best] = inside;
        rankedUnits.insert(rankedUnits.end(), inside.begin(), inside.end());
    }

    // 4. Grain: merge logical groups while k_log / k_phy >= ratio.
    const double ratio = values.real("ratio");
    int kLog = logical.clusters;
    int target = kLog;
    while (target > 1 && static_cast<double>(target) / kPhy >= ratio)
        --target;
    const std::vector<int> groupOf = target < kLog ? cluster::mergeClusters(graph, logical.label, target)
                                                   : logical.label;
    kLog = 0;
    for (int g : groupOf)
        kLog = std::max(kLog, g + 1);
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");

    // 5. Place the groups' free processes.
    range.setProgress(0.7, "placing logical groups");
    std::vector<std::vector<int>> groupFree(kLog);
    std::vector<int> freeIndex(n, -1);
    for (std::size_t i = 0; i < problem.freeProcesses().size(); ++i) {
        const int p = problem.freeProcesses()[i];
        freeIndex[p] = static_cast<int>(i);
        groupFree[groupOf[p]].push_back(p);
    }
    std::vector<double> groupVolume(kLog, 0.0);
    std::vector<std::vector<double>> between(kLog, std::vector<double>(kLog, 0.0));
    for (int p = 0; p < n; ++p)
        for (int e = traffic.ptr[p]; e < traffic.ptr[p + 1]; ++e) {
            groupVolume[groupOf[p]] += traffic.weight[e];
            between[groupOf[p]][groupOf[traffic.idx[e]]] += traffic.weight[e];
        }
    std::vector<int> groupOrder;
    std::vector<bool> placedGroup(kLog, false);
    for (int step = 0; step < kLog; ++step) {
        int best = -1;
        double bestScore = -1.0;
        for (int g = 0; g < kLog; ++g) {
            if (placedGroup[g])
                continue;
            double score = 0.0;
            if (groupOrder.empty())
                score = groupVolume[g];
            else
                for (int h : groupOrder)
                    score += between[g][h];
            if (score > bestScore) {
                bestScore = score;
                best = g;
            }
        }
        placedGroup[best] = true;
        groupOrder.push_back(best);
    }

    std::vector<int> left(u);
    for (int a = 0; a < u; ++a)
        left[a] = units.room(a);
    std::vector<int> unitOfFree(problem.freeProcesses().size(), -1);
    const auto clusterRoom = [&](int c) {
        int r = 0;
        for (int a : members[c])
            r += left[open[a]];
        return r;
    };
    for (int g : groupOrder) {
        std::vector<int>& procs = groupFree[g];
        if (procs.empty())
            continue;
        // The best-ranked cluster that holds the whole group, else the best-ranked with room.
        std::size_t start = ranked.size();
        for (std::size_t r = 0; r < ranked.size(); ++r)
            if (clusterRoom(ranked[r]) >= static_cast<int>(procs.size())) {
                start = r;
                break;
            }
        if (start == ranked.size())
            for (std::size_t r = 0; r < ranked.size(); ++r)
                if (clusterRoom(ranked[r]) > 0) {
                    start = r;
                    break;
                }
        std::size_t next = 0;
        for (std::size_t r = start; r < start + ranked.size() && next < procs.size(); ++r) {
            for (int a : members[ranked[r % ranked.size()]]) {
                const int unit = open[a];
                while (left[unit] > 0 && next < procs.size()) {
                    unitOfFree[freeIndex[procs[next++]]] = unit;
                    --left[unit];
                }
            }
        }
    }

    MappingResult result;
    result.placement = units.place(unitOfFree);
    result.notes.push_back("k_log " + std::to_string(logical.clusters) + " -> " + std::to_string(kLog) + " (modularity "
                           + std::to_string(logical.modularity) + ", " + std::to_string(logical.levels)
                           + " merge levels), k_phy " + std::to_string(kPhy) + " over "
                           + (hostLevel ? "hosts" : "sites"));
    return result;
}

} // namespace meridian::mapping
