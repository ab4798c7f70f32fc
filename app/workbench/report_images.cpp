#include "app/workbench/report_images.h"

#include "app/mapping/ui/compare_panel.h"
#include "app/project/run_analysis.h"
#include "app/project/ui/matrix_data.h"
#include "app/report/compare_charts.h"
#include "widgets/heatmap_view.h"
#include "widgets/world_map_view.h"

#include <QCoreApplication>
#include <QPainter>

namespace meridian::workbench {

namespace {

// Figures are laid out at the width they print at (report::kPrintWidthPx, half of it for heatmaps) and drawn in
// fonts of at least report::kMinimumFigureTextPx: their text prints at 7 pt or more.
const QSize kMapSize(static_cast<int>(report::kPrintWidthPx), 370);
const QSize kHeatmapSize(static_cast<int>(report::kHalfPrintWidthPx), 250);
const QSize kChartSize(static_cast<int>(report::kPrintWidthPx), 400);

QString tr(const char* text) { return QCoreApplication::translate("Report", text); }

/// The font printed figures are drawn in: the report's family, a little over the smallest readable size.
QFont figureFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(report::kMinimumFigureTextPx + 0.2);
    return font;
}

QByteArray heatmapSvg(widgets::HeatmapData data, bool logScale)
{
    widgets::HeatmapView renderer;
    renderer.setFont(figureFont());
    renderer.resize(kHeatmapSize);
    renderer.setLogScale(logScale);
    renderer.setData(std::move(data));
    const QString title = renderer.data().title;
    return svgDrawing(kHeatmapSize, title, [&renderer](QPainter& painter) {
        renderer.renderTo(painter, QRect(QPoint(0, 0), kHeatmapSize));
    });
}

QByteArray mapSvg(widgets::WorldMapView& map)
{
    const QFont screenFont = map.font();
    map.setFont(figureFont());
    map.setMinimumTextPoints(report::kMinimumFigureTextPx);
    QByteArray svg = svgDrawing(kMapSize, tr("Site map"),
                                [&map](QPainter& painter) { map.renderTo(painter, QRect(QPoint(0, 0), kMapSize)); });
    map.setFont(screenFont);
    map.setMinimumTextPoints(0.0);
    return svg;
}

} // namespace

report::Figures renderReportFigures(document::ProjectDocument& document, const ReportViews& views)
{
    report::Figures figures;
    const auto project = document.project();
    if (project->topology.siteCount() > 0) {
        if (views.map)
            figures["map"] = {tr("The sites and the links between them, coloured as the legend says."),
                              mapSvg(*views.map)};
        const std::pair<MatrixSource, const char*> network[] = {{MatrixSource::Latency, "latency"},
                                                                {MatrixSource::Bandwidth, "bandwidth"}};
        // One site: a 1 x 1 heatmap would show one colour; the report gives its two values in words.
        for (const auto& [source, key] : network) {
            if (project->topology.siteCount() < 2)
                break;
            auto data = matrixHeatmapData(document, source, -1, MatrixArrangement::AsIs);
            const QString title = data.title;
            figures[key] = {title, heatmapSvg(std::move(data), false)};
        }
    }
    for (int a = 0; a < static_cast<int>(project->applications.size()); ++a) {
        auto data = matrixHeatmapData(document, MatrixSource::Volume, a, MatrixArrangement::AsIs);
        const QString title = data.title + tr(" (log scale)");
        figures["volume:" + QString::fromStdString(project->applications[a].name)] = {title,
                                                                                      heatmapSvg(std::move(data), true)};
    }
    const int keepCurrent = document.currentRun();
    const auto recommendations = document::recommend(document.runs(),
                                                     [&](const auto& r) { return document.isStale(r); });
    for (const auto& r : recommendations) {
        document.setCurrentRun(r.best->id);
        auto data = matrixHeatmapData(document, MatrixSource::RunTraffic, -1, MatrixArrangement::AsIs);
        if (data.rows() == 0)
            continue;
        const QString title = data.title + tr(" (log scale)");
        figures[QString("traffic:%1").arg(r.best->id)] = {title, heatmapSvg(std::move(data), true)};
    }
    document.setCurrentRun(keepCurrent);
    if (views.compare && !document.runs().empty())
        views.compare->addReportFigures(figures, kChartSize, report::kMinimumFigureTextPx);
    return figures;
}

} // namespace meridian::workbench
