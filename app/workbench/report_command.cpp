#include "app/workbench/report_command.h"

#include "core/io/journal.h"

#include "app/cli/cli_support.h"
#include "app/report/pdf_printer.h"
#include "app/report/report_numbers.h"
#include "app/workbench/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>

namespace meridian::workbench {

namespace {

/// What a report runs when the project has no saved runs: the baseline, the paper's mappers and refine, and
/// monte-carlo for the cost distribution; on a graph, the baseline (hash), HDRF, G-Cut and Geo-Cut.
const char* const kDefaultMappers[] = {"random", "geo", "greedy", "scotch-bw", "refine", "monte-carlo"};
const char* const kDefaultPartitioners[] = {"hash", "hdrf", "g-cut", "geo-cut"};

/// The runs a report makes when the project has none: the default mappers on every application and the default
/// partitioners on every graph (only those named in `only`, when it is not empty).
std::vector<actions::RunRequest> defaultRuns(MainWindow& window, const QStringList& only, std::uint64_t seed)
{
    std::vector<actions::RunRequest> requests;
    const auto project = window.document()->project();
    const auto wanted = [&only](const std::string& name) {
        return only.isEmpty() || only.contains(QString::fromStdString(name));
    };
    for (const auto& app : project->applications)
        for (const char* mapper : kDefaultMappers)
            if (wanted(app.name))
                requests.push_back({app.name, mapper,
                                    ParamValues::defaults(window.runController()->mappers().find(mapper)->parameters()),
                                    seed, std::nullopt, std::nullopt});
    for (const auto& graph : project->graphs)
        for (const char* partitioner : kDefaultPartitioners)
            if (wanted(graph.name))
                if (const auto* p = window.runController()->partitioners().find(partitioner))
                    requests.push_back({graph.name, partitioner, ParamValues::defaults(p->parameters()), seed,
                                        std::nullopt, actions::PartitionSettings{}});
    return requests;
}

/// Submits `requests` to the window's run controller (its jobs, as the workbench runs them) and calls `finished`
/// from the application's event loop once every run has landed or failed, with the last failure ("" when none).
/// Each landed run is said on standard error.
void submitRuns(MainWindow& window, const std::vector<actions::RunRequest>& requests,
                std::function<void(const QString& failure)> finished)
{
    auto* controller = window.runController();
    struct Progress {
        std::size_t left = 0;
        QString failure;
    };
    auto progress = std::make_shared<Progress>(Progress{requests.size(), {}});
    const auto done = [progress, finished = std::move(finished)] {
        if (--progress->left == 0)
            QTimer::singleShot(0, [progress, finished] { finished(progress->failure); });
    };
    QObject::connect(controller, &actions::RunController::runLanded, controller, [&window, done](int id, bool) {
        if (auto run = window.document()->run(id))
            std::fprintf(stderr, "meridian-report: %s done (%s %s)\n", run->label().c_str(),
                         run->metric("cost_s") ? "traffic cost" : "transfer time",
                         qPrintable(report::formatQuantity(run->metric("cost_s").value_or(
                                                               run->metric("transfer_time_s").value_or(NAN)),
                                                           "s")));
        done();
    });
    QObject::connect(controller, &actions::RunController::runFailed, controller,
                     [progress, done](const QString& title, const QString& message) {
                         progress->failure = title + ": " + message;
                         done();
                     });
    std::fprintf(stderr,
                 "meridian-report: the project has no saved runs; running %zu mappings and partitionings first\n",
                 requests.size());
    controller->submit(requests);
}

/// Writes the report and prints what was written; returns the exit code.
int writeReport(MainWindow& window, const QString& out)
{
    if (auto s = window.writeReport(out); !s)
        return cli::report(s.error());
    QJsonObject result;
    result["report"] = QFileInfo(out).absoluteFilePath();
    result["runs"] = static_cast<int>(window.document()->runs().size());
    std::fputs(QJsonDocument(result).toJson(QJsonDocument::Indented).constData(), stdout);
    return cli::kExitOk;
}

} // namespace

int runReportCommand(int argc, char** argv)
{
    // Chromium's settings must be made before the application object exists; without a display the report is
    // laid out off screen.
    report::prepareWebEngine();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("Meridian");
    QCoreApplication::setApplicationName("meridian-report");
    const QStringList arguments = QCoreApplication::arguments();
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Writes the project's report (PDF or HTML, by the suffix of --out) as the workbench does: title page, "
        "recommendation, inputs, results with charts, where the time goes, each run, method. With no saved runs, "
        "random, geo, greedy, scotch-bw, refine and monte-carlo are run on every application first.");
    parser.addOption({"project", "The project file (.meridian).", "P"});
    parser.addOption({"runs", "Runs file to report (default: the one saved beside the project).", "R"});
    parser.addOption({"out", "Report to write: R.pdf or R.html.", "R"});
    parser.addOption({"application",
                      "When runs are made: map only this application (repeatable; default: every application).", "A"});
    parser.addOption({"seed", "Seed of the runs made when there are none (default 1).", "N", "1"});
    if (const int code = cli::parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("project") || !parser.isSet("out"))
        return cli::usageError("report needs --project P and --out R.pdf|R.html");
    const QString out = parser.value("out");
    const QString suffix = QFileInfo(out).suffix().toLower();
    if (suffix != "pdf" && suffix != "html" && suffix != "htm")
        return cli::usageError("--out must end in .pdf or .html: " + out);
    bool ok = false;
    const auto seed = parser.value("seed").toULongLong(&ok);
    if (!ok)
        return cli::usageError("--seed must be a non-negative integer: " + parser.value("seed"));

    // The report is written before anything runs, so that a folder that cannot take it is said at once.
    if (auto writable = io::checkWritable(out.toStdString()); !writable)
        return cli::report(writable.error());

    MainWindow window;
    window.setInteractive(false);
    window.resize(1400, 900);
    window.document()->setTakesLock(false); // it reads the project and never saves it
    if (auto s = window.loadProject(parser.value("project"), parser.value("runs")); !s)
        return cli::report(s.error());
    const QStringList only = parser.values("application");
    for (const QString& name : only)
        if (window.document()->project()->applicationIndex(name.toStdString()) < 0)
            return cli::usageError(QString("the project has no application '%1'").arg(name));
    const auto requests = window.document()->runs().empty() ? defaultRuns(window, only, seed)
                                                            : std::vector<actions::RunRequest>{};
    if (requests.empty())
        return writeReport(window, out);
    // The runs are jobs; once the last has landed, the report is written from the application's own event loop,
    // which then ends with the exit code.
    submitRuns(window, requests, [&window, out](const QString& failure) {
        QCoreApplication::exit(failure.isEmpty() ? writeReport(window, out) : cli::usageError(failure));
    });
    return QCoreApplication::exec();
}

} // namespace meridian::workbench
