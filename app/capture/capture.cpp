#include "app/capture/capture.h"

#include "core/io/comm_io.h"
#include "core/io/openmpi_monitoring.h"
#include "core/io/otf2_trace.h"
#include "core/io/text_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <algorithm>
#include <ostream>

#ifndef MERIDIAN_TRACE_INSTALLED
#    define MERIDIAN_TRACE_INSTALLED "../lib/meridian"
#endif

namespace meridian::capture {

namespace {

constexpr const char* kLibraryName = "libmeridian-trace.so";

std::string local(const QString& text) { return text.toLocal8Bit().toStdString(); }

/// The tracer's files in `folder` (named `trace.*`), as (file there, suffix after "trace").
std::vector<std::pair<QString, QString>> tracerFiles(const QString& folder)
{
    std::vector<std::pair<QString, QString>> files;
    const QDir dir(folder);
    for (const QString& name : dir.entryList({"trace.*"}, QDir::Files, QDir::Name))
        if (!name.contains(".part-"))
            files.emplace_back(dir.filePath(name), name.mid(5));
    return files;
}

/// Reads back and checks what the tracer wrote: every volume/messages pair, and the collectives summary.
Status checkTracerFiles(const QString& folder, CaptureOutcome& outcome)
{
    const QDir dir(folder);
    if (!QFile::exists(dir.filePath("trace.volume.mtx")))
        return makeError(ErrorCode::InvalidInput,
                         "the command finished but the tracer wrote nothing: is it an MPI program linked "
                         "dynamically against Open MPI (or another MPI), and did every rank call MPI_Finalize?");
    std::vector<QString> prefixes{dir.filePath("trace")};
    for (const auto& [number, phasePrefix] : capturedPhases(dir.filePath("trace"))) {
        outcome.phases.push_back(number);
        prefixes.push_back(phasePrefix);
    }
    for (const QString& prefix : prefixes) {
        auto comm = io::readCommMatrix(local(prefix + ".volume.mtx"), local(prefix + ".messages.mtx"));
        if (!comm)
            return makeError(ErrorCode::Internal, "the tracer wrote an unreadable matrix: " + comm.error().toString());
        outcome.processes = comm->processCount();
    }
    auto json = io::readTextFile(local(dir.filePath("trace.collectives.json")));
    if (!json)
        return json.error();
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(*json), &parse);
    if (parse.error != QJsonParseError::NoError || !document.isObject())
        return makeError(ErrorCode::Internal,
                         "the tracer wrote an unreadable collectives summary: " + local(parse.errorString()));
    return {};
}

/// Writes the tracer's files at `prefix` together, then removes phase files an earlier capture left there.
Status moveInPlace(const QString& folder, const QString& prefix, CaptureOutcome& outcome)
{
    std::vector<io::PendingFile> pending;
    for (const auto& [file, suffix] : tracerFiles(folder)) {
        auto content = io::readTextFile(local(file));
        if (!content)
            return content.error();
        pending.push_back({local(prefix + suffix), [text = std::move(*content)](std::ostream& out) { out << text; }});
        outcome.written.push_back(local(prefix + suffix));
    }
    if (auto written = io::writeFilesTogether(pending); !written) {
        outcome.written.clear();
        return written;
    }
    const QFileInfo info(prefix);
    const QDir dir = info.absoluteDir();
    for (const QString& name : dir.entryList({info.fileName() + ".phase*.mtx"}, QDir::Files)) {
        const std::string path = local(dir.filePath(name));
        if (std::find(outcome.written.begin(), outcome.written.end(), path) == outcome.written.end())
            QFile::remove(dir.filePath(name));
    }
    return {};
}

} // namespace

std::vector<std::pair<int, QString>> capturedPhases(const QString& prefix)
{
    const QFileInfo info(prefix);
    const QDir dir = info.absoluteDir();
    const QRegularExpression pattern("^" + QRegularExpression::escape(info.fileName())
                                     + R"(\.phase(-?\d+)\.volume\.mtx$)");
    std::vector<std::pair<int, QString>> phases;
    for (const QString& name : dir.entryList({info.fileName() + ".phase*.volume.mtx"}, QDir::Files))
        if (const auto match = pattern.match(name); match.hasMatch())
            phases.emplace_back(match.captured(1).toInt(), dir.filePath(name.chopped(QString(".volume.mtx").size())));
    std::sort(phases.begin(), phases.end());
    return phases;
}

Status runToEnd(QProcess& process, const PreparedCommand& prepared,
                const std::function<void(const QByteArray&)>& output, const Feedback& feedback)
{
    process.setProgram(prepared.program);
    process.setArguments(prepared.arguments);
    process.setProcessEnvironment(prepared.environment);
    process.setProcessChannelMode(output ? QProcess::MergedChannels : QProcess::ForwardedChannels);
    process.start();
    if (!process.waitForStarted(30000))
        return makeError(ErrorCode::Io,
                         "cannot start '" + local(prepared.program) + "': " + local(process.errorString()));
    while (!process.waitForFinished(50)) {
        if (process.state() == QProcess::NotRunning)
            break;
        if (output)
            if (const QByteArray out = process.readAll(); !out.isEmpty())
                output(out);
        if (feedback.isCanceled()) {
            process.terminate();
            if (!process.waitForFinished(3000)) {
                process.kill();
                process.waitForFinished(3000);
            }
            return makeError(ErrorCode::Canceled, "canceled");
        }
    }
    if (output)
        if (const QByteArray out = process.readAll(); !out.isEmpty())
            output(out);
    return {};
}

Expected<QString> traceLibrary()
{
    const QString fromEnvironment = qEnvironmentVariable("MERIDIAN_TRACE_LIBRARY");
    if (!fromEnvironment.isEmpty()) {
        if (QFileInfo(fromEnvironment).isFile())
            return QFileInfo(fromEnvironment).absoluteFilePath();
        return makeError(ErrorCode::Io,
                         "MERIDIAN_TRACE_LIBRARY names " + local(fromEnvironment) + ", which is not a file");
    }
    const QDir here(QCoreApplication::applicationDirPath());
    const QStringList candidates{here.filePath(kLibraryName),
                                 QDir::cleanPath(here.filePath(QString(MERIDIAN_TRACE_INSTALLED) + "/" + kLibraryName))};
    for (const QString& candidate : candidates)
        if (QFileInfo(candidate).isFile())
            return candidate;
    return makeError(ErrorCode::Io,
                     "cannot find the tracer " + std::string(kLibraryName) + " (looked at "
                         + local(candidates.join(" and ")) + "; set MERIDIAN_TRACE_LIBRARY to its path)");
}

Launcher detectLauncher(const QStringList& command)
{
    if (command.isEmpty())
        return Launcher::Environment;
    const QString name = QFileInfo(command.front()).fileName();
    static const QStringList launchers{"mpirun", "mpiexec", "orterun", "mpirun.openmpi", "mpiexec.openmpi"};
    if (!launchers.contains(name))
        return Launcher::Environment;
    QProcess version;
    version.setProcessChannelMode(QProcess::MergedChannels);
    version.start(command.front(), {"--version"});
    if (!version.waitForFinished(10000)) {
        version.kill();
        version.waitForFinished(1000);
        return Launcher::Environment;
    }
    const QString text = QString::fromLocal8Bit(version.readAll());
    return text.contains("Open MPI") || text.contains("OpenRTE") ? Launcher::OpenMpi : Launcher::Environment;
}

PreparedCommand prepareCommand(const QStringList& command, Launcher launcher, const QString& library,
                               const QString& tracePrefix, QProcessEnvironment environment)
{
    PreparedCommand prepared;
    prepared.program = command.value(0);
    prepared.arguments = command.mid(1);
    const QString userPreload = environment.value("LD_PRELOAD");
    const QString preload = userPreload.isEmpty() ? library : library + ":" + userPreload;
    environment.insert("MERIDIAN_TRACE_PREFIX", tracePrefix);
    if (launcher == Launcher::OpenMpi)
        prepared.arguments = QStringList{"-x", "LD_PRELOAD=" + preload, "-x", "MERIDIAN_TRACE_PREFIX"}
            + prepared.arguments;
    else
        environment.insert("LD_PRELOAD", preload);
    prepared.environment = environment;
    return prepared;
}

Expected<CaptureOutcome> runCapture(const QStringList& command, const QString& prefix, const CaptureOptions& options,
                                    const Feedback& feedback)
{
    if (command.isEmpty())
        return makeError(ErrorCode::InvalidInput, "no command to capture");
    const QFileInfo target(prefix);
    if (target.fileName().isEmpty() || !target.absoluteDir().exists())
        return makeError(ErrorCode::Io, "the output prefix " + local(prefix) + " is not in an existing folder");
    QString library = options.library;
    if (library.isEmpty()) {
        auto found = traceLibrary();
        if (!found)
            return found.error();
        library = *found;
    }
    QTemporaryDir folder(target.absoluteDir().filePath(".meridian-capture-XXXXXX"));
    if (!folder.isValid())
        return makeError(ErrorCode::Io,
                         "cannot create a temporary folder beside " + local(prefix) + ": "
                             + local(folder.errorString()));
    const PreparedCommand prepared = prepareCommand(command, detectLauncher(command), library, folder.filePath("trace"),
                                                    QProcessEnvironment::systemEnvironment());
    QProcess process;
    if (auto ran = runToEnd(process, prepared, options.output, feedback); !ran)
        return ran.error();
    CaptureOutcome outcome;
    outcome.crashed = process.exitStatus() == QProcess::CrashExit;
    outcome.exitStatus = process.exitCode();
    if (outcome.crashed || outcome.exitStatus != 0)
        return outcome;
    if (auto checked = checkTracerFiles(folder.path(), outcome); !checked)
        return checked.error();
    if (auto moved = moveInPlace(folder.path(), target.absoluteFilePath(), outcome); !moved)
        return moved.error();
    return outcome;
}

Expected<model::CommMatrix> readCapture(const QString& path, std::string& described)
{
    const QFileInfo info(path);
    const std::string file = local(info.fileName());
    if (path.endsWith(".otf2")) {
        auto trace = io::readOtf2Trace(local(path));
        if (!trace)
            return trace.error();
        described = "captured in the OTF2 trace " + file;
        return std::move(trace->pointToPoint);
    }
    static const QRegularExpression prof(R"(^(.+)\.\d+\.prof$)");
    if (const auto match = prof.match(info.fileName()); match.hasMatch()) {
        auto run = io::readOpenMpiMonitoring(local(info.absolutePath()), local(match.captured(1)));
        if (!run)
            return run.error();
        described = "captured by Open MPI's monitoring (" + run->name + ".RANK.prof)";
        return std::move(run->pointToPoint);
    }
    if (path.endsWith(".volume.mtx")) {
        const QString messages = path.chopped(QString("volume.mtx").size()) + "messages.mtx";
        auto comm = io::readCommMatrix(local(path), QFile::exists(messages) ? local(messages) : std::string());
        if (!comm)
            return comm.error();
        described = "captured by meridian-cli capture (" + file + ")";
        return comm;
    }
    return makeError(ErrorCode::InvalidInput,
                     local(path)
                         + " is not a capture: expected PREFIX.volume.mtx (from "
                           "meridian-cli capture), NAME.RANK.prof (Open MPI's "
                           "monitoring) or NAME.otf2 (an OTF2 trace)");
}

} // namespace meridian::capture
