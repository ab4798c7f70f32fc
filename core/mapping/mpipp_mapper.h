#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `mpipp`: Chen et al.'s MPIPP (ICS 2006), iterative pairwise exchange from a k-way partition.
///
/// The start is a k-way partition of the communication graph grown by heaviest communication into
/// parts sized by the sites' free slots, assigned to sites in index order (MPIPP does not look at the
/// network when partitioning). Then Kernighan-Lin style passes: repeatedly exchange the unlocked pair of
/// processes in different sites with the largest cost decrease (or smallest increase), lock both, and at
/// the end of the pass keep the best prefix of exchanges. Passes repeat until one brings no gain.
/// Gains come from an n x M table of move deltas, updated for the neighbours of each exchanged pair,
/// with the exact swap delta for adjacent pairs: O(n^2) per exchange, O(n^3) per pass, as the paper.
/// Further starts (`starts` > 1) are random feasible placements; the best result is kept.
class MpippMapper final : public Mapper {
public:
    std::string_view id() const override { return "mpipp"; }
    std::string_view description() const override
    {
        return "MPIPP: k-way partition, then Kernighan-Lin pairwise exchanges (Chen et al., ICS 2006)";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;
};

} // namespace meridian::mapping
