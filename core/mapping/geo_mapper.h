#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `geo`: the SC17 geo-distributed process mapper, Algorithm 1 as written.
///
/// Pinned processes are placed first and their slots taken (lines 4-6). Sites are grouped by K-means
/// (Forgy initialisation, seeded) on (latitude, longitude) into kappa groups (line 1). For an order of
/// the groups, each group in turn fills its sites: the unselected site with the most available slots
/// opens with the heaviest unselected process and is filled by the processes with the heaviest
/// communication with those already in it (lines 7-15). Every order of the groups is costed with the
/// exact alpha-beta cost and the cheapest kept (lines 16-17).
///
/// Grouping is recursive: a group with more than kappa sites is split again by K-means into kappa
/// subgroups. The top-level orders are all tried with subgroups in their default order; then, for the
/// best top-level order, each split group's subgroup orders are tried in turn (the rest fixed), which
/// keeps the work at O(kappa! x depth x (n + nnz) log n) instead of a product of factorials.
///
/// A group's orders are costed on the Feedback's executor: the sites before the group are filled once, the workers
/// take orders from a counter, and the best is kept by cost, then by the order's rank in lexicographic order, so the
/// result does not depend on the thread count. With `kappa=0` (automatic: as many groups as sites, at most 5), a very
/// large instance gets the largest kappa whose tree of orders fits a work budget counted in adjacency entries
/// visited (4e7; each order costed is one complete fill), or else 3 with its inner groups tried while the budget
/// lasts; a note says so. Counting work, not seconds, keeps the result the same on every machine.
class GeoMapper final : public Mapper {
public:
    std::string_view id() const override { return "geo"; }
    std::string_view description() const override
    {
        return "SC17 geo-distributed mapper: K-means site groups, every group order, heaviest-first filling";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;
};

} // namespace meridian::mapping
