#pragma once

#include "app/actions/run_controller.h"
#include "app/document/project_document.h"
#include "app/jobs/job_runner.h"
#include "app/report/report_writer.h"
#include "core/common/expected.h"
#include "core/common/registry.h"
#include "core/mapping/mapper.h"

#include <QMainWindow>

class QMenu;
class QTabWidget;

namespace meridian::workbench {

class ComparePanel;
class DiffPanel;
class JobsPanel;
class MapPanel;
class MatrixPanel;
class RunPanel;
class RunsPanel;

/// The workbench window. Thin: it owns the document, the mapper registry, the JobRunner and the run
/// controller, lays out the panels (map, matrices, compare, diff in the centre; run panel, runs and
/// jobs in docks) and wires menus to them. Recent files and the window layout are kept in QSettings.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum CentralTab { MapTab, MatricesTab, CompareTab, DiffTab };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads a project; on error the window keeps what it showed and the error is returned.
    Status loadProject(const QString& path);
    /// Like loadProject, but reports an error in a message box.
    bool openProject(const QString& path);
    /// Opens a dropped or imported file: a project, or sites (CSV/GeoJSON) to import. Errors are reported.
    bool openOrImport(const QString& path);
    Status saveProject(const QString& path);
    /// Writes the report as HTML or PDF (by suffix).
    Status writeReport(const QString& path);
    report::ReportImages reportImages();

    document::ProjectDocument* document() const { return m_document; }
    jobs::JobRunner* jobRunner() const { return m_runner; }
    actions::RunController* runController() const { return m_controller; }
    QTabWidget* centralTabs() const { return m_tabs; }
    MapPanel* mapPanel() const { return m_mapPanel; }
    MatrixPanel* matrixPanel() const { return m_matrixPanel; }
    ComparePanel* comparePanel() const { return m_comparePanel; }
    DiffPanel* diffPanel() const { return m_diffPanel; }
    RunPanel* runPanel() const { return m_runPanel; }
    RunsPanel* runsPanel() const { return m_runsPanel; }
    JobsPanel* jobsPanel() const { return m_jobsPanel; }
    /// The last error shown (for tests; message boxes are not modal to the test).
    const QString& lastError() const { return m_lastError; }
    /// When false, errors go to the status bar and lastError() only, not to a message box.
    void setInteractive(bool on) { m_interactive = on; }

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void showError(const QString& title, const QString& message);
    void updateTitle();
    void addRecentFile(const QString& path);
    void rebuildRecentMenu();
    bool maybeSave();
    void newProject();
    void openWithDialog();
    bool saveWithDialog();
    void importSitesWithDialog();
    void importMappingWithDialog();
    void exportHeatmapWithDialog();
    void exportMapWithDialog();
    void reportWithDialog();

    document::ProjectDocument* m_document = nullptr;
    Registry<mapping::Mapper> m_mappers;
    jobs::JobRunner* m_runner = nullptr;
    actions::RunController* m_controller = nullptr;
    QTabWidget* m_tabs = nullptr;
    MapPanel* m_mapPanel = nullptr;
    MatrixPanel* m_matrixPanel = nullptr;
    ComparePanel* m_comparePanel = nullptr;
    DiffPanel* m_diffPanel = nullptr;
    RunPanel* m_runPanel = nullptr;
    RunsPanel* m_runsPanel = nullptr;
    JobsPanel* m_jobsPanel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QString m_lastError;
    bool m_interactive = true;
};

} // namespace meridian::workbench
