#pragma once

#include "app/project/project_imports.h"
#include "app/project/ui/project_document.h"
#include "core/synth/patterns.h"

#include <QWidget>

#include <cstdint>

class QLabel;
class QPushButton;
class QTableWidget;

namespace meridian::workbench {

/// The project's applications and their processes. The upper table lists every application with its
/// process count, total volume, message count and number of pins; buttons import one from files, generate
/// one from a pattern, rename, duplicate and delete. The lower table lists the processes of the selected
/// application with the bytes each sends and receives and the site it is pinned to; the pin cell is
/// editable (a site, or empty to unpin), and pins can be imported from a CSV or cleared. Every change is
/// one undoable edit of the document.
class ApplicationsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ApplicationsPanel(document::ProjectDocument* document, QWidget* parent = nullptr);

    QTableWidget* applicationTable() const { return m_applications; }
    QTableWidget* processTable() const { return m_processes; }
    /// The selected application's index, or -1.
    int currentApplication() const;
    void setCurrentApplication(int index);

    // The actions behind the buttons, without dialogs; each returns an error text, empty on success.
    QString importApplication(const QString& name, const document::ApplicationFiles& files);
    QString generateApplication(const QString& name, synth::Pattern pattern, const synth::PatternOptions& options);
    QString renameApplication(int index, const QString& name);
    QString duplicateApplication(int index);
    /// Attaches the trace at `path` to application `index` (checked against its matrix), or removes its trace
    /// when `path` is empty; one undoable edit. Returns the error, or an empty string.
    QString attachTrace(int index, const QString& path);
    QString deleteApplication(int index);
    /// Pins a process of the current application to a site (by name), or unpins it with an empty name.
    QString setPin(int process, const QString& site);
    QString importPins(const QString& path);
    QString clearPins();
    /// Replaces the pins by random ones at a constraint ratio (SC17's constraint generator, seeded).
    QString redrawPins(double ratio, std::uint64_t seed);
    /// Asks for an application's files in a dialog that previews what they hold, then imports it.
    void importWithDialog();

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    /// The selected application changed (name; empty when none).
    void currentApplicationChanged(const QString& name);

private:
    void rebuild();
    void rebuildProcesses();
    void generateWithDialog();
    void renameWithDialog();
    void traceWithDialog();
    void importPinsWithDialog();
    void report(const QString& title, const QString& error);

    document::ProjectDocument* m_document;
    QTableWidget* m_applications = nullptr;
    QTableWidget* m_processes = nullptr;
    QLabel* m_processTitle = nullptr;
    QList<QPushButton*> m_needSelection;
    bool m_rebuilding = false;
};

} // namespace meridian::workbench
