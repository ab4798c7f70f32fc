#pragma once

#include "app/document/project.h"
#include "core/common/expected.h"

#include <QMainWindow>

class QComboBox;
class QCheckBox;
class QLabel;
class QTableView;

namespace meridian::widgets {
class HeatmapView;
class SiteTableModel;
}

namespace meridian::workbench {

/// The workbench window: the project's sites in a table and one matrix (an application's volume,
/// message counts or average message size, or the network's latency or bandwidth) as a heatmap.
/// Thin: it wires views to the project and leaves the work to core and widgets.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads a project and shows it; on error the window keeps what it showed and the error is returned.
    Status loadProject(const QString& path);
    /// Like loadProject, but reports an error in a message box.
    bool openProject(const QString& path);

    const document::Project* project() const { return m_project.get(); }
    widgets::HeatmapView* heatmap() const { return m_heatmap; }
    QComboBox* matrixChooser() const { return m_matrixChooser; }
    QTableView* siteTable() const { return m_siteTable; }

private:
    void openWithDialog();
    void showSelectedMatrix();
    void rebuildMatrixChooser();

    std::unique_ptr<document::Project> m_project;
    model::Network m_completeNetwork;
    QString m_path;
    widgets::SiteTableModel* m_siteModel = nullptr;
    QTableView* m_siteTable = nullptr;
    QLabel* m_networkNote = nullptr;
    QComboBox* m_matrixChooser = nullptr;
    QCheckBox* m_logScale = nullptr;
    widgets::HeatmapView* m_heatmap = nullptr;
};

} // namespace meridian::workbench
