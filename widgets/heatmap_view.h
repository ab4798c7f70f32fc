#pragma once

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include <QImage>
#include <QStringList>
#include <QWidget>

#include <functional>

namespace meridian::widgets {

/// A matrix for HeatmapView: dense (NaN where there is no value) or sparse row-major (absent = 0).
/// Values must be finite and >= 0 (volumes, counts, latencies, bandwidths).
struct HeatmapData {
    using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

    QString title;
    QString unit;
    Eigen::MatrixXd dense;
    Sparse sparse;
    bool isSparse = false;
    QStringList rowLabels;    ///< optional; shown as ticks when the matrix is small, and in tooltips
    QStringList columnLabels;
    QString rowAxis = "row";  ///< what a row is ("sender", "site")
    QString columnAxis = "column";
    /// Optional note for a cell's tooltip, e.g. its provenance ("measured", "estimated").
    std::function<QString(int, int)> cellNote;

    int rows() const { return static_cast<int>(isSparse ? sparse.rows() : dense.rows()); }
    int columns() const { return static_cast<int>(isSparse ? sparse.cols() : dense.cols()); }
    /// Returns the value of a cell; `present` is false for a dense NaN cell.
    double value(int row, int column, bool* present = nullptr) const;
};

/// Draws a matrix as a heatmap with the viridis palette (perceptually uniform and colour-blind safe),
/// a linear or logarithmic scale and a colour legend. Zero and absent cells are drawn as background.
/// Matrices larger than the widget are binned, each pixel showing the maximum of its cells, so that a
/// single heavy pair never disappears; the binned image is cached until the data, scale or size changes.
/// Hovering shows row, column, value, unit and the cell note.
class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setData(HeatmapData data);
    const HeatmapData& data() const { return m_data; }
    void setLogScale(bool on);
    bool logScale() const { return m_log; }

    /// Returns the colour of a normalised value in [0, 1] on the viridis palette.
    static QColor paletteColor(double t);
    /// Returns the cell under a widget position, or (-1, -1) outside the matrix.
    QPoint cellAt(const QPoint& pos) const;
    /// Returns the smallest and largest value shown (the largest > 0 over the smallest > 0 in log scale).
    std::pair<double, double> valueRange() const { return {m_min, m_max}; }

    QSize sizeHint() const override { return {640, 520}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect plotRect() const;
    void updateRange();
    void rebuildImage();
    double normalise(double v) const;

    HeatmapData m_data;
    bool m_log = false;
    double m_min = 0.0;
    double m_max = 0.0;
    QImage m_image;
    bool m_dirty = true;
};

/// Formats a value with its unit compactly (e.g. "43 kB", "0.16 ms", "1.2e+06 messages").
QString formatValue(double value, const QString& unit);

} // namespace meridian::widgets
