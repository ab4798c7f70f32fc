#include "widgets/heatmap_view.h"

#include "widgets/heatmap_binning.h"
#include "widgets/nice_scale.h"

#include <QContextMenuEvent>
#include <QElapsedTimer>
#include <QEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>

namespace meridian::widgets {

namespace {

constexpr int kMarginLeft = 64;
constexpr int kMarginTop = 36;
constexpr int kMarginBottom = 36; // the caption: up to two lines
constexpr int kSumStrip = 36;
constexpr int kGap = 6;
constexpr int kLegendWidth = 104;
constexpr long long kCoarseThreshold = 1 << 20; // dense cells above which the block level is kept
constexpr int kCoarseTarget = 1024;             // block level size (blocks per side)
const QColor kBackground(244, 244, 244);
const QColor kMissing(205, 205, 205);
const QColor kSumBar(96, 96, 96);
const QColor kText(30, 30, 30);

// Viridis at nine evenly spaced stops (matplotlib's table), linearly interpolated in between.
constexpr std::array<std::array<int, 3>, 9> kViridis = {{{68, 1, 84},
                                                         {71, 45, 123},
                                                         {59, 82, 139},
                                                         {44, 114, 142},
                                                         {33, 145, 140},
                                                         {40, 174, 128},
                                                         {94, 201, 98},
                                                         {173, 220, 48},
                                                         {253, 231, 37}}};
// ColorBrewer PuOr reversed (blue/purple for negative, orange for positive): colour-blind safe.
constexpr std::array<std::array<int, 3>, 9> kDiverging = {{{45, 0, 75},
                                                           {84, 39, 136},
                                                           {128, 115, 172},
                                                           {178, 171, 210},
                                                           {247, 247, 247},
                                                           {253, 184, 99},
                                                           {224, 130, 20},
                                                           {179, 88, 6},
                                                           {127, 59, 8}}};

QColor interpolate(const std::array<std::array<int, 3>, 9>& table, double t)
{
    t = std::clamp(t, 0.0, 1.0) * static_cast<double>(table.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), table.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int c) { return static_cast<int>(std::lround(table[i][c] + f * (table[i + 1][c] - table[i][c]))); };
    return QColor(mix(0), mix(1), mix(2));
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(260, 220);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void HeatmapView::setData(HeatmapData data)
{
    m_data = std::move(data);
    m_view = QRect(0, 0, m_data.columns(), m_data.rows());
    updateStatistics();
    buildCoarseLevel();
    m_dirty = true;
    update();
    Q_EMIT viewChanged();
}

void HeatmapView::setLogScale(bool on)
{
    if (m_log == on)
        return;
    m_log = on;
    m_dirty = true;
    update();
}

void HeatmapView::setBinning(Binning binning)
{
    if (m_binning == binning)
        return;
    m_binning = binning;
    m_dirty = true;
    update();
}

QColor HeatmapView::paletteColor(double t) { return interpolate(kViridis, t); }

QColor HeatmapView::divergingColor(double t) { return interpolate(kDiverging, (std::clamp(t, -1.0, 1.0) + 1.0) / 2.0); }

void HeatmapView::updateStatistics() { m_stats = matrixStatistics(m_data); }

void HeatmapView::buildCoarseLevel() { m_blocks = buildBlockLevel(m_data, kCoarseThreshold, kCoarseTarget); }

int HeatmapView::marginLeft() const
{
    // Room for the row names when they are shown (16 rows or fewer), up to a quarter of the widget.
    if (m_view.height() > 16 || m_data.rowLabels.isEmpty())
        return kMarginLeft;
    const QFontMetrics fm(font());
    int widest = 0;
    for (int r = m_view.top(); r <= m_view.bottom() && r < m_data.rowLabels.size(); ++r)
        widest = std::max(widest, fm.horizontalAdvance(m_data.rowLabels[r]));
    return std::clamp(widest + 12, kMarginLeft, std::max(kMarginLeft, width() / 4));
}

bool HeatmapView::columnNamesCollide(int plotWidth) const
{
    const int cols = m_view.width();
    if (cols <= 0 || cols > 16 || m_data.columnLabels.isEmpty())
        return false;
    const QFontMetrics fm(font());
    const int room = plotWidth / cols;
    for (int c = m_view.left(); c <= m_view.right() && c < m_data.columnLabels.size(); ++c)
        if (fm.horizontalAdvance(m_data.columnLabels[c]) + 4 > room)
            return true;
    return false;
}

QString HeatmapView::titleText() const
{
    QString title = m_data.title.isEmpty() ? tr("No matrix") : m_data.title;
    if (!m_data.markedRows.empty() && !m_data.markLegend.isEmpty())
        title += tr("  (orange ticks: %1)").arg(m_data.markLegend);
    if (m_view != QRect(0, 0, m_data.columns(), m_data.rows()))
        title += tr("  (rows %1\u2013%2, columns %3\u2013%4)")
                     .arg(m_view.top())
                     .arg(m_view.bottom())
                     .arg(m_view.left())
                     .arg(m_view.right());
    return title;
}

HeatmapView::Layout HeatmapView::layoutFor(const QSize& size) const
{
    const int line = QFontMetrics(font()).height();
    // A title wider than the drawing (a narrow printed heatmap) wraps onto a second line: one line more above.
    QFont bold = font();
    bold.setBold(true);
    const bool longTitle = QFontMetrics(bold).horizontalAdvance(titleText()) > size.width() - marginLeft() - 8;
    Layout l = layoutFor(size, longTitle ? line : 0);
    // Column names wider than their columns (site names over a narrow printed heatmap) go on two staggered lines,
    // each with two columns' room: one line more above the plot.
    if (!l.plot.isEmpty() && columnNamesCollide(l.plot.width())) {
        l = layoutFor(size, (longTitle ? line : 0) + line);
        l.staggered = true;
    }
    l.titleLines = longTitle ? 2 : 1;
    return l;
}

HeatmapView::Layout HeatmapView::layoutFor(const QSize& size, int extraTop) const
{
    Layout l;
    const int left = marginLeft();
    const QRect area(left, kMarginTop + extraTop, size.width() - left - kSumStrip - kGap - kLegendWidth,
                     size.height() - kMarginTop - extraTop - kMarginBottom - kSumStrip - kGap);
    if (m_view.isEmpty() || area.width() < 10 || area.height() < 10)
        return l;
    // Square cells where the visible block is square; otherwise fill the area.
    const double aspect = static_cast<double>(m_view.width()) / m_view.height();
    int w = area.width(), h = area.height();
    if (w > h * aspect)
        w = static_cast<int>(h * aspect);
    else
        h = static_cast<int>(w / aspect);
    l.plot = QRect(area.left(), area.top(), std::max(w, 1), std::max(h, 1));
    l.rowSums = QRect(l.plot.right() + kGap, l.plot.top(), kSumStrip, l.plot.height());
    l.columnSums = QRect(l.plot.left(), l.plot.bottom() + kGap, l.plot.width(), kSumStrip);
    l.legend = QRect(l.rowSums.right() + 14, l.plot.top(), 14, l.plot.height());
    l.width = size.width();
    return l;
}

HeatmapView::Binned HeatmapView::bin(const QSize& pixels) const
{
    Binned out;
    const PixelBins bins = binCells(m_data, m_view, pixels, m_blocks, kCoarseThreshold * 4);
    if (bins.width == 0 || bins.height == 0)
        return out;
    const bool sum = m_binning == Binning::Sum;
    const ColourScale scale = colourScale(bins, m_stats, sum, m_log);
    out.min = scale.min;
    out.max = scale.max;
    out.image = colourBins(bins, sum, scale, m_data.isSparse || m_log,
                           HeatmapColours{kBackground, kMissing, &paletteColor, &divergingColor});
    return out;
}

std::pair<double, double> HeatmapView::valueRange() const
{
    if (m_binning == Binning::Sum)
        return {m_cache.min, m_cache.max};
    return {m_log && !m_stats.isSigned() ? m_stats.minPositive : m_stats.min, m_stats.max};
}

double HeatmapView::rebuildForBenchmark()
{
    QElapsedTimer clock;
    clock.start();
    m_cache = bin(layoutFor(size()).plot.size());
    m_dirty = false;
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

void HeatmapView::setView(QRect view)
{
    const QRect all(0, 0, m_data.columns(), m_data.rows());
    view = view.intersected(all);
    if (view.width() < 1 || view.height() < 1 || view == m_view)
        return;
    m_view = view;
    m_dirty = true;
    update();
    Q_EMIT viewChanged();
}

void HeatmapView::zoomTo(const QRect& cells) { setView(cells); }

void HeatmapView::resetZoom() { setView(QRect(0, 0, m_data.columns(), m_data.rows())); }

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    m_dirty = true;
    QWidget::resizeEvent(event);
}

QPoint HeatmapView::cellAt(const QPoint& pos) const
{
    const QRect plot = layoutFor(size()).plot;
    if (plot.isEmpty() || !plot.contains(pos))
        return {-1, -1};
    const int c = m_view.left()
        + static_cast<int>(static_cast<long long>(pos.x() - plot.left()) * m_view.width() / plot.width());
    const int r = m_view.top()
        + static_cast<int>(static_cast<long long>(pos.y() - plot.top()) * m_view.height() / plot.height());
    return {std::clamp(c, m_view.left(), m_view.right()), std::clamp(r, m_view.top(), m_view.bottom())};
}

bool HeatmapView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QPoint cell = cellAt(help->pos());
        if (cell.x() < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const int r = cell.y(), c = cell.x();
        auto label = [](const QStringList& labels, int i) {
            return i < labels.size() ? QString("%1 (%2)").arg(labels[i]).arg(i) : QString::number(i);
        };
        bool present = true;
        const double v = m_data.value(r, c, &present);
        QString text = QString("%1 %2 \u2192 %3 %4\n%5")
                           .arg(m_data.rowAxis, label(m_data.rowLabels, r), m_data.columnAxis,
                                label(m_data.columnLabels, c),
                                present ? formatValue(v, m_data.unit) : QStringLiteral("no value"));
        if (m_data.cellNote)
            text += "  [" + m_data.cellNote(r, c) + "]";
        text += tr("\nrow sum %1, column sum %2")
                    .arg(formatValue(m_stats.rowSums[r], m_data.unit), formatValue(m_stats.columnSums[c], m_data.unit));
        const QRect plot = layoutFor(size()).plot;
        if (m_view.width() > plot.width() || m_view.height() > plot.height())
            text += tr("\n(one pixel shows several cells: %1 of them)")
                        .arg(m_binning == Binning::Max ? tr("the maximum") : tr("the sum"));
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void HeatmapView::paintEvent(QPaintEvent*)
{
    if (m_dirty) {
        m_cache = bin(layoutFor(size()).plot.size());
        m_dirty = false;
    }
    QPainter p(this);
    paint(p, size(), m_cache);
    if (m_drag == Drag::Zoom) {
        p.setPen(QPen(palette().highlight().color(), 1, Qt::DashLine));
        p.setBrush(QColor(255, 255, 255, 60));
        p.drawRect(QRect(m_pressPos, m_dragPos).normalized());
    }
}

void HeatmapView::renderTo(QPainter& painter, const QRect& target) const
{
    painter.save();
    painter.setFont(font());
    painter.translate(target.topLeft());
    paint(painter, target.size(), bin(layoutFor(target.size()).plot.size()));
    painter.restore();
}

QImage HeatmapView::renderImage(const QSize& size) const
{
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderTo(painter, QRect(QPoint(0, 0), size));
    return image;
}

void HeatmapView::paint(QPainter& p, const QSize& size, const Binned& binned) const
{
    const Layout l = layoutFor(size);
    paintTitle(p, size, l);
    if (l.plot.isEmpty() || binned.image.isNull()) {
        p.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter, tr("Nothing to show"));
        return;
    }
    // A drawing its reader scales (an SVG in a browser or a PDF) would smooth a few large cells into a blur: it
    // gets the cells at twice their drawn size, each a block of one colour.
    if (p.paintEngine() && p.paintEngine()->type() == QPaintEngine::SVG && binned.image.size() != l.plot.size())
        p.drawImage(l.plot, binned.image.scaled(l.plot.size() * 2, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    else
        p.drawImage(l.plot, binned.image);
    paintOverlays(p, l);
    paintTicks(p, l);
    paintSums(p, l);
    paintLegend(p, l, binned);
}

/// The title line (with the marks' meaning and the zoomed range); leaves the plain font set.
void HeatmapView::paintTitle(QPainter& p, const QSize& size, const Layout& l) const
{
    p.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    p.setPen(kText);
    QFont titleFont = p.font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    const int line = QFontMetrics(titleFont).height();
    p.drawText(QRect(marginLeft(), 4, size.width() - marginLeft() - 8, std::max(kMarginTop - 18, l.titleLines * line)),
               Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, titleText());
    QFont plain = titleFont;
    plain.setBold(false);
    p.setFont(plain);
}

/// Group boundaries, the plot's frame and the marked rows and columns.
void HeatmapView::paintOverlays(QPainter& p, const Layout& l) const
{
    // Group boundaries (processes reordered by site): thin lines where a group starts.
    p.setPen(QPen(QColor(0, 0, 0, 110), 1));
    for (int b : m_data.groupStarts) {
        if (b > m_view.left() && b <= m_view.right()) {
            const int x = l.plot.left()
                + static_cast<int>(static_cast<long long>(b - m_view.left()) * l.plot.width() / m_view.width());
            p.drawLine(x, l.plot.top(), x, l.plot.bottom());
        }
        if (b > m_view.top() && b <= m_view.bottom()) {
            const int y = l.plot.top()
                + static_cast<int>(static_cast<long long>(b - m_view.top()) * l.plot.height() / m_view.height());
            p.drawLine(l.plot.left(), y, l.plot.right(), y);
        }
    }
    p.setPen(QColor(160, 160, 160));
    p.drawRect(l.plot.adjusted(0, 0, -1, -1));
    // Marked rows and columns (pinned processes): orange ticks just outside the plot on both axes.
    for (int m : m_data.markedRows) {
        const QColor mark(213, 94, 0);
        if (m >= m_view.top() && m <= m_view.bottom()) {
            const int y0 = l.plot.top()
                + static_cast<int>(static_cast<long long>(m - m_view.top()) * l.plot.height() / m_view.height());
            const int y1 = l.plot.top()
                + static_cast<int>(static_cast<long long>(m + 1 - m_view.top()) * l.plot.height() / m_view.height());
            p.fillRect(QRect(l.plot.left() - 5, y0, 4, std::max(1, y1 - y0)), mark);
        }
        if (m >= m_view.left() && m <= m_view.right()) {
            const int x0 = l.plot.left()
                + static_cast<int>(static_cast<long long>(m - m_view.left()) * l.plot.width() / m_view.width());
            const int x1 = l.plot.left()
                + static_cast<int>(static_cast<long long>(m + 1 - m_view.left()) * l.plot.width() / m_view.width());
            p.fillRect(QRect(x0, l.plot.bottom() + 2, std::max(1, x1 - x0), 4), mark);
        }
    }
}

/// Row and column ticks: every label when few cells are visible, otherwise a handful of evenly spaced indices.
void HeatmapView::paintTicks(QPainter& p, const Layout& l) const
{
    const QFontMetrics fm(p.font());
    p.setPen(kText);
    // At least `minimum` cells apart: labels never overlap, however small the cells (a printed 16 x 16 heatmap).
    auto ticks = [](int first, int n, int minimum) {
        std::vector<int> t;
        const int step = std::max(minimum, n <= 16 ? 1 : std::max(1, n / 8));
        for (int i = 0; i < n; i += step)
            t.push_back(first + i);
        return t;
    };
    const int rows = m_view.height(), cols = m_view.width();
    const auto apart = [](double need, double cell) { return std::max(1, static_cast<int>(std::ceil(need / cell))); };
    const int rowStep = apart(fm.height(), static_cast<double>(l.plot.height()) / rows);
    const bool columnNames = cols <= 16 && !m_data.columnLabels.isEmpty();
    const int columnStep = columnNames
        ? 1
        : apart(fm.horizontalAdvance(QString::number(m_view.right())) + 6, static_cast<double>(l.plot.width()) / cols);
    for (int r : ticks(m_view.top(), rows, rowStep)) {
        const int y = l.plot.top() + static_cast<int>((r - m_view.top() + 0.5) * l.plot.height() / rows);
        const QString t = rows <= 16 && r < m_data.rowLabels.size() ? m_data.rowLabels[r] : QString::number(r);
        p.drawText(QRect(2, y - fm.height() / 2, marginLeft() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(t, Qt::ElideRight, marginLeft() - 8));
    }
    const std::vector<int> columnTicks = ticks(m_view.left(), cols, columnStep);
    for (int c : columnTicks) {
        const int x = l.plot.left() + static_cast<int>((c - m_view.left() + 0.5) * l.plot.width() / cols);
        const QString t = cols <= 16 && c < m_data.columnLabels.size() ? m_data.columnLabels[c] : QString::number(c);
        // Each label gets the room between two ticks, so four-digit indices are not cut to "1..."; staggered
        // names (every other one a line higher) get twice that.
        const int w = std::max(24, l.plot.width() / std::max(1, static_cast<int>(columnTicks.size())))
            * (l.staggered ? 2 : 1);
        // A label is centred on its column, but never reaches past the plot into the row-sum strip's title.
        const QString shown = fm.elidedText(t, Qt::ElideRight, w);
        const int textWidth = fm.horizontalAdvance(shown) + 4;
        const int line = l.staggered && (c - m_view.left()) % 2 == 0 ? 2 : 1;
        QRect box(x - textWidth / 2, l.plot.top() - line * fm.height() - 2, textWidth, fm.height());
        if (box.right() > l.plot.right())
            box.moveRight(l.plot.right());
        p.drawText(box, Qt::AlignCenter, shown);
    }
}

/// Row sums (right) and column sums (below) of the visible cells' rows and columns, as bars.
void HeatmapView::paintSums(QPainter& p, const Layout& l) const
{
    const QFontMetrics fm(p.font());
    const int rows = m_view.height(), cols = m_view.width();
    double maxRow = 0, maxColumn = 0;
    for (int r = m_view.top(); r <= m_view.bottom(); ++r)
        maxRow = std::max(maxRow, std::abs(m_stats.rowSums[r]));
    for (int c = m_view.left(); c <= m_view.right(); ++c)
        maxColumn = std::max(maxColumn, std::abs(m_stats.columnSums[c]));
    p.fillRect(l.rowSums, QColor(250, 250, 250));
    p.fillRect(l.columnSums, QColor(250, 250, 250));
    if (maxRow > 0)
        for (int y = 0; y < l.rowSums.height(); ++y) {
            const int r0 = m_view.top() + static_cast<int>(static_cast<long long>(y) * rows / l.plot.height());
            const int r1 = std::max(r0 + 1,
                                    m_view.top()
                                        + static_cast<int>(static_cast<long long>(y + 1) * rows / l.plot.height()));
            double s = 0;
            for (int r = r0; r < std::min(r1, m_view.top() + rows); ++r)
                s = std::max(s, std::abs(m_stats.rowSums[r]));
            p.fillRect(QRect(l.rowSums.left(), l.rowSums.top() + y,
                             static_cast<int>(std::lround(s / maxRow * l.rowSums.width())), 1),
                       kSumBar);
        }
    if (maxColumn > 0)
        for (int x = 0; x < l.columnSums.width(); ++x) {
            const int c0 = m_view.left() + static_cast<int>(static_cast<long long>(x) * cols / l.plot.width());
            const int c1 = std::max(c0 + 1,
                                    m_view.left()
                                        + static_cast<int>(static_cast<long long>(x + 1) * cols / l.plot.width()));
            double s = 0;
            for (int c = c0; c < std::min(c1, m_view.left() + cols); ++c)
                s = std::max(s, std::abs(m_stats.columnSums[c]));
            const int hgt = static_cast<int>(std::lround(s / maxColumn * l.columnSums.height()));
            p.fillRect(QRect(l.columnSums.left() + x, l.columnSums.top(), 1, hgt), kSumBar);
        }
    p.setPen(QColor(160, 160, 160));
    p.setBrush(Qt::NoBrush);
    p.drawRect(l.rowSums.adjusted(0, 0, -1, -1));
    p.drawRect(l.columnSums.adjusted(0, 0, -1, -1));
    p.setPen(kText);
    p.drawText(QRect(l.rowSums.left(), l.plot.top() - fm.height() - 2, kSumStrip + 60, fm.height()), Qt::AlignLeft,
               tr("\u03a3 row"));
    // The caption may run on under the row sums and the legend, and wraps onto a second line rather than be cut.
    p.drawText(QRect(l.columnSums.left(), l.columnSums.bottom() + 2, std::max(60, l.width - 4 - l.columnSums.left()),
                     2 * fm.height()),
               Qt::AlignLeft | Qt::TextWordWrap,
               QString("%1 \u2192 %2 (%3 x %4);  largest row sum %6, column sum %5")
                   .arg(m_data.rowAxis, m_data.columnAxis)
                   .arg(m_data.rows())
                   .arg(m_data.columns())
                   .arg(formatValue(maxColumn, m_data.unit), formatValue(maxRow, m_data.unit)));
}

/// A vertical colour bar with five labelled ticks, the scale and the binning.
std::vector<double> HeatmapView::legendTicks(double lo, double hi, bool log)
{
    std::vector<double> out;
    if (!(hi > lo))
        return out;
    if (!log) {
        const NiceScale scale = niceScale(lo, hi, 5);
        // Whole multiples of the step, so that 0.3 is 3 x 0.1 rounded, not 0.1 added three times.
        for (double k = std::ceil(lo / scale.step); k * scale.step < hi; ++k)
            if (k * scale.step > lo)
                out.push_back(k * scale.step);
        return out;
    }
    // 1, 2 and 5 per decade; only the powers of ten when that gives more than four.
    for (const bool decadesOnly : {false, true}) {
        out.clear();
        for (double decade = std::pow(10.0, std::floor(std::log10(lo))); decade <= hi; decade *= 10.0)
            for (double m : {1.0, 2.0, 5.0})
                if ((!decadesOnly || m == 1.0) && m * decade > lo && m * decade < hi)
                    out.push_back(m * decade);
        if (out.size() <= 4)
            break;
    }
    return out;
}

void HeatmapView::paintLegend(QPainter& p, const Layout& l, const Binned& binned) const
{
    const QFontMetrics fm(p.font());
    const QRect bar = l.legend;
    const double lo = m_stats.isSigned() ? -std::max(std::abs(binned.min), std::abs(binned.max)) : binned.min;
    const double hi = m_stats.isSigned() ? -lo : binned.max;
    for (int y = 0; y < bar.height(); ++y) {
        const double t = 1.0 - static_cast<double>(y) / std::max(1, bar.height() - 1);
        p.setPen(m_stats.isSigned() ? divergingColor(2 * t - 1) : paletteColor(t));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(kText);
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    const bool log = m_log && !m_stats.isSigned() && lo > 0 && hi > 0;
    const auto position = [&](double v) {
        return log ? (std::log10(v) - std::log10(lo)) / std::max(1e-300, std::log10(hi) - std::log10(lo))
                   : (v - lo) / (hi > lo ? hi - lo : 1.0);
    };
    // The range's ends, then round values between them (1, 2, 5 per decade on a log scale), each labelled once
    // and a line apart from the others: not five even splits of the range ("2.927 MB").
    std::vector<double> ticks{lo, hi};
    for (double v : legendTicks(lo, hi, log))
        ticks.push_back(v);
    std::vector<int> used;
    QStringList labelled;
    for (double v : ticks) {
        const double t = std::clamp(position(v), 0.0, 1.0);
        const int y = bar.bottom() - static_cast<int>(t * (bar.height() - 1));
        const QString label = formatValue(v, m_data.unit);
        if (labelled.contains(label)
            || std::any_of(used.begin(), used.end(), [&](int other) { return std::abs(other - y) < fm.height(); }))
            continue;
        labelled << label;
        used.push_back(y);
        p.drawLine(bar.right() + 1, y, bar.right() + 4, y);
        p.drawText(QRect(bar.right() + 6, y - fm.height() / 2, kLegendWidth - 24, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, label);
    }
    const QString scale = m_stats.isSigned() ? tr("difference") : log ? tr("log scale") : tr("linear scale");
    p.drawText(QRect(bar.left() - 4, bar.bottom() + 4, kLegendWidth, fm.height()), Qt::AlignLeft, scale);
    p.drawText(QRect(bar.left() - 4, bar.bottom() + 4 + fm.height(), kLegendWidth, fm.height()), Qt::AlignLeft,
               m_binning == Binning::Max ? tr("max per pixel") : tr("sum per pixel"));
}

void HeatmapView::mousePressEvent(QMouseEvent* event)
{
    setFocus();
    m_pressPos = m_dragPos = event->position().toPoint();
    const bool pan = event->button() == Qt::RightButton || event->button() == Qt::MiddleButton
        || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (pan && event->button() != Qt::RightButton) {
        m_drag = Drag::Pan;
        m_panStart = m_view;
        setCursor(Qt::ClosedHandCursor);
    } else if (event->button() == Qt::RightButton) {
        m_drag = Drag::Pan; // becomes a context menu if the mouse does not move
        m_panStart = m_view;
    } else if (event->button() == Qt::LeftButton && cellAt(m_pressPos).x() >= 0) {
        m_drag = Drag::Zoom;
    }
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    m_dragPos = event->position().toPoint();
    if (m_drag == Drag::Zoom) {
        update();
    } else if (m_drag == Drag::Pan) {
        const QRect plot = layoutFor(size()).plot;
        if (plot.isEmpty())
            return;
        const QPoint d = m_dragPos - m_pressPos;
        const int dc = static_cast<int>(std::lround(-double(d.x()) * m_panStart.width() / plot.width()));
        const int dr = static_cast<int>(std::lround(-double(d.y()) * m_panStart.height() / plot.height()));
        QRect moved = m_panStart.translated(dc, dr);
        moved.moveLeft(std::clamp(moved.left(), 0, std::max(0, m_data.columns() - moved.width())));
        moved.moveTop(std::clamp(moved.top(), 0, std::max(0, m_data.rows() - moved.height())));
        setView(moved);
    }
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_drag == Drag::Zoom) {
        const QRect band = QRect(m_pressPos, m_dragPos).normalized();
        if (band.width() > 4 && band.height() > 4) {
            const QRect plot = layoutFor(size()).plot;
            const QPoint a = cellAt(band.topLeft().x() < plot.left() ? QPoint(plot.left(), band.top()) : band.topLeft());
            const QPoint b = cellAt(
                QPoint(std::min(band.right(), plot.right()), std::min(band.bottom(), plot.bottom())));
            if (a.x() >= 0 && b.x() >= 0)
                setView(QRect(a, b));
        }
        update();
    }
    if (m_drag == Drag::Pan && event->button() == Qt::RightButton && (m_dragPos - m_pressPos).manhattanLength() < 4) {
        m_drag = Drag::None;
        QContextMenuEvent menuEvent(QContextMenuEvent::Mouse, event->position().toPoint(),
                                    event->globalPosition().toPoint());
        contextMenuEvent(&menuEvent);
    }
    m_drag = Drag::None;
    unsetCursor();
}

void HeatmapView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const QPoint cell = cellAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && cell.x() >= 0)
        Q_EMIT cellDoubleClicked(cell.y(), cell.x());
}

void HeatmapView::wheelEvent(QWheelEvent* event)
{
    const QPoint cell = cellAt(event->position().toPoint());
    if (cell.x() < 0 || m_view.isEmpty())
        return;
    const double factor = std::pow(0.999, event->angleDelta().y());
    const int w = std::clamp(static_cast<int>(std::lround(m_view.width() * factor)), 1, m_data.columns());
    const int h = std::clamp(static_cast<int>(std::lround(m_view.height() * factor)), 1, m_data.rows());
    // Keep the cell under the cursor at the same relative position.
    const double fx = double(cell.x() - m_view.left()) / m_view.width();
    const double fy = double(cell.y() - m_view.top()) / m_view.height();
    int left = cell.x() - static_cast<int>(fx * w);
    int top = cell.y() - static_cast<int>(fy * h);
    left = std::clamp(left, 0, m_data.columns() - w);
    top = std::clamp(top, 0, m_data.rows() - h);
    setView(QRect(left, top, w, h));
    event->accept();
}

void HeatmapView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Home) {
        resetZoom();
        return;
    }
    QWidget::keyPressEvent(event);
}

void HeatmapView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Reset zoom"), this, &HeatmapView::resetZoom);
    auto* max = menu.addAction(tr("Bin by maximum"), this, [this] { setBinning(Binning::Max); });
    max->setCheckable(true);
    max->setChecked(m_binning == Binning::Max);
    auto* sum = menu.addAction(tr("Bin by sum"), this, [this] { setBinning(Binning::Sum); });
    sum->setCheckable(true);
    sum->setChecked(m_binning == Binning::Sum);
    menu.exec(event->globalPos());
}

} // namespace meridian::widgets
