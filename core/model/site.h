#pragma once

#include <limits>
#include <string>
#include <vector>

namespace meridian::model {

/// A machine inside a site. `slots` is the number of processes it can run (cores, or MPI slots).
struct Host {
    std::string name;
    int slots = 1;
};

/// A data centre, cloud region or cluster. Coordinates are WGS84 degrees; bandwidths are MB/s (10^6 B/s);
/// the egress price is USD per GB (10^9 B) uploaded out of the site. A quantity that is not known is NaN.
struct Site {
    static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    /// The largest prices Topology::create accepts (cloud egress is cents per GB, instances at most a few
    /// hundred USD an hour): above them a value is a typing or unit error, and the dollar costs would overflow.
    /// Uplink and downlink bandwidths take the network's range (kMinBandwidthMBps to kMaxBandwidthMBps).
    static constexpr double kMaxEgressUsdPerGB = 1000.0;
    static constexpr double kMaxInstanceUsdPerHour = 10000.0;

    std::string name;
    double latitude = 0.0;
    double longitude = 0.0;
    int nodes = 1;
    int slotsPerNode = 1;
    double uplinkMBps = kUnknown;
    double downlinkMBps = kUnknown;
    double egressUsdPerGB = kUnknown;
    /// What one node (instance) costs per hour, USD; unknown when not given.
    double instanceUsdPerHour = kUnknown;
    /// The hosts of this site. When empty, Topology::create makes `nodes` placeholder hosts named after the
    /// site (Topology::defaultHostName) with `slotsPerNode` slots each.
    std::vector<Host> hosts;
};

/// Returns the great-circle distance in kilometres between two WGS84 points (haversine on the
/// mean Earth radius, 6371.0088 km).
double greatCircleKm(double lat1, double lon1, double lat2, double lon2);

} // namespace meridian::model
