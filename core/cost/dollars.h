#pragma once

#include "core/cost/alpha_beta_cost.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

#include <optional>

namespace meridian::cost {

/// What a placement costs in money for one pass of its application's traffic. A part is missing when a site it
/// depends on has no price (a site that sends bytes to another for egress, a site with a process for instances),
/// or when no site has that price at all: a run never reports a dollar amount it cannot know.
struct Dollars {
    std::optional<double> egressUsd;          ///< bytes leaving each site x its egress USD per GB
    std::optional<double> instanceUsdPerHour; ///< the nodes with a process x their USD per node-hour
    std::optional<double> instanceUsd;        ///< instanceUsdPerHour for the communication time (alpha-beta)
    /// instances + egress; missing without the instances. With no egress price at all it is the instances alone;
    /// with egress known only in part it is missing.
    std::optional<double> totalUsd;
};

/// Returns what the nodes a placement uses cost per hour: each site's nodes with a process (for a placement
/// without hosts, the fewest of the site's nodes that hold its processes) times the site's instance price;
/// nullopt when a used site has no price.
std::optional<double> instanceUsdPerHour(const model::Placement& placement, const model::Topology& topology);

/// Returns the dollars of a placement whose alpha-beta breakdown is `breakdown`.
Dollars placementDollars(const model::Placement& placement, const model::Topology& topology,
                         const CostBreakdown& breakdown);

} // namespace meridian::cost
