#pragma once

#include "app/jobs/job_runner.h"
#include "app/mapping/ui/run_controller.h"
#include "app/project/ui/autosave.h"
#include "app/project/ui/project_document.h"
#include "app/project/ui/workbench_feature.h"
#include "app/report/report_writer.h"
#include "core/common/expected.h"
#include "core/common/registry.h"
#include "core/mapping/mapper.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>

class QMenu;
class QMessageBox;
class QLabel;
class QTabWidget;

namespace meridian::workbench {

class ApplicationsPanel;
class CaptureFeature;
class CollectivesFeature;
class ComparePanel;
class NetworkPanel;
class NewProjectWizard;
class CollectivesPanel;
class DiffPanel;
class GraphsFeature;
class GraphsPanel;
class JobsPanel;
class MapPanel;
class MatrixPanel;
class RunPanel;
class RunsPanel;
class ShortcutsDialog;
class UserGuideDialog;

/// The workbench window, the shell the features join (workbench_feature.h). It owns the document, the mapper
/// registry, the JobRunner and the run controller, the project's panels (map, network, applications, matrices, diff)
/// and the runs' (run panel, runs and jobs in docks, compare), and the features (graphs, capture, collectives), whose
/// tabs and menu entries it places by their order. Recent files and the window layout are kept in QSettings.
class MainWindow
    : public QMainWindow
    , public WorkbenchShell {
    Q_OBJECT
public:
    enum CentralTab {
        MapTab,
        NetworkTab,
        ApplicationsTab,
        GraphsTab,
        MatricesTab,
        CompareTab,
        DiffTab,
        CollectivesTab
    };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads a project (with its runs from `runsFile` instead of the file beside it, when given); on error the
    /// window keeps what it showed and the error is returned.
    Status loadProject(const QString& path, const QString& runsFile = {});
    /// Like loadProject, but reports an error in a message box.
    bool openProject(const QString& path);
    /// Opens a dropped file by what its content holds (document::detectFileKind): a project opens; sites,
    /// a network matrix, an application, a capture, a probe's results, pins or a mapping are imported as one
    /// undoable edit. Where the
    /// content fits two kinds (latency or bandwidth; pins or a site-level mapping) the user is asked.
    /// A file that fits none is refused with the reason, never imported as the wrong kind.
    bool openOrImport(const QString& path);
    /// Opens File > New Project; returns the wizard (it deletes itself when closed). When it is
    /// accepted the document becomes the new project, as one edit that Undo takes back.
    NewProjectWizard* startNewProject();
    /// Applies a finished wizard's project to the document (what Finish does).
    void applyNewProject(const document::Project& project);
    /// Replaces the question asked when a dropped file fits two kinds (for tests): gets the question and
    /// the choices, returns the choice or an empty string to cancel.
    void setChoiceQuestion(std::function<QString(const QString&, const QStringList&)> ask) { m_ask = std::move(ask); }
    Status saveProject(const QString& path);
    /// Writes the report as HTML or PDF (by suffix).
    Status writeReport(const QString& path);
    /// Help > User Guide (one non-modal window, raised when open), Help > Keyboard Shortcuts, Help > About.
    UserGuideDialog* showUserGuide();
    ShortcutsDialog* showShortcuts();
    QMessageBox* showAbout();
    /// The report's figures from the views as they are (renderReportFigures).
    report::Figures reportFigures();

    document::ProjectDocument* document() const override { return m_document; }
    document::Autosave* autosave() const { return m_autosave; }
    /// Offers the work a crash left unsaved (document::Autosave::orphans), newest first: recover, discard,
    /// or keep it for later. Returns true when work was recovered into the window.
    bool offerRecovery();
    /// Recovers one entry into the window (what the Recover button does).
    Status recover(const document::Autosave::Entry& entry);
    jobs::JobRunner* jobRunner() const override { return m_runner; }
    actions::RunController* runController() const { return m_controller; }
    QTabWidget* centralTabs() const { return m_tabs; }
    MapPanel* mapPanel() const { return m_mapPanel; }
    MatrixPanel* matrixPanel() const { return m_matrixPanel; }
    NetworkPanel* networkPanel() const override { return m_networkPanel; }
    ApplicationsPanel* applicationsPanel() const override { return m_applicationsPanel; }
    GraphsPanel* graphsPanel() const;
    /// The features.
    GraphsFeature* graphs() const { return m_graphs; }
    CaptureFeature* capture() const { return m_capture; }
    CollectivesFeature* collectives() const { return m_collectives; }
    /// The action of a menu entry by its object name ("actionNewProject", "actionImportLatency", ...).
    QAction* menuAction(const QString& objectName) const;
    ComparePanel* comparePanel() const { return m_comparePanel; }
    DiffPanel* diffPanel() const { return m_diffPanel; }
    CollectivesPanel* collectivesPanel() const;
    RunPanel* runPanel() const { return m_runPanel; }
    RunsPanel* runsPanel() const { return m_runsPanel; }
    JobsPanel* jobsPanel() const { return m_jobsPanel; }
    /// The last error shown (for tests; message boxes are not modal to the test).
    const QString& lastError() const { return m_lastError; }
    /// When false, errors go to the status bar and lastError() only, not to a message box.
    void setInteractive(bool on) { m_interactive = on; }

    // WorkbenchShell
    QWidget* shellWindow() override { return this; }
    void showTab(QWidget* panel) override;
    void showStatus(const QString& message, int milliseconds) override;
    void showError(const QString& title, const QString& message) override;

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void connectRunStatus();
    void buildDocks();
    /// The docks' default sizes (a window without a saved layout).
    void sizeDocks();
    /// The version of the dock layout saved in the settings; a layout of another version is not restored.
    static constexpr int kDockLayoutVersion = 2;
    bool m_defaultDockSizes = false; ///< no saved layout: the docks get their default sizes when first shown
    void buildMenus();
    void explainPanels();
    bool openOrImportUnguarded(const QString& path);
    /// Adds the project's tabs and the features' in their order.
    void addTabs();
    void updateTitle();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    bool maybeSave();
    void newProject();
    void openWithDialog();
    bool saveWithDialog();
    void importSitesWithDialog();
    void importHostsWithDialog();
    void importNetworkWithDialog(model::NetworkQuantity quantity);
    void importApplicationWithDialog();
    void importPinsWithDialog();
    void importMappingWithDialog();
    /// Sends runs to an MPI launcher (LaunchDialog, RunController::submitLaunched): the ticked ones (Run > Run
    /// Ticked Algorithms on a Launcher), or a budget sweep's (Run > Sweep the Budget on a Launcher, each point a run).
    void launchWithDialog(const std::vector<actions::RunRequest>& requests);
    bool importMapping(const QString& path);
    bool importNetwork(model::NetworkQuantity quantity, const QString& path);
    /// The application imports go to: the one selected in the Applications tab, else the run panel's.
    std::string targetApplication() const;
    void exportHeatmapWithDialog();
    void exportMapWithDialog();
    void reportWithDialog();

    document::ProjectDocument* m_document = nullptr;
    document::Autosave* m_autosave = nullptr;
    QLabel* m_readOnlyLabel = nullptr; ///< in the status bar while the project is open read-only
    Registry<mapping::Mapper> m_mappers;
    jobs::JobRunner* m_runner = nullptr;
    actions::RunController* m_controller = nullptr;
    QTabWidget* m_tabs = nullptr;
    MapPanel* m_mapPanel = nullptr;
    MatrixPanel* m_matrixPanel = nullptr;
    NetworkPanel* m_networkPanel = nullptr;
    ApplicationsPanel* m_applicationsPanel = nullptr;
    ComparePanel* m_comparePanel = nullptr;
    DiffPanel* m_diffPanel = nullptr;
    GraphsFeature* m_graphs = nullptr;
    CaptureFeature* m_capture = nullptr;
    CollectivesFeature* m_collectives = nullptr;
    std::vector<WorkbenchFeature*> m_features;
    RunPanel* m_runPanel = nullptr;
    RunsPanel* m_runsPanel = nullptr;
    JobsPanel* m_jobsPanel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QString m_lastError;
    bool m_interactive = true;
    QPointer<UserGuideDialog> m_guide;
    std::function<QString(const QString&, const QStringList&)> m_ask;
};

} // namespace meridian::workbench
