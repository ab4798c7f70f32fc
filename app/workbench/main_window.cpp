#include "app/workbench/main_window.h"
#include "widgets/file_dialogs.h"

#include "app/capture/ui/capture_feature.h"
#include "app/collectives/ui/collectives_feature.h"
#include "app/mapping/ui/compare_panel.h"
#include "app/mapping/ui/launch_dialog.h"
#include "app/mapping/ui/run_panel.h"
#include "app/mapping/ui/runs_panel.h"
#include "app/partitioning/ui/graphs_feature.h"
#include "app/project/project_edits.h"
#include "app/project/project_imports.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/diff_panel.h"
#include "app/project/ui/file_actions.h"
#include "app/project/ui/map_panel.h"
#include "app/project/ui/matrix_panel.h"
#include "app/project/ui/network_panel.h"
#include "app/project/ui/new_project_wizard.h"
#include "app/workbench/jobs_panel.h"
#include "app/workbench/report_images.h"
#include "core/mapping/builtin_mappers.h"
#include "widgets/heatmap_view.h"
#include "widgets/param_form.h"
#include "widgets/world_map_view.h"

#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>
#include <QWhatsThis>

#include <utility>

namespace meridian::workbench {

namespace {

constexpr int kMaxRecent = 8;

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setObjectName("MeridianMainWindow");
    mapping::registerBuiltinMappers(m_mappers);
    m_document = new document::ProjectDocument(this);
    m_autosave = new document::Autosave(m_document, this);
    if (const int ms = qEnvironmentVariableIntValue("MERIDIAN_AUTOSAVE_MS"); ms > 0)
        m_autosave->setInterval(ms);
    m_runner = new jobs::JobRunner(this);
    m_controller = new actions::RunController(m_document, m_runner, &m_mappers, this);

    m_tabs = new QTabWidget(this);
    m_mapPanel = new MapPanel(m_document, m_tabs);
    m_matrixPanel = new MatrixPanel(m_document, m_tabs);
    m_networkPanel = new NetworkPanel(m_document, m_tabs);
    m_applicationsPanel = new ApplicationsPanel(m_document, m_tabs);
    m_runPanel = new RunPanel(m_document, m_controller, this);
    m_comparePanel = new ComparePanel(
        m_document, m_controller,
        [this] {
            std::vector<std::pair<std::string, ParamValues>> mappers;
            for (const QString& id : m_runPanel->checkedMappers())
                mappers.emplace_back(id.toStdString(), m_runPanel->form(id)->values());
            return mappers;
        },
        m_tabs);
    m_diffPanel = new DiffPanel(m_document, m_tabs);
    // The features build their own panels and actions for this shell.
    m_graphs = new GraphsFeature(*this, this);
    m_capture = new CaptureFeature(*this, this);
    m_collectives = new CollectivesFeature(*this, this);
    m_features = {m_graphs, m_capture, m_collectives};
    addTabs();
    setCentralWidget(m_tabs);

    buildDocks();

    auto errors = [this](const QString& title, const QString& message) { showError(title, message); };
    connect(m_mapPanel, &MapPanel::errorOccurred, this, errors);
    connect(m_matrixPanel, &MatrixPanel::errorOccurred, this, errors);
    connect(m_networkPanel, &NetworkPanel::errorOccurred, this, errors);
    connect(m_applicationsPanel, &ApplicationsPanel::errorOccurred, this, errors);
    connect(m_networkPanel, &NetworkPanel::importRequested, this, &MainWindow::importNetworkWithDialog);
    // The map counts the pins of the application chosen in the Applications tab or the run panel.
    connect(m_applicationsPanel, &ApplicationsPanel::currentApplicationChanged, this, [this](const QString& name) {
        m_mapPanel->setPinApplication(name);
        if (!name.isEmpty())
            m_runPanel->applicationChooser()->setCurrentText(name);
    });
    connect(m_runPanel->applicationChooser(), &QComboBox::currentTextChanged, m_mapPanel, &MapPanel::setPinApplication);
    connect(m_runPanel, &RunPanel::errorOccurred, this, errors);
    connect(m_comparePanel, &ComparePanel::errorOccurred, this, errors);
    connect(m_runsPanel, &RunsPanel::errorOccurred, this, errors);
    connect(m_controller, &actions::RunController::runFailed, this, errors);
    connectRunStatus();
    connect(m_runsPanel, &RunsPanel::duplicateRequested, this, [this](int id) {
        if (auto run = m_document->run(id))
            m_runPanel->loadRun(*run);
    });
    connect(m_runsPanel, &RunsPanel::exportPartitionRequested, m_graphs, &GraphsFeature::exportPartitionWithDialog);
    connect(m_runsPanel, &RunsPanel::diffRequested, this, [this](int a, int b) {
        m_diffPanel->showDiff(a, b);
        m_tabs->setCurrentWidget(m_diffPanel);
    });
    connect(m_matrixPanel, &MatrixPanel::exportRequested, this, &MainWindow::exportHeatmapWithDialog);
    connect(m_document, &document::ProjectDocument::titleChanged, this, &MainWindow::updateTitle);
    connect(m_document, &document::ProjectDocument::projectChanged, this, &MainWindow::updateTitle);

    // While another program holds the project's lock, the status bar says so for as long as it is open.
    m_readOnlyLabel = new QLabel(this);
    m_readOnlyLabel->setObjectName("readOnlyNotice");
    m_readOnlyLabel->setStyleSheet("QLabel { background: #f5a623; color: black; padding: 1px 6px; }");
    m_readOnlyLabel->hide();
    statusBar()->addPermanentWidget(m_readOnlyLabel);

    buildMenus();
    setAcceptDrops(true);
    resize(1400, 900);
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    // A layout saved by an older version (runs dock of four rows) is not restored: the defaults replace it once.
    m_defaultDockSizes = !restoreState(settings.value("window/state").toByteArray(), kDockLayoutVersion);
    updateTitle();
    statusBar()->showMessage(tr("Open a project (File > Open), or double-click the map to add sites."));
}

MainWindow::~MainWindow()
{
    m_runner->cancelAll();
    m_runner->waitForAll();
}

GraphsPanel* MainWindow::graphsPanel() const { return m_graphs->panel(); }

CollectivesPanel* MainWindow::collectivesPanel() const { return m_collectives->panel(); }

void MainWindow::addTabs()
{
    std::vector<WorkbenchFeature::Tab> tabs{{10, m_mapPanel, tr("Site map"), {}, {}},
                                            {20, m_networkPanel, tr("Network"), {}, {}},
                                            {30, m_applicationsPanel, tr("Applications"), {}, {}},
                                            {50, m_matrixPanel, tr("Matrices"), {}, {}},
                                            {60, m_comparePanel, tr("Compare"), {}, {}},
                                            {70, m_diffPanel, tr("Diff"), {}, {}}};
    for (const WorkbenchFeature* feature : m_features)
        for (const auto& tab : feature->tabs())
            tabs.push_back(tab);
    std::stable_sort(tabs.begin(), tabs.end(), [](const auto& a, const auto& b) { return a.order < b.order; });
    for (const auto& tab : tabs) {
        m_tabs->addTab(tab.panel, tab.title);
        if (!tab.statusTip.isEmpty())
            tab.panel->setStatusTip(tab.statusTip);
        if (!tab.whatsThis.isEmpty())
            tab.panel->setWhatsThis(tab.whatsThis);
    }
}

void MainWindow::showTab(QWidget* panel) { m_tabs->setCurrentWidget(panel); }

void MainWindow::showStatus(const QString& message, int milliseconds)
{
    statusBar()->showMessage(message, milliseconds);
}

/// The Run dock on the left, Runs and Jobs side by side at the bottom.

/// The status line says what each run that lands, is replaced by its simulation or is simulated already brought.
void MainWindow::connectRunStatus()
{
    connect(m_controller, &actions::RunController::runLanded, this, [this](int id, bool stale) {
        const auto run = m_document->run(id);
        if (!run)
            return;
        const QString label = QString::fromStdString(run->label());
        QString result = run->kind == document::RunKind::Partition
            ? tr("%1 finished: transfer time %2, WAN cost %3")
                  .arg(label, widgets::formatValue(run->metric("transfer_time_s").value_or(0), "s"),
                       widgets::formatValue(run->metric("wan_usd").value_or(0), "USD"))
            : run->metric("predicted_s")
            ? tr("%1 finished: predicted time %2 (traffic cost %3)")
                  .arg(label, widgets::formatValue(*run->metric("predicted_s"), "s"),
                       widgets::formatValue(run->metric("cost_s").value_or(0), "s"))
            : tr("%1 finished: cost %2").arg(label, widgets::formatValue(run->metric("cost_s").value_or(0), "s"));
        statusBar()
            ->showMessage(stale ? tr("%1 finished, but the inputs changed while it ran: it is marked stale.").arg(label)
                                : result,
                          8000);
    });
    // A simulation replaces its run under a new number: the status says what it added, not that the mapper ran.
    connect(m_controller, &actions::RunController::runReplaced, this, [this](int oldId, int newId) {
        const auto run = m_document->run(newId);
        if (!run || !run->metric("simulated_s"))
            return;
        statusBar()->showMessage(tr("Simulated run %1 (now run %2): simulated %3, predicted time %4")
                                     .arg(oldId)
                                     .arg(newId)
                                     .arg(widgets::formatValue(*run->metric("simulated_s"), "s"),
                                          widgets::formatValue(run->metric("predicted_s").value_or(0), "s")),
                                 8000);
    });
    connect(m_controller, &actions::RunController::alreadySimulated, this, [this](int id) {
        const auto run = m_document->run(id);
        if (!run)
            return;
        statusBar()->showMessage(tr("%1 is simulated already: simulated %2, predicted time %3 (Where the time "
                                    "goes\u2026 shows the details)")
                                     .arg(QString::fromStdString(run->label()),
                                          widgets::formatValue(*run->metric("simulated_s"), "s"),
                                          widgets::formatValue(*run->metric("predicted_s"), "s")),
                                 8000);
    });
}

void MainWindow::buildDocks()
{
    auto* runDock = new QDockWidget(tr("Run"), this);
    runDock->setObjectName("runDock");
    // In a scroll area: the run panel's form is taller than the dock leaves it on a 1280 x 800 screen, and would
    // otherwise set the window's minimum height above the screen's.
    auto* runScroll = new QScrollArea(runDock);
    runScroll->setWidget(m_runPanel);
    runScroll->setWidgetResizable(true);
    runScroll->setFrameShape(QFrame::NoFrame);
    runScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    runScroll->setMinimumWidth(m_runPanel->minimumSizeHint().width()
                               + runScroll->verticalScrollBar()->sizeHint().width());
    runDock->setWidget(runScroll);
    addDockWidget(Qt::LeftDockWidgetArea, runDock);
    m_runsPanel = new RunsPanel(m_document, m_controller, this);
    auto* runsDock = new QDockWidget(tr("Runs"), this);
    runsDock->setObjectName("runsDock");
    runsDock->setWidget(m_runsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, runsDock);
    m_jobsPanel = new JobsPanel(m_runner, this);
    auto* jobsDock = new QDockWidget(tr("Jobs"), this);
    jobsDock->setObjectName("jobsDock");
    jobsDock->setWidget(m_jobsPanel);
    addDockWidget(Qt::BottomDockWidgetArea, jobsDock);
    splitDockWidget(runsDock, jobsDock, Qt::Horizontal);
    sizeDocks();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // Dock sizes given before the window is laid out are lost: the defaults are given once it is on screen.
    if (std::exchange(m_defaultDockSizes, false))
        QTimer::singleShot(0, this, &MainWindow::sizeDocks);
}

void MainWindow::sizeDocks()
{
    // The runs get most of the bottom's width and about eight rows; the jobs list only needs its progress bars.
    auto* runsDock = findChild<QDockWidget*>("runsDock");
    auto* jobsDock = findChild<QDockWidget*>("jobsDock");
    auto* runDock = findChild<QDockWidget*>("runDock");
    resizeDocks({runsDock, jobsDock}, {1000, 280}, Qt::Horizontal);
    resizeDocks({runsDock}, {std::max(300, height() * 3 / 8)}, Qt::Vertical);
    resizeDocks({runDock}, {300}, Qt::Horizontal);
}

void MainWindow::buildMenus()
{
    auto* file = menuBar()->addMenu(tr("&File"));
    auto named = [](QAction* action, const char* name) {
        action->setObjectName(name);
        return action;
    };
    named(file->addAction(tr("&New Project…"), this, &MainWindow::newProject), "actionNewProject")
        ->setShortcut(QKeySequence::New);
    file->addAction(tr("&Open Project\u2026"), this, &MainWindow::openWithDialog)->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addAction(tr("&Save"), this, [this] { (void)saveProject(m_document->path()); })
        ->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save &As\u2026"), this, &MainWindow::saveWithDialog)->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    // The shell's entries and the features', by their order.
    using Entry = WorkbenchFeature::Entry;
    using Menu = WorkbenchFeature::Menu;
    std::vector<Entry> entries;
    auto own = [&](Menu menu, int order, const QString& text, const char* name, auto slot) {
        auto* action = new QAction(text, this);
        if (name)
            action->setObjectName(name);
        connect(action, &QAction::triggered, this, slot);
        entries.push_back({menu, order, action});
    };
    own(Menu::Import, 10, tr("&Sites (CSV or GeoJSON)\u2026"), "actionImportSites", [this] { importSitesWithDialog(); });
    own(Menu::Import, 20, tr("&Hosts (host,site,slots)\u2026"), "actionImportHosts",
        [this] { importHostsWithDialog(); });
    own(Menu::Import, 30, tr("&Latency Matrix\u2026"), "actionImportLatency",
        [this] { importNetworkWithDialog(model::NetworkQuantity::Latency); });
    own(Menu::Import, 40, tr("&Bandwidth Matrix\u2026"), "actionImportBandwidth",
        [this] { importNetworkWithDialog(model::NetworkQuantity::Bandwidth); });
    own(Menu::Import, 50, tr("&Application\u2026"), "actionImportApplication",
        [this] { importApplicationWithDialog(); });
    own(Menu::Import, 90, tr("&Pins\u2026"), "actionImportPins", [this] { importPinsWithDialog(); });
    own(Menu::Import, 100, tr("&Mapping as a Run\u2026"), "actionImportMapping", [this] { importMappingWithDialog(); });
    own(Menu::Export, 10, tr("Heatmap (PNG, SVG or CSV)\u2026"), nullptr, [this] { exportHeatmapWithDialog(); });
    own(Menu::Export, 20, tr("Site Map (PNG or SVG)\u2026"), nullptr, [this] { exportMapWithDialog(); });
    own(Menu::Export, 30, tr("Report (HTML or PDF)\u2026"), nullptr, [this] { reportWithDialog(); });
    own(Menu::Run, 10, tr("Run &Ticked Algorithms"), nullptr, [this] { m_runPanel->runChecked(); });
    entries.back().action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    own(Menu::Run, 15, tr("Run Ticked Algorithms on a &Launcher\u2026"), "actionRunLaunched",
        [this] { launchWithDialog(m_runPanel->requests()); });
    own(Menu::Run, 16, tr("Sweep the &Budget on a Launcher\u2026"), "actionBudgetSweepLaunched", [this] {
        QString refusal;
        const auto sweep = m_runPanel->budgetSweepRequests(refusal);
        if (sweep.empty())
            showError(tr("No budget sweep"), refusal);
        else
            launchWithDialog(sweep);
    });
    own(Menu::Run, 20, tr("Re-run &Stale Runs"), nullptr, [this] { m_controller->rerunStale(); });
    own(Menu::Run, 30, tr("&Cancel All"), nullptr, [this] { m_runner->cancelAll(); });
    for (const WorkbenchFeature* feature : m_features)
        for (const Entry& entry : feature->entries())
            entries.push_back(entry);
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.order < b.order; });
    auto* importMenu = file->addMenu(tr("&Import"));
    auto* exportMenu = file->addMenu(tr("&Export"));
    auto* run = new QMenu(tr("&Run"), this);
    bool separated = false;
    for (const Entry& entry : entries) {
        QMenu* menu = entry.menu == Menu::Import ? importMenu : entry.menu == Menu::Export ? exportMenu : run;
        // The Run menu's entries from 40 on (capture, measurement) are a group of their own.
        if (menu == run && entry.order >= 40 && !std::exchange(separated, true))
            run->addSeparator();
        menu->addAction(entry.action);
    }
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    auto* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName("actionUndo");
    auto* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setObjectName("actionRedo");
    edit->addAction(undo);
    edit->addAction(redo);

    menuBar()->addMenu(run);

    auto* view = menuBar()->addMenu(tr("&View"));
    for (auto* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    auto* help = menuBar()->addMenu(tr("&Help"));
    named(help->addAction(tr("&User Guide"), this, [this] { showUserGuide(); }), "actionUserGuide")
        ->setShortcut(QKeySequence::HelpContents);
    named(help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcuts(); }), "actionShortcuts");
    help->addAction(QWhatsThis::createAction(this));
    help->addSeparator();
    named(help->addAction(tr("&About Meridian"), this, [this] { showAbout(); }), "actionAbout");
    explainPanels();
}

void MainWindow::showError(const QString& title, const QString& message)
{
    m_lastError = title + ": " + message;
    statusBar()->showMessage(m_lastError, 15000);
    if (!m_interactive)
        return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::updateTitle()
{
    const auto project = m_document->project();
    QString name = QString::fromStdString(project->name);
    if (name.isEmpty())
        name = m_document->path().isEmpty() ? tr("Untitled") : QFileInfo(m_document->path()).completeBaseName();
    if (m_document->isReadOnly())
        name += tr(" (read-only)");
    setWindowTitle(QString("%1[*] \u2014 Meridian").arg(name));
    if (m_readOnlyLabel) {
        m_readOnlyLabel->setVisible(m_document->isReadOnly());
        m_readOnlyLabel->setText(tr("Read-only: another program holds this project"));
        m_readOnlyLabel->setToolTip(
            tr("%1\n\nSaving to this file waits for that program to finish; File > Save As writes the project "
               "elsewhere.")
                .arg(m_document->readOnlyReason()));
    }
    setWindowModified(m_document->isModified());
}

Status MainWindow::loadProject(const QString& path, const QString& runsFile)
{
    m_runner->cancelAll();
    if (auto s = m_document->load(path, runsFile); !s)
        return s;
    addRecentFile(path);
    const auto project = m_document->project();
    QString message = tr("%1: %2 sites, %3 slots, %4 applications, %5 graphs, %6 saved runs")
                          .arg(QFileInfo(path).fileName())
                          .arg(project->topology.siteCount())
                          .arg(project->topology.siteCount() ? project->topology.totalCapacity() : 0)
                          .arg(project->applications.size())
                          .arg(project->graphs.size())
                          .arg(m_document->runs().size());
    if (m_document->skippedRuns() > 0)
        message += tr("; %n stale run(s) no longer fit the project and were left out", nullptr,
                      m_document->skippedRuns());
    if (m_document->isReadOnly()) {
        message += tr("; opened read-only: %1").arg(m_document->readOnlyReason());
        updateTitle();
    }
    statusBar()->showMessage(message);
    return {};
}

bool MainWindow::openProject(const QString& path)
{
    if (auto s = loadProject(path); !s) {
        showError(tr("Cannot open the project"), QString::fromStdString(s.error().toString()));
        return false;
    }
    return true;
}

bool MainWindow::openOrImport(const QString& path)
{
    // Readers return errors as values; an exception here is a defect, shown as one rather than a crash.
    try {
        return openOrImportUnguarded(path);
    } catch (const std::exception& e) {
        showError(tr("Cannot import %1").arg(QFileInfo(path).fileName()),
                  tr("Internal error: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

bool MainWindow::openOrImportUnguarded(const QString& path)
{
    std::string why;
    const auto kind = document::detectFileKind(path.toStdString(), m_document->project()->topology, &why);
    const QString name = QFileInfo(path).fileName();
    const QString reason = QString::fromStdString(why);
    auto choose = [&](const QString& question, const QStringList& choices) {
        if (m_ask)
            return m_ask(question, choices);
        if (!m_interactive)
            return QString();
        bool ok = false;
        const QString choice = QInputDialog::getItem(this, tr("Import %1").arg(name), question, choices, 0, false, &ok);
        return ok ? choice : QString();
    };
    const auto imported = [&](const Status& s, const QString& what) {
        if (!s) {
            showError(tr("Cannot import %1").arg(name), QString::fromStdString(s.error().toString()));
            return false;
        }
        statusBar()->showMessage(tr("Imported %1 from %2 (Edit > Undo takes it back)").arg(what, name), 8000);
        return true;
    };
    switch (kind) {
    case document::FileKind::Project:
        if (!maybeSave())
            return false;
        return openProject(path);
    case document::FileKind::Sites:
        return imported(actions::importSites(*m_document, path), tr("the sites"));
    case document::FileKind::NetworkMatrix: {
        const QString latency = tr("Latency (ms)"), bandwidth = tr("Bandwidth (MB/s)");
        const QString choice = choose(tr("%1 is %2. Which is it?").arg(name, reason), {latency, bandwidth});
        if (choice.isEmpty())
            return false;
        return importNetwork(choice == latency ? model::NetworkQuantity::Latency : model::NetworkQuantity::Bandwidth,
                             path);
    }
    case document::FileKind::Application: {
        const auto project = m_document->project();
        const std::string appName = document::unusedApplicationName(*project, QFileInfo(path).baseName().toStdString());
        return imported(actions::importApplication(*m_document, appName, {path.toStdString(), {}, {}, {}}),
                        tr("application %1").arg(QString::fromStdString(appName)));
    }
    case document::FileKind::ProcessSites: {
        const QString pins = tr("Pins of the application"), mapping = tr("A mapping, as a run");
        const QString choice = choose(tr("%1 holds %2. Import it as:").arg(name, reason), {pins, mapping});
        if (choice.isEmpty())
            return false;
        if (choice == mapping)
            return importMapping(path);
        const std::string application = targetApplication();
        return imported(actions::importPins(*m_document, application, path),
                        tr("the pins of %1").arg(QString::fromStdString(application)));
    }
    case document::FileKind::Mapping:
        return importMapping(path);
    case document::FileKind::Hosts:
        return imported(actions::importHosts(*m_document, path), tr("the hosts"));
    case document::FileKind::Capture:
        return m_capture->importCapture(path,
                                        document::unusedApplicationName(*m_document->project(), captureBaseName(path)));
    case document::FileKind::ProbeResults:
        return m_capture->importProbe(path);
    case document::FileKind::Unknown:
        break;
    }
    showError(tr("Cannot import %1").arg(name), tr("Meridian cannot tell what this file holds: %1").arg(reason));
    return false;
}

bool MainWindow::offerRecovery()
{
    for (const auto& entry : document::Autosave::orphans()) {
        const QString name = entry.projectName.isEmpty() ? tr("an untitled project") : entry.projectName;
        const QString where = entry.originalPath.isEmpty() ? tr("never saved") : entry.originalPath;
        if (!m_interactive)
            return false;
        QMessageBox
            box(QMessageBox::Question, tr("Recover Unsaved Work"),
                tr("Meridian did not close properly. Unsaved work on %1 (%2) was autosaved at %3.\n\nRecover it?")
                    .arg(name, where, QLocale().toString(entry.savedAt.toLocalTime(), QLocale::ShortFormat)),
                QMessageBox::NoButton, this);
        QAbstractButton* recoverButton = box.addButton(tr("Recover"), QMessageBox::AcceptRole);
        QAbstractButton* discardButton = box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
        box.addButton(tr("Later"), QMessageBox::RejectRole);
        box.exec();
        if (box.clickedButton() == discardButton) {
            document::Autosave::remove(entry);
            continue;
        }
        if (box.clickedButton() != recoverButton)
            continue;
        if (auto s = recover(entry); !s) {
            showError(tr("Cannot recover the work"), QString::fromStdString(s.error().toString()));
            continue;
        }
        return true;
    }
    return false;
}

Status MainWindow::recover(const document::Autosave::Entry& entry)
{
    m_runner->cancelAll();
    if (auto s = document::Autosave::recover(entry, *m_document); !s)
        return s;
    statusBar()->showMessage(tr("Recovered the unsaved work on %1; save it to keep it.").arg(entry.projectName), 10000);
    return {};
}

Status MainWindow::saveProject(const QString& path)
{
    if (path.isEmpty()) {
        if (!saveWithDialog())
            return makeError(ErrorCode::InvalidInput, "not saved");
        return {};
    }
    auto s = m_document->save(path);
    if (!s)
        showError(tr("Cannot save the project"), QString::fromStdString(s.error().toString()));
    else
        addRecentFile(path);
    return s;
}

void MainWindow::newProject()
{
    if (!maybeSave())
        return;
    auto* wizard = startNewProject();
    if (m_interactive)
        wizard->show();
}

NewProjectWizard* MainWindow::startNewProject()
{
    auto* wizard = new NewProjectWizard(this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QWizard::accepted, this, [this, wizard] { applyNewProject(wizard->project()); });
    return wizard;
}

void MainWindow::applyNewProject(const document::Project& project)
{
    m_runner->cancelAll();
    m_document->reset(document::Project{});
    // One edit from the empty document, so Edit > Undo takes the whole new project back.
    (void)m_document->edit(tr("Create project %1").arg(QString::fromStdString(project.name)),
                           [&](const document::Project&) -> Expected<document::Project> { return project; });
    m_mapPanel->map()->fitToSites();
    statusBar()->showMessage(tr("Created %1: sites %2, applications %3. Save it with File > Save.")
                                 .arg(QString::fromStdString(project.name))
                                 .arg(project.topology.siteCount())
                                 .arg(project.applications.size()),
                             10000);
}

void MainWindow::openWithDialog()
{
    if (!maybeSave())
        return;
    const QString path = widgets::openFileName(this, tr("Open Project"),
                                               tr("Meridian projects (*.meridian *.json);;All files (*)"));
    if (!path.isEmpty())
        openProject(path);
}

bool MainWindow::saveWithDialog()
{
    // A new project is suggested under its own name (New Project's, or the sites file's), not "untitled".
    QString name = QString::fromStdString(m_document->project()->name).trimmed();
    name.replace(QRegularExpression("[^A-Za-z0-9._-]+"), "-");
    const QString suggested = !m_document->path().isEmpty() ? m_document->path()
                                                            : (name.isEmpty() ? tr("project") : name) + ".meridian";
    const QString path = widgets::saveFileName(this, tr("Save Project"), suggested,
                                               tr("Meridian projects (*.meridian)"));
    if (path.isEmpty())
        return false;
    return bool(saveProject(path));
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified() || !m_interactive)
        return true;
    const auto answer = QMessageBox::warning(this, tr("Unsaved changes"),
                                             tr("The project has unsaved changes. Save them?"),
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel)
        return false;
    if (answer == QMessageBox::Save)
        return bool(saveProject(m_document->path()));
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState(kDockLayoutVersion));
    m_runner->cancelAll();
    m_autosave->discard(); // saved, or the user chose to discard: nothing to recover
    event->accept();
}

void MainWindow::addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value("recentFiles").toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue("recentFiles", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentFiles").toStringList();
    for (const QString& path : recent)
        m_recentMenu
            ->addAction(QFileInfo(path).fileName(), this,
                        [this, path] {
                            if (maybeSave())
                                openProject(path);
                        })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            openOrImport(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::importSitesWithDialog()
{
    const QString path = widgets::openFileName(this, tr("Import Sites"),
                                               tr("Sites (*.csv *.geojson *.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto s = actions::importSites(*m_document, path); !s)
        showError(tr("Cannot import the sites"), QString::fromStdString(s.error().toString()));
}

void MainWindow::importHostsWithDialog()
{
    const QString path = widgets::openFileName(this, tr("Import Hosts"),
                                               tr("Hosts CSV: host,site,slots (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto s = actions::importHosts(*m_document, path); !s)
        showError(tr("Cannot import the hosts"), QString::fromStdString(s.error().toString()));
}

bool MainWindow::importNetwork(model::NetworkQuantity quantity, const QString& path)
{
    if (auto s = actions::importNetworkMatrix(*m_document, quantity, path); !s) {
        showError(tr("Cannot import the matrix"), QString::fromStdString(s.error().toString()));
        return false;
    }
    m_networkPanel->setQuantity(quantity);
    statusBar()->showMessage(tr("Imported the %1 matrix of %2 (Edit > Undo takes it back)")
                                 .arg(quantity == model::NetworkQuantity::Latency ? tr("latency") : tr("bandwidth"),
                                      QFileInfo(path).fileName()),
                             8000);
    return true;
}

void MainWindow::importNetworkWithDialog(model::NetworkQuantity quantity)
{
    if (m_document->project()->topology.siteCount() == 0) {
        showError(tr("No sites"),
                  tr("Import or add sites first: a network matrix is read against the project's sites."));
        return;
    }
    const QString path = widgets::openFileName(this,
                                               quantity == model::NetworkQuantity::Latency
                                                   ? tr("Import Latency (ms)")
                                                   : tr("Import Bandwidth (MB/s)"),
                                               tr("Matrices (*.csv *.mtx);;All files (*)"));
    if (!path.isEmpty())
        importNetwork(quantity, path);
}

void MainWindow::importApplicationWithDialog()
{
    m_tabs->setCurrentWidget(m_applicationsPanel);
    m_applicationsPanel->importWithDialog();
}

std::string MainWindow::targetApplication() const
{
    const auto project = m_document->project();
    const int a = m_applicationsPanel->currentApplication();
    if (a >= 0)
        return project->applications[a].name;
    return m_runPanel->applicationChooser()->currentText().toStdString();
}

void MainWindow::importPinsWithDialog()
{
    if (m_document->project()->applications.empty()) {
        showError(tr("No application"), tr("Import or generate an application first: pins belong to one."));
        return;
    }
    const std::string application = targetApplication();
    const QString path = widgets::openFileName(this, tr("Import pins of %1").arg(QString::fromStdString(application)),
                                               tr("Pins CSV (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    if (auto s = actions::importPins(*m_document, application, path); !s)
        showError(tr("Cannot import the pins"), QString::fromStdString(s.error().toString()));
}

bool MainWindow::importMapping(const QString& path)
{
    const auto run = m_document->run(m_document->currentRun());
    if (m_document->project()->applications.empty()) {
        showError(tr("No application"), tr("The project has no application to map."));
        return false;
    }
    const std::string application = run ? run->application : targetApplication();
    if (auto s = actions::importMapping(*m_document, application, path); !s) {
        showError(tr("Cannot import the mapping"), QString::fromStdString(s.error().toString()));
        return false;
    }
    statusBar()->showMessage(tr("Imported the mapping of %1 as a run").arg(QString::fromStdString(application)), 8000);
    return true;
}

void MainWindow::importMappingWithDialog()
{
    if (m_document->project()->applications.empty()) {
        showError(tr("No application"), tr("The project has no application to map."));
        return;
    }
    const QString path = widgets::openFileName(this, tr("Import a mapping"),
                                               tr("Mapping CSV: process,site[,host,slot] (*.csv);;All files (*)"));
    if (!path.isEmpty())
        importMapping(path);
}

void MainWindow::launchWithDialog(const std::vector<actions::RunRequest>& requests)
{
    // A project not saved yet has no folder to offer: the dialog asks for one the launcher's nodes see.
    const QString folder = m_document->path().isEmpty() ? QString() : QFileInfo(m_document->path()).path();
    LaunchDialog dialog(requests, m_document->project(), folder, this);
    if (dialog.exec() == QDialog::Accepted)
        m_controller->submitLaunched(requests, dialog.settings());
}

QAction* MainWindow::menuAction(const QString& objectName) const { return findChild<QAction*>(objectName); }

void MainWindow::exportHeatmapWithDialog()
{
    const auto& data = m_matrixPanel->heatmap()->data();
    const QString path = widgets::saveFileName(this, tr("Export Heatmap"), data.title + ".png",
                                               tr("PNG image (*.png);;SVG drawing (*.svg);;CSV matrix (*.csv)"));
    if (path.isEmpty())
        return;
    auto* heatmap = m_matrixPanel->heatmap();
    const auto s = QFileInfo(path).suffix().toLower() == "csv"
        ? actions::saveHeatmapCsv(data, path)
        : actions::saveDrawing(path, heatmap->size(), data.title,
                               [heatmap](QPainter& p, const QRect& r) { heatmap->renderTo(p, r); });
    if (!s)
        showError(tr("The export failed"), QString::fromStdString(s.error().toString()));
}

void MainWindow::exportMapWithDialog()
{
    const QString path = widgets::saveFileName(this, tr("Export Site Map"), "site-map.png",
                                               tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return;
    auto* map = m_mapPanel->map();
    const auto s = actions::saveDrawing(path, map->size(), tr("Site map"),
                                        [map](QPainter& p, const QRect& r) { map->renderTo(p, r); });
    if (!s)
        showError(tr("The export failed"), QString::fromStdString(s.error().toString()));
}

report::Figures MainWindow::reportFigures()
{
    return renderReportFigures(*m_document, {m_mapPanel->map(), m_comparePanel});
}

Status MainWindow::writeReport(const QString& path)
{
    QApplication::setOverrideCursor(Qt::WaitCursor);
    report::ReportInput input;
    input.document = m_document;
    input.figures = reportFigures();
    auto written = report::writeReport(input, path);
    QApplication::restoreOverrideCursor();
    return written;
}

void MainWindow::reportWithDialog()
{
    const QString path = widgets::saveFileName(this, tr("Write Report"), "meridian-report.pdf",
                                               tr("PDF (*.pdf);;HTML (*.html)"));
    if (path.isEmpty())
        return;
    if (auto s = writeReport(path); !s)
        showError(tr("The report was not written"), QString::fromStdString(s.error().toString()));
    else
        statusBar()->showMessage(tr("Report written to %1").arg(path), 8000);
}

} // namespace meridian::workbench
