#pragma once

#include "core/common/expected.h"

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace meridian::io {

/// What a matrix cell may hold; checked while reading so that errors carry the cell's position.
enum class CellRule {
    NonNegative, ///< finite and >= 0 (volumes, counts)
    Positive,    ///< finite and > 0
    Latency,     ///< a latency in ms in its physical range (model::isValidNetworkValue)
    Bandwidth    ///< a bandwidth in MB/s in its physical range (model::isValidNetworkValue)
};

/// Returns the phrase used in error messages for a rule, e.g. "a number >= 0".
std::string describeRule(CellRule rule);
/// Returns true when a value satisfies the rule.
bool satisfies(CellRule rule, double value);

/// A square matrix read from CSV, with the names of its rows and columns when the file gives them.
struct LabeledMatrix {
    int size = 0;
    std::vector<std::string> rowNames;    ///< empty when the file has no name column
    std::vector<std::string> columnNames; ///< empty when the file has no header row
    int headerLine = 0;                   ///< line of the header row, 0 if none
    std::vector<int> rowLines;            ///< the file line of each row
    std::vector<double> values;           ///< row-major, NaN where a cell was empty
};

/// Reads a dense square matrix from CSV, with or without a header row of column names and a first
/// column of row names (both detected: a header row has a non-numeric cell after its first; a name
/// column has a non-numeric first cell). `#` lines are comments. An empty cell is a missing value when
/// `allowMissing`, else an error. Errors (ragged rows, non-numeric cells, values breaking `rule`,
/// NaN/inf, a non-square shape) name the file, line and column.
Expected<LabeledMatrix> readMatrixCsv(const std::string& path, CellRule rule, bool allowMissing);

/// Writes a square matrix as CSV with a header row and a first column of names; NaN cells are left empty.
Status writeMatrixCsv(const std::string& path, const std::vector<std::string>& names, const Eigen::MatrixXd& matrix);

} // namespace meridian::io
