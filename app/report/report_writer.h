#pragma once

#include "app/project/ui/project_document.h"
#include "core/common/expected.h"

#include <QByteArray>
#include <QString>

#include <map>

namespace meridian::report {

/// The printed figures' geometry, in CSS pixels (96 per inch): an A4 page's width less the printer's margins
/// (16 mm each side), the width of a full-width figure and of a half-width one (two heatmaps side by side, 49% each).
/// Figures are laid out at the width they print at, so their text prints at the size it is drawn
/// (workbench/report_images.cpp; tests/report_figure_checks.h reads every figure text's printed size back from the
/// HTML).
constexpr double kPrintWidthPx = (210.0 - 2 * 16.0) / 25.4 * 96.0;
constexpr double kHalfPrintWidthPx = 0.49 * kPrintWidthPx;
/// The smallest text a printed figure may have, in points (readable at 100%), and the same in a figure's own units
/// (CSS pixels, 0.75 pt each) when it is laid out at its print width.
constexpr double kMinimumFigureTextPt = 7.0;
constexpr double kMinimumFigureTextPx = kMinimumFigureTextPt / 0.75;

/// One picture of a report: a vector drawing (SVG markup: charts, the map and heatmaps, whose cells are an image
/// inside it), with its caption. Text in it stays text, searchable in the PDF.
struct Figure {
    QString caption;
    QByteArray svg;
};

/// The pictures a report shows, by key: "map"; "latency", "bandwidth"; "volume:<application>"; "traffic:<run id>";
/// "bars"; "skyline:<input>"; "cdf:<run id>", "best-of-k:<run id>"; "partitions:<graph>". A missing key leaves its
/// figure out. They are rendered by the workbench's own views beforehand (workbench::renderReportFigures; the writer
/// draws nothing): meridian-report builds a hidden MainWindow for them, and `meridian-cli report` hands over to
/// meridian-report (execv).
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
