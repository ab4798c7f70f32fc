#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `monte-carlo`: the best of K uniformly random feasible placements (SC17 Section 5.4), on the cores
/// its Feedback's Executor offers and over the ranks of its Feedback (`mpirun -np N meridian-cli map`).
///
/// Samples are drawn in fixed chunks of 4096, chunk c from its own generator seeded by (seed, c). Each rank takes a
/// contiguous block of chunks (shareOf); rank 0 gathers the blocks in chunk order, so the result (placement, best
/// curve, kept costs) is the same on any thread count and any number of ranks. Keeps the first `keep` sample
/// costs (an unbiased sample of the distribution, for the CDF of SC17 Fig. 9) and the best cost after
/// 1, 2, 5, 10, 20, 50, ... samples (Fig. 10); on ranks other than 0 the result holds the best placement only.
/// O(K nnz) work; memory O(keep + threads n + K / 4096).
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
