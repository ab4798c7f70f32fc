#include "app/project/ui/autosave.h"

#include "app/project/project_file.h"
#include "app/project/run_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <atomic>
#include <cerrno>

#include <signal.h>

namespace meridian::document {

namespace {

constexpr const char* kProjectName = "recovered.meridian";
constexpr const char* kNoteName = "recovery.json";

bool processAlive(qint64 pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

} // namespace

Autosave::Autosave(ProjectDocument* document, QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_timer(new QTimer(this))
{
    static std::atomic<int> sessions{0};
    m_folder = QDir(recoveryRoot()).filePath(QString("%1-%2").arg(QCoreApplication::applicationPid()).arg(sessions++));
    m_timer->setInterval(60 * 1000);
    connect(m_timer, &QTimer::timeout, this, [this] { (void)autosaveNow(); });
    // A save leaves nothing to recover; so does a document replaced by another (open, new).
    connect(m_document, &ProjectDocument::titleChanged, this, [this] {
        if (!m_document->isModified())
            discard();
    });
    m_timer->start();
}

Autosave::~Autosave()
{
    // A normal exit (not a crash) leaves nothing to recover.
    discard();
}

QString Autosave::recoveryRoot()
{
    QString env = qEnvironmentVariable("MERIDIAN_RECOVERY_DIR");
    if (!env.isEmpty())
        return env;
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath("recovery");
}

void Autosave::setInterval(int milliseconds) { m_timer->setInterval(milliseconds); }

Status Autosave::autosaveNow()
{
    if (!m_document->isModified() || m_document->undoStack()->index() == m_savedIndex)
        return {};
    if (!QDir().mkpath(m_folder))
        return makeError(ErrorCode::Io, "cannot create the recovery folder", {m_folder.toStdString()});
    const QString project = QDir(m_folder).filePath(kProjectName);
    const std::vector<io::PendingFile> runsFile{
        io::textFile(RunFile::pathFor(project).toStdString(), RunFile::text(m_document->runs()))};
    if (auto s = ProjectFile::save(*m_document->project(), project, runsFile); !s)
        return s;
    // The note last: a folder without it is an autosave that did not finish, and is not offered.
    QSaveFile note(QDir(m_folder).filePath(kNoteName));
    if (!note.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, "cannot write the recovery note: " + note.errorString().toStdString(),
                         {m_folder.toStdString()});
    note.write(QJsonDocument(QJsonObject{{"original", m_document->path()},
                                         {"name", QString::fromStdString(m_document->project()->name)},
                                         {"pid", QCoreApplication::applicationPid()},
                                         {"saved", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}})
                   .toJson());
    if (!note.commit())
        return makeError(ErrorCode::Io, "cannot write the recovery note: " + note.errorString().toStdString(),
                         {m_folder.toStdString()});
    m_savedIndex = m_document->undoStack()->index();
    return {};
}

void Autosave::discard()
{
    m_savedIndex = -1;
    if (QDir(m_folder).exists())
        QDir(m_folder).removeRecursively();
}

std::vector<Autosave::Entry> Autosave::orphans()
{
    std::vector<Entry> out;
    const QDir root(recoveryRoot());
    for (const QString& name : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString folder = root.filePath(name);
        QFile file(QDir(folder).filePath(kNoteName));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const auto note = QJsonDocument::fromJson(file.readAll()).object();
        if (processAlive(static_cast<qint64>(note.value("pid").toDouble())))
            continue; // another running workbench's autosave
        out.push_back({folder, note.value("original").toString(), note.value("name").toString(),
                       QDateTime::fromString(note.value("saved").toString(), Qt::ISODate)});
    }
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.savedAt > b.savedAt; });
    return out;
}

Status Autosave::recover(const Entry& entry, ProjectDocument& document)
{
    if (auto s = document.load(QDir(entry.folder).filePath(kProjectName)); !s)
        return s;
    document.adoptRecovered(entry.originalPath);
    remove(entry);
    return {};
}

void Autosave::remove(const Entry& entry) { QDir(entry.folder).removeRecursively(); }

} // namespace meridian::document
