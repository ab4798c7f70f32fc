#pragma once

#include "core/common/expected.h"
#include "core/model/constraints.h"
#include "core/model/topology.h"

#include <string>
#include <vector>

namespace meridian::model {

/// Where every process runs: its site, and once completed to host level, its global host index and
/// the slot inside that host (0-based). Host and slot are -1 for a site-level placement.
struct Placement {
    std::vector<int> site;
    std::vector<int> host;
    std::vector<int> slot;

    /// Returns a site-level placement (no hosts yet).
    static Placement fromSites(std::vector<int> sites);

    int processCount() const { return static_cast<int>(site.size()); }
    /// Returns true when every process has a host and a slot.
    bool hasHosts() const;
    /// Returns the number of processes placed in each site.
    std::vector<int> siteLoad(int siteCount) const;
};

/// The placement with a host and slot for every process: processes without one get the first free slot of
/// their site's hosts, in process order (as a launcher fills a hostfile by slot). Fails, naming the site, when a
/// site has more processes than slots. The simulator and the collectives planner take a site-level run this way.
Expected<Placement> withHosts(const Placement& placement, const Topology& topology);

/// A rule a placement breaks. Reported, not thrown: `meridian-cli evaluate` lists them.
struct Violation {
    enum class Kind { Capacity, SlotConflict, Pin };
    Kind kind;
    std::string message;
};

/// Returns every capacity, slot and pin violation of a placement (empty when it is valid). The
/// placement's sites and hosts must exist in `topology` (readers check that).
std::vector<Violation> checkPlacement(const Placement& placement, const Topology& topology,
                                      const Constraints& constraints);

} // namespace meridian::model
