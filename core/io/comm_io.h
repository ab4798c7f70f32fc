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
/// The process count is the Matrix Market size line's, refused (not stored sparsely) when the entries do not
/// justify it: above 16777216 processes, or above 1024 when fewer than half of the processes appear in an entry
/// as a sender or receiver (list an idle rank with an entry of value 0). A CSV's size is its rows, which the file
/// holds in full. Errors name the file, line and column.
Expected<model::CommMatrix> readCommMatrix(const std::string& volumePath, const std::string& messagesPath = {});

/// Writes the volume (or the message counts) as Matrix Market coordinate real general.
/// Returns the text writeCommMatrix writes.
std::string commMatrixText(const model::CommMatrix& comm, bool messages, const std::string& comment = {});
Status writeCommMatrix(const std::string& path, const model::CommMatrix& comm, bool messages,
                       const std::string& comment = {});

} // namespace meridian::io
