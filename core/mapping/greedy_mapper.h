#pragma once

#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// `greedy`: Hoefler and Snir's greedy heuristic for heterogeneous networks (ICS 2011), at site level.
///
/// The heaviest-traffic process goes to the site whose links carry the most bandwidth (largest row sum
/// of B with a free slot). Unplaced processes then wait in a priority queue keyed by their traffic to
/// placed ones; the heaviest is placed on the free site with the highest bandwidth to the site of the
/// placed neighbour it talks to most (that site itself when it has room), and its neighbours join the
/// queue. A process without placed neighbours starts a new component like the first one. Pinned
/// processes are placed first and seed the queue. Latency is ignored, as in the original.
/// O((n + nnz) log n + n M).
class GreedyMapper final : public Mapper {
public:
    std::string_view id() const override { return "greedy"; }
    std::string_view description() const override
    {
        return "Heaviest process first onto the best-connected site, then its heaviest neighbours (Hoefler & Snir)";
    }

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t,
                                    const FeedbackRange&) const override;
};

} // namespace meridian::mapping
