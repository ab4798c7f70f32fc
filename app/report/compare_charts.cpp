#include "app/report/compare_charts.h"

#include "widgets/heatmap_data.h"
#include "widgets/nice_scale.h"

#include <QBarCategoryAxis>
#include <QBuffer>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QSvgGenerator>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace meridian::workbench {

QByteArray svgDrawing(const QSize& size, const QString& title, const std::function<void(QPainter&)>& draw)
{
    QByteArray svg;
    QBuffer buffer(&svg);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    QPainter painter(&generator);
    draw(painter);
    painter.end();
    return svg;
}

namespace {

/// A font of at least `points`, in the printed figures' family (the one the report's style sheet names).
QFont printFont(QFont font, double points)
{
    font.setFamily(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(std::max(font.pointSizeF(), points));
    return font;
}

/// Sets every text of a chart (title, legend, axis labels and titles) to at least `points` for as long as it lives,
/// then gives the chart its screen fonts back.
class PrintFonts {
public:
    PrintFonts(QChart* chart, double points, double width)
        : m_chart(chart)
    {
        m_title = chart->titleFont();
        m_legend = chart->legend()->font();
        // The title's second line is <small>, a fifth smaller: the title is set so that it too reaches `points`.
        chart->setTitleFont(printFont(m_title, points * 1.25));
        chart->legend()->setFont(printFont(m_legend, points));
        for (auto* axis : chart->axes()) {
            m_axes.push_back({axis, axis->labelsFont(), axis->titleFont(), axis->labelsAngle()});
            axis->setLabelsFont(printFont(axis->labelsFont(), points));
            axis->setTitleFont(printFont(axis->titleFont(), points));
            // Qt Charts gives a category label the plot's width over (categories + 1) and cuts a longer one to
            // "monte-c...": slanted, a name needs less width.
            if (auto* categories = qobject_cast<QBarCategoryAxis*>(axis)) {
                const QFontMetricsF fm(categories->labelsFont());
                // The plot is about three quarters of the chart's width (the value axis and margins take the rest).
                const double room = 0.75 * width / (categories->count() + 1) - 10;
                const QStringList names = categories->categories();
                if (std::any_of(names.begin(), names.end(),
                                [&](const QString& n) { return fm.horizontalAdvance(n) + 8 > room; }))
                    categories->setLabelsAngle(-45);
            }
        }
    }
    ~PrintFonts()
    {
        m_chart->setTitleFont(m_title);
        m_chart->legend()->setFont(m_legend);
        for (const auto& a : m_axes) {
            a.axis->setLabelsFont(a.labels);
            a.axis->setTitleFont(a.title);
            a.axis->setLabelsAngle(a.angle);
        }
    }
    PrintFonts(const PrintFonts&) = delete;
    PrintFonts& operator=(const PrintFonts&) = delete;

private:
    struct AxisFonts {
        QAbstractAxis* axis;
        QFont labels, title;
        int angle;
    };
    QChart* m_chart;
    QFont m_title, m_legend;
    std::vector<AxisFonts> m_axes;
};

} // namespace

QByteArray chartSvg(QChartView* view, const QSize& size, double minimumPoints)
{
    QChart* chart = view->chart();
    const QSizeF onScreen = chart->size();
    const QPointF position = chart->pos();
    const PrintFonts fonts(chart, minimumPoints, size.width());
    chart->setPos(0, 0);
    chart->resize(size);
    // Lay the chart out now and let go of the drawings of the axes it removed: a chart refilled without an event loop
    // turning (the CLI's report) keeps them in its scene until the posted events run, and they would be drawn too.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    if (chart->layout())
        chart->layout()->activate();
    QByteArray svg = svgDrawing(size, chart->title(), [&](QPainter& painter) {
        painter.setRenderHint(QPainter::Antialiasing);
        view->scene()->render(&painter, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
    });
    chart->resize(onScreen);
    chart->setPos(position);
    return svg;
}

namespace {

// Okabe-Ito: distinguishable with every common colour-vision deficiency.
const QColor kSeriesColors[] = {QColor(0, 114, 178),  QColor(230, 159, 0), QColor(0, 158, 115),  QColor(204, 121, 167),
                                QColor(86, 180, 233), QColor(213, 94, 0),  QColor(240, 228, 66), QColor(0, 0, 0)};

QString tr(const char* text) { return QCoreApplication::translate("meridian::workbench::ComparePanel", text); }

} // namespace

QColor seriesColor(std::size_t i) { return kSeriesColors[i % std::size(kSeriesColors)]; }

QChartView* makeChartView(QWidget* parent, const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    // Small enough that two charts stacked, and the docks with eight runs, fit a 1280 x 800 screen.
    view->setMinimumSize(360, 150);
    return view;
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    // removeAxis hands the axis back to the caller: delete it, or every refresh leaks its axes.
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

QString metricTitle(const document::RunMetric& m)
{
    // A ratio (a replication factor) has no unit: no empty "()".
    if (m.unit.empty())
        return QString::fromStdString(m.label);
    return QString("%1 (%2)").arg(QString::fromStdString(m.label), QString::fromStdString(m.unit));
}

AxisUnit axisUnit(const document::RunMetric& m, double largest)
{
    if (m.unit != "bytes")
        return {1.0, metricTitle(m)};
    static const std::pair<double, const char*> units[] = {{1e12, "TB"}, {1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"}};
    for (const auto& [divisor, name] : units)
        if (largest >= divisor)
            return {divisor, QString("%1 (%2)").arg(QString::fromStdString(m.label), name)};
    return {1.0, QString("%1 (B)").arg(QString::fromStdString(m.label))};
}

QString missingPrices(const model::Topology& topology, bool egressOnly)
{
    QStringList noInstance, noEgress;
    for (const auto& site : topology.sites()) {
        if (!egressOnly && std::isnan(site.instanceUsdPerHour))
            noInstance << QString::fromStdString(site.name);
        if (std::isnan(site.egressUsdPerGB))
            noEgress << QString::fromStdString(site.name);
    }
    const auto listed = [](const QStringList& names) {
        if (names.size() <= 1)
            return names.join(QString());
        const QStringList shown = names.mid(0, 6);
        QString text = QStringList(shown.mid(0, shown.size() - 1)).join(", ");
        text += names.size() > 6 ? QString(", %1 and %2 more").arg(shown.back()).arg(names.size() - 6)
                                 : QString(" and %1").arg(shown.back());
        return text;
    };
    QStringList parts;
    if (!noInstance.isEmpty())
        parts << QObject::tr("%1 %2 no instance price").arg(listed(noInstance), noInstance.size() == 1 ? "has" : "have");
    if (!noEgress.isEmpty())
        parts << QObject::tr("%1 %2 no egress price").arg(listed(noEgress), noEgress.size() == 1 ? "has" : "have");
    return parts.join("; ");
}

void fillMonteCarloCharts(QChart* cdf, QChart* best, const document::Run* run,
                          const std::map<std::string, double>& others)
{
    clearChart(cdf);
    clearChart(best);
    if (!run || run->costSamples.empty()) {
        cdf->setTitle(tr("Cost CDF: run the monte-carlo mapper to see it"));
        best->setTitle(tr("Best of K: run the monte-carlo mapper to see it"));
        return;
    }
    std::vector<double> sorted = run->costSamples;
    std::sort(sorted.begin(), sorted.end());
    auto* curve = new QLineSeries;
    curve->setName(tr("sampled placements"));
    curve->setColor(seriesColor(0));
    const std::size_t n = sorted.size();
    const std::size_t step = std::max<std::size_t>(1, n / 1500);
    for (std::size_t i = 0; i < n; i += step)
        curve->append(sorted[i], static_cast<double>(i + 1) / static_cast<double>(n));
    curve->append(sorted.back(), 1.0);
    double lo = sorted.front(), hi = sorted.back();
    std::vector<QLineSeries*> markers, bestMarkers;
    std::size_t color = 1;
    for (const auto& [alg, cost] : others) {
        const std::size_t below = std::lower_bound(sorted.begin(), sorted.end(), cost) - sorted.begin();
        auto* m = new QLineSeries;
        // Short enough for the legend beside the chart: the title says what the share is.
        m->setName(tr("%1 \u00b7 %2%")
                       .arg(QString::fromStdString(alg))
                       .arg(100.0 * static_cast<double>(below) / static_cast<double>(n), 0, 'f', 2));
        QPen pen(seriesColor(color));
        pen.setWidth(2);
        pen.setStyle(Qt::DashLine);
        m->setPen(pen);
        m->append(cost, 0.0);
        m->append(cost, 1.0);
        markers.push_back(m);
        lo = std::min(lo, cost);
        hi = std::max(hi, cost);
        auto* h = new QLineSeries;
        h->setName(QString::fromStdString(alg));
        h->setPen(pen);
        const double kMax = run->bestCurve.empty() ? double(n) : double(run->bestCurve.back().first);
        h->append(1.0, cost);
        h->append(std::max(2.0, kMax), cost);
        bestMarkers.push_back(h);
        ++color;
    }
    // Round ticks (20, 40, 60), not the range's own ends split in four (13.72, 28.58, 43.45).
    // A cost is never negative: the padding below the cheapest stops at zero.
    auto* x = niceAxis(std::max(0.0, lo - 0.03 * (hi - lo)), hi + 0.03 * (hi - lo), tr("traffic cost (s)"));
    auto* y = new QValueAxis;
    y->setRange(0, 1);
    y->setTitleText(tr("share of placements"));
    cdf->legend()->setAlignment(Qt::AlignRight);
    cdf->addAxis(x, Qt::AlignBottom);
    cdf->addAxis(y, Qt::AlignLeft);
    cdf->addSeries(curve);
    curve->attachAxis(x);
    curve->attachAxis(y);
    for (auto* m : markers) {
        cdf->addSeries(m);
        m->attachAxis(x);
        m->attachAxis(y);
    }
    cdf->setTitle(
        tr("Cost CDF of %1 random placements (SC17 Fig. 9)<br><small>%2; a mapper's %: samples cheaper than its run"
           "</small>")
            .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(n)))
            .arg(QString::fromStdString(run->label())));

    auto* curveK = new QLineSeries;
    curveK->setName(tr("best of K"));
    curveK->setColor(seriesColor(0));
    double bLo = std::numeric_limits<double>::infinity(), bHi = 0;
    for (const auto& [k, cost] : run->bestCurve) {
        curveK->append(std::max<double>(1.0, double(k)), cost);
        bLo = std::min(bLo, cost);
        bHi = std::max(bHi, cost);
    }
    for (const auto& [alg, cost] : others) {
        bLo = std::min(bLo, cost);
        bHi = std::max(bHi, cost);
    }
    auto* kAxis = new QLogValueAxis;
    kAxis->setBase(10);
    kAxis->setTitleText(tr("K (random placements drawn)"));
    kAxis->setLabelFormat("%.0f"); // 1, 10, 100, not 1e+00
    const double kMax = run->bestCurve.empty() ? 10.0 : std::max(10.0, double(run->bestCurve.back().first));
    kAxis->setRange(1, kMax);
    const double pad = 0.05 * (bHi - bLo + 1e-12);
    auto* cAxis = std::isfinite(bLo) ? niceAxis(std::max(0.0, bLo - pad), bHi + pad, tr("best traffic cost (s)"))
                                     : new QValueAxis;
    cAxis->setTitleText(tr("best traffic cost (s)"));
    best->addAxis(kAxis, Qt::AlignBottom);
    best->addAxis(cAxis, Qt::AlignLeft);
    best->addSeries(curveK);
    curveK->attachAxis(kAxis);
    curveK->attachAxis(cAxis);
    for (auto* m : bestMarkers) {
        best->addSeries(m);
        m->attachAxis(kAxis);
        m->attachAxis(cAxis);
    }
    best->setTitle(tr("Best of K (SC17 Fig. 10)"));
}

void fillSweepChart(QChart* chart, const ops::SweepResult* sweep, bool runtime)
{
    clearChart(chart);
    if (!sweep) {
        chart->setTitle(tr("Sweeps: tick mappers in the run panel, then Run sweep"));
        return;
    }
    const auto& s = *sweep;
    const bool ratio = s.kind == ops::SweepKind::ConstraintRatio;
    QAbstractAxis* x = nullptr;
    if (ratio) {
        auto* axis = new QValueAxis;
        const auto [lo, hi] = std::minmax_element(s.points.begin(), s.points.end());
        axis->setRange(*lo, *hi > *lo ? *hi : *lo + 0.1);
        axis->applyNiceNumbers();
        axis->setTitleText(tr("constraint ratio"));
        x = axis;
    } else {
        auto* axis = new QLogValueAxis;
        axis->setBase(2);
        axis->setRange(*std::min_element(s.points.begin(), s.points.end()) / 1.5,
                       *std::max_element(s.points.begin(), s.points.end()) * 1.5);
        axis->setLabelFormat("%.0f");
        axis->setTitleText(tr("processes"));
        x = axis;
    }
    QAbstractAxis* y = nullptr;
    double top = 0, bottom = std::numeric_limits<double>::infinity();
    for (std::size_t m = 0; m < s.mappers.size(); ++m)
        for (double v : runtime ? s.runtimeSeconds[m] : s.normalisedCost[m]) {
            top = std::max(top, v);
            bottom = std::min(bottom, v);
        }
    if (runtime) {
        auto* axis = new QLogValueAxis;
        axis->setRange(std::max(1e-6, bottom / 2), std::max(1e-5, top * 2));
        axis->setLabelFormat("%.0e");
        axis->setTitleText(tr("runtime (s)"));
        y = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setRange(0, std::max(1.05, top * 1.05));
        axis->setTitleText(tr("cost / random"));
        y = axis;
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (std::size_t m = 0; m < s.mappers.size(); ++m) {
        auto* line = new QLineSeries;
        line->setName(QString::fromStdString(s.mappers[m]));
        line->setPointsVisible(true);
        QPen pen(seriesColor(m));
        pen.setWidth(2);
        line->setPen(pen);
        for (std::size_t p = 0; p < s.points.size(); ++p)
            line->append(s.points[p], runtime ? std::max(1e-6, s.runtimeSeconds[m][p]) : s.normalisedCost[m][p]);
        chart->addSeries(line);
        line->attachAxis(x);
        line->attachAxis(y);
    }
    chart->setTitle(ratio ? tr("Constraint-ratio sweep on %1, mean of %2 seeds (SC17 Fig. 8)")
                                .arg(QString::fromStdString(s.subject))
                                .arg(s.seeds)
                          : tr("Process-count sweep of %1, mean of %2 seeds (SC17 Fig. 7)")
                                .arg(QString::fromStdString(s.subject))
                                .arg(s.seeds));
}

/// The Pareto front as a staircase: from each front point across to the next one's x, then down.
QLineSeries* frontStaircase(const std::vector<std::pair<double, double>>& points, const std::vector<std::size_t>& front)
{
    auto* line = new QLineSeries;
    line->setName(QObject::tr("Pareto front"));
    QPen pen(QColor(60, 60, 60));
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    for (std::size_t k = 0; k < front.size(); ++k) {
        const auto& p = points[front[k]];
        if (k > 0)
            line->append(p.first, points[front[k - 1]].second);
        line->append(p.first, p.second);
    }
    return line;
}

/// An orange ring around the selected run.
QScatterSeries* selectionRing(const QPointF& at)
{
    auto* sel = new QScatterSeries;
    sel->setName(QObject::tr("selected run"));
    sel->setMarkerSize(18);
    sel->setColor(QColor(0, 0, 0, 0));
    sel->setBorderColor(QColor(213, 94, 0));
    QPen pen(QColor(213, 94, 0));
    pen.setWidth(3);
    sel->setPen(pen);
    sel->append(at);
    return sel;
}

namespace {

/// Ticks every `scale.step` from the first multiple of it at or above `low`, printed with the step's decimals.
void setRoundTicks(QValueAxis* axis, double low, const widgets::NiceScale& scale)
{
    // The small tolerance keeps a low that is already a multiple (1.1 / 0.1 = 11.000000000000002) its own tick.
    axis->setTickAnchor(std::ceil(low / scale.step - 1e-9) * scale.step);
    axis->setTickInterval(scale.step);
    axis->setLabelFormat(QString("%.%1f").arg(scale.decimals));
}

} // namespace

/// An axis over [minimum, maximum] with round ticks, and a label format that prints them exactly.
QValueAxis* niceAxis(double minimum, double maximum, const QString& title)
{
    auto* axis = new QValueAxis;
    const widgets::NiceScale scale = widgets::niceScale(minimum, maximum, 6);
    axis->setRange(scale.low, scale.high);
    axis->setTickType(QValueAxis::TicksDynamic);
    setRoundTicks(axis, scale.low, scale);
    axis->setTitleText(title);
    // Zooming sets a new range: the ticks follow it (with the first range's step a zoomed axis had no labels).
    QObject::connect(axis, &QValueAxis::rangeChanged, axis,
                     [axis](qreal low, qreal high) { setRoundTicks(axis, low, widgets::niceScale(low, high, 6)); });
    return axis;
}

/// Value axes over `bounds` with 5% padding and round ticks, titled.
std::pair<QValueAxis*, QValueAxis*> paddedAxes(const QRectF& bounds, const QString& xTitle, const QString& yTitle)
{
    // A little room around the points, then round ticks (never below zero for a quantity that cannot be).
    const double minX = bounds.left(), maxX = bounds.right(), minY = bounds.top(), maxY = bounds.bottom();
    // Points that share a value (identical runs, or values equal but for rounding, a millionth apart) still get an
    // axis around it, 5% of the value either side: a range of 1e-13 dollars draws no axis and no point.
    const auto pad = [](double lo, double hi) {
        return hi - lo > 1e-6 * std::max(std::abs(lo), std::abs(hi)) ? 0.05 * (hi - lo)
                                                                     : std::max(0.05 * std::abs(hi), 1e-9);
    };
    const double padX = pad(minX, maxX);
    const double padY = pad(minY, maxY);
    const auto lowest = [](double value, double pad) { return value >= 0.0 ? std::max(0.0, value - pad) : value - pad; };
    return {niceAxis(lowest(minX, padX), maxX + padX, xTitle), niceAxis(lowest(minY, padY), maxY + padY, yTitle)};
}

} // namespace meridian::workbench
