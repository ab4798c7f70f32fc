#include "app/jobs/launched_command.h"

#include "app/jobs/slurm_batch.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <charconv>
#include <csignal>
#include <deque>
#include <variant>

#include <sys/types.h>
#include <unistd.h>

namespace meridian::jobs {

namespace {

std::string local(const QString& text) { return text.toStdString(); }

/// The launched command's standard error as it arrives: progress lines go to the feedback, the others are kept
/// (the last kKeptLines) for an error message.
class ErrorStream {
public:
    explicit ErrorStream(const Feedback& feedback)
        : m_feedback(feedback)
    {}
    void add(const QByteArray& bytes)
    {
        m_pending += bytes;
        for (qsizetype end = m_pending.indexOf('\n'); end >= 0; end = m_pending.indexOf('\n')) {
            line(m_pending.left(end));
            m_pending.remove(0, end + 1);
        }
    }
    void finish()
    {
        if (!m_pending.isEmpty())
            line(m_pending);
        m_pending.clear();
    }
    /// meridian-cli's last lines, else the launcher's, joined.
    std::string tail() const
    {
        std::string text;
        for (const QString& l : m_own.empty() ? m_other : m_own) {
            if (!text.empty())
                text += '\n';
            text += local(l);
        }
        return text;
    }

private:
    static constexpr std::size_t kKeptLines = 12;
    void line(const QByteArray& text)
    {
        QJsonParseError error{};
        const QJsonDocument json = QJsonDocument::fromJson(text, &error);
        const QJsonObject o = json.object();
        if (error.error == QJsonParseError::NoError && o.value("progress").isDouble() && o.value("stage").isString()) {
            m_feedback.setProgress(o.value("progress").toDouble(), local(o.value("stage").toString()));
            return;
        }
        if (text.trimmed().isEmpty())
            return;
        // meridian-cli's own lines are kept apart: a launcher's banners after an abort would push them out.
        std::deque<QString>& kept = text.startsWith("meridian-cli:") ? m_own : m_other;
        kept.push_back(QString::fromUtf8(text).trimmed());
        if (kept.size() > kKeptLines)
            kept.pop_front();
    }
    const Feedback& m_feedback;
    QByteArray m_pending;
    std::deque<QString> m_own;   ///< meridian-cli's last lines (its errors)
    std::deque<QString> m_other; ///< the launcher's
};

/// Runs `command` to its end under the feedback's cancellation; its standard output goes to `outputFile`.
Status runLauncher(const QStringList& command, const QString& outputFile, ErrorStream& errors, const Feedback& feedback)
{
    QProcess process;
    // Open MPI's mpirun keeps a session folder under /tmp shared by every job of the user on the machine: one that
    // ends removes it while another starts in it ("orte_session_dir failed"), so runs launched side by side each get
    // a base of their own, unless the user chose one.
    QTemporaryDir sessions(QDir(QDir::tempPath()).filePath("meridian-mpi-XXXXXX"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    if (sessions.isValid() && !environment.contains("OMPI_MCA_orte_tmpdir_base"))
        environment.insert("OMPI_MCA_orte_tmpdir_base", sessions.path());
    process.setProcessEnvironment(environment);
    process.setProgram(command.front());
    process.setArguments(command.mid(1));
    process.setStandardOutputFile(outputFile);
    process.setStandardInputFile(QProcess::nullDevice());
    // A process group of its own: a cancel reaches the launcher and whatever it started here (mpirun's ranks).
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
    process.start();
    if (!process.waitForStarted(30000))
        return makeError(ErrorCode::Io,
                         "cannot start the launcher '" + local(command.front()) + "': " + local(process.errorString()));
    while (!process.waitForFinished(50)) {
        if (process.state() == QProcess::NotRunning)
            break;
        errors.add(process.readAllStandardError());
        if (feedback.isCanceled()) {
            // mpirun and srun pass SIGTERM on to their ranks, here and on other nodes; what is left of the group
            // after 2 s is killed.
            const auto group = static_cast<pid_t>(process.processId());
            ::kill(-group, SIGTERM);
            if (!process.waitForFinished(2000))
                ::kill(-group, SIGKILL);
            process.waitForFinished(2000);
            return makeError(ErrorCode::Canceled, "canceled");
        }
    }
    errors.add(process.readAllStandardError());
    errors.finish();
    if (process.exitStatus() == QProcess::CrashExit)
        return makeError(ErrorCode::Io, "the launcher stopped: " + local(process.errorString()));
    if (process.exitCode() != 0)
        return makeError(ErrorCode::Io, "the launcher exited with status " + std::to_string(process.exitCode()));
    return {};
}

} // namespace

Status checkLauncherSettings(const LauncherSettings& settings)
{
    if (QProcess::splitCommand(settings.launcher).isEmpty())
        return makeError(ErrorCode::InvalidInput,
                         "no launcher: give the command that starts meridian-cli, for example 'mpirun -np {N}'");
    if (settings.ranks < 1)
        return makeError(ErrorCode::InvalidInput, "a launched run needs at least 1 rank");
    if (settings.cliProgram.isEmpty())
        return makeError(ErrorCode::InvalidInput, "no meridian-cli program for the launcher to start");
    if (settings.submission == LauncherSettings::Submission::SlurmBatch)
        return checkBatchOptions(settings.batchOptions);
    return {};
}

QStringList launcherWords(const LauncherSettings& settings)
{
    QStringList command = QProcess::splitCommand(settings.launcher);
    for (QString& word : command)
        word.replace("{N}", QString::number(settings.ranks));
    return command;
}

QString launcherDescription(const LauncherSettings& settings)
{
    const QString words = shellLine(launcherWords(settings));
    return settings.submission == LauncherSettings::Submission::SlurmBatch ? words + " in a Slurm batch job" : words;
}

QString roundTrip(double value)
{
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    return QString::fromLatin1(buffer, static_cast<qsizetype>(end - buffer));
}

QString paramAssignment(const std::string& name, const ParamValue& value)
{
    if (const auto* real = std::get_if<double>(&value))
        return QString::fromStdString(name) + '=' + roundTrip(*real);
    return QString::fromStdString(name + "=" + paramValueToString(value));
}

QString shellLine(const QStringList& words)
{
    QStringList quoted;
    for (QString word : words) {
        if (!word.isEmpty() && !word.contains(' ') && !word.contains('"') && !word.contains('\''))
            quoted << word;
        else
            quoted << '"' + word.replace('"', "\"\"\"") + '"';
    }
    return quoted.join(' ');
}

Status runLaunchedJob(const LauncherSettings& settings, const LaunchedJobStart& start,
                      const std::function<Status(const QDir& folder)>& readBack, const Feedback& feedback)
{
    if (auto checked = checkLauncherSettings(settings); !checked)
        return checked;
    if (!QFileInfo(settings.workFolder).isDir())
        return makeError(ErrorCode::InvalidInput,
                         "the work folder '" + local(settings.workFolder)
                             + "' is not a folder (it must exist, and the launcher's nodes must see it)");
    QTemporaryDir job(QDir(settings.workFolder).filePath("meridian-job-XXXXXX"));
    if (!job.isValid())
        return makeError(ErrorCode::Io,
                         "cannot create a folder in " + local(settings.workFolder) + ": " + local(job.errorString()));
    job.setAutoRemove(false);
    const QDir folder(job.path());
    auto command = start.command(folder);
    ErrorStream errors(feedback);
    Status done = command ? start.save(folder) : Status(command.error());
    if (done) {
        feedback.setProgress(0.0, "waiting for the launcher");
        if (settings.submission == LauncherSettings::Submission::SlurmBatch) {
            done = runSlurmBatch(
                settings, *command, folder, [&](const QByteArray& bytes) { errors.add(bytes); }, feedback);
            errors.finish();
        } else {
            done = runLauncher(*command, folder.filePath("output.json"), errors, feedback);
        }
    }
    if (done)
        done = readBack(folder);
    if (done || done.error().code == ErrorCode::Canceled) {
        job.remove();
        return done;
    }
    Error error = done.error();
    if (!errors.tail().empty())
        error.message += "; it printed:\n" + errors.tail();
    if (command)
        error.message += "\ncommand: " + local(shellLine(*command));
    error.message += "\nits files are kept in " + local(folder.path());
    return error;
}

} // namespace meridian::jobs
