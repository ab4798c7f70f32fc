#pragma once

#include <QString>
#include <QWidget>

#include <utility>
#include <vector>

namespace meridian::widgets {

/// A small chart of an anytime search's best value against time: a step line from the first value to the
/// last, time on a log axis from 1 ms to now, the current best written beside it and the first in the tooltip.
/// Values are costs in seconds (refine's alpha-beta objective).
class BestCurveView : public QWidget {
    Q_OBJECT
public:
    explicit BestCurveView(QWidget* parent = nullptr);

    /// Sets the points (seconds, best value), in time order, and the time the line extends to.
    void setCurve(std::vector<std::pair<double, double>> points, double nowSeconds);
    const std::vector<std::pair<double, double>>& curve() const { return m_points; }

    QSize sizeHint() const override { return {240, 56}; }
    QSize minimumSizeHint() const override { return {120, 44}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<std::pair<double, double>> m_points;
    double m_now = 0.0;
};

} // namespace meridian::widgets
