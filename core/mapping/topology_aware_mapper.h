#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `topology-aware`: Fan et al.'s topology-aware deployment by multi-scale clustering (Section 4).
///
/// 1. Logical topology: the multi-scale modularity clustering of the communication graph (their
///    Algorithm 1: weight-density merging, then best node moves) gives k_log groups of processes. The graph
///    weighs message frequency, as the paper's adjacency matrix does (`weights=messages`), or bytes.
/// 2. Physical topology: spectral clustering of the units (sites, or hosts when the project has host
///    links) on latency gives k_phy clusters (k_phy chosen by the eigengap unless set).
/// 3. Clusters are ranked greedily: first the one with the lowest mean internal latency, then
///    repeatedly the one closest (mean latency) to those already ranked.
/// 4. Grain (Section 4.4): k_log is first reduced to k_phy when larger, then groups are merged while
///    k_log / k_phy >= `ratio` (0.6 in the paper) and k_log > 2 (one group would be the Untopology
///    baseline; the paper's Fig. 5 places k_log = 2 on k_phy = 3). A merge joins the two groups whose
///    merge raises modularity most.
/// 5. Groups, heaviest-communicating first and then by traffic to the groups already placed, are mapped to
///    the ranked clusters one to one (Fig. 5: the first group to the best cluster, the second to the next),
///    each filling its cluster's units best-first and spilling over in rank order when it does not fit. With
///    more slots than processes only the best-ranked clusters are used (host selection). Pinned processes
///    keep their sites.
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
