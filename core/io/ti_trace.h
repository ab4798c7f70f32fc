#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace meridian::io {

/// What a time-independent trace (SimGrid's format) holds, in either of the forms SMPI replays: a list file naming
/// one trace file per rank (relative to the list's folder), as `meridian-cli capture --trace` writes it, or one
/// merged file of every rank's actions (each line starts with its rank), as a project keeps it.
struct TiTrace {
    std::string list;               ///< the list file, or the merged trace
    std::vector<std::string> files; ///< per rank, the path of its trace file (empty for a merged trace)
    int ranks = 0;                  ///< how many ranks it holds
    std::int64_t lines = 0;         ///< action lines over all ranks
    /// Collectives that move data (bcast, reduce, allreduce, alltoall, gather, allgather, scatter), over all ranks.
    std::int64_t dataCollectives = 0;
    /// The most bytes those collectives can carry: each line's size, of at most 8-byte elements, to every rank.
    double collectiveBytesBound = 0.0;
    /// Bytes each rank sends to each other rank (send and isend), by (sender, receiver).
    std::map<std::pair<int, int>, double> sentBytes;
};

/// SMPI replays about this many trace lines per second on one core (measured: 5 us a line).
inline constexpr double kReplayLinesPerSecond = 200'000.0;

/// A trace held in memory, as a project keeps it with its application: every rank's actions in one text (the
/// merged form), rank 0's first.
struct StoredTrace {
    std::string text;
    int ranks = 0;
    std::int64_t lines = 0;
};

/// Reads and checks a trace: a list naming one readable file per rank, every line of rank r's file starting
/// with r, or a merged file whose lines start with their rank (from 0 to the largest, every one present); each
/// line is an action SMPI replays (init, finalize, compute, sleep, send, isend, recv, irecv, wait, waitall,
/// test, barrier, bcast, reduce, allreduce, alltoall, gather, allgather, scatter) with its numeric fields, peers
/// within the ranks; each rank's actions end with finalize. Refused, with the file and line: anything else, a
/// trace marked incomplete by the tracer ("# incomplete: ..."), a rank whose actions end before finalize (a run
/// that aborted or a truncated copy).
Expected<TiTrace> readTiTrace(const std::string& listPath);

/// Checks that a trace is the application's: as many ranks as processes, and each pair's bytes sent equal to the
/// volume matrix's entry (within 1e-6). A trace with collectives that move data may send less point to point than
/// the matrix holds (a matrix may count a collective's traffic between its pairs), never more, and the matrix's
/// excess must fit in what the collectives can carry (collectiveBytesBound). The error names the pair and both
/// amounts, or both totals.
Status checkTraceMatchesMatrix(const TiTrace& trace, const model::CommMatrix& comm);

/// The trace's text in the merged form: the per-rank files one after another, after a comment line naming the
/// list, or the merged file as it is.
Expected<StoredTrace> storeTiTrace(const TiTrace& trace);

/// readTiTrace, then checkTraceMatchesMatrix against the application's matrix: the trace a command replays.
Expected<TiTrace> readApplicationTrace(const std::string& listPath, const model::CommMatrix& comm);

} // namespace meridian::io
