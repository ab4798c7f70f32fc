#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `monte-carlo`: the best of K uniformly random feasible placements (SC17 Section 5.4), on the cores
/// its Feedback's Executor offers.
///
/// Samples are drawn in fixed chunks of 4096, chunk c from its own generator seeded by (seed, c), and
/// merged in chunk order, so the result is the same on any thread count. Keeps the first `keep` sample
/// costs (an unbiased sample of the distribution, for the CDF of SC17 Fig. 9) and the best cost after
/// 1, 2, 5, 10, 20, 50, ... samples (Fig. 10). O(K nnz) work; memory O(keep + threads n).
class MonteCarloMapper final : public Mapper {
public:
    std::string_view id() const override { return "monte-carlo"; }
    std::string_view description() const override
    {
        return "Best of K random feasible placements, with the cost distribution (SC17 Fig. 9-10)";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;
};

} // namespace meridian::mapping
