#pragma once

#include "app/project/ui/project_document.h"
#include "core/common/expected.h"

#include <QDateTime>
#include <QObject>
#include <QString>

#include <vector>

class QTimer;

namespace meridian::document {

/// Keeps unsaved work safe from a crash. Every interval (a minute by default) a document with unsaved
/// changes is written, with its runs, to a folder of its own under the recovery directory, beside a note of
/// the file it belongs to and of the process that wrote it. A save or a clean close removes the folder, so
/// a folder whose process is gone is what a crash or a kill left behind: the workbench offers it at start.
///
/// The recovery directory is $MERIDIAN_RECOVERY_DIR, else QStandardPaths' AppLocalDataLocation/recovery.
class Autosave : public QObject {
    Q_OBJECT
public:
    /// What a crash left: the folder, the project file it belongs to (empty for a project never saved),
    /// the project's name and when it was autosaved.
    struct Entry {
        QString folder;
        QString originalPath;
        QString projectName;
        QDateTime savedAt;
    };

    explicit Autosave(ProjectDocument* document, QObject* parent = nullptr);
    ~Autosave() override;

    static QString recoveryRoot();
    /// Sets the interval between autosaves in milliseconds.
    void setInterval(int milliseconds);
    /// Writes the document now when it has unsaved changes (what the timer does); returns the error, if any.
    Status autosaveNow();
    /// Removes this session's recovery folder (after a save, or when closing without keeping changes).
    void discard();
    /// The folder this session autosaves to.
    const QString& folder() const { return m_folder; }

    /// Returns the recovery folders whose process is no longer running, newest first.
    static std::vector<Entry> orphans();
    /// Loads an entry into a document: the project and runs as autosaved, the file path they belong to,
    /// and marked unsaved, so Save writes them where the user had them. The entry is then removed.
    static Status recover(const Entry& entry, ProjectDocument& document);
    /// Deletes an entry the user chose not to recover.
    static void remove(const Entry& entry);

private:
    ProjectDocument* m_document;
    QTimer* m_timer = nullptr;
    QString m_folder;
    int m_savedIndex = -1; ///< the undo index last autosaved, to skip unchanged documents
};

} // namespace meridian::document
