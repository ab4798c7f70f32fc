#pragma once

#include <QObject>
#include <QString>

#include <vector>

class QAction;
class QWidget;

namespace meridian::jobs {
class JobRunner;
}

namespace meridian::document {
class ProjectDocument;
}

// How a feature joins the workbench, as Qt Creator's plugins join its main window: the main window is a
// WorkbenchShell (the open project, the job runner, the status line and error box, the project's own panels) and
// holds a list of WorkbenchFeature objects (partitioning/ui/graphs_feature.h, capture/ui/capture_feature.h,
// collectives/ui/collectives_feature.h), each of which builds its own panels, actions and jobs for the shell and
// says where they go: its tabs, in their order among the others, and its entries in the File > Import,
// File > Export and Run menus. The main window places them and knows none of their wiring.

namespace meridian::workbench {

class ApplicationsPanel;
class NetworkPanel;

/// What the main window lends a feature.
class WorkbenchShell {
public:
    virtual ~WorkbenchShell() = default;
    virtual document::ProjectDocument* document() const = 0;
    virtual jobs::JobRunner* jobRunner() const = 0;
    /// The window, as the parent of a feature's dialogs.
    virtual QWidget* shellWindow() = 0;
    /// Brings a tab to the front.
    virtual void showTab(QWidget* panel) = 0;
    /// The project's own tabs, where an import shows what it added.
    virtual ApplicationsPanel* applicationsPanel() const = 0;
    virtual NetworkPanel* networkPanel() const = 0;
    virtual void showStatus(const QString& message, int milliseconds) = 0;
    /// An error the user should see: a message box (when interactive) and the status line.
    virtual void showError(const QString& title, const QString& message) = 0;
};

/// One feature's part of the workbench. Created with the shell, which owns it as a QObject child.
class WorkbenchFeature : public QObject {
public:
    using QObject::QObject;

    /// A tab of the centre: its place among the tabs (the project's are 10 Site map, 20 Network, 30 Applications,
    /// 50 Matrices, 60 Compare, 70 Diff), its title, and the texts of its status tip and What's This.
    struct Tab {
        int order = 0;
        QWidget* panel = nullptr;
        QString title;
        QString statusTip;
        QString whatsThis;
    };
    enum class Menu { Import, Export, Run };
    /// A menu entry, placed by its order among the menu's entries (the shell's are multiples of 10).
    struct Entry {
        Menu menu = Menu::Import;
        int order = 0;
        QAction* action = nullptr;
    };

    virtual std::vector<Tab> tabs() const { return {}; }
    virtual std::vector<Entry> entries() const { return {}; }
};

} // namespace meridian::workbench
