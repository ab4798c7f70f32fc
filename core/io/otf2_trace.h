#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::io {

/// One collective operation as a capture summarises it: per operation, communicator size and root (a world
/// rank, -1 for operations without one), the calls (the most any member made), the ranks that took part and
/// the bytes they sent in it.
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
/// with `mpirun -np N eztrace -t openmpi PROGRAM`). Ranks are the positions of the locations in the MPI
/// world's location group; a receiver given in another communicator is resolved through that communicator's
/// group. Sends to MPI_PROC_NULL are left out. A path that is not an archive, definitions that do not resolve,
/// a send to a receiver outside its communicator (naming the location, its rank and the send) and a collective's
/// bytes adding up past 2^64 - 1 are errors naming the archive. Uses the OTF2 library (Debian libotf2-trace-dev).
Expected<Otf2Capture> readOtf2Trace(const std::string& archive);

/// The collectives summary as JSON text (`meridian-collectives`, version 1), as the tracer writes it.
std::string collectivesJson(int processes, const std::vector<CollectiveRecord>& records, const std::string& source);

} // namespace meridian::io
