#include "app/jobs/slurm_batch.h"

#include "core/io/text_file.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <optional>
#include <set>

namespace meridian::jobs {

namespace {

std::string local(const QString& text) { return text.toStdString(); }

bool plain(const QString& word)
{
    static const QRegularExpression safe("^[A-Za-z0-9_./=:,+@%-]+$");
    return safe.match(word).hasMatch();
}

/// A word as sh reads it back: as it is when it has only characters sh does not treat specially, else in single
/// quotes (a single quote inside as '\'').
QString quoted(const QString& word)
{
    if (plain(word))
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

/// Why a word cannot go into an `#SBATCH` line: Slurm's parser has no escape for a double quote or a backslash
/// (checked with sbatch 22.05); an empty string when it can.
std::string unfitForDirective(const QString& word)
{
    if (!word.contains('"') && !word.contains('\\'))
        return {};
    std::string why = "'";
    why += local(word);
    why += "' has a double quote or a backslash, which a batch script's #SBATCH lines cannot hold";
    return why;
}

/// An `#SBATCH` line of `words`, each in double quotes unless plain (unfitForDirective refused the others).
QString directive(const QStringList& words)
{
    QStringList out;
    for (const QString& w : words)
        out << (plain(w) ? w : '"' + w + '"');
    return "#SBATCH " + out.join(' ');
}

/// Whether sbatch's short option `-X` takes a value (`-t 60`, `-t60`); the others are flags.
bool takesValue(QChar option) { return QStringLiteral("aAbBcCdDeFGiJLmMnNopqStwx").contains(option); }

/// Refuses an sbatch option that Meridian writes itself, or that would make the job run its command more than once,
/// sbatch wait for it, or Slurm answer from another cluster: `--ntasks` and the abbreviations sbatch takes for it.
Status notMeridians(const QString& word)
{
    static const QStringList ownLong{"--output", "--error",    "--ntasks", "--chdir",   "--wrap",
                                     "--array",  "--parsable", "--wait",   "--clusters"};
    static const QString ownShort = "oenDaWM";
    const QString name = word.startsWith("--") ? word.section('=', 0, 0) : word.left(2);
    const bool own = word.startsWith("--")
        ? std::any_of(ownLong.begin(), ownLong.end(), [&](const QString& o) { return o.startsWith(name); })
        : ownShort.contains(name.at(1));
    if (!own)
        return {};
    return makeError(ErrorCode::InvalidInput,
                     "the sbatch option '" + local(word)
                         + "' is Meridian's to write or would change how the job is followed (its tasks are the "
                           "ranks, its output goes to its folder): leave it out");
}

/// The sbatch options as `#SBATCH` lines' words, an option with its value; checkBatchOptions's refusal otherwise.
Expected<std::vector<QStringList>> batchDirectives(const QString& options)
{
    std::vector<QStringList> directives;
    bool valueNext = false; ///< the last word was a short option whose value is the next word
    for (const QString& word : QProcess::splitCommand(options)) {
        if (valueNext) {
            if (const auto unfit = unfitForDirective(word); !unfit.empty())
                return makeError(ErrorCode::InvalidInput, "the sbatch option's value " + unfit);
            directives.back() << word;
            valueNext = false;
            continue;
        }
        const bool afterLong = !directives.empty() && directives.back().size() == 1
            && directives.back().front().startsWith("--") && !directives.back().front().contains('=');
        if (!word.startsWith('-') && afterLong)
            return makeError(ErrorCode::InvalidInput,
                             "write the value of the sbatch option '" + local(directives.back().front())
                                 + "' after '=' (" + local(directives.back().front() + '=' + word) + ")");
        if (!word.startsWith('-') || word.size() < 2 || word == "--")
            return makeError(ErrorCode::InvalidInput,
                             "expected an sbatch option starting with '-' (as --partition=compute or -t 60), found '"
                                 + local(word) + "'");
        if (auto refused = notMeridians(word); !refused)
            return refused.error();
        if (const auto unfit = unfitForDirective(word); !unfit.empty())
            return makeError(ErrorCode::InvalidInput, "the sbatch option " + unfit);
        if (!word.startsWith("--") && word.size() > 2 && word.at(2) == '=')
            return makeError(ErrorCode::InvalidInput,
                             "the value of the sbatch option '" + local(word.left(2)) + "' follows it without '=' ("
                                 + local(word.left(2)) + " compute, or " + local(word.left(2)) + "compute)");
        directives.push_back({word});
        valueNext = !word.startsWith("--") && word.size() == 2 && takesValue(word.at(1));
    }
    if (valueNext)
        return makeError(ErrorCode::InvalidInput,
                         "the sbatch option '" + local(directives.back().front()) + "' needs a value after it");
    return directives;
}

/// What `scontrol show job -o ID` says of a job.
struct JobState {
    bool known = false; ///< false once Slurm has forgotten the job (or never knew it)
    QString state;      ///< PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...
    QString reason;     ///< why it waits (Resources, Priority, ...)
    QString exitCode;   ///< the script's status and the signal that ended it, as `2:0`
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

/// Runs a Slurm client command to its end (at most `seconds`): its standard output, or why it failed (with its
/// standard error in `standardError`). With `feedback`, a cancel stops waiting for it within 50 ms (Canceled).
Expected<QByteArray> slurmCommand(const QString& program, const QStringList& arguments, const QDir& folder, int seconds,
                                  const Feedback* feedback = nullptr, QByteArray* standardError = nullptr)
{
    QProcess process;
    process.setWorkingDirectory(folder.path());
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(program, arguments);
    if (!process.waitForStarted(30000))
        return makeError(ErrorCode::Io,
                         "cannot start " + local(program) + ": " + local(process.errorString())
                             + " (Slurm's client commands must be on this machine's PATH)");
    QElapsedTimer waited;
    waited.start();
    while (!process.waitForFinished(50) && process.state() != QProcess::NotRunning) {
        const bool canceled = feedback && feedback->isCanceled();
        if (canceled || waited.elapsed() > qint64{seconds} * 1000) {
            process.kill();
            process.waitForFinished(2000);
            return canceled
                ? makeError(ErrorCode::Canceled, "canceled")
                : makeError(ErrorCode::Io, local(program) + " did not answer within " + std::to_string(seconds) + " s");
        }
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

Expected<JobState> jobState(const QString& id, const QDir& folder, const Feedback* feedback)
{
    QByteArray error;
    auto shown = slurmCommand("scontrol", {"show", "job", "-o", id}, folder, 20, feedback, &error);
    if (!shown) {
        if (error.contains("Invalid job id"))
            return JobState{};
        return shown.error();
    }
    const QString line = QString::fromUtf8(*shown).trimmed();
    return JobState{true, fieldOf(line, "JobState"), fieldOf(line, "Reason"), fieldOf(line, "ExitCode")};
}

/// What the job wrote to its standard error since the last call (opened through io::openRegularFile once Slurm
/// has created it).
class ErrorFile {
public:
    explicit ErrorFile(const QString& path)
        : m_path(path)
    {}
    QByteArray next()
    {
        if (!m_file.isOpen()) {
            auto fd = io::openRegularFile(local(m_path), io::kMaxTextFileBytes);
            if (!fd || !m_file.open(*fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle))
                return {};
        }
        m_file.seek(m_read);
        QByteArray bytes = m_file.read(1 << 20);
        m_read += bytes.size();
        return bytes;
    }

private:
    QString m_path;
    QFile m_file;
    qint64 m_read = 0;
};

/// The status the script wrote when its command ended, if it did.
std::optional<int> exitStatus(const QDir& folder)
{
    auto text = io::readTextFile(local(folder.filePath("exit-status")), 64);
    if (!text)
        return std::nullopt;
    bool ok = false;
    const int status = QString::fromStdString(*text).trimmed().toInt(&ok);
    return ok ? std::optional<int>(status) : std::nullopt;
}

/// Follows a submitted job until it has ended (or, after a cancel, for at most a minute), passing its standard
/// error on as it arrives and its place in the queue as the stage. Returns its last state, or why Slurm could not
/// say it.
class JobWatch {
public:
    JobWatch(QString id, const QDir& folder, const std::function<void(const QByteArray&)>& standardError,
             const Feedback& feedback)
        : m_id(std::move(id))
        , m_folder(folder)
        , m_errors(folder.filePath("slurm.err"))
        , m_standardError(standardError)
        , m_feedback(feedback)
    {}

    Expected<JobState> untilEnded()
    {
        QElapsedTimer answered, canceledFor;
        answered.start();
        JobState state{true, "PENDING", {}, {}};
        while (state.known && !hasEnded(state.state)) {
            m_standardError(m_errors.next());
            if (m_feedback.isCanceled() && !canceledFor.isValid()) {
                canceledFor.start();
                if (auto stopped = slurmCommand("scancel", {m_id}, m_folder, 60); !stopped) {
                    // A job that ended meanwhile cannot be canceled: scancel says so, and the state shows it.
                    auto now = jobState(m_id, m_folder, nullptr);
                    if (!now || (now->known && !hasEnded(now->state)))
                        return makeError(ErrorCode::Io,
                                         "cannot cancel the Slurm job " + local(m_id) + ": " + stopped.error().message);
                }
            }
            if (canceledFor.isValid() && canceledFor.elapsed() > 60000)
                return state; // scancel asked, the job still ending: it is Slurm's now
            auto now = jobState(m_id, m_folder, canceledFor.isValid() ? nullptr : &m_feedback);
            if (!now && now.error().code == ErrorCode::Canceled)
                continue; // the cancel is handled above, at once
            if (!now) {
                // A controller that does not answer for a minute: the job may still run, and is the user's to stop.
                if (answered.elapsed() > 60000)
                    return makeError(ErrorCode::Io,
                                     "Slurm has not said how job " + local(m_id) + " goes for a minute ("
                                         + now.error().message + "); scancel " + local(m_id)
                                         + " stops it if it still runs");
            } else {
                answered.restart();
                state = *now;
                show(state);
            }
            if (state.known && !hasEnded(state.state))
                pause(canceledFor.isValid() ? 250 : 1000, !canceledFor.isValid());
        }
        m_standardError(m_errors.next());
        return state;
    }

private:
    /// The job's place as the stage: queued (with Slurm's reason), then running until meridian-cli's own
    /// progress lines take over.
    void show(const JobState& state)
    {
        QString stage;
        if (state.state == "PENDING")
            stage = QString("queued in Slurm as job %1 (%2)").arg(m_id, state.reason);
        else if (state.state == "RUNNING" && (m_shown.isEmpty() || m_shown.startsWith("queued")))
            stage = QString("running in Slurm as job %1").arg(m_id);
        if (stage.isEmpty() || stage == m_shown)
            return;
        m_shown = stage;
        m_feedback.setProgress(0.0, local(stage));
    }
    /// Waits `ms`, passing the job's standard error on; returns early on a cancel when `untilCanceled`.
    void pause(int ms, bool untilCanceled)
    {
        for (int waited = 0; waited < ms && !(untilCanceled && m_feedback.isCanceled()); waited += 50)
            QThread::msleep(50);
        m_standardError(m_errors.next());
    }

    QString m_id;
    QDir m_folder;
    ErrorFile m_errors;
    const std::function<void(const QByteArray&)>& m_standardError;
    const Feedback& m_feedback;
    QString m_shown;
};

Status writeScript(const QString& text, const QString& path)
{
    if (auto written = io::writeTextFileAtomically(local(path), text.toStdString()); !written)
        return makeError(ErrorCode::Io, "cannot write the job's script: " + written.error().toString());
    QFile::setPermissions(path, QFile::permissions(path) | QFileDevice::ExeOwner);
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
    // In --output and --error, % starts a pattern (%j, the job's id): a folder's own % is written %%.
    const auto file = [&](const char* name) { return folder.absoluteFilePath(name).replace('%', "%%"); };
    QStringList lines{"#!/bin/sh",
                      "# Written by Meridian for one launched run; `sbatch job.sh` in this folder submits it again.",
                      directive({"--job-name=meridian"}),
                      directive({"--ntasks=" + QString::number(settings.ranks)}),
                      directive({"--output=" + file("slurm.out")}),
                      directive({"--error=" + file("slurm.err")})};
    if (auto directives = batchDirectives(settings.batchOptions))
        for (const QStringList& d : *directives)
            lines << directive(d);
    lines << "cd " + quoted(folder.absolutePath()) + " || exit 1" << quotedLine(command) + " > output.json"
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
    if (const auto unfit = unfitForDirective(folder.absolutePath()); !unfit.empty())
        return makeError(ErrorCode::InvalidInput, "the job's folder " + unfit + ": choose another work folder");
    const QString script = folder.absoluteFilePath("job.sh");
    if (auto written = writeScript(slurmBatchScript(settings, command, folder), script); !written)
        return written;
    feedback.setProgress(0.0, "submitting to Slurm");
    // Not canceled while it runs: a job it submitted would have no id to cancel it by.
    auto submitted = slurmCommand("sbatch", {"--parsable", script}, folder, 120);
    if (!submitted)
        return makeError(ErrorCode::Io, "sbatch did not queue the job: " + submitted.error().message);
    // --parsable prints the job's id (and a cluster's name after a semicolon, which -M/--clusters alone gives).
    const QString id = QString::fromUtf8(*submitted).trimmed().section(';', 0, 0);
    if (!QRegularExpression("^[0-9]+$").match(id).hasMatch())
        return makeError(ErrorCode::Io,
                         "sbatch printed '" + local(QString::fromUtf8(*submitted).trimmed())
                             + "' where a job id was expected");
    auto ended = JobWatch(id, folder, standardError, feedback).untilEnded();
    if (!ended)
        return ended.error();
    if (feedback.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    const std::string job = "the Slurm job " + local(id);
    // COMPLETED is the script's `exit 0`, which only meridian-cli's status 0 reaches; a job Slurm has forgotten
    // says it in the file the script wrote.
    const auto status = exitStatus(folder);
    if (ended->known ? ended->state == "COMPLETED" : status == 0)
        return {};
    std::string how = ended->known ? "ended " + local(ended->state) : "is gone from Slurm's queue";
    if (ended->known && ended->state == "TIMEOUT")
        how += " (its time limit)";
    if (status)
        return makeError(ErrorCode::Io, job + " " + how + " with status " + std::to_string(*status));
    return makeError(ErrorCode::Io,
                     job + " " + how + (ended->known ? " (ExitCode " + local(ended->exitCode) + ")" : "")
                         + " without writing " + local(folder.filePath("exit-status"))
                         + ": did its command start? (do the nodes see the work folder at this path? "
                           "slurm.err says what the job printed)");
}

} // namespace meridian::jobs
