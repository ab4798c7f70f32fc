#pragma once

#include "app/document/project_document.h"
#include "core/common/expected.h"

#include <QByteArray>
#include <QImage>
#include <QString>

#include <map>

namespace meridian::report {

/// One picture of a report: a vector drawing (SVG markup, for charts and the map) or a raster image (heatmaps),
/// with its caption.
struct Figure {
    QString caption;
    QByteArray svg; ///< SVG document; used when not empty
    QImage image;   ///< otherwise this image
};

/// The pictures a report shows, rendered by the workbench's own views beforehand (the writer draws nothing), by
/// key: "map"; "latency", "bandwidth"; "volume:<application>"; "traffic:<run id>"; "bars"; "skyline:<input>";
/// "cdf:<run id>", "best-of-k:<run id>"; "partitions:<graph>". A missing key leaves its figure out.
using Figures = std::map<QString, Figure>;

/// What a report is written from: the project with its runs, and the figures.
struct ReportInput {
    const document::ProjectDocument* document = nullptr;
    Figures figures;
};

/// Returns the report as one self-contained HTML page (the same source is printed to PDF): a title page; a
/// summary that recommends, per application, the fastest current run and says how much faster and cheaper it is
/// than the baseline (random placements); the inputs (sites, map, network and volume heatmaps); the comparison
/// (values with units and ratios to the baseline, the charts, the Monte Carlo CDF); where the recommended runs'
/// time goes (the heaviest site pairs); each run's parameters, processes per site and notes; the method. Print
/// CSS keeps a table's header with its rows, repeats it on every page and keeps rows and figures whole.
QString reportHtml(const ReportInput& input);

/// Writes the HTML report atomically (vector figures inline, raster figures as PNG data URIs).
Status writeHtmlReport(const ReportInput& input, const QString& path);
/// Writes the report as PDF (A4) by laying out the same HTML in Qt WebEngine; needs a Q(Gui)Application and
/// prepareWebEngine() called before it was created. Atomic.
Status writePdfReport(const ReportInput& input, const QString& path);
/// Writes HTML or PDF by the path's suffix (".pdf" is PDF, anything else HTML).
Status writeReport(const ReportInput& input, const QString& path);

} // namespace meridian::report
