#include "app/report/pdf_printer.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QSaveFile>
#include <QTimer>
#include <QUrl>
#include <QWebEnginePage>
#include <QWebEngineProfile>

#include <unistd.h>

namespace meridian::report {

namespace {

/// Chromium's settings, read when the first page is created (so also from a program that did not call
/// prepareWebEngine, such as a test).
void prepareChromium()
{
    if (::geteuid() == 0 && !qEnvironmentVariableIsSet("QTWEBENGINE_DISABLE_SANDBOX"))
        qputenv("QTWEBENGINE_DISABLE_SANDBOX", "1");
    // Nothing is drawn on screen: Chromium's GPU process is not needed, and is missing on headless machines.
    if (!qEnvironmentVariableIsSet("QTWEBENGINE_CHROMIUM_FLAGS"))
        qputenv("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu --disable-background-networking");
}

Error printError(const QString& path, const QString& what)
{
    return makeError(ErrorCode::Io, what.toStdString(), {path.toStdString(), 0, 0});
}

} // namespace

void prepareWebEngine()
{
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    prepareChromium();
}

Status printHtmlToPdf(const QString& htmlPath, const QString& pdfPath, int timeoutMs)
{
    prepareChromium();
    // An off-the-record profile: nothing cached or stored between reports.
    QWebEngineProfile profile;
    QWebEnginePage page(&profile);
    QEventLoop loop;
    bool loaded = false;
    QByteArray pdf;
    bool timedOut = false;
    QObject::connect(&page, &QWebEnginePage::loadFinished, &loop, [&](bool ok) {
        loaded = ok;
        if (!ok) {
            loop.quit();
            return;
        }
        const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(16, 16, 16, 18),
                                 QPageLayout::Millimeter);
        page.printToPdf(
            [&](const QByteArray& bytes) {
                pdf = bytes;
                loop.quit();
            },
            layout);
    });
    QTimer::singleShot(timeoutMs, &loop, [&] {
        timedOut = true;
        loop.quit();
    });
    page.load(QUrl::fromLocalFile(QFileInfo(htmlPath).absoluteFilePath()));
    // No user input meanwhile: the workbench waits here, and a second report or a close would re-enter it.
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    if (timedOut)
        return printError(pdfPath, QString("the report was not laid out within %1 s").arg(timeoutMs / 1000));
    if (!loaded)
        return printError(htmlPath, "Qt WebEngine could not load the report's HTML");
    if (pdf.isEmpty())
        return printError(pdfPath, "Qt WebEngine printed an empty PDF");
    QSaveFile file(pdfPath);
    if (!file.open(QIODevice::WriteOnly))
        return printError(pdfPath, "cannot write: " + file.errorString());
    file.write(pdf);
    if (!file.commit())
        return printError(pdfPath, "cannot write: " + file.errorString());
    return {};
}

} // namespace meridian::report
