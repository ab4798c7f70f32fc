#pragma once

#include "core/collectives/schedule.h"
#include "core/common/expected.h"

#include <vector>

namespace meridian::model {
class Network;
class Topology;
} // namespace meridian::model

namespace meridian::collectives {

/// What a schedule costs on a network.
struct ScheduleTiming {
    double seconds = 0.0;        ///< until the last message arrives
    double bytes = 0.0;          ///< all messages between nodes
    double crossSiteBytes = 0.0; ///< the part between sites
    std::vector<double> arrival; ///< per message, when it arrived
};

/// Evaluates a schedule step by step on the project's network, for the processes where the layout puts them. A
/// message starts once what it needs has arrived; its bytes then flow over the links of its route, as the simulated
/// platform has them: the sender's node interface out and the receiver's node interface in (each the site's intra-site
/// bandwidth), and between sites the sender site's uplink, the site pair's link and the receiver site's downlink
/// (the site's up/down MB/s when given, else its fastest site-pair bandwidth). Every link shares its bandwidth
/// equally among the messages crossing it at the time, and a message flows at the rate of its most shared link, so
/// a node's concurrent sends share its interface and a site's share its uplink. A message arrives its pair's latency
/// after its last byte left (the diagonal within a site). Processes on one node exchange through memory, at no
/// cost. The network must be complete (estimate missing entries first). Refused: a message naming a process outside
/// the layout or needing a later message, a site outside the network, a latency or bandwidth that is not usable.
/// An event simulation: each message is a flow whose finish event is replaced whenever its rate changes.
Expected<ScheduleTiming> scheduleTime(const Schedule& schedule, const Layout& layout, const model::Topology& topology,
                                      const model::Network& network);

} // namespace meridian::collectives
