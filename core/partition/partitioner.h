#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/cost/gas_cost.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::partition {

/// One geo-distributed graph partitioning problem (Geo-Cut Section 3): a graph whose vertices live in home
/// sites, the sites' WAN uplink/downlink and prices, a traffic profile and an optional WAN budget in USD
/// per iteration. Holds pointers to the graph and topology, which must outlive it.
struct PartitionProblem {
    const model::Graph* graph = nullptr;
    const model::Topology* topology = nullptr;
    cost::GasNetwork network;
    cost::TrafficProfile profile;
    cost::VertexSizes sizes;
    std::vector<std::uint8_t> home;    ///< per vertex
    std::optional<double> budgetUsd;   ///< B of eq. 6

    /// Checks the inputs: sites with uplink, downlink and price (at most 64), one home per vertex, a
    /// non-negative budget.
    static Expected<PartitionProblem> create(const model::Graph& graph, const model::Topology& topology,
                                             const cost::TrafficProfile& profile, const std::vector<int>& home,
                                             std::optional<double> budgetUsd);
    int siteCount() const { return network.siteCount(); }
};

/// Assigns every vertex without a home (-1) a uniformly random site, seeded; returns how many it set.
std::size_t assignRandomHomes(std::vector<int>& home, int siteCount, std::uint64_t seed);

/// What a partitioner returns.
struct PartitionResult {
    model::EdgePartition partition;
    std::vector<std::string> notes;
};

/// The budget status of a partition: met, or over by how many USD.
struct BudgetStatus {
    bool given = false;
    bool met = true;
    double overUsd = 0.0;
    std::string text() const;
};
BudgetStatus budgetStatus(const PartitionProblem& problem, double wanUsd);

/// A vertex-cut graph partitioner (STYLE.md's algorithm interface). run() validates the parameters, calls
/// runImpl(), and checks that every edge has a site and every master is one of its vertex's replicas.
/// Deterministic for a seed. A canceled run returns ErrorCode::Canceled.
class Partitioner {
public:
    virtual ~Partitioner() = default;
    virtual std::string_view id() const = 0;
    virtual std::string_view description() const = 0;
    virtual std::vector<ParamSpec> parameters() const { return {}; }

    Expected<PartitionResult> run(const PartitionProblem& problem, const ParamValues& values, std::uint64_t seed,
                                  const Feedback& feedback) const;
    Expected<PartitionResult> run(const PartitionProblem& problem, std::uint64_t seed, const Feedback& feedback) const;

private:
    virtual Expected<PartitionResult> runImpl(const PartitionProblem& problem, const ParamValues& values, std::uint64_t seed,
                                              const FeedbackRange& range) const = 0;
};

/// Calls visit(e) for every edge in a seeded random order: 4096-edge blocks in a random permutation, each
/// block entered at a random offset. As random for streaming heuristics as a full shuffle (Geo-Cut
/// Section 4.1 cites that random orders are interchangeable) while reading memory block by block.
/// Returns false when `canceled` fired (polled once per block).
bool forEachEdgeInStreamOrder(std::size_t edges, std::uint64_t seed, const std::function<void(std::size_t)>& visit,
                              const std::function<bool()>& canceled);

} // namespace meridian::partition
