#pragma once

#include "core/common/expected.h"

#include <cstdint>
#include <string>

namespace meridian::io {

/// One link as NetPIPE measured it (`mpirun -np 2 NPopenmpi -o FILE`, whose lines are `bytes Mbps seconds`,
/// seconds being the one-way time of a message of that size).
struct NetpipeLink {
    /// The one-way time of the smallest message, in ms.
    double latencyMs = 0;
    /// The highest throughput of any message size, in MB/s (10^6 bytes per second).
    double bandwidthMBps = 0;
    std::int64_t smallestBytes = 0;
    std::int64_t peakBytes = 0;
    int points = 0;
    /// When the file was last written (seconds since 1970 UTC): NetPIPE writes no date, and it writes its
    /// output as it measures, so the file's modification time is when the measurement ended.
    std::int64_t measuredAt = 0;
};

/// Reads a NetPIPE output file. Every line must hold a message size in bytes (a whole number >= 1), a
/// throughput in Mbps (> 0) and a time in seconds (> 0); anything else is an error naming the file, line and
/// column, as is a file without a measurement.
Expected<NetpipeLink> readNetpipe(const std::string& path);

} // namespace meridian::io
