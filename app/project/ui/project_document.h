#pragma once

#include "app/project/project.h"
#include "app/project/project_file.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/io/file_lock.h"
#include "core/model/network_estimator.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QFileSystemWatcher;
class QUndoStack;

namespace meridian::document {

/// The open project as the workbench sees it: an immutable snapshot of the inputs (replaced, never
/// mutated, so jobs can hold it while the user edits), the undo stack every edit goes through, the file
/// it came from, and the runs computed on it.
///
/// Every change is an undoable command: edit() pushes one QUndoCommand that replaces the snapshot (jobs keep the
/// snapshot they started with), adding or deleting runs changes the run list. A run is stale when the fingerprint
/// of its inputs no longer matches the current project. While the project is open the document holds its lock
/// (ProjectFile::lock), so `meridian-cli project` waits for it; a project another program holds opens read-only.
/// Graph files are watched (QFileSystemWatcher): a change asks for a check (graphCheckNeeded), which the main
/// window runs as a job, and setGraphChange makes the runs on that graph stale. Lives on the main thread; snapshots
/// may be read from any thread.
class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(QObject* parent = nullptr);
    ~ProjectDocument() override;

    /// Returns the current inputs; never null (an empty project before anything is opened).
    std::shared_ptr<const Project> project() const { return m_project; }
    /// Returns the network with missing entries estimated, for the current project.
    const model::Network& completeNetwork() const { return m_completeNetwork; }
    /// Returns how the estimate was made ("latency = a + b d ...").
    const QString& networkModelText() const { return m_networkModelText; }
    QUndoStack* undoStack() const { return m_undoStack; }
    const QString& path() const { return m_path; }
    bool isModified() const;

    /// Replaces the document by a project read from a file, with its saved runs (RunFile) when there are
    /// any; on error (in the project or the runs file) the document is unchanged.
    /// `runsFile` reads the runs from another file than the one beside the project (it must exist).
    Status load(const QString& path, const QString& runsFile = {});
    /// True when another program held the project's lock as it was opened: saving to its file waits for that
    /// program (and fails, naming it, if it keeps the lock); readOnlyReason() says who it was.
    bool isReadOnly() const { return !m_readOnlyReason.isEmpty(); }
    /// Whether load() takes the project's lock (default); a reader that never saves (meridian-report) turns it off.
    void setTakesLock(bool takes) { m_takesLock = takes; }
    const QString& readOnlyReason() const { return m_readOnlyReason; }
    /// What the workbench writes into a project's lock file.
    static constexpr const char* kLockHolder = "Meridian workbench";
    /// Returns how many saved stale runs the last load left out because they no longer fit the project.
    int skippedRuns() const { return m_skippedRuns; }
    /// Saves the project and its runs (RunFile, beside it) to `path` (empty: the current path) in one transaction
    /// and marks the undo stack clean. The document holds the lock of the file it saves to from then on.
    Status save(const QString& path = {});
    /// After loading recovered work: takes `originalPath` as the document's file (empty for a project never
    /// saved) and marks the document unsaved, so Save writes the recovered work where it belongs.
    void adoptRecovered(const QString& originalPath);
    /// Replaces the document by `project` with no file and no runs (undo history cleared).
    void reset(Project project, const QString& path = {});

    /// Applies an edit of the inputs as one undoable command named `text`. On error nothing changes.
    Status edit(const QString& text, const std::function<Expected<Project>(const Project&)>& change);

    const std::vector<std::shared_ptr<const Run>>& runs() const { return m_runs; }
    std::shared_ptr<const Run> run(int id) const;
    /// Adds runs (ids are assigned here) as one undoable command; returns their ids.
    std::vector<int> addRuns(std::vector<Run> runs, const QString& text);
    /// Deletes runs as one undoable command.
    void removeRuns(const std::vector<int>& ids);
    /// Returns true when the run's inputs have changed since it was computed (for a partition run, also
    /// when its graph's files changed on disk since they were imported).
    bool isStale(const Run& run) const;
    /// Returns what changed on disk since a graph of the project was imported ("" when nothing did, or when it
    /// was not checked yet): its file or homes file edited, replaced or gone. Checking reads the files
    /// (checksums), so it is done off the main thread: graphCheckNeeded asks for it when a graph is added or
    /// loaded and when a file watcher reports a change; setGraphChange delivers the answer. A run on a changed
    /// file refuses to start anyway (document::loadGraphInput checks too).
    std::string graphChangeOnDisk(const std::string& graph) const;
    /// The graphs whose files have not been checked since they last changed.
    std::vector<GraphInput> uncheckedGraphs() const;
    /// Records what a check found for a graph (graphChangeOnDisk for those very files) and updates the views.
    void setGraphChange(const GraphInput& graph, const std::string& change);
    /// Returns the ids of all stale runs.
    std::vector<int> staleRuns() const;
    /// Returns the fingerprint of an application's inputs in the current project.
    std::uint64_t fingerprint(const std::string& application) const;

    /// The run selected in any view (-1: none). Not part of the undo history.
    int currentRun() const { return m_currentRun; }
    void setCurrentRun(int id);

    // Used by the undo commands only.
    void setProjectSnapshot(std::shared_ptr<const Project> project);
    void insertRuns(const std::vector<std::shared_ptr<const Run>>& runs);
    void eraseRuns(const std::vector<int>& ids);

Q_SIGNALS:
    /// The inputs changed (edit, undo, redo, load).
    void projectChanged();
    /// Runs were added or deleted, or their staleness may have changed.
    void runsChanged();
    void currentRunChanged(int id);
    /// A different project replaced the document (load, new): views may re-frame themselves.
    void reloaded();
    /// The file path or the modified state changed.
    void titleChanged();
    /// A graph's file or homes file was checked (see graphChangeOnDisk).
    void graphFilesChanged();
    /// Some graphs need their files checked (uncheckedGraphs).
    void graphCheckNeeded();

private:
    void watchGraphFiles();

    std::shared_ptr<const Project> m_project;
    QFileSystemWatcher* m_graphWatcher = nullptr;
    /// graph file path + checksums as imported -> what changed ("" nothing); cleared for a path the watcher reports
    std::map<std::string, std::string> m_graphChanges;
    model::Network m_completeNetwork;
    QString m_networkModelText;
    QUndoStack* m_undoStack = nullptr;
    QString m_path;
    std::optional<io::FileLock> m_lock; ///< the project's lock while this document may write it
    QString m_readOnlyReason;           ///< who held the lock when the project was opened
    bool m_takesLock = true;
    ProjectFile::Stamp m_diskStamp; ///< the saved state this document was read from or last wrote
    std::vector<std::shared_ptr<const Run>> m_runs;
    mutable std::map<std::string, std::uint64_t> m_fingerprints;
    int m_nextRunId = 1;
    int m_skippedRuns = 0;
    int m_currentRun = -1;
};

} // namespace meridian::document
