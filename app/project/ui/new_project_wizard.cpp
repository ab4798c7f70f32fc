#include "app/project/ui/new_project_wizard.h"
#include "widgets/file_dialogs.h"

#include "app/project/project_edits.h"
#include "core/io/placement_io.h"
#include "core/io/sites_io.h"
#include "widgets/heatmap_view.h"
#include "widgets/site_table_model.h"
#include "widgets/world_map_view.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QWizardPage>

#include <map>

namespace meridian::workbench {

namespace {

using model::NetworkQuantity;

QString errorText(const Error& e) { return QString::fromStdString(e.toString()); }

QString red(const QString& text) { return QString("<span style='color:#b00'>%1</span>").arg(text.toHtmlEscaped()); }

QPushButton* addButton(QWidget* parent, QLayout* layout, const QString& text)
{
    auto* b = new QPushButton(text, parent);
    layout->addWidget(b);
    return b;
}

QString askFile(QWidget* parent, const QString& title, const QString& filter)
{
    return widgets::openFileName(parent, title, filter);
}

} // namespace

NewProjectWizard::NewProjectWizard(QWidget* parent)
    : QWizard(parent)
{
    setObjectName("newProjectWizard");
    setWindowTitle(tr("New Project"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::HaveHelpButton, false);
    resize(880, 660);
    m_project.name = tr("Untitled").toStdString();

    setPage(NamePage, buildNamePage());
    setPage(SitesPage, buildSitesPage());
    setPage(NetworkPage, buildNetworkPage());
    setPage(ApplicationsPage, buildApplicationsPage());
    setPage(PinsPage, buildPinsPage());
    showSites();
    showNetwork(NetworkQuantity::Latency);
    showApplications();
}

/// 1. Name and description.
QWizardPage* NewProjectWizard::buildNamePage()
{
    auto* namePage = new QWizardPage(this);
    namePage->setTitle(tr("Name the project"));
    namePage->setSubTitle(tr("A project holds sites, the network between them and the applications to place."));
    auto* nameForm = new QFormLayout(namePage);
    m_name = new QLineEdit(namePage);
    m_description = new QPlainTextEdit(namePage);
    nameForm->addRow(tr("Name:"), m_name);
    nameForm->addRow(tr("Description:"), m_description);
    connect(m_name, &QLineEdit::textChanged, this,
            [this](const QString& t) { m_project.name = t.trimmed().toStdString(); });
    connect(m_description, &QPlainTextEdit::textChanged, this,
            [this] { m_project.description = m_description->toPlainText().toStdString(); });
    return namePage;
}

/// 2. Sites: imported, or added on the map; their fields in a table.
QWizardPage* NewProjectWizard::buildSitesPage()
{
    auto* sitesPage = new QWizardPage(this);
    sitesPage->setTitle(tr("Sites"));
    sitesPage->setSubTitle(tr("Import a sites CSV (name, lat, lon, nodes, and optionally slots, up_MBps, down_MBps, "
                              "egress_usd_per_GB) or GeoJSON, or double-click the map to add sites one by one. "
                              "Nodes, slots, up/down bandwidth and egress prices can be typed into the table."));
    auto* sitesLayout = new QVBoxLayout(sitesPage);
    auto* sitesBar = new QHBoxLayout;
    auto* importSites = addButton(sitesPage, sitesBar, tr("Import sites\u2026"));
    sitesBar->addStretch(1);
    sitesLayout->addLayout(sitesBar);
    auto* sitesSplitter = new QSplitter(Qt::Vertical, sitesPage);
    m_map = new widgets::WorldMapView(sitesSplitter);
    m_map->setMinimumHeight(220);
    m_siteModel = new widgets::SiteTableModel(this);
    auto* siteTable = new QTableView(sitesSplitter);
    siteTable->setObjectName("wizardSiteTable");
    siteTable->setModel(m_siteModel);
    siteTable->verticalHeader()->hide();
    siteTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    sitesSplitter->setStretchFactor(0, 3);
    sitesSplitter->setStretchFactor(1, 2);
    sitesLayout->addWidget(sitesSplitter, 1);
    m_siteModel->setEditor([this](int row, int column, const QString& text) { return setSiteField(row, column, text); });
    connect(m_siteModel, &widgets::SiteTableModel::editRejected, this,
            [this](const QString& e) { m_sitesNote->setText(red(e)); });
    connect(m_map, &widgets::WorldMapView::siteAddRequested, this, [this](double latitude, double longitude) {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("New site"),
                                                   tr("Name of the site at %1\u00b0, %2\u00b0:")
                                                       .arg(latitude, 0, 'f', 2)
                                                       .arg(longitude, 0, 'f', 2),
                                                   QLineEdit::Normal,
                                                   tr("site-%1").arg(m_project.topology.siteCount() + 1), &ok);
        if (ok)
            addSite(name, latitude, longitude);
    });
    m_sitesNote = new QLabel(tr("No sites yet: import a file, or double-click the map where a site is."), sitesPage);
    m_sitesNote->setWordWrap(true);
    sitesLayout->addWidget(m_sitesNote);
    connect(importSites, &QPushButton::clicked, this, [this] {
        const QString path = askFile(this, tr("Import Sites"), tr("Sites (*.csv *.geojson *.json);;All files (*)"));
        if (!path.isEmpty())
            setSitesFile(path);
    });
    return sitesPage;
}

/// 3. Network: latency and bandwidth imported, the rest estimated; shown as a heatmap.
QWizardPage* NewProjectWizard::buildNetworkPage()
{
    const QString matrixFilter = tr("Matrices (*.csv *.mtx);;All files (*)");
    auto* networkPage = new QWizardPage(this);
    networkPage->setTitle(tr("Network"));
    networkPage->setSubTitle(
        tr("Latency (ms) and bandwidth (MB/s) between sites: CSV with site names in the header and first "
           "column, or Matrix Market in site order. Entries you do not give are estimated from distance."));
    auto* networkLayout = new QVBoxLayout(networkPage);
    auto* networkBar = new QHBoxLayout;
    auto* importLatency = addButton(networkPage, networkBar, tr("Import latency\u2026"));
    auto* importBandwidth = addButton(networkPage, networkBar, tr("Import bandwidth\u2026"));
    auto* showWhich = m_showWhich = new QComboBox(networkPage);
    showWhich->addItem(tr("Show latency"), int(NetworkQuantity::Latency));
    showWhich->addItem(tr("Show bandwidth"), int(NetworkQuantity::Bandwidth));
    networkBar->addStretch(1);
    networkBar->addWidget(showWhich);
    networkLayout->addLayout(networkBar);
    m_heatmap = new widgets::HeatmapView(networkPage);
    m_heatmap->setMinimumHeight(300);
    networkLayout->addWidget(m_heatmap, 1);
    m_networkNote = new QLabel(networkPage);
    m_networkNote->setWordWrap(true);
    networkLayout->addWidget(m_networkNote);
    connect(importLatency, &QPushButton::clicked, this, [this, matrixFilter] {
        const QString path = askFile(this, tr("Import Latency"), matrixFilter);
        if (!path.isEmpty())
            setNetworkFile(NetworkQuantity::Latency, path);
    });
    connect(importBandwidth, &QPushButton::clicked, this, [this, matrixFilter] {
        const QString path = askFile(this, tr("Import Bandwidth"), matrixFilter);
        if (!path.isEmpty())
            setNetworkFile(NetworkQuantity::Bandwidth, path);
    });
    connect(showWhich, &QComboBox::currentIndexChanged, this,
            [this, showWhich] { showNetwork(NetworkQuantity(showWhich->currentData().toInt())); });
    return networkPage;
}

/// 4. Applications: imported from their matrices or generated.
QWizardPage* NewProjectWizard::buildApplicationsPage()
{
    const QString matrixFilter = tr("Matrices (*.csv *.mtx);;All files (*)");
    auto* appsPage = new QWizardPage(this);
    appsPage->setTitle(tr("Applications"));
    appsPage->setSubTitle(
        tr("What your application sends: a volume matrix in bytes (Matrix Market, or CSV with p0, p1, ... "
           "names) and, optionally, message counts of the same size; or a generated pattern."));
    auto* appsLayout = new QVBoxLayout(appsPage);
    auto* appsBar = new QHBoxLayout;
    auto* importApp = addButton(appsPage, appsBar, tr("Import application\u2026"));
    auto* generateApp = addButton(appsPage, appsBar, tr("Generate\u2026"));
    appsBar->addStretch(1);
    appsLayout->addLayout(appsBar);
    m_applications = new QListWidget(appsPage);
    appsLayout->addWidget(m_applications, 1);
    m_applicationsNote = new QLabel(tr("No application yet; you can add them later in the Applications tab."), appsPage);
    m_applicationsNote->setWordWrap(true);
    appsLayout->addWidget(m_applicationsNote);
    connect(importApp, &QPushButton::clicked, this, [this, matrixFilter] {
        const QString volume = askFile(this, tr("Volume matrix (bytes)"), matrixFilter);
        if (volume.isEmpty())
            return;
        const QString messages = askFile(this, tr("Message counts (optional: cancel to skip)"), matrixFilter);
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Application name"), tr("Name:"), QLineEdit::Normal,
                                                   QFileInfo(volume).baseName(), &ok);
        if (ok)
            addApplication(name, {volume.toStdString(), messages.toStdString(), {}, {}});
    });
    connect(generateApp, &QPushButton::clicked, this, [this] {
        QStringList ids;
        for (auto p : synth::allPatterns())
            ids << QString::fromUtf8(synth::patternId(p).data(), static_cast<qsizetype>(synth::patternId(p).size()));
        bool ok = false;
        const QString id = QInputDialog::getItem(this, tr("Generate"), tr("Pattern:"), ids, 0, false, &ok);
        if (!ok)
            return;
        const int processes = QInputDialog::getInt(this, tr("Generate"), tr("Processes:"), 64, 2, 1 << 20, 1, &ok);
        if (!ok)
            return;
        synth::PatternOptions options;
        options.processes = processes;
        addGeneratedApplication(QString("%1 %2").arg(id.toUpper()).arg(processes),
                                *synth::patternFromId(id.toStdString()), options);
    });
    return appsPage;
}

/// 5. Pins per application.
QWizardPage* NewProjectWizard::buildPinsPage()
{
    auto* pinsPage = new QWizardPage(this);
    pinsPage->setTitle(tr("Pins"));
    pinsPage->setSubTitle(
        tr("Processes that must run in a given site (their data stays there): a CSV of process,site lines "
           "per application. Pins can also be edited later in the Applications tab."));
    auto* pinsLayout = new QVBoxLayout(pinsPage);
    auto* pinsBar = new QHBoxLayout;
    auto* importPins = addButton(pinsPage, pinsBar, tr("Import pins for the selected application\u2026"));
    pinsBar->addStretch(1);
    pinsLayout->addLayout(pinsBar);
    m_pins = new QListWidget(pinsPage);
    pinsLayout->addWidget(m_pins, 1);
    m_pinsNote = new QLabel(pinsPage);
    m_pinsNote->setWordWrap(true);
    pinsLayout->addWidget(m_pinsNote);
    connect(importPins, &QPushButton::clicked, this, [this] {
        if (!m_pins->currentItem()) {
            m_pinsNote->setText(red(tr("Select an application first.")));
            return;
        }
        const QString path = askFile(this, tr("Import Pins"), tr("Pins CSV (*.csv);;All files (*)"));
        if (!path.isEmpty())
            setPinsFile(m_pins->currentItem()->data(Qt::UserRole).toString(), path);
    });
    return pinsPage;
}

void NewProjectWizard::setProjectName(const QString& name, const QString& description)
{
    m_name->setText(name);
    m_description->setPlainText(description);
}

bool NewProjectWizard::validateCurrentPage()
{
    if (currentId() == NamePage && m_name->text().trimmed().isEmpty()) {
        m_name->setPlaceholderText(tr("A project needs a name"));
        return false;
    }
    return true;
}

QString NewProjectWizard::setSitesFile(const QString& path)
{
    auto topology = io::loadTopology(path.toStdString());
    if (!topology) {
        m_sitesNote->setText(red(errorText(topology.error())));
        return errorText(topology.error());
    }
    // New sites: the network and applications' pins refer to sites by position, so they start again.
    document::Project next = m_project;
    next.topology = std::move(*topology);
    next.network = model::Network(next.topology.siteCount());
    for (auto& app : next.applications)
        app.pins = {};
    std::erase_if(next.sources, [](const std::string& s) {
        return s.rfind("sites:", 0) == 0 || s.rfind("latency:", 0) == 0 || s.rfind("bandwidth:", 0) == 0;
    });
    next.sources.push_back("sites: " + QFileInfo(path).fileName().toStdString());
    m_project = std::move(next);
    showSites();
    showNetwork(NetworkQuantity::Latency);
    showApplications();
    return {};
}

QString NewProjectWizard::addSite(const QString& name, double latitude, double longitude)
{
    auto edited = document::withAddedSite(m_project, name.trimmed().toStdString(), latitude, longitude);
    if (!edited) {
        m_sitesNote->setText(red(errorText(edited.error())));
        return errorText(edited.error());
    }
    m_project = std::move(*edited);
    showSites();
    showNetwork(NetworkQuantity::Latency);
    return {};
}

QString NewProjectWizard::setSiteField(int site, int column, const QString& text)
{
    using F = document::SiteField;
    using C = widgets::SiteTableModel;
    static const std::map<int, F> fields{{C::Name, F::Name},
                                         {C::Latitude, F::Latitude},
                                         {C::Longitude, F::Longitude},
                                         {C::Nodes, F::Nodes},
                                         {C::SlotsPerNode, F::SlotsPerNode},
                                         {C::Uplink, F::Uplink},
                                         {C::Downlink, F::Downlink},
                                         {C::Egress, F::Egress},
                                         {C::InstancePrice, F::InstancePrice}};
    const auto field = fields.find(column);
    if (field == fields.end())
        return tr("this column is computed and cannot be edited");
    auto edited = document::withSiteField(m_project, site, field->second, text.toStdString());
    if (!edited) {
        m_sitesNote->setText(red(errorText(edited.error())));
        return errorText(edited.error());
    }
    m_project = std::move(*edited);
    showSites();
    return {};
}

QString NewProjectWizard::setNetworkFile(NetworkQuantity quantity, const QString& path)
{
    auto network = document::readNetworkQuantity(path.toStdString(), quantity, m_project.topology);
    auto edited = network ? document::withNetworkQuantity(m_project, quantity, *network)
                          : Expected<document::Project>(network.error());
    if (!edited) {
        m_networkNote->setText(red(errorText(edited.error())));
        return errorText(edited.error());
    }
    m_project = std::move(*edited);
    const std::string key = quantity == NetworkQuantity::Latency ? "latency: " : "bandwidth: ";
    std::erase_if(m_project.sources, [&](const std::string& s) { return s.rfind(key, 0) == 0; });
    m_project.sources.push_back(key + QFileInfo(path).fileName().toStdString());
    showNetwork(quantity);
    return {};
}

QString NewProjectWizard::addApplication(const QString& name, const document::ApplicationFiles& files)
{
    auto app = document::readApplication(name.trimmed().toStdString(), files, m_project.topology);
    if (app)
        app->description = "imported from " + QFileInfo(QString::fromStdString(files.volume)).fileName().toStdString();
    auto edited = app ? document::withApplication(m_project, std::move(*app))
                      : Expected<document::Project>(app.error());
    if (!edited) {
        m_applicationsNote->setText(red(errorText(edited.error())));
        return errorText(edited.error());
    }
    m_project = std::move(*edited);
    showApplications();
    return {};
}

QString NewProjectWizard::addGeneratedApplication(const QString& name, synth::Pattern pattern,
                                                  const synth::PatternOptions& options)
{
    auto comm = synth::generatePattern(pattern, options);
    document::Application app;
    app.name = name.trimmed().toStdString();
    app.description = "generated: " + std::string(synth::patternId(pattern)) + ", " + std::to_string(options.processes)
        + " processes";
    if (comm)
        app.comm = std::move(*comm);
    auto edited = comm ? document::withApplication(m_project, std::move(app))
                       : Expected<document::Project>(comm.error());
    if (!edited) {
        m_applicationsNote->setText(red(errorText(edited.error())));
        return errorText(edited.error());
    }
    m_project = std::move(*edited);
    showApplications();
    return {};
}

QString NewProjectWizard::setPinsFile(const QString& application, const QString& path)
{
    const int a = m_project.applicationIndex(application.toStdString());
    if (a < 0)
        return tr("no application named '%1'").arg(application);
    auto pins = io::readPinsCsv(path.toStdString(), m_project.topology, m_project.applications[a].comm.processCount());
    auto edited = pins ? document::withPins(m_project, a, std::move(*pins)) : Expected<document::Project>(pins.error());
    if (!edited) {
        m_pinsNote->setText(red(errorText(edited.error())));
        return errorText(edited.error());
    }
    m_project = std::move(*edited);
    showApplications();
    return {};
}

void NewProjectWizard::showSites()
{
    QVector<widgets::MapSite> sites;
    const auto& topology = m_project.topology;
    for (int s = 0; s < topology.siteCount(); ++s) {
        const auto& site = topology.site(s);
        sites.push_back({QString::fromStdString(site.name),
                         site.latitude,
                         site.longitude,
                         tr("%1 hosts, %2 slots").arg(topology.hostCountOf(s)).arg(topology.capacity(s)),
                         {}});
    }
    m_map->setSites(std::move(sites));
    m_map->fitToSites();
    m_siteModel->setTopology(topology);
    if (topology.siteCount() > 0)
        m_sitesNote->setText(tr("%1 sites with %2 hosts and %3 slots.")
                                 .arg(topology.siteCount())
                                 .arg(topology.hostCount())
                                 .arg(topology.totalCapacity()));
}

void NewProjectWizard::showNetwork(NetworkQuantity quantity)
{
    {
        const QSignalBlocker blocker(m_showWhich);
        m_showWhich->setCurrentIndex(m_showWhich->findData(int(quantity)));
    }
    const auto& topology = m_project.topology;
    const int n = topology.siteCount();
    if (n == 0) {
        m_heatmap->setData({});
        m_networkNote->setText(tr("Without sites there is no network to give; go on, or go back and import sites."));
        return;
    }
    model::DistanceModel dm;
    const auto complete = m_project.completeNetwork(&dm);
    widgets::HeatmapData data;
    const bool latency = quantity == NetworkQuantity::Latency;
    data.title = latency ? tr("Latency between sites (preview)") : tr("Bandwidth between sites (preview)");
    data.unit = latency ? "ms" : "MB/s";
    data.dense = latency ? complete.latencyMs() : complete.bandwidthMBps();
    for (const auto& s : topology.sites())
        data.rowLabels << QString::fromStdString(s.name);
    data.columnLabels = data.rowLabels;
    data.rowAxis = tr("from");
    data.columnAxis = tr("to");
    data.cellNote = [complete, quantity](int r, int c) {
        return QString::fromStdString(std::string(model::provenanceId(complete.provenance(quantity, r, c))));
    };
    m_heatmap->setData(std::move(data));
    QStringList counts;
    for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth})
        counts << tr("%1: %2 of %3 entries measured, %4 estimated")
                      .arg(q == NetworkQuantity::Latency ? tr("latency") : tr("bandwidth"))
                      .arg(m_project.network.count(q, model::Provenance::Measured))
                      .arg(n * n)
                      .arg(n * n - m_project.network.count(q, model::Provenance::Measured));
    m_networkNote->setText(counts.join("; ") + ".\n" + QString::fromStdString(dm.describe()));
}

void NewProjectWizard::showApplications()
{
    const QString selected = m_pins->currentItem() ? m_pins->currentItem()->data(Qt::UserRole).toString() : QString();
    m_applications->clear();
    m_pins->clear();
    for (const auto& app : m_project.applications) {
        const QString name = QString::fromStdString(app.name);
        m_applications->addItem(
            tr("%1: %2 processes, %3 bytes%4")
                .arg(name)
                .arg(app.comm.processCount())
                .arg(app.comm.totalBytes(), 0, 'g', 4)
                .arg(app.comm.hasMessages() ? tr(", message counts given") : tr(", no message counts")));
        // What was read, per site: "Solver: 3 of 32 processes pinned (us-east-1 1, eu-west-1 2)".
        std::vector<int> perSite(m_project.topology.siteCount(), 0);
        for (const auto& pin : app.pins.pins())
            ++perSite[pin.site];
        QStringList where;
        for (int s = 0; s < m_project.topology.siteCount(); ++s)
            if (perSite[s] > 0)
                where << QString("%1 %2").arg(QString::fromStdString(m_project.topology.site(s).name)).arg(perSite[s]);
        QString text = tr("%1: %2 of %3 processes pinned").arg(name).arg(app.pins.size()).arg(app.comm.processCount());
        if (!where.isEmpty())
            text += " (" + where.join(", ") + ")";
        auto* item = new QListWidgetItem(text, m_pins);
        item->setData(Qt::UserRole, name);
        if (name == selected)
            m_pins->setCurrentItem(item);
    }
    if (!m_project.applications.empty()) {
        m_applicationsNote->setText(m_project.applications.size() == 1
                                        ? tr("1 application.")
                                        : tr("%1 applications.").arg(m_project.applications.size()));
        if (!m_pins->currentItem())
            m_pins->setCurrentRow(0);
        m_pinsNote->setText(m_project.topology.siteCount() == 0 ? tr("Pins need sites: go back and import them.")
                                                                : QString());
    } else {
        m_pinsNote->setText(tr("No application to pin."));
    }
}

} // namespace meridian::workbench
