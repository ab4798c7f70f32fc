#pragma once

#include "core/common/expected.h"
#include "core/model/network.h"

#include <Eigen/Dense>

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::io {

/// What one meridian-probe run measured: the PREFIX.latency.csv and PREFIX.bandwidth.csv matrices (ms and
/// MB/s, medians) over its groups (sites with --sites, else hosts, or host/rank with --per-rank), and from
/// PREFIX.probe.json the date and the settings.
struct ProbeResults {
    std::string prefix;
    model::MeasuredAt measuredAt = 0;
    bool perRank = false;
    std::int64_t smallBytes = 0;
    std::int64_t smallRepetitions = 0;
    std::int64_t largeBytes = 0;
    std::int64_t largeRepetitions = 0;
    int participants = 0;
    std::vector<std::string> names; ///< the groups, in the matrices' order
    Eigen::MatrixXd latencyMs;      ///< NaN where no pair was measured (a group's diagonal with one participant)
    Eigen::MatrixXd bandwidthMBps;  ///< likewise
};

/// Returns PREFIX for a path naming a probe's output: PREFIX itself, or one of its three files.
std::string probePrefix(const std::string& path);

/// Reads a probe's three files. The two CSVs must name the same groups in the same order in their header
/// row and first column, and hold latencies >= 0 and bandwidths > 0 (empty cells where nothing was
/// measured); the JSON must be a "meridian-probe" version 1 document with a UTC date and the participants.
/// Errors name the file, line and what was expected.
Expected<ProbeResults> readProbeResults(const std::string& path);

} // namespace meridian::io
