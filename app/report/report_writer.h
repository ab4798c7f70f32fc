#pragma once

#include "app/document/project_document.h"
#include "core/common/expected.h"

#include <QImage>
#include <QString>

#include <functional>
#include <utility>
#include <vector>

namespace meridian::report {

/// The pictures a report shows, rendered by the views beforehand (the writer draws nothing itself).
struct ReportImages {
    QImage map;
    std::vector<std::pair<QString, QImage>> heatmaps; ///< caption, image
    QImage skyline;
    QImage bars;
};

/// Returns the report as HTML: the project summary and its sources, the sites, the site map, the input
/// heatmaps, the comparison table (each run's cost normalised to the mean random run of its
/// application), the skyline and bar charts, and each run's details. `imageSource` turns an image key
/// ("map", "heatmap0", "skyline", "bars") into the src of an <img>.
QString reportHtml(const document::ProjectDocument& document, const ReportImages& images,
                   const std::function<QString(const QString& key, const QImage& image)>& imageSource);

/// Writes a self-contained HTML report (images embedded as PNG data URIs). Atomic.
Status writeHtmlReport(const document::ProjectDocument& document, const ReportImages& images, const QString& path);
/// Writes the report as PDF (A4) through QTextDocument and QPdfWriter. Atomic.
Status writePdfReport(const document::ProjectDocument& document, const ReportImages& images, const QString& path);

} // namespace meridian::report
