#pragma once

#include "app/document/project.h"
#include "core/common/expected.h"

#include <QString>

namespace meridian::document {

/// Reads and writes Meridian project files: JSON with "format": "meridian-project" and an integer
/// "version" (this build writes and reads version 1). Network matrices are stored inline (null for a
/// missing entry) or referenced as a CSV/Matrix Market file; communication matrices (Matrix Market)
/// and pins (CSV) live beside the project as sidecar files referenced by paths relative to it.
class ProjectFile {
public:
    static constexpr int kVersion = 1;

    /// Loads a project, first finishing a save that a kill interrupted (its journal). Errors name the file (the project or the sidecar) and, for JSON syntax errors,
    /// the line and column; a newer version or a missing sidecar is a clear error.
    static Expected<Project> load(const QString& path);

    /// Saves a project and its sidecars (under the names withSidecarNames gives) as one transaction: all
    /// are written and synced to temporaries, a journal (journalPath) records them, then they are renamed
    /// into place, the project last. A kill before the journal leaves the old files; after it, the next load
    /// finishes the save. Either way the project and its sidecars are never a mix of two saves.
    static Status save(const Project& project, const QString& path);
    /// Returns the journal of an unfinished save of a project: "<project>.saving" beside it.
    static QString journalPath(const QString& projectPath);

    enum class SidecarKind { Volume, Messages, Pins };
    /// Returns the project with every application's sidecar file names set: names it already has are kept
    /// (so saving never renames a user's files), except one that another application uses already or
    /// whose suffix does not fit what Meridian writes (.mtx, .csv); the others get sidecarName(), made
    /// unique with "-2", "-3", ... Saving uses these names.
    static Project withSidecarNames(const Project& project);
    /// Returns the sidecar file name of an application's volume, message counts or pins
    /// ("lu.volume.mtx", "lu.messages.mtx", "lu.pins.csv").
    static QString sidecarName(const std::string& applicationName, SidecarKind kind);
};

} // namespace meridian::document
