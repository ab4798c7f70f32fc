#pragma once

#include "core/common/expected.h"
#include "core/io/matrix_csv.h"

#include <string>
#include <vector>

namespace meridian::io {

/// One stored value of a Matrix Market file: 0-based row and column, and the line it came from.
/// A symmetric file yields both (i, j) and (j, i) for an off-diagonal entry.
struct MarketEntry {
    int row = 0;
    int column = 0;
    double value = 0.0;
    int line = 0;
};

/// The contents of a Matrix Market file.
struct MarketMatrix {
    int rows = 0;
    int columns = 0;
    bool dense = false; ///< `array` format: every cell is present
    int sizeLine = 0;   ///< the line of the size line 'rows columns [entries]'
    std::vector<MarketEntry> entries;
};

/// Reads a Matrix Market file: `coordinate` or `array`, `real` or `integer`, `general` or `symmetric`
/// (a symmetric file stores the lower triangle, row >= column). `%` lines are comments. Every value must
/// satisfy `rule`. A header that claims more entries than the matrix has cells, or than the rest of the
/// file could hold, is rejected before anything is allocated; indices out of range, missing or extra
/// entries and malformed lines are Parse errors with file, line and column.
Expected<MarketMatrix> readMatrixMarket(const std::string& path, CellRule rule);

/// Writes entries as `%%MatrixMarket matrix coordinate real general` (1-based), with an optional comment
/// line, values in shortest round-trip form.
/// Returns the text writeMatrixMarket writes.
std::string matrixMarketText(int rows, int columns, const std::vector<MarketEntry>& entries,
                             const std::string& comment = {});
Status writeMatrixMarket(const std::string& path, int rows, int columns, const std::vector<MarketEntry>& entries,
                         const std::string& comment = {});

} // namespace meridian::io
