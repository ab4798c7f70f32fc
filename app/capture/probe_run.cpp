#include "app/capture/probe_run.h"

#include "app/capture/capture.h"
#include "app/project/installed_program.h"
#include "core/io/text_file.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <ostream>
#include <vector>

namespace meridian::capture {

namespace {

constexpr const char* kProgramName = "meridian-probe";
const QStringList kSuffixes{".latency.csv", ".bandwidth.csv", ".probe.json"};

std::string local(const QString& text) { return text.toLocal8Bit().toStdString(); }

// Why the probe failed, from its output: its own messages (they start with "meridian-probe:"), else the last
// lines that are not the launcher's rulers.
QString failureReason(const QByteArray& output)
{
    QStringList own, other;
    for (const QByteArray& raw : output.split('\n')) {
        const QString line = QString::fromLocal8Bit(raw.trimmed());
        if (line.startsWith(QLatin1String(kProgramName) + ":"))
            own << line;
        else if (!line.isEmpty() && !line.startsWith("---") && !line.startsWith("==="))
            other << line;
    }
    const QStringList& chosen = own.isEmpty() ? other : own;
    return chosen.mid(std::max<qsizetype>(0, chosen.size() - 3)).join("\n");
}

} // namespace

Expected<QString> probeProgram() { return document::installedProgram(kProgramName, "MERIDIAN_PROBE"); }

QStringList probeCommand(const ProbeRequest& request, const QString& program, const QString& outPrefix)
{
    QStringList command = request.launcher;
    command << program << "--out" << outPrefix;
    if (request.perRank)
        command << "--per-rank";
    if (!request.sitesFile.isEmpty())
        command << "--sites" << request.sitesFile;
    command << "--small-bytes" << QString::number(request.smallBytes) << "--small-reps"
            << QString::number(request.smallRepetitions) << "--large-bytes" << QString::number(request.largeBytes)
            << "--large-reps" << QString::number(request.largeRepetitions);
    return command;
}

Expected<io::ProbeResults> runProbe(const ProbeRequest& request, const std::function<void(const QByteArray&)>& output,
                                    const Feedback& feedback)
{
    if (request.launcher.isEmpty())
        return makeError(ErrorCode::InvalidInput, "no launcher to start the probe with (for example mpirun)");
    const QFileInfo target(request.prefix);
    if (target.fileName().isEmpty() || !target.absoluteDir().exists())
        return makeError(ErrorCode::Io, "the output prefix " + local(request.prefix) + " is not in an existing folder");
    auto program = probeProgram();
    if (!program)
        return program.error();
    QTemporaryDir folder(target.absoluteDir().filePath(".meridian-probe-XXXXXX"));
    if (!folder.isValid())
        return makeError(ErrorCode::Io,
                         "cannot create a temporary folder beside " + local(request.prefix) + ": "
                             + local(folder.errorString()));
    const QStringList command = probeCommand(request, *program, folder.filePath("probe"));
    PreparedCommand prepared{command.front(), command.mid(1), QProcessEnvironment::systemEnvironment()};
    QByteArray all;
    QProcess process;
    const auto collect = [&](const QByteArray& chunk) {
        all += chunk;
        if (all.size() > (1 << 20))
            all.remove(0, all.size() - (1 << 19));
        if (output)
            output(chunk);
    };
    if (auto ran = runToEnd(process, prepared, collect, feedback); !ran)
        return ran.error();
    if (process.exitStatus() == QProcess::CrashExit || process.exitCode() != 0) {
        const QString why = failureReason(all);
        return makeError(ErrorCode::Io,
                         local(process.exitStatus() == QProcess::CrashExit
                                   ? QString("the probe was killed or crashed")
                                   : QString("the probe exited with status %1").arg(process.exitCode()))
                             + (why.isEmpty() ? "" : ": " + local(why)) + "; nothing was written");
    }
    auto results = io::readProbeResults(local(folder.filePath("probe")));
    if (!results)
        return results.error();
    // The three files belong together: written side by side as temporaries, then renamed back to back.
    std::vector<io::PendingFile> files;
    for (const QString& suffix : kSuffixes) {
        QFile file(folder.filePath("probe" + suffix));
        if (!file.open(QIODevice::ReadOnly))
            return makeError(ErrorCode::Io, "cannot read " + local(file.fileName()) + ": " + local(file.errorString()));
        files.push_back({local(target.absoluteFilePath() + suffix), [content = file.readAll()](std::ostream& out) {
                             out.write(content.constData(), content.size());
                         }});
    }
    if (auto written = io::writeFilesTogether(files); !written)
        return written.error();
    results->prefix = local(target.absoluteFilePath());
    return results;
}

} // namespace meridian::capture
