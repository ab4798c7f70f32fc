#pragma once

#include "core/common/registry.h"
#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `refine`: local search on the exact alpha-beta cost, started from another mapper's placement (or on the
/// dollars, the busiest shared link, or a weighted sum: the `objective` parameter, see SearchCost).
///
/// Moves (into sites with a free slot) and swaps, evaluated with the O(degree) deltas, until no step
/// improves; then `restarts` rounds that perturb the best placement by random swaps and descend again;
/// optionally simulated annealing first. Pins and capacities always hold, and the result is never worse
/// than the start: if the search finds nothing better the start placement is returned unchanged
/// (including its hosts). Inside a site whose processes did not change, the start's host split is kept
/// when it is at least as cheap as a fresh completion.
///
/// The default objective, `time`, is the predicted time's surrogate: cost::BottleneckCost with S =
/// cost::bulkSynchronousSteps (the busiest shared link plus S x the largest latency in use). It is flat over most
/// moves, so an alpha-beta portfolio runs first and the surrogate's searches start from its result when that is
/// predicted faster. When the two portfolios end on different placements and the problem carries a judge
/// (MappingProblem::withJudge: sim::replayJudge, which `meridian-cli map` and ops::mapAndMeasure, behind the
/// workbench's runs, both attach), the judge's replay picks the faster; a judge's failure is a note. The searches run
/// on the Feedback's executor (runPortfolio); their work is bounded in cost-table lookups, not seconds, unless
/// `time_limit_s` is set.
///
/// `start` names the mapper that provides the start (run with default parameters and the same seed),
/// `best` runs geo, greedy, mpipp (up to 1024 processes), scotch-bw, scotch-lat and topology-aware and
/// starts from the cheapest, and `input` uses the placement attached with MappingProblem::withStart.
class RefineMapper final : public Mapper {
public:
    /// `registry` provides the start mappers; it must outlive this mapper.
    explicit RefineMapper(const Registry<Mapper>& registry)
        : m_registry(registry)
    {}

    std::string_view id() const override { return "refine"; }
    std::string_view description() const override
    {
        return "Move/swap local search on the exact alpha-beta cost (or dollars, or the busiest link) from any "
               "mapper's "
               "placement, multi-start, optional annealing";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;

    const Registry<Mapper>& m_registry;
};

} // namespace meridian::mapping
