#include "app/workbench/report_images.h"

#include "app/workbench/matrix_data.h"
#include "widgets/heatmap_view.h"
#include "widgets/world_map_view.h"

#include <QChartView>
#include <QCoreApplication>
#include <QPainter>

namespace meridian::workbench {

namespace {

const QSize kMapSize(1200, 640);
const QSize kHeatmapSize(800, 640);
const QSize kChartSize(860, 540);

QImage heatmapImage(widgets::HeatmapData data, bool logScale)
{
    widgets::HeatmapView renderer;
    renderer.resize(kHeatmapSize);
    renderer.setLogScale(logScale);
    renderer.setData(std::move(data));
    return renderer.renderImage(kHeatmapSize);
}

/// The chart laid out at the report's size, whatever size (or visibility) its view has on screen: rendering
/// the view itself would scale its on-screen layout into the image and shrink or blow up the text. The chart
/// gets its size back at once.
QImage chartImage(QChartView* view)
{
    QChart* chart = view->chart();
    const QSizeF onScreen = chart->size();
    const QPointF position = chart->pos();
    chart->setPos(0, 0);
    chart->resize(kChartSize);
    QImage image(kChartSize, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    view->scene()->render(&painter, QRectF(QPointF(0, 0), kChartSize), QRectF(QPointF(0, 0), kChartSize));
    painter.end();
    chart->resize(onScreen);
    chart->setPos(position);
    return image;
}

} // namespace

report::ReportImages renderReportImages(const document::ProjectDocument& document, const ReportViews& views)
{
    report::ReportImages images;
    const auto project = document.project();
    if (project->topology.siteCount() > 0) {
        if (views.map)
            images.map = views.map->renderImage(kMapSize);
        for (auto source : {MatrixSource::Latency, MatrixSource::Bandwidth}) {
            auto data = matrixHeatmapData(document, source, -1, MatrixArrangement::AsIs);
            const QString title = data.title;
            images.heatmaps.emplace_back(title, heatmapImage(std::move(data), false));
        }
    }
    for (int a = 0; a < static_cast<int>(project->applications.size()); ++a) {
        auto data = matrixHeatmapData(document, MatrixSource::Volume, a, MatrixArrangement::AsIs);
        const QString title = data.title + QCoreApplication::translate("MainWindow", " (log scale)");
        images.heatmaps.emplace_back(title, heatmapImage(std::move(data), true));
    }
    if (!document.runs().empty()) {
        if (views.skyline)
            images.skyline = chartImage(views.skyline);
        if (views.bars)
            images.bars = chartImage(views.bars);
    }
    return images;
}

} // namespace meridian::workbench
