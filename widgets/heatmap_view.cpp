#include "widgets/heatmap_view.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <array>
#include <cmath>

namespace meridian::widgets {

namespace {

constexpr int kMarginLeft = 64;
constexpr int kMarginTop = 36;
constexpr int kMarginBottom = 28;
constexpr int kLegendWidth = 110;
const QColor kBackground(244, 244, 244);
const QColor kMissing(205, 205, 205);

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

} // namespace

double HeatmapData::value(int row, int column, bool* present) const
{
    if (present)
        *present = true;
    if (!isSparse) {
        const double v = dense(row, column);
        if (std::isnan(v) && present)
            *present = false;
        return v;
    }
    const int* outer = sparse.outerIndexPtr();
    const int* inner = sparse.innerIndexPtr();
    const int* begin = inner + outer[row];
    const int* end = inner + outer[row + 1];
    const int* it = std::lower_bound(begin, end, column);
    return it != end && *it == column ? sparse.valuePtr()[it - inner] : 0.0;
}

QString formatValue(double value, const QString& unit)
{
    if (std::isnan(value))
        return QStringLiteral("no value");
    if (unit == "bytes") {
        static const char* prefixes[] = {"B", "kB", "MB", "GB", "TB"};
        int p = 0;
        double v = value;
        while (std::abs(v) >= 1000.0 && p < 4) {
            v /= 1000.0;
            ++p;
        }
        return QString::number(v, 'g', 4) + ' ' + prefixes[p];
    }
    return QString::number(value, 'g', 4) + (unit.isEmpty() ? QString() : ' ' + unit);
}

HeatmapView::HeatmapView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(240, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void HeatmapView::setData(HeatmapData data)
{
    m_data = std::move(data);
    updateRange();
    m_dirty = true;
    update();
}

void HeatmapView::setLogScale(bool on)
{
    if (m_log == on)
        return;
    m_log = on;
    updateRange();
    m_dirty = true;
    update();
}

QColor HeatmapView::paletteColor(double t)
{
    t = std::clamp(t, 0.0, 1.0) * (kViridis.size() - 1);
    const auto i = std::min<std::size_t>(static_cast<std::size_t>(t), kViridis.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int c) { return static_cast<int>(std::lround(kViridis[i][c] + f * (kViridis[i + 1][c] - kViridis[i][c]))); };
    return QColor(mix(0), mix(1), mix(2));
}

void HeatmapView::updateRange()
{
    m_min = 0.0;
    m_max = 0.0;
    double minPositive = std::numeric_limits<double>::infinity();
    bool any = false;
    auto visit = [&](double v) {
        if (std::isnan(v))
            return;
        if (!any) {
            m_min = m_max = v;
            any = true;
        }
        m_min = std::min(m_min, v);
        m_max = std::max(m_max, v);
        if (v > 0)
            minPositive = std::min(minPositive, v);
    };
    if (m_data.isSparse) {
        for (Eigen::Index k = 0; k < m_data.sparse.nonZeros(); ++k)
            visit(m_data.sparse.valuePtr()[k]);
        if (m_data.sparse.nonZeros() < static_cast<Eigen::Index>(m_data.rows()) * m_data.columns())
            visit(0.0);
    } else {
        for (Eigen::Index k = 0; k < m_data.dense.size(); ++k)
            visit(m_data.dense.data()[k]);
    }
    if (m_log)
        m_min = std::isfinite(minPositive) ? minPositive : 1.0;
}

double HeatmapView::normalise(double v) const
{
    if (m_log) {
        if (v <= 0)
            return -1.0;
        const double lo = std::log10(m_min), hi = std::log10(m_max);
        return hi > lo ? (std::log10(v) - lo) / (hi - lo) : 1.0;
    }
    return m_max > m_min ? (v - m_min) / (m_max - m_min) : 1.0;
}

QRect HeatmapView::plotRect() const
{
    const QRect area = rect().adjusted(kMarginLeft, kMarginTop, -kLegendWidth, -kMarginBottom);
    if (m_data.rows() == 0 || m_data.columns() == 0 || area.width() < 10 || area.height() < 10)
        return {};
    // Square cells where the matrix is square; otherwise fill the area.
    const double aspect = static_cast<double>(m_data.columns()) / m_data.rows();
    int w = area.width(), h = area.height();
    if (w > h * aspect)
        w = static_cast<int>(h * aspect);
    else
        h = static_cast<int>(w / aspect);
    return {area.left(), area.top(), std::max(w, 1), std::max(h, 1)};
}

void HeatmapView::rebuildImage()
{
    m_dirty = false;
    const QRect plot = plotRect();
    const int rows = m_data.rows(), cols = m_data.columns();
    if (plot.isEmpty()) {
        m_image = QImage();
        return;
    }
    // One image pixel per cell, or per bin of cells when the matrix has more cells than pixels.
    const int imageW = std::min(cols, plot.width());
    const int imageH = std::min(rows, plot.height());
    std::vector<double> binMax(static_cast<std::size_t>(imageW) * imageH, -1.0);
    std::vector<char> binMissing(binMax.size(), 0);
    auto binOf = [&](int r, int c) {
        const auto br = static_cast<std::size_t>(static_cast<long long>(r) * imageH / rows);
        const auto bc = static_cast<std::size_t>(static_cast<long long>(c) * imageW / cols);
        return br * imageW + bc;
    };
    if (m_data.isSparse) {
        const int* outer = m_data.sparse.outerIndexPtr();
        const int* inner = m_data.sparse.innerIndexPtr();
        const double* values = m_data.sparse.valuePtr();
        for (int r = 0; r < rows; ++r)
            for (int k = outer[r]; k < outer[r + 1]; ++k) {
                auto& cell = binMax[binOf(r, inner[k])];
                cell = std::max(cell, values[k]);
            }
    } else {
        for (int c = 0; c < cols; ++c)
            for (int r = 0; r < rows; ++r) {
                const double v = m_data.dense(r, c);
                const auto b = binOf(r, c);
                if (std::isnan(v))
                    binMissing[b] = 1;
                else
                    binMax[b] = std::max(binMax[b], v);
            }
    }
    m_image = QImage(imageW, imageH, QImage::Format_RGB32);
    for (int y = 0; y < imageH; ++y) {
        auto* line = reinterpret_cast<QRgb*>(m_image.scanLine(y));
        for (int x = 0; x < imageW; ++x) {
            const auto b = static_cast<std::size_t>(y) * imageW + x;
            const double v = binMax[b];
            if (v < 0)
                line[x] = (binMissing[b] ? kMissing : kBackground).rgb();
            else if (v == 0 && (m_data.isSparse || m_log))
                line[x] = kBackground.rgb();
            else {
                const double t = normalise(v);
                line[x] = t < 0 ? kBackground.rgb() : paletteColor(t).rgb();
            }
        }
    }
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    m_dirty = true;
    QWidget::resizeEvent(event);
}

QPoint HeatmapView::cellAt(const QPoint& pos) const
{
    const QRect plot = plotRect();
    if (plot.isEmpty() || !plot.contains(pos))
        return {-1, -1};
    const int c = static_cast<int>(static_cast<long long>(pos.x() - plot.left()) * m_data.columns() / plot.width());
    const int r = static_cast<int>(static_cast<long long>(pos.y() - plot.top()) * m_data.rows() / plot.height());
    return {std::clamp(c, 0, m_data.columns() - 1), std::clamp(r, 0, m_data.rows() - 1)};
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
                           .arg(m_data.rowAxis, label(m_data.rowLabels, r), m_data.columnAxis, label(m_data.columnLabels, c),
                                present ? formatValue(v, m_data.unit) : QStringLiteral("no value"));
        if (m_data.cellNote)
            text += "  [" + m_data.cellNote(r, c) + "]";
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void HeatmapView::paintEvent(QPaintEvent*)
{
    if (m_dirty)
        rebuildImage();
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    const QFontMetrics fm(font());
    p.setPen(palette().windowText().color());
    QFont titleFont = font();
    titleFont.setBold(true);
    p.setFont(titleFont);
    p.drawText(QRect(kMarginLeft, 4, width() - kMarginLeft - 8, kMarginTop - 18), Qt::AlignLeft | Qt::AlignVCenter,
               m_data.title.isEmpty() ? QStringLiteral("No matrix") : m_data.title);
    p.setFont(font());
    const QRect plot = plotRect();
    if (plot.isEmpty() || m_image.isNull()) {
        p.drawText(rect(), Qt::AlignCenter, tr("Nothing to show"));
        return;
    }
    p.drawImage(plot, m_image);
    p.setPen(palette().mid().color());
    p.drawRect(plot.adjusted(0, 0, -1, -1));

    // Ticks: every label when there are few, otherwise a handful of evenly spaced indices.
    p.setPen(palette().windowText().color());
    auto ticks = [](int n) {
        std::vector<int> t;
        if (n <= 16) {
            for (int i = 0; i < n; ++i)
                t.push_back(i);
        } else {
            const int step = std::max(1, n / 8);
            for (int i = 0; i < n; i += step)
                t.push_back(i);
        }
        return t;
    };
    const int rows = m_data.rows(), cols = m_data.columns();
    for (int r : ticks(rows)) {
        const int y = plot.top() + static_cast<int>((r + 0.5) * plot.height() / rows);
        const QString text = rows <= 16 && r < m_data.rowLabels.size() ? m_data.rowLabels[r] : QString::number(r);
        p.drawText(QRect(2, y - fm.height() / 2, kMarginLeft - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                   fm.elidedText(text, Qt::ElideRight, kMarginLeft - 8));
    }
    for (int c : ticks(cols)) {
        const int x = plot.left() + static_cast<int>((c + 0.5) * plot.width() / cols);
        const QString text = cols <= 16 && c < m_data.columnLabels.size() ? m_data.columnLabels[c] : QString::number(c);
        const int w = std::max(24, plot.width() / std::max(1, std::min(cols, 16)));
        p.drawText(QRect(x - w / 2, plot.top() - fm.height() - 2, w, fm.height()), Qt::AlignCenter,
                   fm.elidedText(text, Qt::ElideRight, w));
    }
    p.drawText(QRect(plot.left(), plot.bottom() + 4, plot.width(), fm.height()), Qt::AlignCenter,
               QString("%1 \u2192 %2 (%3 x %4)").arg(m_data.rowAxis, m_data.columnAxis).arg(rows).arg(cols));

    // Legend: a vertical colour bar with five labelled ticks.
    const QRect bar(plot.right() + 18, plot.top(), 16, plot.height());
    for (int y = 0; y < bar.height(); ++y) {
        p.setPen(paletteColor(1.0 - static_cast<double>(y) / std::max(1, bar.height() - 1)));
        p.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    p.setPen(palette().windowText().color());
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    for (int k = 0; k <= 4; ++k) {
        const double t = k / 4.0;
        const double v = m_log ? std::pow(10.0, std::log10(m_min) + t * (std::log10(m_max) - std::log10(m_min)))
                               : m_min + t * (m_max - m_min);
        const int y = bar.bottom() - static_cast<int>(t * (bar.height() - 1));
        p.drawLine(bar.right() + 1, y, bar.right() + 4, y);
        p.drawText(QRect(bar.right() + 6, y - fm.height() / 2, kLegendWidth - 34, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   formatValue(v, m_data.unit));
    }
    p.drawText(QRect(bar.left() - 8, bar.bottom() + 4, kLegendWidth - 8, fm.height()), Qt::AlignLeft,
               m_log ? tr("log scale") : tr("linear scale"));
}

} // namespace meridian::widgets
