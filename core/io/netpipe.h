#pragma once

#include "core/common/expected.h"

#include <cstdint>
#include <string>

namespace meridian::io {

/// NetPIPE's "Mbps" are 2^20 bits a second (bytes x 8 / 2^20 / seconds): 0.131072 MB/s (10^6 bytes a second) each.
inline constexpr double kNetpipeMbpsInMBps = 1048576.0 / 8.0 / 1e6;
/// The messages whose fastest one-way time is the latency: up to this many bytes.
inline constexpr std::int64_t kNetpipeLatencyBytes = 64;

/// One link as NetPIPE measured it (`mpirun -np 2 NPopenmpi -o FILE`, whose lines are `bytes Mbps seconds`,
/// seconds being the one-way time of a message of that size).
struct NetpipeLink {
    /// The latency, in ms: the shortest one-way time of the messages of at most kNetpipeLatencyBytes (NetPIPE's
    /// first, 1-byte message is often slowed by warm-up: 7 us where 4 bytes took 1.8 us), else the smallest one's.
    double latencyMs = 0;
    /// The highest throughput of any message size, in MB/s (10^6 bytes per second).
    double bandwidthMBps = 0;
    std::int64_t latencyBytes = 0; ///< the size of the message whose time is the latency
    std::int64_t peakBytes = 0;    ///< the size of the message of the highest throughput
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
