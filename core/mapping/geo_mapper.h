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
