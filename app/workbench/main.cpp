#include "app/report/pdf_printer.h"
#include "app/version.h"
#include "app/workbench/main_window.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char** argv)
{
    meridian::report::prepareWebEngine(); // the PDF report's Qt WebEngine: before the application exists
    QApplication app(argc, argv);
    QApplication::setApplicationName("Meridian");
    QApplication::setOrganizationName("Meridian");
    QApplication::setApplicationVersion(MERIDIAN_VERSION);
    QGuiApplication::setDesktopFileName(MERIDIAN_APP_ID);
    QCommandLineParser parser;
    parser.setApplicationDescription("Meridian: plan where parallel work runs across geo-distributed sites.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("project", "A project file to open.", "[project]");
    parser.process(app);

    meridian::workbench::MainWindow window;
    window.show();
    // Work a crash left unsaved comes first; a project named on the command line opens otherwise.
    const bool recovered = window.offerRecovery();
    if (!recovered && !parser.positionalArguments().isEmpty())
        window.openProject(parser.positionalArguments().front());
    return app.exec();
}
