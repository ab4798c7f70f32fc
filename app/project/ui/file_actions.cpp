#include "app/project/ui/file_actions.h"

#include "app/mapping/map_operation.h"
#include "app/project/project_edits.h"
#include "core/io/placement_io.h"
#include "core/io/sites_io.h"
#include "core/mapping/host_assignment.h"
#include "core/mapping/mapping_problem.h"

#include <QFileInfo>
#include <QImageWriter>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextStream>

namespace meridian::actions {

namespace {

Error ioError(const QString& path, const QString& what)
{
    return makeError(ErrorCode::Io, what.toStdString(), {path.toStdString(), 0, 0});
}

} // namespace

Status importSites(document::ProjectDocument& document, const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    auto sites = suffix == "geojson" || suffix == "json" ? io::readSitesGeoJson(path.toStdString())
                                                         : io::readSitesCsv(path.toStdString());
    if (!sites)
        return sites.error();
    auto imported = std::move(*sites);
    return document.edit(QObject::tr("Import sites from %1").arg(QFileInfo(path).fileName()),
                         [&](const document::Project& p) -> Expected<document::Project> {
                             auto out = document::withImportedSites(p, imported);
                             if (!out)
                                 return inFile(out.error(), path.toStdString());
                             return out;
                         });
}

Status importNetworkMatrix(document::ProjectDocument& document, model::NetworkQuantity quantity, const QString& path)
{
    auto network = document::readNetworkQuantity(path.toStdString(), quantity, document.project()->topology);
    if (!network)
        return network.error();
    const QString what = quantity == model::NetworkQuantity::Latency ? QObject::tr("latency")
                                                                     : QObject::tr("bandwidth");
    return document.edit(QObject::tr("Import %1 from %2").arg(what, QFileInfo(path).fileName()),
                         [&](const document::Project& p) -> Expected<document::Project> {
                             auto out = document::withNetworkQuantity(p, quantity, *network);
                             if (!out)
                                 return inFile(out.error(), path.toStdString());
                             return out;
                         });
}

Status importApplication(document::ProjectDocument& document, const std::string& name,
                         const document::ApplicationFiles& files)
{
    auto app = document::readApplication(name, files, document.project()->topology);
    if (!app)
        return app.error();
    app->description = "imported from " + QFileInfo(QString::fromStdString(files.volume)).fileName().toStdString();
    return document.edit(QObject::tr("Import application %1").arg(QString::fromStdString(name)),
                         [&](const document::Project& p) { return document::withApplication(p, *app); });
}

Status importHosts(document::ProjectDocument& document, const QString& path)
{
    auto sites = io::readHostsCsv(path.toStdString(), document.project()->topology);
    if (!sites)
        return sites.error();
    return document.edit(QObject::tr("Import hosts from %1").arg(QFileInfo(path).fileName()),
                         [&](const document::Project& p) -> Expected<document::Project> {
                             auto out = document::withHosts(p, *sites);
                             if (!out)
                                 return inFile(out.error(), path.toStdString());
                             return out;
                         });
}

Status importPins(document::ProjectDocument& document, const std::string& application, const QString& path)
{
    const auto project = document.project();
    const int a = project->applicationIndex(application);
    if (a < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no application '" + application + "'");
    auto pins = io::readPinsCsv(path.toStdString(), project->topology, project->applications[a].comm.processCount());
    if (!pins)
        return pins.error();
    return document.edit(QObject::tr("Import pins of %1 from %2")
                             .arg(QString::fromStdString(application), QFileInfo(path).fileName()),
                         [&](const document::Project& p) -> Expected<document::Project> {
                             auto out = document::withPins(p, a, *pins);
                             if (!out)
                                 return inFile(out.error(), path.toStdString());
                             return out;
                         });
}

Status importMapping(document::ProjectDocument& document, const std::string& application, const QString& path)
{
    const auto project = document.project();
    const int a = project->applicationIndex(application);
    if (a < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no application '" + application + "'");
    auto placement = io::readMappingCsv(path.toStdString(), project->topology,
                                        project->applications[a].comm.processCount());
    if (!placement)
        return placement.error();
    document::Run run;
    run.algorithm = "imported";
    run.application = application;
    run.placement = std::move(*placement);
    run.notes.push_back("imported from " + path.toStdString());
    run.inputFingerprint = document.fingerprint(application);
    auto violations = model::checkPlacement(run.placement, project->topology, project->applications[a].pins);
    for (const auto& v : violations)
        run.notes.push_back("violation: " + v.message);
    if (!run.placement.hasHosts() && violations.empty()) {
        // A site-level mapping: split each site's processes over its hosts as the mappers do.
        auto problem = mapping::MappingProblem::create(project->topology, document.completeNetwork(),
                                                       project->applications[a].comm, project->applications[a].pins);
        if (!problem)
            return inFile(problem.error(), path.toStdString());
        const Feedback quiet;
        auto completed = mapping::completeHosts(*problem, run.placement.site, 1, FeedbackRange(quiet, 0.0, 1.0));
        if (!completed)
            return inFile(completed.error(), path.toStdString());
        run.placement = std::move(*completed);
        run.notes.push_back("site-level mapping: hosts and slots chosen by Meridian");
    }
    if (auto s = ops::measurePlacement(run, *project, document.completeNetwork()); !s)
        return s;
    document.addRuns({std::move(run)}, QObject::tr("Import mapping %1").arg(QFileInfo(path).fileName()));
    return {};
}

namespace {

Status needsPlacement(const document::Run& run)
{
    if (run.kind == document::RunKind::Partition)
        return makeError(ErrorCode::InvalidInput,
                         "run " + std::to_string(run.id)
                             + " is a graph partition, not a placement: export it with File > "
                               "Export > Partition of the Selected Run");
    return {};
}

} // namespace

Expected<io::LaunchAdvice> exportLauncher(const document::Run& run, const document::Project& project,
                                          io::LauncherFormat format, const QString& path)
{
    if (auto s = needsPlacement(run); !s)
        return s.error();
    if (auto s = io::writeLauncherFile(path.toStdString(), format, run.placement, project.topology); !s)
        return s.error();
    return io::launchAdvice(format, run.placement, project.topology, path.toStdString());
}

Status exportMappingCsv(const document::Run& run, const document::Project& project, const QString& path)
{
    if (auto s = needsPlacement(run); !s)
        return s;
    return io::writeMappingCsv(path.toStdString(), run.placement, project.topology);
}

Status saveImage(const QImage& image, const QString& path)
{
    if (image.isNull())
        return ioError(path, "there is no image to save");
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(path, "cannot write: " + file.errorString());
    QImageWriter writer(&file,
                        QFileInfo(path).suffix().isEmpty() ? QByteArray("png")
                                                           : QFileInfo(path).suffix().toLower().toLatin1());
    if (!writer.write(image)) {
        file.cancelWriting();
        return ioError(path, "cannot write the image: " + writer.errorString());
    }
    if (!file.commit())
        return ioError(path, "cannot write: " + file.errorString());
    return {};
}

Status saveSvg(const QString& path, const QSize& size, const QString& title,
               const std::function<void(QPainter&, const QRect&)>& draw)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(path, "cannot write: " + file.errorString());
    {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(title);
        generator.setDescription(QObject::tr("Exported by Meridian"));
        QPainter painter;
        if (!painter.begin(&generator)) {
            file.cancelWriting();
            return ioError(path, "cannot start the SVG drawing");
        }
        draw(painter, QRect(QPoint(0, 0), size));
        painter.end();
    }
    if (!file.commit())
        return ioError(path, "cannot write: " + file.errorString());
    return {};
}

Status saveDrawing(const QString& path, const QSize& size, const QString& title,
                   const std::function<void(QPainter&, const QRect&)>& draw)
{
    if (QFileInfo(path).suffix().toLower() == "svg")
        return saveSvg(path, size, title, draw);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        draw(painter, QRect(QPoint(0, 0), size));
    }
    return saveImage(image, path);
}

Status saveHeatmapCsv(const widgets::HeatmapData& data, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return ioError(path, "cannot write: " + file.errorString());
    {
        QTextStream out(&file);
        widgets::writeHeatmapCsv(data, out);
        out.flush();
        if (out.status() != QTextStream::Ok) {
            file.cancelWriting();
            return ioError(path, "the write failed");
        }
    }
    if (!file.commit())
        return ioError(path, "cannot write: " + file.errorString());
    return {};
}

Status attachTrace(document::ProjectDocument& document, int application, const QString& path)
{
    const auto project = document.project();
    if (application < 0 || application >= static_cast<int>(project->applications.size()))
        return makeError(ErrorCode::InvalidInput, "no application " + std::to_string(application));
    std::shared_ptr<const io::StoredTrace> trace;
    if (!path.isEmpty()) {
        auto read = document::readTraceFor(path.toStdString(), project->applications[application].comm);
        if (!read)
            return read.error();
        trace = std::move(*read);
    }
    const QString name = QString::fromStdString(project->applications[application].name);
    return document.edit(path.isEmpty() ? QObject::tr("Remove the trace of %1").arg(name)
                                        : QObject::tr("Attach a trace to %1").arg(name),
                         [&](const document::Project& p) { return document::withTrace(p, application, trace); });
}

} // namespace meridian::actions
