#include "app/jobs/slurm_batch.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QThread>

#include <set>

namespace meridian::jobs {

namespace {

std::string local(const QString& text) { return text.toStdString(); }

/// A word as sh and sbatch's `#SBATCH` lines read it back: as it is when it has only characters neither treats
/// specially, else in single quotes (a single quote inside as '\'').
QString quoted(const QString& word)
{
    static const QRegularExpression plain("^[A-Za-z0-9_./=:,+@%-]+$");
    if (plain.match(word).hasMatch())
        return word;
    QString text = word;
    return '\'' + text.replace('\'', "'\\''") + '\'';
}

QString quotedLine(const QStringList& words)
{
    QStringList out;
    for (const QString& w : words)
        out << quoted(w);
    return out.join(' ');
}

/// The option's name: `--time` of `--time=01:00:00`, `-t` of `-t60`.
QString optionName(const QString& word)
{
    if (word.startsWith("--"))
        return word.section('=', 0, 0);
    return word.left(2);
}

/// The sbatch options as `#SBATCH` lines' words, an option with its value; checkBatchOptions's refusal otherwise.
Expected<std::vector<QStringList>> batchDirectives(const QString& options)
{
    // What Meridian writes itself, or what would run the command more than once.
    static const std::set<QString> own{"-o", "--output", "-e",     "--error", "-n",      "--ntasks",
                                       "-D", "--chdir",  "--wrap", "-a",      "--array", "--parsable"};
    std::vector<QStringList> directives;
    for (const QString& word : QProcess::splitCommand(options)) {
        if (word.startsWith('-') && word.size() > 1) {
            if (own.count(optionName(word)))
                return makeError(ErrorCode::InvalidInput,
                                 "the sbatch option '" + local(word)
                                     + "' is Meridian's to write (the job's tasks are the ranks, its output goes to "
                                       "its folder): leave it out");
            directives.push_back({word});
        } else if (!directives.empty() && directives.back().size() == 1 && !directives.back().front().contains('=')) {
            directives.back() << word; // the value of `-t 60`
        } else {
            return makeError(ErrorCode::InvalidInput,
                             "expected an sbatch option starting with '-' (as --partition=compute), found '"
                                 + local(word) + "'");
        }
    }
    return directives;
}

/// What `scontrol show job -o ID` says of a job.
struct JobState {
    bool known = false; ///< false once Slurm has forgotten the job (or never knew it)
    QString state;      ///< PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
    QString reason;     ///< why it waits (Resources, Priority, ...)
};

bool hasEnded(const QString& state)
{
    static const std::set<QString> ended{"COMPLETED",     "FAILED",    "CANCELLED",   "TIMEOUT",
                                         "NODE_FAIL",     "PREEMPTED", "BOOT_FAIL",   "DEADLINE",
                                         "OUT_OF_MEMORY", "REVOKED",   "SPECIAL_EXIT"};
    return ended.count(state) > 0;
}

/// A value of scontrol's one-line output (`Key=value`, up to the next space).
QString fieldOf(const QString& line, const QString& key)
{
    const QRegularExpression field("(?:^|\\s)" + key + "=(\\S*)");
    const auto match = field.match(line);
    return match.hasMatch() ? match.captured(1) : QString();
}

/// Runs a Slurm client command to its end: its standard output, or why it failed (with its standard error).
Expected<QByteArray> slurmCommand(const QString& program, const QStringList& arguments, const QDir& folder,
                                  QByteArray* standardError = nullptr)
{
    QProcess process;
    process.setWorkingDirectory(folder.path());
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    if (!process.waitForStarted(30000))
        return makeError(ErrorCode::Io,
                         "cannot start " + local(program) + ": " + local(process.errorString())
                             + " (Slurm's client commands must be on this machine's PATH)");
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished(2000);
        return makeError(ErrorCode::Io, local(program) + " did not answer within 60 s");
    }
    const QByteArray error = process.readAllStandardError().trimmed();
    if (standardError)
        *standardError = error;
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
        return makeError(ErrorCode::Io,
                         local(program) + " failed (status " + std::to_string(process.exitCode())
                             + "): " + local(QString::fromUtf8(error)));
    return process.readAllStandardOutput();
}

Expected<JobState> jobState(const QString& id, const QDir& folder)
{
    QByteArray error;
    auto shown = slurmCommand("scontrol", {"show", "job", "-o", id}, folder, &error);
    if (!shown) {
        if (error.contains("Invalid job id"))
            return JobState{};
        return shown.error();
    }
    const QString line = QString::fromUtf8(*shown).trimmed();
    return JobState{true, fieldOf(line, "JobState"), fieldOf(line, "Reason")};
}

/// What the job wrote to its standard error since the last call.
class ErrorFile {
public:
    explicit ErrorFile(const QString& path)
        : m_file(path)
    {}
    QByteArray next()
    {
        if (!m_file.isOpen() && !m_file.open(QIODevice::ReadOnly))
            return {};
        m_file.seek(m_read);
        QByteArray bytes = m_file.readAll();
        m_read += bytes.size();
        return bytes;
    }

private:
    QFile m_file;
    qint64 m_read = 0;
};

/// The status the script wrote when its command ended, if it did.
std::optional<int> exitStatus(const QDir& folder)
{
    QFile file(folder.filePath("exit-status"));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    bool ok = false;
    const int status = QString::fromLatin1(file.readAll()).trimmed().toInt(&ok);
    return ok ? std::optional<int>(status) : std::nullopt;
}

Status writeScript(const QString& text, const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(text.toUtf8()) < 0 || !file.flush())
        return makeError(ErrorCode::Io,
                         "cannot write the job's script " + local(path) + ": " + local(file.errorString()));
    file.setPermissions(file.permissions() | QFileDevice::ExeOwner);
    return {};
}

} // namespace

Status checkBatchOptions(const QString& options)
{
    auto directives = batchDirectives(options);
    return directives ? Status{} : Status(directives.error());
}

QString slurmBatchScript(const LauncherSettings& settings, const QStringList& command, const QDir& folder)
{
    QStringList lines{"#!/bin/sh",
                      "# Written by Meridian for one launched run; `sbatch job.sh` in this folder submits it again.",
                      "#SBATCH --job-name=meridian",
                      "#SBATCH --ntasks=" + QString::number(settings.ranks),
                      "#SBATCH --output=" + quoted(folder.filePath("slurm.out")),
                      "#SBATCH --error=" + quoted(folder.filePath("slurm.err"))};
    if (auto directives = batchDirectives(settings.batchOptions))
        for (const QStringList& d : *directives)
            lines << "#SBATCH " + quotedLine(d);
    lines << "cd " + quoted(folder.path()) + " || exit 1" << quotedLine(command) + " > output.json"
          << "status=$?"
          << "echo \"$status\" > exit-status"
          << "exit \"$status\"";
    return lines.join('\n') + '\n';
}

Status runSlurmBatch(const LauncherSettings& settings, const QStringList& command, const QDir& folder,
                     const std::function<void(const QByteArray&)>& standardError, const Feedback& feedback)
{
    if (auto checked = checkBatchOptions(settings.batchOptions); !checked)
        return checked;
    const QString script = folder.filePath("job.sh");
    if (auto written = writeScript(slurmBatchScript(settings, command, folder), script); !written)
        return written;
    feedback.setProgress(0.0, "submitting to Slurm");
    QByteArray refusal;
    auto submitted = slurmCommand("sbatch", {"--parsable", script}, folder, &refusal);
    if (!submitted)
        return makeError(ErrorCode::Io, "sbatch refused the job: " + submitted.error().message);
    // --parsable prints the job's id, and the cluster's name after a semicolon on a federation.
    const QString id = QString::fromUtf8(*submitted).trimmed().section(';', 0, 0);
    if (!QRegularExpression("^[0-9]+$").match(id).hasMatch())
        return makeError(ErrorCode::Io,
                         "sbatch printed '" + local(QString::fromUtf8(*submitted).trimmed())
                             + "' where a job id was expected");
    const std::string job = "the Slurm job " + local(id);
    ErrorFile errors(folder.filePath("slurm.err"));
    JobState state{true, "PENDING", {}};
    QString shown;
    int unanswered = 0;
    QElapsedTimer asked;
    asked.start();
    bool canceling = false;
    for (bool first = true; state.known && !hasEnded(state.state); first = false) {
        if (!first)
            QThread::msleep(100);
        standardError(errors.next());
        if (feedback.isCanceled() && !canceling) {
            canceling = true;
            if (auto canceled = slurmCommand("scancel", {id}, folder); !canceled)
                return makeError(ErrorCode::Io, "cannot cancel " + job + ": " + canceled.error().message);
        }
        if (!first && asked.elapsed() < (canceling ? 250 : 1000))
            continue;
        asked.restart();
        auto now = jobState(id, folder);
        if (!now) {
            // A controller that does not answer for a minute: the job may still run, and is the user's to cancel.
            if (++unanswered >= 60)
                return makeError(ErrorCode::Io,
                                 "Slurm did not say how " + job + " goes for a minute (" + now.error().message
                                     + "); scancel " + local(id) + " stops it if it still runs");
            continue;
        }
        unanswered = 0;
        state = *now;
        if (state.state == "PENDING") {
            const QString stage = QString("queued in Slurm as job %1 (%2)").arg(id, state.reason);
            if (stage != shown)
                feedback.setProgress(0.0, local(stage));
            shown = stage;
        }
    }
    standardError(errors.next());
    if (canceling)
        return makeError(ErrorCode::Canceled, "canceled");
    const auto status = exitStatus(folder);
    if ((!state.known || state.state == "COMPLETED") && status == 0)
        return {};
    std::string how = state.known ? "ended " + local(state.state) : "is gone from Slurm's queue";
    how += status ? " with status " + std::to_string(*status) : std::string(" before its command ended");
    return makeError(ErrorCode::Io, job + " " + how);
}

} // namespace meridian::jobs
