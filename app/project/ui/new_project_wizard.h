#pragma once

#include "app/project/project.h"
#include "app/project/project_imports.h"
#include "core/common/expected.h"
#include "core/synth/patterns.h"

#include <QWizard>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;

namespace meridian::widgets {
class HeatmapView;
class SiteTableModel;
class WorldMapView;
} // namespace meridian::widgets

namespace meridian::workbench {

/// File > New Project: builds a project from a user's own files in five steps, each previewing what it
/// read before anything is applied: name and description; sites (CSV or GeoJSON, shown on a map, or none
/// yet: add them on the map later); network (latency and bandwidth matrices, shown as a heatmap with the
/// entries that will be estimated); applications (imported from their matrices or generated from a
/// pattern); pins (a CSV per application). Nothing touches the open document until Finish, which the
/// main window applies as one undoable edit. Every step is also a public call, for tests and scripts.
class NewProjectWizard : public QWizard {
    Q_OBJECT
public:
    enum PageId { NamePage, SitesPage, NetworkPage, ApplicationsPage, PinsPage };

    explicit NewProjectWizard(QWidget* parent = nullptr);

    /// The project as built so far.
    const document::Project& project() const { return m_project; }

    // Each step; on error (returned, and shown on the page) the project is unchanged.
    void setProjectName(const QString& name, const QString& description = {});
    QString setSitesFile(const QString& path);
    /// Adds a site of one node with one slot (what double-clicking the map does).
    QString addSite(const QString& name, double latitude, double longitude);
    /// Sets one cell of the sites table (widgets::SiteTableModel's columns): nodes, slots, up/down
    /// bandwidth, egress price, ...
    QString setSiteField(int site, int column, const QString& text);
    QString setNetworkFile(model::NetworkQuantity quantity, const QString& path);
    QString addApplication(const QString& name, const document::ApplicationFiles& files);
    QString addGeneratedApplication(const QString& name, synth::Pattern pattern, const synth::PatternOptions& options);
    QString setPinsFile(const QString& application, const QString& path);

    widgets::WorldMapView* sitesPreview() const { return m_map; }
    widgets::SiteTableModel* sitesTable() const { return m_siteModel; }
    widgets::HeatmapView* networkPreview() const { return m_heatmap; }

private:
    QWizardPage* buildNamePage();
    QWizardPage* buildSitesPage();
    QWizardPage* buildNetworkPage();
    QWizardPage* buildApplicationsPage();
    QWizardPage* buildPinsPage();
    void showSites();
    void showNetwork(model::NetworkQuantity quantity);
    void showApplications();
    bool validateCurrentPage() override;

    document::Project m_project;
    QLineEdit* m_name = nullptr;
    QPlainTextEdit* m_description = nullptr;
    QLabel* m_sitesNote = nullptr;
    widgets::WorldMapView* m_map = nullptr;
    widgets::SiteTableModel* m_siteModel = nullptr;
    QLabel* m_networkNote = nullptr;
    widgets::HeatmapView* m_heatmap = nullptr;
    QComboBox* m_showWhich = nullptr;
    QListWidget* m_applications = nullptr;
    QLabel* m_applicationsNote = nullptr;
    QListWidget* m_pins = nullptr;
    QLabel* m_pinsNote = nullptr;
};

} // namespace meridian::workbench
