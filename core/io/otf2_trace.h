#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::io {

/// What the `bytes` of a collective record are, written into every collectives summary (`"bytes"`): the one
/// definition Meridian's tracer and the OTF2 import share.
inline constexpr const char* kCollectiveBytesDefinition
    = "the bytes the ranks' send buffers held for the operation's calls, summed over the ranks: the root's alone for "
      "a bcast, a scatter (its block times the communicator size) and a scatterv; each rank's block times the "
      "communicator size for an alltoall; each rank's contribution for the others (a reduction's count, a gather's "
      "or allgather's send count, the block a rank gives in place for MPI_IN_PLACE)";

/// One collective operation as a capture summarises it: per operation, communicator size and root (a world
/// rank, -1 for operations without one), the calls (the most any member made), the ranks that took part and
/// the bytes of their send buffers (kCollectiveBytesDefinition).
struct CollectiveRecord {
    int phase = 0;
    std::string operation;
    int communicatorSize = 0;
    int root = -1;
    std::uint64_t ranks = 0;
    std::uint64_t calls = 0;
    std::uint64_t bytes = 0;
};

/// What an OTF2 trace of an MPI run says the application sent.
struct Otf2Capture {
    /// Point-to-point sends (MpiSend and MpiIsend events), counted on the sender's side, sender -> receiver
    /// in world ranks.
    model::CommMatrix pointToPoint;
    std::vector<CollectiveRecord> collectives;
    /// Every event the trace holds (for the import rate).
    std::uint64_t events = 0;
};

/// Reads an OTF2 archive (its anchor file, `NAME.otf2`; EZTrace writes `PROGRAM_trace/eztrace_log.otf2`
/// with `mpirun -np N eztrace -t openmpi PROGRAM`). A collective's bytes follow kCollectiveBytesDefinition from
/// what EZTrace 2.0 records as each rank's sent size (checked here under mpirun): the call's buffer at every rank
/// of a bcast, one block at every rank of a scatter and an alltoall, all of a scatterv's counts at every rank, so
/// the root's alone is kept for a bcast, a scatter and a scatterv, and scatter and alltoall blocks are multiplied
/// by the communicator size. Ranks are the positions of the locations in the MPI
/// world's location group; a receiver given in another communicator is resolved through that communicator's
/// group. Sends to MPI_PROC_NULL are left out. A path that is not an archive, definitions that do not resolve,
/// a send to a receiver outside its communicator (naming the location, its rank and the send) and a collective's
/// bytes adding up past 2^64 - 1 are errors naming the archive. Uses the OTF2 library (Debian libotf2-trace-dev),
/// which opens the archive's files itself: every file it may open is first checked to be a regular file, as
/// openRegularFile checks a reader's input, so a FIFO put there cannot make the import wait forever.
Expected<Otf2Capture> readOtf2Trace(const std::string& archive);

/// The collectives summary as JSON text (`meridian-collectives`, version 2, with the definition of its bytes), as
/// the tracer writes it.
std::string collectivesJson(int processes, const std::vector<CollectiveRecord>& records, const std::string& source);

} // namespace meridian::io
