#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"
#include "core/io/file_lock.h"
#include "core/io/journal.h"

#include <QString>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace meridian::document {

/// Reads and writes Meridian project files: JSON with "format": "meridian-project" and an integer
/// "version" (this build writes and reads version 1). Network matrices are stored inline (null for a
/// missing entry) or referenced as a CSV/Matrix Market file; communication matrices (Matrix Market),
/// pins (CSV) and traces (.trace.ti) live beside the project as sidecar files referenced by paths relative to it.
/// Each measured network entry keeps its date: `network.measured_at`, grouped by date, and a host link's own
/// `measured_at`.
///
/// Reading is strict: an unknown key is an error naming the key and its line; a key of the wrong JSON type is
/// refused at its line, found by walking the text along the error's JSON path; a sidecar name that is absolute,
/// climbs out with "..", or leads out of the folder through a symbolic link is refused, so a save never writes
/// outside the folder; a trace is checked against its application's matrix at every load.
///
/// Writers of a project hold its lock (io::FileLock, flock on "<project>.lock", which names the holder): the CLI's
/// project subcommands from load to save, ProjectDocument while the workbench has the project open, and save()
/// itself when its caller holds none. Only a holder finishes an interrupted save; after a save, the temporaries that
/// killed writers left beside the project's own files are removed (a temporary names its writer's process id, and a
/// live writer's stay).
class ProjectFile {
public:
    static constexpr int kVersion = 1;

    /// The largest project file read (its sidecars have their readers' own limits).
    static constexpr std::uint64_t kMaxProjectBytes = std::uint64_t{256} << 20;
    /// How long a writer waits for another writer's lock on a project by default (MERIDIAN_LOCK_WAIT_S overrides).
    static constexpr double kLockWaitSeconds = 10;

    /// Loads a project, first finishing a save that a kill interrupted (its journal, checked first: it may rename
    /// only the project's own files in its folder, see journalScope). Only a holder of the project's lock finishes a
    /// journal; without the lock (another process is saving, or the folder is read-only) the files are read as the
    /// save will leave them. Files that a save replaced while they were read are read again. Errors name the file
    /// (the project or the sidecar) and, for JSON errors, the line and column; a key of the wrong JSON type, a
    /// sidecar outside the project's folder, a newer version or a missing sidecar is a clear error.
    static Expected<Project> load(const QString& path);

    /// Saves a project and its sidecars (under the names withSidecarNames gives), with `alsoWrite` (the runs
    /// file), as one transaction under the project's lock: all are written and synced to temporaries, a journal
    /// (journalPath) records them, then they are renamed into place, the project last. A kill before the journal
    /// leaves the old files; after it, the next load finishes the save. Either way the project and its sidecars
    /// are never a mix of two saves. Every file written is inside the project's folder.
    static Status save(const Project& project, const QString& path, const std::vector<io::PendingFile>& alsoWrite = {});
    /// Returns the journal of an unfinished save of a project: "<project>.saving" beside it.
    static QString journalPath(const QString& projectPath);
    /// What identifies a saved state of a project on disk: its file's modification time, size and inode, and whether
    /// a save is pending. Every save replaces the project file, so a save changes the stamp.
    struct Stamp {
        qint64 modifiedNs = -1, size = -1, inode = -1;
        bool journal = false;
        bool operator==(const Stamp&) const = default;
    };
    static Stamp stamp(const QString& path);
    /// How often load() reads again a project that a save replaced while it was read.
    static constexpr int kLoadAttempts = 20;
    /// Returns the file to read for `file` of a project: the temporary a pending save will rename over it, if there
    /// is one, else `file` itself.
    static QString pendingFile(const QString& projectPath, const QString& file);
    /// Returns the lock file of a project: "<project>.lock" beside it.
    static QString lockPath(const QString& projectPath);
    /// Takes the project's lock (io::FileLock) for `holder`, waiting at most `waitSeconds` for another writer.
    static Expected<io::FileLock> lock(const QString& projectPath, const std::string& holder, double waitSeconds);
    /// The files a project's journal may replace and its save may write: the project file, its runs file, the files
    /// a save has `written` and, while a save is pending, the sidecars named by the project file it installs (else by
    /// the one on disk); each in the project's folder or below it (through no symbolic link leading out). A journal
    /// handed over with a project cannot replace a file beside it that the project does not name.
    static io::JournalScope journalScope(const QString& projectPath, const std::vector<std::string>& written = {});
    /// Refuses a sidecar file that is not inside the project's folder (see journalScope).
    static Status checkInsideFolder(const QString& projectPath, const QString& file);

    enum class SidecarKind { Volume, Messages, Pins, Trace };
    /// Returns the project with every application's sidecar file names set: names it already has are kept
    /// (so saving never renames a user's files), except one that another application uses already or
    /// whose suffix does not fit what Meridian writes (.mtx, .csv, .ti); the others get sidecarName(), made
    /// unique with "-2", "-3", ... Saving uses these names.
    static Project withSidecarNames(const Project& project);
    /// Returns the sidecar file name of an application's volume, message counts or pins
    /// ("lu.volume.mtx", "lu.messages.mtx", "lu.pins.csv").
    static QString sidecarName(const std::string& applicationName, SidecarKind kind);

private:
    /// Finishes an interrupted save when this process holds or can take the lock; otherwise returns the files to
    /// read from their temporaries (final -> temporary).
    static Expected<std::map<QString, QString>> finishInterruptedSave(const QString& path);
    static Expected<Project> loadFiles(const QString& path, const std::map<QString, QString>& pending);
    static Status writeTransaction(const QString& path, const std::vector<std::pair<std::string, std::string>>& outputs,
                                   const std::vector<io::PendingFile>& alsoWrite);
    static void removeStaleTemporaries(const QString& projectPath);
};

} // namespace meridian::document
