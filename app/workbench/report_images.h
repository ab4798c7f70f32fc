#pragma once

#include "app/document/project_document.h"
#include "app/report/report_writer.h"

class QChartView;

namespace meridian::widgets {
class WorldMapView;
}

namespace meridian::workbench {

/// The live views a report pictures as the user left them: the site map (its zoom and link mode) and the
/// comparison charts (their metric). Any may be null.
struct ReportViews {
    const widgets::WorldMapView* map = nullptr;
    QChartView* skyline = nullptr;
    QChartView* bars = nullptr;
};

/// Renders a report's images: the site map; the latency and bandwidth heatmaps and each application's volume
/// (log scale), drawn off screen from the document; and the skyline and bar charts when there are runs.
report::ReportImages renderReportImages(const document::ProjectDocument& document, const ReportViews& views);

} // namespace meridian::workbench
