#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `topology-aware`: Fan et al.'s topology-aware deployment by multi-scale clustering (Section 4).
///
/// 1. Logical topology: the multi-scale modularity clustering of the communication graph (their
///    Algorithm 1: weight-density merging, then best node moves) gives k_log groups of processes.
/// 2. Physical topology: spectral clustering of the units (sites, or hosts when the project has host
///    links) on latency gives k_phy clusters (k_phy chosen by the eigengap unless set).
/// 3. Clusters are ranked greedily: first the one with the lowest mean internal latency, then
///    repeatedly the one closest (mean latency) to those already ranked.
/// 4. Grain (Section 4.4): while k_log / k_phy >= `ratio` (0.6 in the paper) and k_log > 1, the two
///    logical groups whose merge raises modularity most are merged.
/// 5. Groups, heaviest-communicating first and then by traffic to the groups already placed, go whole to
///    the best-ranked cluster that can hold them (spilling over in rank order otherwise), filling its
///    units best-first. With more slots than processes only the best-ranked clusters are used (host
///    selection). Pinned processes keep their sites.
class TopologyAwareMapper final : public Mapper {
public:
    std::string_view id() const override { return "topology-aware"; }
    std::string_view description() const override
    {
        return "Fan et al.: modularity clustering of processes, spectral clustering of nodes, ranked cluster filling";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;
};

} // namespace meridian::mapping
