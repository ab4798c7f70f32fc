#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QTextStream;

namespace meridian::widgets {

/// A matrix for HeatmapView: dense (NaN where there is no value) or sparse row-major (absent = 0).
/// Values must be finite; negative values (a difference of two matrices) switch the view to a
/// diverging palette centred on zero.
struct HeatmapData {
    using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

    QString title;
    QString unit;
    Eigen::MatrixXd dense;
    Sparse sparse;
    bool isSparse = false;
    QStringList rowLabels; ///< optional; shown as ticks when few rows are visible, and in tooltips
    QStringList columnLabels;
    QString rowAxis = "row"; ///< what a row is ("sender", "site")
    QString columnAxis = "column";
    /// Optional: indices where a group of rows and columns starts (processes ordered by site); drawn as lines.
    std::vector<int> groupStarts;
    /// Optional: rows (and the columns of the same index) to mark on both axes, e.g. pinned processes.
    std::vector<int> markedRows;
    QString markLegend; ///< what a mark means ("pinned"), shown in the title line
    /// Optional note for a cell's tooltip, e.g. its provenance ("measured", "estimated", "edited").
    std::function<QString(int, int)> cellNote;

    int rows() const { return static_cast<int>(isSparse ? sparse.rows() : dense.rows()); }
    int columns() const { return static_cast<int>(isSparse ? sparse.cols() : dense.cols()); }
    /// Returns the value of a cell; `present` is false for a dense NaN cell. O(log row length) for sparse.
    double value(int row, int column, bool* present = nullptr) const;
};

/// Writes a heatmap as CSV: a dense matrix as a grid with a header row and a label column, a sparse one
/// as `row,column,value` lines (only the stored entries). NaN cells are left empty.
void writeHeatmapCsv(const HeatmapData& data, QTextStream& out);

/// Formats a value with its unit compactly (e.g. "43 kB", "0.16 ms", "1.2e+06 messages"); seconds below one read
/// in ms or µs ("44.7 µs").
QString formatValue(double value, const QString& unit);

} // namespace meridian::widgets
