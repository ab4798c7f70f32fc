#pragma once

#include "widgets/heatmap_binning.h"
#include "widgets/heatmap_data.h"

#include <QImage>
#include <QWidget>

#include <vector>

namespace meridian::widgets {

/// Draws a matrix as a heatmap, as communication-matrix viewers do: viridis (perceptually
/// uniform, colour-blind safe) on a linear or log scale, or a blue-orange diverging palette when values
/// are signed; a colour legend; row sums to the right and column sums below.
///
/// Large matrices are binned to the pixels of the plot, each pixel showing the maximum (so a single
/// heavy pair never disappears) or the sum of its cells. The binned image is cached until the data,
/// scale, binning, zoom or size changes; dense matrices above a million cells also keep a block-max/sum
/// level so that showing the whole matrix reads a fixed number of blocks, not every cell.
///
/// Interaction: drag a rectangle to zoom into it, the wheel zooms around the cursor, the right or middle
/// button (or Shift + left) pans, Home resets; a tooltip shows row, column, value, unit, the cell note
/// and the row and column sums; a double click on a cell emits cellDoubleClicked (the owner decides
/// whether the cell is editable).
class HeatmapView : public QWidget {
    Q_OBJECT
public:
    enum class Binning { Max, Sum };

    explicit HeatmapView(QWidget* parent = nullptr);

    void setData(HeatmapData data);
    const HeatmapData& data() const { return m_data; }
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    void setBinning(Binning binning);
    Binning binning() const { return m_binning; }

    /// Shows only the cells in `cells` (x = first column, y = first row), clipped to the matrix.
    void zoomTo(const QRect& cells);
    void resetZoom();
    /// Returns the visible cells (x = first column, y = first row).
    QRect visibleCells() const { return m_view; }

    /// Returns the colour of a normalised value in [0, 1] on the viridis palette.
    static QColor paletteColor(double t);
    /// The colour bar's round values strictly between `lo` and `hi`: a nice linear scale's ticks, or on a log scale
    /// 1, 2 and 5 per decade (only the powers of ten when those are more than four).
    static std::vector<double> legendTicks(double lo, double hi, bool log);
    /// Returns the colour of a value in [-1, 1] on the diverging palette (blue, white, orange).
    static QColor divergingColor(double t);
    /// Returns the cell under a widget position, or (-1, -1) outside the plot.
    QPoint cellAt(const QPoint& pos) const;
    /// Returns the smallest and largest value the colours span (for sum binning, as of the last paint).
    std::pair<double, double> valueRange() const;
    /// Returns the sum of a row or a column over the whole matrix.
    double rowSum(int row) const { return m_stats.rowSums[row]; }
    double columnSum(int column) const { return m_stats.columnSums[column]; }

    /// Draws the heatmap (title, plot, sums, legend) into `target` with any painter: PNG, SVG, PDF.
    void renderTo(QPainter& painter, const QRect& target) const;
    QImage renderImage(const QSize& size) const;

    /// Rebuilds the cached image now and returns how long the binning took in ms (for the benchmark).
    double rebuildForBenchmark();

    QSize sizeHint() const override { return {680, 560}; }

Q_SIGNALS:
    void cellDoubleClicked(int row, int column);
    void viewChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    struct Layout {
        QRect plot;
        QRect rowSums;
        QRect columnSums;
        QRect legend;
        int width = 0;          ///< of the whole drawing
        bool staggered = false; ///< column names on two alternating lines
        int titleLines = 1;     ///< a title too wide for the drawing wraps onto two
    };
    struct Binned {
        QImage image;
        double min = 0.0;
        double max = 0.0;
    };
    Layout layoutFor(const QSize& size) const;
    Layout layoutFor(const QSize& size, int extraTop) const;
    /// Whether some visible column's name is wider than its column when the plot is `plotWidth` wide.
    bool columnNamesCollide(int plotWidth) const;
    Binned bin(const QSize& pixels) const;
    void paint(QPainter& painter, const QSize& size, const Binned& binned) const;
    void paintTitle(QPainter& painter, const QSize& size, const Layout& layout) const;
    /// The title line: the matrix's title, the marks' meaning and the zoomed range.
    QString titleText() const;
    /// The left margin: the row names' width when they are shown, at least the default.
    int marginLeft() const;
    void paintOverlays(QPainter& painter, const Layout& l) const;
    void paintTicks(QPainter& painter, const Layout& l) const;
    void paintSums(QPainter& painter, const Layout& l) const;
    void paintLegend(QPainter& painter, const Layout& l, const Binned& binned) const;
    void updateStatistics();
    void buildCoarseLevel();
    void setView(QRect view);

    HeatmapData m_data;
    bool m_log = false;
    Binning m_binning = Binning::Max;
    QRect m_view;
    MatrixStatistics m_stats; ///< sums and value range of the whole matrix
    BlockLevel m_blocks;      ///< block level of large dense matrices (see buildBlockLevel)

    Binned m_cache;
    bool m_dirty = true;
    QPoint m_pressPos;
    QPoint m_dragPos;
    enum class Drag { None, Zoom, Pan } m_drag = Drag::None;
    QRect m_panStart;
};

} // namespace meridian::widgets
