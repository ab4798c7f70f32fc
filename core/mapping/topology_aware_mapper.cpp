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
                            "Logical groups are merged while k_log / k_phy is at least this, down to two groups "
                            "(Section 4.4)."),
            ParamSpec::choice("weights", "messages", {"messages", "bytes"},
                              "What the logical clustering weighs: message frequency (the paper's adjacency matrix, "
                              "Section 4.1) or bytes."),
            ParamSpec::choice(
                "units", "auto", {"auto", "sites", "hosts"},
                "Cluster sites or hosts; auto = hosts when the project has host-level links and at most 512 hosts.")};
}

namespace {

/// The application's communication as a weighted graph over processes: message counts or bytes, both
/// directions added.
Adjacency communicationWeights(const MappingProblem& problem, bool messages)
{
    return messages ? symmetrize(problem.comm().messages()) : problem.traffic();
}

cluster::WeightedGraph weightedGraph(const Adjacency& traffic, int processCount)
{
    cluster::WeightedGraph graph(processCount);
    for (int p = 0; p < processCount; ++p)
        for (int e = traffic.ptr[p]; e < traffic.ptr[p + 1]; ++e)
            graph[p].emplace_back(traffic.idx[e], traffic.weight[e]);
    return graph;
}

/// The physical topology: spectral clusters of the units that still have room, ranked greedily.
struct PhysicalClusters {
    std::vector<int> open;                 ///< units with room; the indices below point into this
    Eigen::MatrixXd latency;               ///< seconds between open units
    std::vector<std::vector<int>> members; ///< per cluster, its open units (ranked inside the cluster)
    std::vector<int> ranked;               ///< clusters, best first
    int count = 1;                         ///< k_phy
};

PhysicalClusters physicalClusters(const PlacementUnits& units, int kPhyParam, std::uint64_t seed)
{
    PhysicalClusters out;
    for (int a = 0; a < units.count(); ++a)
        if (units.room(a) > 0)
            out.open.push_back(a);
    const int o = static_cast<int>(out.open.size());
    out.latency.resize(o, o);
    for (int a = 0; a < o; ++a)
        for (int b = 0; b < o; ++b)
            out.latency(a, b) = units.latencySeconds(out.open[a], out.open[b]);
    const cluster::SpectralResult physical = cluster::spectralClustering(out.latency, std::min(kPhyParam, o), seed);
    out.count = std::max(1, physical.clusters);
    out.members.resize(out.count);
    for (int a = 0; a < o; ++a)
        out.members[physical.label[a]].push_back(a);
    return out;
}

/// Greedy ranking of the physical clusters: first the one with the lowest mean latency inside, then each next
/// the one closest on average to the units ranked so far (ties: more room). Inside a cluster, units with the
/// fastest own link come first, then those with most room.
void rankClusters(PhysicalClusters& phys, const PlacementUnits& units)
{
    const auto& latency = phys.latency;
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
            r += units.room(phys.open[a]);
        return r;
    };
    std::vector<bool> used(phys.count, false);
    std::vector<int> rankedUnits; // indices into open, ranked
    for (int step = 0; step < phys.count; ++step) {
        int best = -1;
        double bestScore = 0.0;
        for (int c = 0; c < phys.count; ++c) {
            if (used[c] || phys.members[c].empty())
                continue;
            const double score = phys.ranked.empty() ? meanLatency(phys.members[c], phys.members[c])
                                                     : meanLatency(phys.members[c], rankedUnits);
            if (best < 0 || score < bestScore
                || (score == bestScore && roomOf(phys.members[c]) > roomOf(phys.members[best]))) {
                best = c;
                bestScore = score;
            }
        }
        if (best < 0)
            break;
        used[best] = true;
        phys.ranked.push_back(best);
        std::vector<int>& inside = phys.members[best];
        std::stable_sort(inside.begin(), inside.end(), [&](int a, int b) {
            return latency(a, a) < latency(b, b)
                || (latency(a, a) == latency(b, b) && units.room(phys.open[a]) > units.room(phys.open[b]));
        });
        rankedUnits.insert(rankedUnits.end(), inside.begin(), inside.end());
    }
}

/// Grain (Section 4.4): the number of logical groups kept. With k_log > k_phy the groups are first reduced to
/// k_phy ("reduced to adapt to the value of k_phy"); then, with k_log <= k_phy, merged while k_log / k_phy >=
/// ratio, but never below two groups: one group on the best cluster is the paper's Untopology baseline, and
/// its own settings keep two (Fig. 5: k_log = 2 on k_phy = 3; Section 5.2: k_log = 4 reduced to 2 on k_phy = 3).
int grainTarget(int kLog, int kPhy, double ratio)
{
    int target = std::min(kLog, kPhy);
    while (target > 2 && static_cast<double>(target) / kPhy >= ratio)
        --target;
    return std::max(1, target);
}

/// Merges the logical groups down to grainTarget(). Returns each process's group.
std::vector<int> mergeToGrain(const cluster::WeightedGraph& graph, const cluster::ModularityResult& logical, int kPhy,
                              double ratio)
{
    const int target = grainTarget(logical.clusters, kPhy, ratio);
    return target < logical.clusters ? cluster::mergeClusters(graph, logical.label, target) : logical.label;
}

/// The order groups are placed in: the heaviest first, then each next the one that talks most to those placed.
std::vector<int> groupOrder(const Adjacency& traffic, const std::vector<int>& groupOf, int kLog)
{
    std::vector<double> groupVolume(kLog, 0.0);
    std::vector<std::vector<double>> between(kLog, std::vector<double>(kLog, 0.0));
    for (std::size_t p = 0; p < groupOf.size(); ++p)
        for (int e = traffic.ptr[p]; e < traffic.ptr[p + 1]; ++e) {
            groupVolume[groupOf[p]] += traffic.weight[e];
            between[groupOf[p]][groupOf[traffic.idx[e]]] += traffic.weight[e];
        }
    std::vector<int> order;
    std::vector<bool> placed(kLog, false);
    for (int step = 0; step < kLog; ++step) {
        int best = -1;
        double bestScore = -1.0;
        for (int g = 0; g < kLog; ++g) {
            if (placed[g])
                continue;
            double score = 0.0;
            if (order.empty())
                score = groupVolume[g];
            else
                for (int h : order)
                    score += between[g][h];
            if (score > bestScore) {
                bestScore = score;
                best = g;
            }
        }
        placed[best] = true;
        order.push_back(best);
    }
    return order;
}

/// Maps logical groups to physical clusters (Fig. 5): the i-th group in order gets the i-th ranked cluster and
/// fills its units best-first, spilling over into the next ranked clusters when the group does not fit; a group
/// whose cluster is already full starts at the next ranked cluster with room. Returns the unit of each free
/// process.
std::vector<int> placeGroups(const MappingProblem& problem, const PlacementUnits& units, const PhysicalClusters& phys,
                             const std::vector<int>& groupOf, const std::vector<int>& order)
{
    const auto& freeProcesses = problem.freeProcesses();
    std::vector<std::vector<int>> groupFree(order.size());
    std::vector<int> freeIndex(problem.processCount(), -1);
    for (std::size_t i = 0; i < freeProcesses.size(); ++i) {
        freeIndex[freeProcesses[i]] = static_cast<int>(i);
        groupFree[groupOf[freeProcesses[i]]].push_back(freeProcesses[i]);
    }
    std::vector<int> left(units.count());
    for (int a = 0; a < units.count(); ++a)
        left[a] = units.room(a);
    const auto clusterRoom = [&](int c) {
        int r = 0;
        for (int a : phys.members[c])
            r += left[phys.open[a]];
        return r;
    };
    const auto& ranked = phys.ranked;
    const std::size_t clusters = ranked.size();
    std::vector<int> unitOfFree(freeProcesses.size(), -1);
    std::size_t position = 0; // the rank of the cluster the next group gets
    for (int g : order) {
        const std::vector<int>& procs = groupFree[g];
        if (procs.empty())
            continue;
        std::size_t start = position;
        for (std::size_t k = 0; k < clusters && clusterRoom(ranked[start % clusters]) == 0; ++k)
            ++start;
        position = start + 1;
        std::size_t next = 0;
        for (std::size_t r = start; r < start + clusters && next < procs.size(); ++r)
            for (int a : phys.members[ranked[r % clusters]])
                for (const int unit = phys.open[a]; left[unit] > 0 && next < procs.size(); --left[unit])
                    unitOfFree[freeIndex[procs[next++]]] = unit;
    }
    return unitOfFree;
}

} // namespace

Expected<MappingResult> TopologyAwareMapper::mapImpl(const MappingProblem& problem, const ParamValues& values,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const std::string& unitsMode = values.choice("units");
    const int hostCount = problem.topology().hostCount();
    if (unitsMode == "hosts" && hostCount > 512)
        return makeError(ErrorCode::InvalidInput,
                         "units=hosts: " + std::to_string(hostCount)
                             + " hosts is more than spectral clustering handles here (512); use units=sites");
    const bool hostLevel = unitsMode == "hosts" || (unitsMode == "auto" && problem.hasHostLinks() && hostCount <= 512);
    const PlacementUnits units(problem, hostLevel);

    // 1. Logical topology.
    range.setProgress(0.0, "logical topology (modularity clustering)");
    const bool byMessages = values.choice("weights") == "messages" && problem.comm().hasMessages();
    const Adjacency weights = communicationWeights(problem, byMessages);
    const cluster::WeightedGraph graph = weightedGraph(weights, problem.processCount());
    const cluster::ModularityResult logical = cluster::modularityClustering(graph, [&] { return range.isCanceled(); });
    if (logical.canceled || range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");

    // 2. Physical topology over the units that still have room, and 3. its greedy ranking.
    range.setProgress(0.4, "physical topology (spectral clustering)");
    PhysicalClusters phys = physicalClusters(units, static_cast<int>(values.integer("k_phy")), seed);
    rankClusters(phys, units);

    // 4. Grain.
    const std::vector<int> groupOf = mergeToGrain(graph, logical, phys.count, values.real("ratio"));
    int kLog = 0;
    for (int g : groupOf)
        kLog = std::max(kLog, g + 1);
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");

    // 5. Place the groups' free processes.
    range.setProgress(0.7, "placing logical groups");
    const std::vector<int> order = groupOrder(weights, groupOf, kLog);
    MappingResult result;
    result.placement = units.place(placeGroups(problem, units, phys, groupOf, order));
    result.notes.push_back("k_log " + std::to_string(logical.clusters) + " -> " + std::to_string(kLog) + " (modularity "
                           + std::to_string(logical.modularity) + ", " + std::to_string(logical.levels)
                           + " merge levels), k_phy " + std::to_string(phys.count) + " over "
                           + (hostLevel ? "hosts" : "sites") + ", weights " + (byMessages ? "message counts" : "bytes"));
    if (values.choice("weights") == "messages" && !byMessages)
        result.notes.push_back("the application has no message counts: clustered by bytes");
    return result;
}

} // namespace meridian::mapping
