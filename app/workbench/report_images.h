#pragma once

#include "app/project/ui/project_document.h"
#include "app/report/report_writer.h"

namespace meridian::widgets {
class WorldMapView;
}

namespace meridian::workbench {

class ComparePanel;

/// The live views a report pictures as the user left them: the site map (its zoom and link mode) and the
/// comparison panel's charts. Either may be null.
struct ReportViews {
    widgets::WorldMapView* map = nullptr;
    ComparePanel* compare = nullptr;
};

/// Renders a report's figures: the site map and the charts as vector drawings (SVG); the latency and bandwidth
/// heatmaps, each application's volume (log scale) and the site-pair traffic of each recommended run (SVG too),
/// drawn off screen from the document. The document's current run is put back afterwards.
report::Figures renderReportFigures(document::ProjectDocument& document, const ReportViews& views);

} // namespace meridian::workbench
