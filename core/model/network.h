#pragma once

#include "core/common/expected.h"

#include <Eigen/Dense>

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace meridian::model {

/// Where a network entry came from. Stable ids (provenanceId) are used in files and the UI.
enum class Provenance : std::uint8_t { Missing, Measured, Estimated, Edited };

std::string_view provenanceId(Provenance p);
std::optional<Provenance> provenanceFromId(std::string_view id);

/// Which of the two network quantities an operation refers to.
enum class NetworkQuantity { Latency, Bandwidth };

/// When an entry was measured: seconds since 1970-01-01 UTC; 0 when the date is not known (typed in,
/// estimated, or from a file that carries no date).
using MeasuredAt = std::int64_t;

/// Latency (ms) and bandwidth (MB/s) of a link between two hosts, overriding the site-level entry.
struct HostLink {
    double latencyMs = std::nan("");
    double bandwidthMBps = std::nan("");
    Provenance provenance = Provenance::Measured;
    MeasuredAt measuredAt = 0;
};

/// Latency and bandwidth between sites, row = sender, column = receiver; the diagonal is intra-site.
/// Matrices may be asymmetric. Every entry carries a Provenance, and a measured entry the date of its
/// measurement (measurements age: cloud networks change); a Missing entry holds NaN until
/// NetworkEstimator fills it in. Optional host-level links override the site entry for one host pair.
/// Latency is in milliseconds and bandwidth in MB/s (10^6 bytes/s), as in files and the UI.
class Network {
public:
    Network() = default;
    /// Creates a network of `siteCount` sites with every entry missing.
    explicit Network(int siteCount);

    int siteCount() const { return static_cast<int>(m_latencyMs.rows()); }

    double latencyMs(int from, int to) const { return m_latencyMs(from, to); }
    double bandwidthMBps(int from, int to) const { return m_bandwidthMBps(from, to); }
    double value(NetworkQuantity q, int from, int to) const;
    Provenance provenance(NetworkQuantity q, int from, int to) const;
    /// The date of a measured entry, 0 when unknown or when the entry is not measured.
    MeasuredAt measuredAt(NetworkQuantity q, int from, int to) const;

    /// Sets one entry. Values must be finite, latency >= 0 and bandwidth > 0 (asserted: readers check
    /// user input first and report errors with their file position). `measuredAt` is kept only for a
    /// Measured entry.
    void set(NetworkQuantity q, int from, int to, double value, Provenance provenance = Provenance::Measured,
             MeasuredAt measuredAt = 0);
    /// Makes one entry missing again.
    void clear(NetworkQuantity q, int from, int to);

    const Eigen::MatrixXd& latencyMs() const { return m_latencyMs; }
    const Eigen::MatrixXd& bandwidthMBps() const { return m_bandwidthMBps; }

    /// Returns true when no site-level entry is missing.
    bool isComplete() const;
    /// Returns true when the pair's latency or bandwidth is missing (completing the network estimates it).
    bool isMissing(int from, int to) const;
    /// Returns the number of entries of a quantity with the given provenance.
    int count(NetworkQuantity q, Provenance p) const;
    /// The oldest and newest measurement date over both quantities and the host links, and how many
    /// measured entries carry a date; {0, 0, 0} when none does.
    struct MeasurementDates {
        MeasuredAt oldest = 0;
        MeasuredAt newest = 0;
        int dated = 0;
    };
    MeasurementDates measurementDates() const;

    void setHostLink(int fromHost, int toHost, const HostLink& link);
    const HostLink* hostLink(int fromHost, int toHost) const;
    const std::map<std::pair<int, int>, HostLink>& hostLinks() const { return m_hostLinks; }

    /// Checks every present value (in its range, isValidNetworkValue) and that host links name hosts
    /// below `hostCount`. Used for values that did not come through a reader (project files, edits).
    Status validate(int hostCount) const;

private:
    using ProvenanceMatrix = Eigen::Matrix<std::uint8_t, Eigen::Dynamic, Eigen::Dynamic>;
    using DateMatrix = Eigen::Matrix<MeasuredAt, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::MatrixXd m_latencyMs;
    Eigen::MatrixXd m_bandwidthMBps;
    ProvenanceMatrix m_latencyProvenance;
    ProvenanceMatrix m_bandwidthProvenance;
    DateMatrix m_latencyMeasuredAt;
    DateMatrix m_bandwidthMeasuredAt;
    std::map<std::pair<int, int>, HostLink> m_hostLinks;
};

/// The physical ranges of network values, refused outside at every import and when a project is read: a latency
/// from 0 to 10 minutes (600000 ms; a one-way latency beyond that is no network), a bandwidth from 1 bit/s
/// (1.25e-7 MB/s) to 10 Tbit/s (1.25e6 MB/s). The same bandwidth range holds for a site's uplink and downlink.
/// Within them every cost the mappers compute stays finite for finite traffic.
inline constexpr double kMaxLatencyMs = 600000.0;
inline constexpr double kMinBandwidthMBps = 1.25e-7;
inline constexpr double kMaxBandwidthMBps = 1.25e6;

/// Returns true if `value` is in the quantity's physical range (see kMaxLatencyMs; NaN and infinities are not).
bool isValidNetworkValue(NetworkQuantity q, double value);
/// The quantity's range as error messages state it: "a latency from 0 to 600000 ms (10 minutes)" or "a
/// bandwidth from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s (10 Tbit/s)".
std::string networkValueRange(NetworkQuantity q);

} // namespace meridian::model
