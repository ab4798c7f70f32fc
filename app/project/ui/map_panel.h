#pragma once

#include "app/project/ui/project_document.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QTableView;
class QTabWidget;

namespace meridian::widgets {
struct MapSite;
struct MapLink;
class WorldMapView;
class SiteTableModel;
class HostTableModel;
} // namespace meridian::widgets

namespace meridian::workbench {

/// The site map and the site and host tables. Every change the user makes here (drag, add, rename,
/// delete, a table cell) becomes an undoable edit of the document; the views then follow the document.
/// Links are drawn by bandwidth, latency, or the traffic the current run maps between sites.
class MapPanel : public QWidget {
    Q_OBJECT
public:
    enum class LinkMode { None, Bandwidth, Latency, MappedTraffic, SimulatedBusy };

    explicit MapPanel(document::ProjectDocument* document, QWidget* parent = nullptr);

    widgets::WorldMapView* map() const { return m_map; }
    QTableView* siteTable() const { return m_siteTable; }
    QTableView* hostTable() const { return m_hostTable; }
    widgets::SiteTableModel* siteModel() const { return m_siteModel; }
    void setLinkMode(LinkMode mode);
    /// Shows, beside each site, how many processes of this application are pinned there (empty: none).
    void setPinApplication(const QString& application);
    const QString& pinApplication() const { return m_pinApplication; }
    LinkMode linkMode() const;

    /// Adds a site (undoable); returns an error message or an empty string.
    QString addSite(const QString& name, double latitude, double longitude);
    QString renameSite(int site, const QString& name);
    QString deleteSite(int site);
    QString moveSite(int site, double latitude, double longitude);

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);

private:
    void refreshSites();
    void refreshLinks();
    void addPartitionBadges(QVector<widgets::MapSite>& sites) const;
    /// The selected run's simulated uplink and downlink loads in each site's tooltip.
    void addSimulatedAccessLinks(QVector<widgets::MapSite>& sites) const;
    /// The selected run's simulated site-pair links, valued by the busier direction's busy fraction (%).
    void simulatedLinks(QVector<widgets::MapLink>& links, QString& quantity, QString& unit) const;
    QString siteName(int site) const;
    void askNewSite(double latitude, double longitude);
    void askRename(int site);

    document::ProjectDocument* m_document;
    widgets::WorldMapView* m_map = nullptr;
    widgets::SiteTableModel* m_siteModel = nullptr;
    widgets::HostTableModel* m_hostModel = nullptr;
    QTableView* m_siteTable = nullptr;
    QTableView* m_hostTable = nullptr;
    QComboBox* m_linkMode = nullptr;
    QCheckBox* m_logLinks = nullptr;
    QString m_pinApplication;
};

} // namespace meridian::workbench
