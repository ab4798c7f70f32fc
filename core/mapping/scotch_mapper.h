#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `scotch-bw` and `scotch-lat`: CloudMap's task mapping through libscotch's dual recursive bipartitioning.
///
/// The target is an exact `deco 0` architecture built in memory: one terminal per site (per host when the
/// project has host-level links, as CloudMap maps onto instances), weighted by its free slots, with
/// distances from the measured matrix: `scotch-bw` uses 1/B minus the mean intra-site 1/B (exact for the
/// bandwidth term when intra-site bandwidths are equal) with byte volumes as edge weights; `scotch-lat`
/// uses L minus the mean intra-site L with message counts. The binary decomposition tree splits terminals
/// into capacity-balanced halves with the smallest intra-half distance. Runs are deterministic (a Scotch
/// context with the deterministic and fixed-seed options, seeded from the run's seed).
///
/// Pins are handled outside Scotch, whose fixed-vertex mapping misplaces neighbours on deco targets and
/// ignores capacity: only free processes are mapped, onto residual capacities. Scotch's load balance is
/// approximate, so a terminal left over capacity is repaired by moving its cheapest-to-move processes to
/// free slots (counted in the notes). Scotch has one edge weight, so it optimises one term only; the
/// result is always costed with Meridian's full alpha-beta model. Calls into libscotch are serialised.
class ScotchMapper final : public Mapper {
public:
    enum class Metric { Bandwidth, Latency };
    explicit ScotchMapper(Metric metric)
        : m_metric(metric)
    {}

    std::string_view id() const override { return m_metric == Metric::Bandwidth ? "scotch-bw" : "scotch-lat"; }
    std::string_view description() const override
    {
        return m_metric == Metric::Bandwidth
            ? "Scotch dual recursive bipartitioning on byte volumes and a bandwidth target (CloudMap_bw)"
            : "Scotch dual recursive bipartitioning on message counts and a latency target (CloudMap_lat)";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;

    Metric m_metric;
};

/// Builds the text of a Scotch `deco 0` target: terminal weights, a binary decomposition tree that
/// splits into capacity-balanced halves with minimal intra-half distance, and the lower-triangular
/// integer distance matrix (all off-diagonal entries >= 1). Exposed for tests.
std::string scotchDecoTarget(const std::vector<int>& weights, const std::vector<std::vector<long>>& distance);

} // namespace meridian::mapping
