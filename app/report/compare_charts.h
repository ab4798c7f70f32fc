#pragma once

#include "app/mapping/sweep_operation.h"
#include "app/project/run.h"
#include "core/model/topology.h"

#include <QByteArray>
#include <QColor>
#include <QSize>
#include <QString>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

class QChart;
class QPainter;
class QChartView;
class QLineSeries;
class QPointF;
class QRectF;
class QScatterSeries;
class QValueAxis;
class QWidget;

// Charts of runs, drawn in the workbench's Compare tab and printed in the report by the same code. Axes take round
// ticks from widgets::niceScale, again when zoomed.

namespace meridian::workbench {

/// Returns the colour of series i on the Okabe-Ito palette (colour-blind safe), cycling after eight.
QColor seriesColor(std::size_t i);
/// Returns a chart view with an empty chart, antialiased, legend at the bottom, no animation.
QChartView* makeChartView(QWidget* parent, const QString& title);
/// Removes every series and axis of a chart.
void clearChart(QChart* chart);
/// The Pareto front (indices into `points`) as a dashed staircase: across to the next point's x, then down.
QLineSeries* frontStaircase(const std::vector<std::pair<double, double>>& points, const std::vector<std::size_t>& front);
/// An orange ring around the selected run.
QScatterSeries* selectionRing(const QPointF& at);
/// An axis over [minimum, maximum] with round ticks (widgets::niceScale), kept round when the range changes (zoom).
QValueAxis* niceAxis(double minimum, double maximum, const QString& title);
/// Value axes over `bounds` with 5% padding and round ticks, titled; never below zero for non-negative values.
std::pair<QValueAxis*, QValueAxis*> paddedAxes(const QRectF& bounds, const QString& xTitle, const QString& yTitle);
/// Returns an SVG document of `size` (its view box in the same units) drawn by `draw`.
QByteArray svgDrawing(const QSize& size, const QString& title, const std::function<void(QPainter&)>& draw);
/// Draws a chart as an SVG document laid out at `size` whatever size its view has on screen (rendering the view
/// itself would scale its on-screen layout and shrink or blow up the text), every text at least `minimumPoints`
/// (the SVG's units); the chart gets its size and fonts back at once.
QByteArray chartSvg(QChartView* view, const QSize& size, double minimumPoints);
/// Returns "Label (unit)" for an axis title.
QString metricTitle(const document::RunMetric& metric);

/// How a metric's values are shown on an axis: divided by `divisor`, with `title` naming the unit shown (bytes in
/// KB, MB, GB or TB by the largest value, so ticks read "250", not "250000000"; other units as they are).
struct AxisUnit {
    double divisor = 1.0;
    QString title;
};
AxisUnit axisUnit(const document::RunMetric& metric, double largest);

/// The sites that lack a price dollars need, in words ("us-east and tokyo have no instance price; osaka has no
/// egress price"); only egress prices when `egressOnly` (a graph's WAN dollars). Empty when none lacks one.
QString missingPrices(const model::Topology& topology, bool egressOnly);

/// Fills SC17's Fig. 9 and 10 for a Monte Carlo run: the CDF of the sampled costs and the best-of-K
/// curve, with `others` (mapper id -> its best cost on the same application) as markers. A null run or
/// one without samples leaves both charts empty with a title that says how to fill them.
void fillMonteCarloCharts(QChart* cdf, QChart* best, const document::Run* run,
                          const std::map<std::string, double>& others);
/// Fills a sweep chart (Fig. 7 or 8): one line per mapper of its mean cost normalised to random, or of
/// its runtime on a log axis. A null sweep leaves the chart empty with a hint.
void fillSweepChart(QChart* chart, const ops::SweepResult* sweep, bool runtime);

} // namespace meridian::workbench
