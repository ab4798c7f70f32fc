#pragma once

#include "core/common/expected.h"

#include <QString>

namespace meridian::report {

/// Sets what Qt WebEngine needs before the application object exists: shared OpenGL contexts, and, when the
/// process runs as root (a container, CI), Chromium without its sandbox, which refuses to start as root. Call
/// first in main() of any program that prints reports.
void prepareWebEngine();

/// Lays out an HTML file with Qt WebEngine (Chromium) and prints it to PDF, A4 portrait, honouring the page's
/// print CSS (table headers repeated, rows and figures kept whole; QTextDocument cannot keep a table's header with
/// its rows). Blocks in a local event loop until the PDF is written or `timeoutMs` passes (user input is held back
/// meanwhile); needs a QApplication or QGuiApplication. The PDF is written atomically.
Status printHtmlToPdf(const QString& htmlPath, const QString& pdfPath, int timeoutMs = 120000);

} // namespace meridian::report
