#include "widgets/best_curve_view.h"

#include "widgets/heatmap_data.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace meridian::widgets {

BestCurveView::BestCurveView(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void BestCurveView::setCurve(std::vector<std::pair<double, double>> points, double nowSeconds)
{
    m_points = std::move(points);
    m_now = nowSeconds;
    setToolTip(m_points.empty()
                   ? QString()
                   : tr("Best so far: %1 (started at %2), %3 improvements")
                         .arg(formatValue(m_points.back().second, "s"), formatValue(m_points.front().second, "s"))
                         .arg(m_points.size() - 1));
    update();
}

void BestCurveView::paintEvent(QPaintEvent*)
{
    if (m_points.empty())
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = fontMetrics();
    const QString label = tr("best %1").arg(formatValue(m_points.back().second, "s"));
    const int labelWidth = metrics.horizontalAdvance(label) + 8;
    const QRectF plot(2.0, 4.0, std::max(20, width() - labelWidth - 4), height() - 8.0);
    double low = m_points.front().second;
    double high = low;
    for (const auto& point : m_points) {
        low = std::min(low, point.second);
        high = std::max(high, point.second);
    }
    // A tenth of the range below the best keeps the current value off the axis line.
    const double range = high > low ? high - low : std::max(1e-12, std::abs(high));
    low -= 0.1 * range;
    const double span = high - low;
    // Time on a log axis from 1 ms: searches improve most in their first milliseconds.
    const double first = 1e-3;
    const double end = std::max({m_now, m_points.back().first, 10 * first});
    const auto at = [&](double t, double v) {
        const double x = std::log(std::max(t, first) / first) / std::log(end / first);
        return QPointF(plot.left() + plot.width() * x, plot.bottom() - plot.height() * (v - low) / span);
    };
    painter.setPen(QPen(palette().color(QPalette::Mid), 1.0));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    QPainterPath path(at(m_points.front().first, m_points.front().second));
    for (std::size_t i = 1; i < m_points.size(); ++i) {
        path.lineTo(at(m_points[i].first, m_points[i - 1].second));
        path.lineTo(at(m_points[i].first, m_points[i].second));
    }
    path.lineTo(at(end, m_points.back().second));
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1.6));
    painter.drawPath(path);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRectF(plot.right() + 6, 0, labelWidth, height()), Qt::AlignVCenter | Qt::AlignLeft, label);
}

} // namespace meridian::widgets
