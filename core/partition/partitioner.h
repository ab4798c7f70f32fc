#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/common/random.h"
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
    std::vector<std::uint8_t> home;  ///< per vertex
    std::optional<double> budgetUsd; ///< B of eq. 6

    /// Checks the inputs: sites with uplink, downlink and price (at most 64), one home per vertex, a
    /// non-negative budget.
    static Expected<PartitionProblem> create(const model::Graph& graph, const model::Topology& topology,
                                             const cost::TrafficProfile& profile, const std::vector<int>& home,
                                             std::optional<double> budgetUsd);
    int siteCount() const { return network.siteCount(); }
};

/// The seeded draws random homes come from: one per vertex, in vertex order, whether the vertex needs it or not, so
/// a vertex's random home does not depend on which others have homes (assignRandomHomes, and a stream that meets
/// its vertices one at a time).
class HomeDraws {
public:
    HomeDraws(int siteCount, std::uint64_t seed)
        : m_random(seed ^ 0x484f4d45ull)
        , m_sites(static_cast<std::uint64_t>(siteCount))
    {}
    /// The next vertex's draw.
    int next() { return static_cast<int>(m_random.uniformInt(m_sites)); }

private:
    Random m_random;
    std::uint64_t m_sites;
};

/// Assigns every vertex without a home (-1) a uniformly random site, seeded; returns how many it set.
std::size_t assignRandomHomes(std::vector<int>& home, int siteCount, std::uint64_t seed);

/// What a partitioner returns.
struct PartitionResult {
    model::EdgePartition partition;
    std::vector<std::string> notes;
    double streamingSeconds = 0.0; ///< wall time of the streaming pass alone (for throughput figures)
    /// The partition's metrics when the partitioner ended with an exact traffic state of it (Geo-Cut's
    /// refinement): a caller may use them instead of evaluating again.
    std::optional<cost::GasMetrics> metrics;
    /// Where partition mapping moved each site's partition (a permutation; empty when nothing moved). A
    /// vertex's home data moves with its partition: its master is then at siteMapping[home].
    std::vector<int> siteMapping;
};

/// The budget status of a partition: met, or over by how many USD.
struct BudgetStatus {
    bool given = false;
    bool met = true;
    double overUsd = 0.0;
    std::string text() const;
};
BudgetStatus budgetStatus(const PartitionProblem& problem, double wanUsd);
/// Returns true when `usd` fits `budget`, with a relative tolerance so rounding in incremental totals
/// never flags an exact fit.
inline bool withinBudget(double usd, double budget) { return usd <= budget * (1 + 1e-9) + 1e-15; }

/// A vertex-cut graph partitioner (the same algorithm interface as the mappers). run() validates the parameters, calls
/// runImpl(), and checks that every edge has a site and every master is at its vertex's home (or where a partition
/// mapping moved the home's partition): a vertex's data stays where it is stored, so its master does too, and the
/// home is always one of the vertex's replicas.
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
    virtual Expected<PartitionResult> runImpl(const PartitionProblem& problem, const ParamValues& values,
                                              std::uint64_t seed, const FeedbackRange& range) const = 0;
};

/// The visiting order of a stream: 4096-edge blocks in a seeded random permutation, each entered at a
/// random offset. As random for streaming heuristics as a full shuffle (Geo-Cut Section 4.1 cites that
/// random orders are interchangeable) while reading memory block by block.
struct StreamOrder {
    static constexpr std::size_t kBlock = 4096;
    std::vector<std::uint32_t> blocks;
    std::vector<std::uint32_t> offsets;
    StreamOrder(std::size_t edges, std::uint64_t seed);
};

/// Calls visit(e) for every edge in StreamOrder. Returns false when `canceled()` fired (polled per block).
template <typename Visit, typename Canceled>
bool forEachEdgeInStreamOrder(std::size_t edges, std::uint64_t seed, const Visit& visit, const Canceled& canceled)
{
    const StreamOrder order(edges, seed);
    for (std::size_t i = 0; i < order.blocks.size(); ++i) {
        if (canceled())
            return false;
        const std::size_t begin = static_cast<std::size_t>(order.blocks[i]) * StreamOrder::kBlock;
        const std::size_t len = std::min(StreamOrder::kBlock, edges - begin);
        const std::size_t offset = order.offsets[i];
        for (std::size_t k = offset; k < len; ++k)
            visit(begin + k);
        for (std::size_t k = 0; k < offset; ++k)
            visit(begin + k);
    }
    return true;
}

} // namespace meridian::partition
