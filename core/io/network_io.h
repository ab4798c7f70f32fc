#pragma once

#include "core/common/expected.h"
#include "core/model/network.h"
#include "core/model/topology.h"

#include <string>

namespace meridian::io {

/// Reads a latency (ms) or bandwidth (MB/s) matrix between sites into `network`, marking the entries it
/// sets as Measured. A `.mtx` file is Matrix Market (absent coordinate entries stay missing); anything
/// else is CSV (empty cells stay missing). A CSV with site names in its header row and/or first column
/// is matched to the topology by name, in any order, and may list a subset of the sites; without names
/// the matrix must have exactly one row and column per site, in the topology's order. Unknown or
/// repeated names, negative latency, zero or negative bandwidth, NaN/inf and a size that does not match
/// are errors naming the file, line and column; on error `network` is left unchanged.
Status readNetworkMatrix(const std::string& path, model::NetworkQuantity quantity, const model::Topology& topology,
                         model::Network& network);

/// Writes one quantity of a network as a CSV matrix with site names (missing entries left empty).
Status writeNetworkMatrixCsv(const std::string& path, model::NetworkQuantity quantity, const model::Topology& topology,
                             const model::Network& network);

} // namespace meridian::io
