#pragma once

#include "core/common/feedback.h"
#include "core/mapping/mapping_problem.h"
#include "core/model/placement.h"

#include <cstdint>
#include <vector>

namespace meridian::mapping {

/// Completes a site-level assignment to host and slot, site by site.
///
/// Inside a site the processes are split across its hosts to minimise a host-level alpha-beta cost:
/// between two hosts it is the host link when the project has one, else the site's diagonal entry;
/// within one host it is the host's own link when measured, else zero (shared memory is not modelled
/// without a measurement, so the objective becomes CloudMap's inter-instance traffic). The split starts
/// from the SC17 filling (heaviest process first, then heaviest communicators) and is improved by the
/// move/swap local search. When every host of a site has one slot and no host link exists, every split
/// costs the same and processes take hosts in rank order. Slots inside a host follow rank order.
///
/// Sites are independent and shared by the Feedback's executor's workers; each site's search is seeded from
/// `seed` and the site's index and bounded by its share (by processes) of a work budget counted in cost-table
/// lookups, so only very large instances reach it and the result does not depend on the thread count.
///
/// `siteOf` must respect capacities. Deterministic for a given seed.
Expected<model::Placement> completeHosts(const MappingProblem& problem, const std::vector<int>& siteOf,
                                         std::uint64_t seed, const FeedbackRange& range);

/// Numbers slots inside each host in rank order for a placement whose hosts are already chosen.
void numberSlots(model::Placement& placement, const model::Topology& topology);

/// Returns the host-level cost (seconds) of a placement's split inside `site`, as completeHosts defines it.
double hostLevelCost(const MappingProblem& problem, const model::Placement& placement, int site);

} // namespace meridian::mapping
