#include "app/project/ui/project_document.h"

#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "app/project/run_file.h"

#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>

#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

namespace meridian::document {

namespace {

// Replaces the whole input snapshot; both snapshots are shared, so consecutive commands share memory.
class ReplaceProjectCommand : public QUndoCommand {
public:
    ReplaceProjectCommand(ProjectDocument* document, std::shared_ptr<const Project> before,
                          std::shared_ptr<const Project> after, const QString& text)
        : QUndoCommand(text)
        , m_document(document)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {}
    void undo() override { m_document->setProjectSnapshot(m_before); }
    void redo() override { m_document->setProjectSnapshot(m_after); }

private:
    ProjectDocument* m_document;
    std::shared_ptr<const Project> m_before;
    std::shared_ptr<const Project> m_after;
};

// Adds runs on redo and takes them out on undo (or the reverse, for a deletion).
class RunListCommand : public QUndoCommand {
public:
    RunListCommand(ProjectDocument* document, std::vector<std::shared_ptr<const Run>> runs, bool add,
                   const QString& text)
        : QUndoCommand(text)
        , m_document(document)
        , m_runs(std::move(runs))
        , m_add(add)
    {
        for (const auto& r : m_runs)
            m_ids.push_back(r->id);
    }
    void undo() override { apply(!m_add); }
    void redo() override { apply(m_add); }

private:
    void apply(bool add)
    {
        if (add)
            m_document->insertRuns(m_runs);
        else
            m_document->eraseRuns(m_ids);
    }
    ProjectDocument* m_document;
    std::vector<std::shared_ptr<const Run>> m_runs;
    std::vector<int> m_ids;
    bool m_add;
};

} // namespace

ProjectDocument::ProjectDocument(QObject* parent)
    : QObject(parent)
    , m_project(std::make_shared<const Project>())
    , m_undoStack(new QUndoStack(this))
{
    m_undoStack->setUndoLimit(200);
    m_graphWatcher = new QFileSystemWatcher(this);
    connect(m_graphWatcher, &QFileSystemWatcher::fileChanged, this, [this](const QString& file) {
        const std::string path = file.toStdString();
        std::erase_if(m_graphChanges,
                      [&](const auto& entry) { return entry.first.find(path + '\n') != std::string::npos; });
        watchGraphFiles(); // an editor's save replaces the file, which drops it from the watcher
        Q_EMIT graphCheckNeeded();
    });
    connect(m_undoStack, &QUndoStack::cleanChanged, this, &ProjectDocument::titleChanged);
    setProjectSnapshot(m_project);
}

ProjectDocument::~ProjectDocument() = default;

bool ProjectDocument::isModified() const { return !m_undoStack->isClean(); }

Status ProjectDocument::load(const QString& path, const QString& runsFile)
{
    // The workbench holds the project's lock while the project is open, so that a command line edit waits for it
    // (and says who holds it) instead of being overwritten by the next save. A project another program holds is
    // opened read-only: saving it waits for that program, Save As writes elsewhere.
    std::optional<io::FileLock> lock;
    QString refusal;
    const bool holding = m_lock
        && m_lock->path() == QFileInfo(ProjectFile::lockPath(path)).absoluteFilePath().toStdString();
    if (holding) {
        lock = std::move(m_lock); // opened again: the lock stays
        m_lock.reset();
    } else if (m_takesLock) {
        if (auto taken = ProjectFile::lock(path, kLockHolder, 0))
            lock = std::move(*taken);
        else
            refusal = QString::fromStdString(taken.error().message);
    }
    const auto fail = [&](Error error) {
        if (holding)
            m_lock = std::move(lock); // the project open before stays open, and locked
        else if (lock)
            lock->discard(); // a project that does not open leaves no lock file
        return error;
    };
    const QString runsPath = runsFile.isEmpty() ? RunFile::pathFor(path) : runsFile;
    if (!runsFile.isEmpty() && !QFile::exists(runsFile))
        return fail(makeError(ErrorCode::Io, "no such runs file", {runsFile.toStdString(), 0, 0}));
    // The project and its runs file are one save: without the lock, both are read again if a save replaced them
    // meanwhile, and a pending save's runs are read from its temporary.
    Expected<Project> loaded = makeError(ErrorCode::Internal, "not read");
    LoadedRuns runs;
    ProjectFile::Stamp before;
    for (int attempt = 0; attempt < ProjectFile::kLoadAttempts; ++attempt) {
        before = ProjectFile::stamp(path);
        loaded = ProjectFile::load(path);
        if (!loaded)
            return fail(loaded.error());
        const QString runsSource = lock || !runsFile.isEmpty() ? runsPath : ProjectFile::pendingFile(path, runsPath);
        runs = {};
        if (QFile::exists(runsSource)) {
            auto read = RunFile::load(runsSource, *loaded);
            if (!read)
                return fail(inFile(read.error(), runsPath.toStdString()));
            runs = std::move(*read);
        }
        if (lock || ProjectFile::stamp(path) == before)
            break;
        if (attempt + 1 == ProjectFile::kLoadAttempts)
            return fail(makeError(ErrorCode::Busy, "the project kept changing while it was read; try again",
                                  {path.toStdString()}));
    }
    reset(std::move(*loaded), path);
    m_lock = std::move(lock);
    m_readOnlyReason = refusal;
    m_diskStamp = before;
    for (auto& r : runs.runs) {
        m_nextRunId = std::max(m_nextRunId, r.id + 1);
        m_runs.push_back(std::make_shared<const Run>(std::move(r)));
    }
    std::sort(m_runs.begin(), m_runs.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
    m_skippedRuns = runs.skippedStale;
    Q_EMIT runsChanged();
    return {};
}

Status ProjectDocument::save(const QString& path)
{
    const QString target = path.isEmpty() ? m_path : path;
    if (target.isEmpty())
        return makeError(ErrorCode::InvalidInput, "the project has no file name yet");
    // Without the target's lock (Save As, or a project opened read-only) the lock is taken first; it replaces the
    // old one only once the save succeeded, so a failed Save As leaves the open project locked as it was.
    std::optional<io::FileLock> taken;
    if (!m_lock || m_lock->path() != QFileInfo(ProjectFile::lockPath(target)).absoluteFilePath().toStdString()) {
        auto lock = ProjectFile::lock(target, kLockHolder, io::FileLock::waitSeconds(ProjectFile::kLockWaitSeconds));
        if (!lock)
            return lock.error();
        taken = std::move(*lock);
        // The document's own file, changed by another program since it was read here (while this document did not
        // hold the lock): saving would silently undo that program's edit.
        if (QFileInfo(target).absoluteFilePath() == QFileInfo(m_path).absoluteFilePath()
            && ProjectFile::stamp(target) != m_diskStamp) {
            taken->discard();
            return makeError(ErrorCode::Busy,
                             "another program changed the project since it was opened here; open it again to see "
                             "its changes, or save this one elsewhere with Save As",
                             {target.toStdString()});
        }
    }
    // The sidecar names chosen now stay with the applications, so a later rename does not rename files.
    auto named = std::make_shared<const Project>(ProjectFile::withSidecarNames(*m_project));
    // The runs are saved with the project, in one transaction.
    const QString runsPath = RunFile::pathFor(target);
    std::vector<io::PendingFile> runsFile;
    if (!m_runs.empty() || QFileInfo::exists(runsPath))
        runsFile.push_back(io::textFile(runsPath.toStdString(), RunFile::text(m_runs)));
    if (auto s = ProjectFile::save(*named, target, runsFile); !s) {
        if (taken)
            taken->discard(); // a Save As that failed leaves no lock file where it meant to write
        return s;
    }
    if (taken) {
        m_lock = std::move(taken); // Save As: the old file is no longer this document's
        m_readOnlyReason.clear();
    }
    m_diskStamp = ProjectFile::stamp(target);
    m_project = std::move(named); // same inputs: nothing to recompute, no view to update
    m_path = target;
    m_undoStack->setClean();
    Q_EMIT titleChanged();
    return {};
}

void ProjectDocument::adoptRecovered(const QString& originalPath)
{
    // The recovered work belongs to the original file: it is locked now, as an opened project is (or read-only).
    m_lock.reset();
    m_readOnlyReason.clear();
    if (!originalPath.isEmpty()) {
        if (auto taken = ProjectFile::lock(originalPath, kLockHolder, 0))
            m_lock = std::move(*taken);
        else
            m_readOnlyReason = QString::fromStdString(taken.error().message);
        m_diskStamp = ProjectFile::stamp(originalPath);
    }
    m_path = originalPath;
    m_undoStack->resetClean();
    Q_EMIT titleChanged();
}

void ProjectDocument::reset(Project project, const QString& path)
{
    m_undoStack->clear();
    m_lock.reset();
    m_readOnlyReason.clear();
    m_path = path;
    m_runs.clear();
    m_nextRunId = 1;
    m_skippedRuns = 0;
    m_currentRun = -1;
    setProjectSnapshot(std::make_shared<const Project>(std::move(project)));
    m_undoStack->setClean();
    Q_EMIT runsChanged();
    Q_EMIT currentRunChanged(-1);
    Q_EMIT titleChanged();
    Q_EMIT reloaded();
}

Status ProjectDocument::edit(const QString& text, const std::function<Expected<Project>(const Project&)>& change)
{
    // Edits return errors as values; an exception is a defect, reported as one and never half-applied.
    Expected<Project> edited = makeError(ErrorCode::Internal, "the edit did not run");
    try {
        edited = change(*m_project);
    } catch (const std::exception& e) {
        return makeError(ErrorCode::Internal, std::string("internal error while editing: ") + e.what());
    }
    if (!edited)
        return edited.error();
    m_undoStack->push(
        new ReplaceProjectCommand(this, m_project, std::make_shared<const Project>(std::move(*edited)), text));
    return {};
}

void ProjectDocument::setProjectSnapshot(std::shared_ptr<const Project> project)
{
    m_project = std::move(project);
    model::DistanceModel model;
    m_completeNetwork = m_project->topology.siteCount() > 0 ? m_project->completeNetwork(&model) : model::Network();
    m_networkModelText = m_project->topology.siteCount() > 0 ? QString::fromStdString(model.describe()) : QString();
    m_fingerprints.clear();
    watchGraphFiles();
    if (!uncheckedGraphs().empty())
        Q_EMIT graphCheckNeeded();
    Q_EMIT projectChanged();
    Q_EMIT runsChanged();
}

std::uint64_t ProjectDocument::fingerprint(const std::string& application) const
{
    auto it = m_fingerprints.find(application);
    if (it == m_fingerprints.end())
        it = m_fingerprints.emplace(application, inputFingerprint(*m_project, application)).first;
    return it->second;
}

std::shared_ptr<const Run> ProjectDocument::run(int id) const
{
    for (const auto& r : m_runs)
        if (r->id == id)
            return r;
    return nullptr;
}

std::vector<int> ProjectDocument::addRuns(std::vector<Run> runs, const QString& text)
{
    std::vector<std::shared_ptr<const Run>> shared;
    std::vector<int> ids;
    for (auto& r : runs) {
        r.id = m_nextRunId++;
        ids.push_back(r.id);
        shared.push_back(std::make_shared<const Run>(std::move(r)));
    }
    if (!shared.empty())
        m_undoStack->push(new RunListCommand(this, std::move(shared), true, text));
    return ids;
}

void ProjectDocument::removeRuns(const std::vector<int>& ids)
{
    std::vector<std::shared_ptr<const Run>> removed;
    for (int id : ids)
        if (auto r = run(id))
            removed.push_back(r);
    if (removed.empty())
        return;
    const QString text = removed.size() == 1 ? tr("Delete run %1").arg(QString::fromStdString(removed[0]->label()))
                                             : tr("Delete %1 runs").arg(removed.size());
    m_undoStack->push(new RunListCommand(this, std::move(removed), false, text));
}

void ProjectDocument::insertRuns(const std::vector<std::shared_ptr<const Run>>& runs)
{
    for (const auto& r : runs)
        m_runs.push_back(r);
    std::sort(m_runs.begin(), m_runs.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
    Q_EMIT runsChanged();
}

void ProjectDocument::eraseRuns(const std::vector<int>& ids)
{
    std::erase_if(m_runs, [&](const auto& r) { return std::find(ids.begin(), ids.end(), r->id) != ids.end(); });
    if (std::find(ids.begin(), ids.end(), m_currentRun) != ids.end())
        setCurrentRun(-1);
    Q_EMIT runsChanged();
}

bool ProjectDocument::isStale(const Run& run) const
{
    if (fingerprint(run.application) != run.inputFingerprint)
        return true;
    return run.kind == RunKind::Partition && !graphChangeOnDisk(run.application).empty();
}

namespace {

std::string graphCheckKey(const GraphInput& input)
{
    return input.path + '\n' + std::to_string(input.checksum) + '\n' + input.homesPath + '\n'
        + std::to_string(input.homesChecksum);
}

} // namespace

std::string ProjectDocument::graphChangeOnDisk(const std::string& graph) const
{
    const int g = m_project->graphIndex(graph);
    if (g < 0)
        return {};
    const auto it = m_graphChanges.find(graphCheckKey(m_project->graphs[g]));
    return it == m_graphChanges.end() ? std::string() : it->second;
}

std::vector<GraphInput> ProjectDocument::uncheckedGraphs() const
{
    std::vector<GraphInput> out;
    for (const auto& g : m_project->graphs)
        if (!m_graphChanges.count(graphCheckKey(g)))
            out.push_back(g);
    return out;
}

void ProjectDocument::setGraphChange(const GraphInput& graph, const std::string& change)
{
    m_graphChanges[graphCheckKey(graph)] = change;
    Q_EMIT graphFilesChanged();
    Q_EMIT runsChanged();
}

void ProjectDocument::watchGraphFiles()
{
    QStringList wanted;
    for (const auto& g : m_project->graphs)
        for (const auto& path : {g.path, g.homesPath})
            if (!path.empty() && QFile::exists(QString::fromStdString(path)))
                wanted << QString::fromStdString(path);
    const QStringList watched = m_graphWatcher->files();
    for (const auto& path : watched)
        if (!wanted.contains(path))
            m_graphWatcher->removePath(path);
    for (const auto& path : wanted)
        if (!watched.contains(path))
            m_graphWatcher->addPath(path);
}

std::vector<int> ProjectDocument::staleRuns() const
{
    std::vector<int> ids;
    for (const auto& r : m_runs)
        if (isStale(*r))
            ids.push_back(r->id);
    return ids;
}

void ProjectDocument::setCurrentRun(int id)
{
    if (id == m_currentRun)
        return;
    m_currentRun = id;
    Q_EMIT currentRunChanged(id);
}

} // namespace meridian::document
