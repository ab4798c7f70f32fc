#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <string>

namespace meridian::io {

/// Reads an application's communication volume (bytes) and, when `messagesPath` is not empty, its
/// message counts, each from Matrix Market (`.mtx`) or dense CSV. A CSV may carry process ids 0..N-1
/// as names in its header and first column, written with a prefix (`p12`, `rank12`) so that they are
/// told apart from values; they are matched, not assumed in order. Both matrices must
/// have the same size. Values must be finite and >= 0; duplicate coordinate entries are summed.
/// Errors name the file, line and column.
Expected<model::CommMatrix> readCommMatrix(const std::string& volumePath, const std::string& messagesPath = {});

/// Writes the volume (or the message counts) as Matrix Market coordinate real general.
/// Returns the text writeCommMatrix writes.
std::string commMatrixText(const model::CommMatrix& comm, bool messages, const std::string& comment = {});
Status writeCommMatrix(const std::string& path, const model::CommMatrix& comm, bool messages,
                       const std::string& comment = {});

} // namespace meridian::io
