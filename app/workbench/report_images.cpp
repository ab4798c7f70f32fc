#include "app/workbench/report_images.h"

#include "app/document/run_analysis.h"
#include "app/workbench/compare_charts.h"
#include "app/workbench/compare_panel.h"
#include "app/workbench/matrix_data.h"
#include "widgets/heatmap_view.h"
#include "widgets/world_map_view.h"

#include <QCoreApplication>
#include <QPainter>

namespace meridian::workbench {

namespace {

// Figures are laid out at these sizes (CSS pixels) and printed full width (half width for heatmaps): the text
// in them prints at about the size of the report's captions.
const QSize kMapSize(900, 480);
const QSize kHeatmapSize(520, 420);
const QSize kChartSize(680, 400);

QString tr(const char* text) { return QCoreApplication::translate("Report", text); }

QImage heatmapImage(widgets::HeatmapData data, bool logScale)
{
    widgets::HeatmapView renderer;
    renderer.resize(kHeatmapSize);
    renderer.setLogScale(logScale);
    renderer.setData(std::move(data));
    // Twice the layout size: sharp when printed at 300 dpi on half an A4 page.
    QImage image = renderer.renderImage(kHeatmapSize * 2);
    return image;
}

QByteArray mapSvg(const widgets::WorldMapView& map)
{
    return svgDrawing(kMapSize, tr("Site map"),
                      [&map](QPainter& painter) { map.renderTo(painter, QRect(QPoint(0, 0), kMapSize)); });
}

} // namespace

report::Figures renderReportFigures(document::ProjectDocument& document, const ReportViews& views)
{
    report::Figures figures;
    const auto project = document.project();
    if (project->topology.siteCount() > 0) {
        if (views.map)
            figures["map"] = {tr("The sites, with the links coloured as on the Site map tab."), mapSvg(*views.map), {}};
        const std::pair<MatrixSource, const char*> network[] = {{MatrixSource::Latency, "latency"},
                                                                {MatrixSource::Bandwidth, "bandwidth"}};
        for (const auto& [source, key] : network) {
            auto data = matrixHeatmapData(document, source, -1, MatrixArrangement::AsIs);
            const QString title = data.title;
            figures[key] = {title, {}, heatmapImage(std::move(data), false)};
        }
    }
    for (int a = 0; a < static_cast<int>(project->applications.size()); ++a) {
        auto data = matrixHeatmapData(document, MatrixSource::Volume, a, MatrixArrangement::AsIs);
        const QString title = data.title + tr(" (log scale)");
        figures["volume:" + QString::fromStdString(project->applications[a].name)] = {title,
                                                                                      {},
                                                                                      heatmapImage(std::move(data),
                                                                                                   true)};
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
        figures[QString("traffic:%1").arg(r.best->id)] = {title, {}, heatmapImage(std::move(data), true)};
    }
    document.setCurrentRun(keepCurrent);
    if (views.compare && !document.runs().empty())
        views.compare->addReportFigures(figures, kChartSize);
    return figures;
}

} // namespace meridian::workbench
