#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <QJsonObject>

#include <cstdint>
#include <string>

// Another tool's record of an MPI run turned into Meridian's capture files: `meridian-cli import-comm` writes them,
// and the workbench's capture import (capture::readCapture) reads the same records through the same two readers.

namespace meridian::capture {

/// What another tool recorded of a run: its point-to-point matrix and its collectives.
struct ImportedRecord {
    std::string source; ///< "otf2" or "openmpi-monitoring"
    std::string from;   ///< the trace's anchor file, or NAME.RANK.prof
    model::CommMatrix comm;
    std::string collectivesJson; ///< PREFIX.collectives.json's text
    std::uint64_t events = 0;    ///< the events an OTF2 trace held (0 for the monitoring)
};

/// An OTF2 trace, as EZTrace writes it (io::readOtf2Trace: sends counted on the sender's side).
Expected<ImportedRecord> importOtf2(const std::string& anchor);

/// Open MPI's monitoring files DIR/NAME.RANK.prof (io::readOpenMpiMonitoring; `name` may be empty when the folder
/// holds one run's files).
Expected<ImportedRecord> importOpenMpiMonitoring(const std::string& folder, const std::string& name);

/// Writes PREFIX.volume.mtx, PREFIX.messages.mtx and PREFIX.collectives.json as one transaction and returns what
/// `meridian-cli import-comm` prints: the source, the processes, the non-zeros, the events and the files written.
Expected<QJsonObject> writeImportedRecord(const ImportedRecord& record, const std::string& prefix);

} // namespace meridian::capture
