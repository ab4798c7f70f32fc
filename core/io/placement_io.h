#pragma once

#include "core/common/expected.h"
#include "core/model/constraints.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

#include <string>

namespace meridian::io {

/// Reads a pins CSV: lines `process,site` (process id 0-based, site by name), an optional header line
/// `process,site`, `#` comments. Unknown sites, a process pinned twice, more pins to a site than it
/// has slots and, with `processCount` >= 0, a process id outside the application's 0..processCount-1 are
/// errors naming the file, line and column.
Expected<model::Constraints> readPinsCsv(const std::string& path, const model::Topology& topology,
                                         int processCount = -1);
Status writePinsCsv(const std::string& path, const model::Constraints& constraints, const model::Topology& topology);
/// Returns the text writePinsCsv writes.
std::string pinsCsvText(const model::Constraints& constraints, const model::Topology& topology);

/// Reads a mapping CSV: lines `process,site,host,slot` (process ids 0-based, site and host by name,
/// slot 0-based inside the host), an optional header line, `#` comments. A site-level mapping leaves host
/// and slot empty or writes lines `process,site` (the pins format); the two may be mixed. Every process 0..N-1 must appear exactly once; with
/// `expectedProcesses` >= 0, N must equal it. The host must belong to the site and the slot must exist.
Expected<model::Placement> readMappingCsv(const std::string& path, const model::Topology& topology,
                                          int expectedProcesses = -1);
/// Writes a mapping CSV with a header, one line per process in process order.
Status writeMappingCsv(const std::string& path, const model::Placement& placement, const model::Topology& topology);
/// Returns the text writeMappingCsv writes.
std::string mappingCsvText(const model::Placement& placement, const model::Topology& topology);

} // namespace meridian::io
