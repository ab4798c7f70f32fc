#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace meridian::io {

/// What a time-independent trace (SimGrid's format, as `meridian-cli capture --trace` writes it) holds: a list
/// file naming one trace file per rank (relative to the list's folder), each rank's actions in order.
struct TiTrace {
    std::string list;               ///< the list file
    std::vector<std::string> files; ///< per rank, the path of its trace file
    std::int64_t lines = 0;         ///< action lines over all ranks
    /// Bytes each rank sends to each other rank (send and isend), by (sender, receiver).
    std::map<std::pair<int, int>, double> sentBytes;
};

/// SMPI replays about this many trace lines per second on one core (measured: 5 us a line).
inline constexpr double kReplayLinesPerSecond = 200'000.0;

/// Reads and checks a trace: the list names one readable file per rank; every line of rank r's file starts
/// with r and is an action SMPI replays (init, finalize, compute, sleep, send, isend, recv, irecv, wait,
/// waitall, test, barrier, bcast, reduce, allreduce, alltoall, gather, allgather, scatter) with its numeric
/// fields, peers within the ranks; the file ends with finalize. Refused, with the file and line: anything else, a
/// trace marked incomplete by the tracer ("# incomplete: ..."), a file that ends before finalize (a run that
/// aborted or a truncated copy).
Expected<TiTrace> readTiTrace(const std::string& listPath);

/// Checks that a trace is the application's: as many ranks as processes, and each pair's bytes sent equal to the
/// volume matrix's entry (within 1e-6). The error names the pair and both amounts.
Status checkTraceMatchesMatrix(const TiTrace& trace, const model::CommMatrix& comm);

/// readTiTrace, then checkTraceMatchesMatrix against the application's matrix: the trace a command replays.
Expected<TiTrace> readApplicationTrace(const std::string& listPath, const model::CommMatrix& comm);

} // namespace meridian::io
