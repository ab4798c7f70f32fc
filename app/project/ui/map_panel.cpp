#include "app/project/ui/map_panel.h"

#include "app/project/project_edits.h"
#include "widgets/heatmap_data.h"
#include "widgets/site_table_model.h"
#include "widgets/world_map_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <map>

#include <cmath>

namespace meridian::workbench {

namespace {

QString errorText(const Status& s) { return s ? QString() : QString::fromStdString(s.error().toString()); }

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent)
{
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                           | QAbstractItemView::AnyKeyPressed);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace

MapPanel::MapPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_linkMode = new QComboBox(this);
    m_linkMode->addItem(tr("No links"), int(LinkMode::None));
    m_linkMode->addItem(tr("Bandwidth"), int(LinkMode::Bandwidth));
    m_linkMode->addItem(tr("Latency"), int(LinkMode::Latency));
    m_linkMode->addItem(tr("Traffic mapped by the selected run"), int(LinkMode::MappedTraffic));
    m_linkMode->addItem(tr("Simulated busy fraction of the selected run"), int(LinkMode::SimulatedBusy));
    m_linkMode->setCurrentIndex(1);
    m_logLinks = new QCheckBox(tr("Log scale"), this);
    bar->addWidget(new QLabel(tr("Links:"), this));
    bar->addWidget(m_linkMode);
    bar->addWidget(m_logLinks);
    bar->addStretch(1);
    bar->addWidget(
        new QLabel(tr("<small>Drag a site to move it, double-click to add one, right-click for more.</small>"), this));
    layout->addLayout(bar);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    m_map = new widgets::WorldMapView(splitter);
    auto* tabs = new QTabWidget(splitter);
    m_siteModel = new widgets::SiteTableModel(this);
    m_hostModel = new widgets::HostTableModel(this);
    m_siteTable = makeTable(m_siteModel, tabs);
    m_hostTable = makeTable(m_hostModel, tabs);
    m_siteTable->setObjectName("siteTable");
    m_hostTable->setObjectName("hostTable");
    tabs->addTab(m_siteTable, tr("Sites"));
    tabs->addTab(m_hostTable, tr("Hosts"));
    splitter->addWidget(m_map);
    splitter->addWidget(tabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    m_siteModel->setEditor([this](int row, int column, const QString& text) -> QString {
        using F = document::SiteField;
        static const F fields[] = {F::Name, F::Latitude, F::Longitude, F::Nodes,  F::SlotsPerNode,
                                   F::Name, F::Uplink,   F::Downlink,  F::Egress, F::InstancePrice};
        const F field = fields[column];
        const QString name = QString::fromStdString(m_document->project()->topology.site(row).name);
        const QString what = m_siteModel->headerData(column, Qt::Horizontal).toString().toLower();
        return errorText(m_document->edit(tr("Set %1 of %2").arg(what, name), [&](const document::Project& p) {
            return document::withSiteField(p, row, field, text.toStdString());
        }));
    });
    m_hostModel->setEditor([this](int row, int column, const QString& text) -> QString {
        const QString name = QString::fromStdString(m_document->project()->topology.host(row).name);
        return errorText(
            m_document->edit(column == 0 ? tr("Rename host %1").arg(name) : tr("Set slots of %1").arg(name),
                             [&](const document::Project& p) {
                                 return document::withHostField(p, row, column == 0 ? 0 : 1, text.toStdString());
                             }));
    });
    auto rejected = [this](const QString& message) { Q_EMIT errorOccurred(tr("The edit was not applied"), message); };
    connect(m_siteModel, &widgets::SiteTableModel::editRejected, this, rejected);
    connect(m_hostModel, &widgets::HostTableModel::editRejected, this, rejected);

    connect(m_map, &widgets::WorldMapView::siteMoved, this, [this](int site, double lat, double lon) {
        if (const QString e = moveSite(site, lat, lon); !e.isEmpty())
            Q_EMIT errorOccurred(tr("The site was not moved"), e);
    });
    connect(m_map, &widgets::WorldMapView::siteAddRequested, this, &MapPanel::askNewSite);
    connect(m_map, &widgets::WorldMapView::siteRenameRequested, this, &MapPanel::askRename);
    connect(m_map, &widgets::WorldMapView::siteDeleteRequested, this, [this](int site) {
        if (const QString e = deleteSite(site); !e.isEmpty())
            Q_EMIT errorOccurred(tr("The site was not deleted"), e);
    });
    connect(m_map, &widgets::WorldMapView::siteSelected, this, [this](int site) { m_siteTable->selectRow(site); });
    connect(m_siteTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { m_map->setSelectedSite(current.isValid() ? current.row() : -1); });

    connect(m_linkMode, &QComboBox::currentIndexChanged, this, &MapPanel::refreshLinks);
    connect(m_logLinks, &QCheckBox::toggled, this, &MapPanel::refreshLinks);
    connect(m_document, &document::ProjectDocument::projectChanged, this, &MapPanel::refreshSites);
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, &MapPanel::refreshSites);
    connect(m_document, &document::ProjectDocument::runsChanged, this, &MapPanel::refreshSites);
    connect(m_document, &document::ProjectDocument::reloaded, m_map, &widgets::WorldMapView::fitToSites);
    connect(m_document, &document::ProjectDocument::runsChanged, this, &MapPanel::refreshLinks);
    refreshSites();
}

void MapPanel::setLinkMode(LinkMode mode) { m_linkMode->setCurrentIndex(m_linkMode->findData(int(mode))); }

MapPanel::LinkMode MapPanel::linkMode() const { return LinkMode(m_linkMode->currentData().toInt()); }

void MapPanel::setPinApplication(const QString& application)
{
    if (application == m_pinApplication)
        return;
    m_pinApplication = application;
    refreshSites();
}

void MapPanel::refreshSites()
{
    const auto project = m_document->project();
    const auto& topology = project->topology;
    m_siteModel->setTopology(topology);
    m_hostModel->setTopology(topology);
    QVector<widgets::MapSite> sites;
    for (int s = 0; s < topology.siteCount(); ++s) {
        const auto& site = topology.site(s);
        QString detail = tr("%1 hosts, %2 slots<br>%3\u00b0, %4\u00b0")
                             .arg(topology.hostCountOf(s))
                             .arg(topology.capacity(s))
                             .arg(site.latitude, 0, 'f', 2)
                             .arg(site.longitude, 0, 'f', 2);
        if (std::isfinite(site.uplinkMBps) || std::isfinite(site.downlinkMBps))
            detail += tr("<br>up %1, down %2")
                          .arg(widgets::formatValue(site.uplinkMBps, "MB/s"),
                               widgets::formatValue(site.downlinkMBps, "MB/s"));
        if (std::isfinite(site.egressUsdPerGB))
            detail += tr("<br>egress %1 USD/GB").arg(site.egressUsdPerGB);
        if (std::isfinite(site.instanceUsdPerHour))
            detail += tr("<br>instance %1 USD/h").arg(site.instanceUsdPerHour);
        sites.push_back({QString::fromStdString(site.name), site.latitude, site.longitude, detail, {}});
    }
    // The selected mapping run: processes per site on the markers, with their pins.
    const auto run = m_document->run(m_document->currentRun());
    const bool placed = run && run->kind == document::RunKind::Mapping && run->placement.processCount() > 0
        && !m_document->isStale(*run);
    if (placed) {
        const auto load = run->placement.siteLoad(topology.siteCount());
        for (int s = 0; s < topology.siteCount() && s < static_cast<int>(load.size()); ++s) {
            sites[s].processes = load[s];
            sites[s].slots = topology.capacity(s);
            sites[s].detail += tr("<br><b>%1</b>: %2 of %3 slots used (%4%)")
                                   .arg(QString::fromStdString(run->label()).toHtmlEscaped())
                                   .arg(load[s])
                                   .arg(topology.capacity(s))
                                   .arg(topology.capacity(s) > 0 ? 100.0 * load[s] / topology.capacity(s) : 0.0, 0, 'f',
                                        0);
        }
    }
    const QString pinApplication = placed ? QString::fromStdString(run->application) : m_pinApplication;
    if (const int a = project->applicationIndex(pinApplication.toStdString()); a >= 0) {
        std::vector<int> pinned(topology.siteCount(), 0);
        for (const auto& pin : project->applications[a].pins.pins())
            ++pinned[pin.site];
        for (int s = 0; s < topology.siteCount(); ++s)
            if (pinned[s] > 0) {
                sites[s].pinned = pinned[s];
                sites[s].badge = tr("%1 pinned").arg(pinned[s]);
                sites[s].detail += tr("<br>%1 of %2's processes pinned here")
                                       .arg(pinned[s])
                                       .arg(pinApplication.toHtmlEscaped());
            }
    }
    addPartitionBadges(sites);
    addSimulatedAccessLinks(sites);
    m_map->setSites(std::move(sites));
    refreshLinks();
}

void MapPanel::addPartitionBadges(QVector<widgets::MapSite>& sites) const
{
    // The selected partition run: each site's upload and download time of one iteration, the slowest marked.
    const auto run = m_document->run(m_document->currentRun());
    if (!run || run->kind != document::RunKind::Partition || run->siteUploadSeconds.size() != std::size_t(sites.size()))
        return;
    const auto up = run->siteUploadSeconds, down = run->siteDownloadSeconds;
    const double slowest = std::max(*std::max_element(up.begin(), up.end()),
                                    *std::max_element(down.begin(), down.end()));
    for (int s = 0; s < sites.size(); ++s) {
        const bool bottleneck = slowest > 0 && std::max(up[s], down[s]) >= slowest;
        sites[s].badge = QString("\u2191%1 \u2193%2%3")
                             .arg(widgets::formatValue(up[s], "s"), widgets::formatValue(down[s], "s"),
                                  bottleneck ? tr(" \u25c6") : QString());
        sites[s].detail += tr("<br>Run %1: uploads %2 in %3, downloads %4 in %5 per iteration%6")
                               .arg(run->id)
                               .arg(widgets::formatValue(run->siteUploadBytes[s], "bytes"),
                                    widgets::formatValue(up[s], "s"),
                                    widgets::formatValue(run->siteDownloadBytes[s], "bytes"),
                                    widgets::formatValue(down[s], "s"),
                                    bottleneck ? tr(" (the slowest link of the run)") : QString());
    }
}

void MapPanel::refreshLinks()
{
    const auto project = m_document->project();
    const int n = project->topology.siteCount();
    const auto& network = m_document->completeNetwork();
    QVector<widgets::MapLink> links;
    const LinkMode mode = linkMode();
    QString quantity, unit;
    auto provenance = [&](model::NetworkQuantity q, int i, int j) {
        return QString::fromStdString(std::string(model::provenanceId(network.provenance(q, i, j))));
    };
    if (n > 0 && network.siteCount() == n && (mode == LinkMode::Bandwidth || mode == LinkMode::Latency)) {
        const auto q = mode == LinkMode::Bandwidth ? model::NetworkQuantity::Bandwidth
                                                   : model::NetworkQuantity::Latency;
        quantity = mode == LinkMode::Bandwidth ? tr("Bandwidth (mean of both directions)")
                                               : tr("Latency (mean of both directions)");
        unit = mode == LinkMode::Bandwidth ? "MB/s" : "ms";
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j) {
                const double a = network.value(q, i, j), b = network.value(q, j, i);
                links.push_back({i, j, (a + b) / 2,
                                 tr("%1 \u2192: %2 (%3)<br>\u2190: %4 (%5)")
                                     .arg(quantity.section(' ', 0, 0), widgets::formatValue(a, unit),
                                          provenance(q, i, j), widgets::formatValue(b, unit), provenance(q, j, i))});
            }
    } else if (mode == LinkMode::MappedTraffic) {
        const auto run = m_document->run(m_document->currentRun());
        if (run && run->trafficBytes.rows() == n) {
            quantity = run->kind == document::RunKind::Partition
                ? tr("Traffic of one GAS iteration, run %1 (both directions)").arg(run->id)
                : tr("Traffic mapped by run %1 (both directions)").arg(run->id);
            unit = "bytes";
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j) {
                    const double bytes = run->trafficBytes(i, j) + run->trafficBytes(j, i);
                    if (bytes > 0)
                        links.push_back({i, j, bytes,
                                         tr("%1 sent, %2 received")
                                             .arg(widgets::formatValue(run->trafficBytes(i, j), unit),
                                                  widgets::formatValue(run->trafficBytes(j, i), unit))});
                }
        }
    }
    if (mode == LinkMode::SimulatedBusy)
        simulatedLinks(links, quantity, unit);
    m_map->setLinks(std::move(links), quantity, unit, m_logLinks->isChecked());
}

QString MapPanel::siteName(int site) const
{
    return QString::fromStdString(m_document->project()->topology.site(site).name);
}

void MapPanel::addSimulatedAccessLinks(QVector<widgets::MapSite>& sites) const
{
    const auto run = m_document->run(m_document->currentRun());
    if (!run || run->simulatedLinks.empty())
        return;
    for (const auto& l : run->simulatedLinks) {
        const bool up = l.to < 0;
        const int s = up ? l.from : l.to;
        if ((l.from >= 0 && l.to >= 0) || s < 0 || s >= sites.size())
            continue;
        sites[s].detail += tr("<br>Run %1 simulated: %2 busy %3%, utilisation %4%, %5")
                               .arg(run->id)
                               .arg(up ? tr("uplink") : tr("downlink"))
                               .arg(100.0 * l.busyFraction, 0, 'f', 1)
                               .arg(100.0 * l.utilisation, 0, 'f', 1)
                               .arg(widgets::formatValue(l.bytes, "bytes"));
    }
}

void MapPanel::simulatedLinks(QVector<widgets::MapLink>& links, QString& quantity, QString& unit) const
{
    const auto run = m_document->run(m_document->currentRun());
    const int n = m_document->project()->topology.siteCount();
    if (!run || run->simulatedLinks.empty())
        return;
    quantity = tr("Busy fraction simulated for run %1 (the busier direction)").arg(run->id);
    unit = "%";
    // Each site pair's two directions, and where the alpha-beta cost puts the pair's time beside them.
    std::map<std::pair<int, int>, std::pair<const document::SimulatedLink*, const document::SimulatedLink*>> pairs;
    for (const auto& l : run->simulatedLinks)
        if (l.from >= 0 && l.to >= 0 && l.from < n && l.to < n)
            (l.from < l.to ? pairs[{l.from, l.to}].first : pairs[{l.to, l.from}].second) = &l;
    const auto direction = [&](const document::SimulatedLink* l, int from, int to) {
        const double alphaBeta = run->timeSeconds.rows() == n ? run->timeSeconds(from, to) : 0.0;
        if (!l)
            return tr("%1 \u2192 %2: no traffic").arg(siteName(from), siteName(to));
        // The project's own entries, not the completed network's: a missing one was estimated for the simulation.
        const auto& given = m_document->project()->network;
        const bool estimated = given.siteCount() == n && given.isMissing(from, to);
        return tr("%1 \u2192 %2: busy %3%, utilisation %4%, %5; alpha-beta %6%7")
            .arg(siteName(from), siteName(to))
            .arg(100.0 * l->busyFraction, 0, 'f', 1)
            .arg(100.0 * l->utilisation, 0, 'f', 1)
            .arg(widgets::formatValue(l->bytes, "bytes"), widgets::formatValue(alphaBeta, "s"),
                 estimated ? tr(" (link estimated from distance)") : QString());
    };
    for (const auto& [sites, both] : pairs) {
        const auto [i, j] = sites;
        const double busy = std::max(both.first ? both.first->busyFraction : 0.0,
                                     both.second ? both.second->busyFraction : 0.0);
        links.push_back({i, j, 100.0 * busy, direction(both.first, i, j) + "<br>" + direction(both.second, j, i)});
    }
}

QString MapPanel::addSite(const QString& name, double latitude, double longitude)
{
    return errorText(m_document->edit(tr("Add site %1").arg(name), [&](const document::Project& p) {
        return document::withAddedSite(p, name.trimmed().toStdString(), latitude, longitude);
    }));
}

QString MapPanel::renameSite(int site, const QString& name)
{
    return errorText(m_document->edit(tr("Rename site to %1").arg(name), [&](const document::Project& p) {
        return document::withSiteField(p, site, document::SiteField::Name, name.trimmed().toStdString());
    }));
}

QString MapPanel::deleteSite(int site)
{
    const auto project = m_document->project();
    if (site < 0 || site >= project->topology.siteCount())
        return tr("no such site");
    const QString name = QString::fromStdString(project->topology.site(site).name);
    return errorText(m_document->edit(tr("Delete site %1").arg(name),
                                      [&](const document::Project& p) { return document::withoutSite(p, site); }));
}

QString MapPanel::moveSite(int site, double latitude, double longitude)
{
    const auto project = m_document->project();
    if (site < 0 || site >= project->topology.siteCount())
        return tr("no such site");
    const QString name = QString::fromStdString(project->topology.site(site).name);
    return errorText(m_document->edit(tr("Move site %1").arg(name), [&](const document::Project& p) {
        return document::withSitePosition(p, site, latitude, longitude);
    }));
}

void MapPanel::askNewSite(double latitude, double longitude)
{
    const int n = m_document->project()->topology.siteCount();
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("New site"),
                                               tr("Name of the site at %1\u00b0, %2\u00b0:")
                                                   .arg(latitude, 0, 'f', 2)
                                                   .arg(longitude, 0, 'f', 2),
                                               QLineEdit::Normal, tr("site-%1").arg(n + 1), &ok);
    if (!ok)
        return;
    if (const QString e = addSite(name, latitude, longitude); !e.isEmpty())
        Q_EMIT errorOccurred(tr("The site was not added"), e);
}

void MapPanel::askRename(int site)
{
    const auto project = m_document->project();
    if (site < 0 || site >= project->topology.siteCount())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename site"), tr("New name:"), QLineEdit::Normal,
                                               QString::fromStdString(project->topology.site(site).name), &ok);
    if (!ok)
        return;
    if (const QString e = renameSite(site, name); !e.isEmpty())
        Q_EMIT errorOccurred(tr("The site was not renamed"), e);
}

} // namespace meridian::workbench
