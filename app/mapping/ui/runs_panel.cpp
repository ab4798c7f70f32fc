#include "app/mapping/ui/runs_panel.h"
#include "widgets/file_dialogs.h"

#include "app/mapping/ui/run_explanation.h"

#include "app/mapping/ui/batch_dialog.h"
#include "app/mapping/ui/run_table_model.h"
#include "app/project/ui/file_actions.h"
#include "app/simulation/simulate_operation.h"
#include "app/simulation/ui/simulation_details_dialog.h"

#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace meridian::workbench {

RunsPanel::RunsPanel(document::ProjectDocument* document, actions::RunController* controller, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_controller(controller)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto* rerun = new QPushButton(tr("Re-run"), this);
    auto* duplicate = new QPushButton(tr("Duplicate\u2026"), this);
    duplicate->setToolTip(tr("Load this run's mapper, parameters and seed into the run panel"));
    auto* remove = new QPushButton(tr("Delete"), this);
    auto* rerunStale = new QPushButton(tr("Re-run stale"), this);
    rerunStale->setObjectName("rerunStale");
    auto* simulate = new QPushButton(tr("Simulate"), this);
    simulate->setObjectName("simulate");
    simulate->setToolTip(tr("Simulate the selected mapping runs' communication with SimGrid, contention included, "
                            "and predict their run time with SMPI (runs of up to %L1 messages are simulated and "
                            "predicted as soon as they finish)")
                             .arg(ops::kAutoSimulateMessages, 0, 'f', 0));
    auto* details = new QPushButton(tr("Where the time goes\u2026"), this);
    details->setObjectName("simulationDetails");
    details->setToolTip(tr("For the selected simulated run: where its alpha-beta cost and its simulation put the "
                           "time, link by link, and where they disagree"));
    auto* diff = new QPushButton(tr("Diff two"), this);
    diff->setToolTip(tr("Compare the placements of the two selected runs"));
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(exportButton);
    menu->addAction(tr("Open MPI rankfile\u2026"), this, [this] { exportWithDialog(0); });
    menu->addAction(tr("MPICH / Intel MPI machinefile\u2026"), this, [this] { exportWithDialog(1); });
    menu->addAction(tr("Slurm hostfile\u2026"), this, [this] { exportWithDialog(2); });
    menu->addAction(tr("Mapping CSV\u2026"), this, [this] { exportWithDialog(3); });
    menu->addSeparator();
    menu->addAction(tr("Partition (E.tsv, M.tsv)\u2026"), this, [this] { Q_EMIT exportPartitionRequested(); });
    exportButton->setMenu(menu);
    auto* whatIf = new QToolButton(this);
    whatIf->setText(tr("What-if"));
    whatIf->setObjectName("whatIf");
    whatIf->setPopupMode(QToolButton::InstantPopup);
    auto* whatIfMenu = new QMenu(whatIf);
    whatIfMenu->addAction(tr("Remove Sites from the Partition\u2026"), this, [this] { removeSitesWithDialog(); });
    whatIfMenu->addAction(tr("Apply an Insert/Delete Batch\u2026"), this, [this] { applyBatchWithDialog(); });
    whatIf->setMenu(whatIfMenu);
    whatIf->setToolTip(tr("Derive a new run from the selected partition run: Geo-Cut's data-centre removal, or "
                          "its update of a dynamic graph"));
    for (QWidget* w : std::initializer_list<QWidget*>{rerun, duplicate, remove, simulate, details, diff, exportButton,
                                                      whatIf, rerunStale})
        bar->addWidget(w);
    m_staleNote = new QLabel(this);
    bar->addWidget(m_staleNote, 1);
    layout->addLayout(bar);

    buildTable(layout, menu);

    connect(rerun, &QPushButton::clicked, this, [this] { m_controller->rerun(selectedRuns()); });
    connect(duplicate, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (!ids.empty())
            Q_EMIT duplicateRequested(ids.front());
    });
    connect(remove, &QPushButton::clicked, this, &RunsPanel::deleteSelected);
    connect(rerunStale, &QPushButton::clicked, this, [this] { m_controller->rerunStale(); });
    connect(simulate, &QPushButton::clicked, this, [this] { m_controller->simulate(selectedRuns()); });
    // A run that lands is scrolled into view, wherever the table's sort puts it.
    connect(m_controller, &actions::RunController::runLanded, this, [this](int id) {
        auto* model = m_table->model();
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->index(row, 0).data(RunTableModel::RunIdRole).toInt() == id) {
                m_table->scrollTo(model->index(row, 0));
                return;
            }
    });
    connect(details, &QPushButton::clicked, this, [this] { showSimulationDetails(); });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() == RunTableModel::Simulated)
            showSimulationDetails();
    });
    connect(diff, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (ids.size() == 2)
            Q_EMIT diffRequested(ids[0], ids[1]);
        else
            Q_EMIT errorOccurred(tr("Select two runs"),
                                 tr("Select exactly two runs of the same application to compare their placements."));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    m_document->setCurrentRun(current.data(RunTableModel::RunIdRole).toInt());
            });
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, [this](int id) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            return;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (m_table->currentIndex().row() != index.row())
            m_table->selectRow(index.row());
    });
    connect(m_document, &document::ProjectDocument::runsChanged, this, &RunsPanel::updateStaleNote);
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, &RunsPanel::showDetails);
    connect(m_document, &document::ProjectDocument::runsChanged, this,
            [this] { showDetails(m_document->currentRun()); });
    updateStaleNote();
}

/// The runs table beside the details pane, with the table's context menu.
void RunsPanel::buildTable(QVBoxLayout* layout, QMenu* exportMenu)
{
    m_model = new RunTableModel(m_document, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName("runTable");
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    // Fastest first: the predicted run time is what recommendations rank by.
    m_table->sortByColumn(RunTableModel::Predicted, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    // Rows as tall as their text and a little air, so that a short dock still shows several runs.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->setWordWrap(false);
    // Room for the header and four runs, whatever the window's size: a dock squeezed to one row hides the run
    // it selects.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height()
                              + 4 * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth() + 2);
    m_table->setTextElideMode(Qt::ElideRight);
    // Every column as wide as its values and header ("Simulated" and its times are never cut), but the parameters,
    // which can be long: those the user sizes, and they elide; the table scrolls sideways.
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(RunTableModel::Parameters, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(RunTableModel::Parameters, 160);
    m_details = new QTextBrowser(this);
    m_details->setObjectName("runDetails");
    m_details->setPlaceholderText(tr("Select a run to see its parameters, processes per site, notes and where its "
                                     "time goes."));
    auto* split = new QSplitter(this);
    split->addWidget(m_table);
    split->addWidget(m_details);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        if (QMenu* menu = contextMenuFor(m_table->indexAt(at)))
            menu->popup(m_table->viewport()->mapToGlobal(at));
    });
    m_exportMenu = exportMenu;
}

void RunsPanel::showDetails(int runId)
{
    const auto run = m_document->run(runId);
    if (!run) {
        m_details->clear();
        return;
    }
    m_details->setHtml(runExplanationHtml(*m_document, *run));
}

QMenu* RunsPanel::contextMenuFor(const QModelIndex& index)
{
    if (!index.isValid())
        return nullptr;
    const int id = index.data(RunTableModel::RunIdRole).toInt();
    const auto run = m_document->run(id);
    if (!run)
        return nullptr;
    // The menu acts on the clicked run; it becomes the selection first, as in a file manager.
    if (!m_table->selectionModel()->isRowSelected(index.row(), QModelIndex()))
        m_table->selectRow(index.row());
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->setObjectName("runContextMenu");
    menu->addAction(tr("Re-run"), this, [this, id] { m_controller->rerun({id}); });
    menu->addAction(tr("Duplicate into the Run Panel"), this, [this, id] { Q_EMIT duplicateRequested(id); });
    auto* diffWith = menu->addMenu(tr("Diff With"));
    for (const auto& other : m_document->runs())
        if (other->id != id && other->application == run->application && other->kind == run->kind)
            diffWith->addAction(QString::fromStdString(other->label()), this,
                                [this, id, otherId = other->id] { Q_EMIT diffRequested(id, otherId); });
    diffWith->setEnabled(!diffWith->isEmpty() && run->kind == document::RunKind::Mapping);
    auto* exportMenu = menu->addMenu(tr("Export"));
    exportMenu->addActions(m_exportMenu->actions());
    if (run->kind == document::RunKind::Mapping) {
        menu->addAction(tr("Simulate"), this, [this, id] { m_controller->simulate({id}); });
        auto* where = menu->addAction(tr("Where the Time Goes (Simulation)…"), this,
                                      [this] { showSimulationDetails(); });
        where->setEnabled(run->metric("simulated_s").has_value());
    }
    menu->addAction(tr("Show Notes and Details"), this, [this, id] {
        showDetails(id);
        m_details->show();
        m_details->setFocus();
    });
    menu->addSeparator();
    menu->addAction(tr("Delete"), this, &RunsPanel::deleteSelected);
    return menu;
}

void RunsPanel::updateStaleNote()
{
    const auto stale = m_document->staleRuns();
    m_staleNote->setText(
        stale.empty() ? QString()
                      : tr("<span style='color:#b35806'><b>%n stale run(s)</b>: inputs changed since they ran.</span>",
                           nullptr, static_cast<int>(stale.size())));
    const int row = m_model->rowOf(m_document->currentRun());
    if (row >= 0)
        m_table->selectRow(m_proxy->mapFromSource(m_model->index(row, 0)).row());
}

std::vector<int> RunsPanel::chooseSites(const QString& title, const QString& label)
{
    QDialog dialog(this);
    dialog.setWindowTitle(title);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(label, &dialog));
    auto* list = new QListWidget(&dialog);
    const auto& topology = m_document->project()->topology;
    for (const auto& site : topology.sites()) {
        auto* item = new QListWidgetItem(QString::fromStdString(site.name), list);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    layout->addWidget(list);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    std::vector<int> sites;
    if (dialog.exec() != QDialog::Accepted)
        return sites;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            sites.push_back(i);
    return sites;
}

void RunsPanel::removeSitesWithDialog()
{
    const auto ids = selectedRuns();
    const auto run = ids.size() == 1 ? m_document->run(ids.front()) : nullptr;
    if (!run || run->kind != document::RunKind::Partition) {
        Q_EMIT errorOccurred(tr("Select one partition run"),
                             tr("Removing sites derives a new run from one partition run: select it first."));
        return;
    }
    const auto sites = chooseSites(tr("Remove Sites"),
                                   tr("Sites to remove from %1; what lived there is placed again "
                                      "by Geo-Cut's rule and refined:")
                                       .arg(QString::fromStdString(run->label())));
    if (!sites.empty())
        m_controller->removeSites(run->id, sites);
}

BatchDialog* RunsPanel::applyBatchWithDialog()
{
    const auto ids = selectedRuns();
    const auto run = ids.size() == 1 ? m_document->run(ids.front()) : nullptr;
    if (!run || run->kind != document::RunKind::Partition) {
        Q_EMIT errorOccurred(tr("Select one partition run"),
                             tr("A batch derives a new run from one partition run: select it first."));
        return nullptr;
    }
    auto* dialog = new BatchDialog(QFileInfo(m_document->path()).absolutePath(), QString::fromStdString(run->label()),
                                   this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    const int runId = run->id;
    connect(dialog, &QDialog::accepted, this, [this, dialog, runId] {
        m_controller->applyBatch(runId, dialog->insertEdit()->text().trimmed(), dialog->deleteEdit()->text().trimmed(),
                                 dialog->threshold());
    });
    dialog->open();
    return dialog;
}

SimulationDetailsDialog* RunsPanel::showSimulationDetails()
{
    const auto ids = selectedRuns();
    const auto run = ids.size() == 1 ? m_document->run(ids.front()) : nullptr;
    if (!run) {
        Q_EMIT errorOccurred(tr("Select one run"),
                             tr("Where the time goes is shown for one simulated mapping run: select it first."));
        return nullptr;
    }
    const auto comparison = ops::compareWithSimulation(*run);
    if (!comparison) {
        Q_EMIT errorOccurred(tr("Run %1 was not simulated").arg(run->id),
                             run->kind == document::RunKind::Mapping
                                 ? tr("Simulate it first (Simulate), then see where the time goes.")
                                 : tr("Only mapping runs are simulated."));
        return nullptr;
    }
    auto* dialog = new SimulationDetailsDialog(*run, *comparison, *m_document->project(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

std::vector<int> RunsPanel::selectedRuns() const
{
    std::vector<int> ids;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        ids.push_back(index.data(RunTableModel::RunIdRole).toInt());
    std::sort(ids.begin(), ids.end());
    return ids;
}

void RunsPanel::deleteSelected() { m_document->removeRuns(selectedRuns()); }

QString RunsPanel::exportRun(int runId, io::LauncherFormat format, const QString& path, io::LaunchAdvice* advice)
{
    const auto run = m_document->run(runId);
    if (!run)
        return tr("no run %1").arg(runId);
    auto exported = actions::exportLauncher(*run, *m_document->project(), format, path);
    if (!exported)
        return QString::fromStdString(exported.error().toString());
    if (advice)
        *advice = std::move(*exported);
    return {};
}

QMessageBox* RunsPanel::showLaunchAdvice(const io::LaunchAdvice& advice, const QString& path)
{
    const QString command = QString::fromStdString(advice.command);
    const QString warning = QString::fromStdString(advice.placeholderWarning());
    auto* box = new QMessageBox(warning.isEmpty() ? QMessageBox::Information : QMessageBox::Warning,
                                tr("Launch %1").arg(QFileInfo(path).fileName()), QString(), QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName("launchAdvice");
    box->setTextFormat(Qt::RichText);
    QString text = tr("<p>Launch it with:</p><p><code>%1</code></p><p>(<code>./app</code>: your program and its "
                      "arguments)</p><p>%2.</p>")
                       .arg(command.toHtmlEscaped(), QString::fromStdString(advice.slots).toHtmlEscaped());
    if (!warning.isEmpty())
        text += tr("<p><b>It cannot be launched yet:</b> %1 (File &gt; Import &gt; Hosts\u2026).</p>")
                    .arg(warning.toHtmlEscaped());
    box->setText(text);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPushButton* copy = box->addButton(tr("Copy Command"), QMessageBox::ActionRole);
    connect(copy, &QPushButton::clicked, box, [command] { QGuiApplication::clipboard()->setText(command); });
    box->open();
    return box;
}

QString RunsPanel::exportRunCsv(int runId, const QString& path)
{
    const auto run = m_document->run(runId);
    if (!run)
        return tr("no run %1").arg(runId);
    const auto s = actions::exportMappingCsv(*run, *m_document->project(), path);
    return s ? QString() : QString::fromStdString(s.error().toString());
}

void RunsPanel::exportWithDialog(int kind)
{
    const auto ids = selectedRuns();
    if (ids.empty()) {
        Q_EMIT errorOccurred(tr("Nothing to export"), tr("Select a run first."));
        return;
    }
    const auto run = m_document->run(ids.front());
    if (m_document->isStale(*run))
        Q_EMIT errorOccurred(tr("Exporting a stale run"),
                             tr("The inputs changed since run %1; the file reflects the old inputs.").arg(run->id));
    static const char* filters[] = {"Open MPI rankfile (*.rankfile *.txt);;All files (*)",
                                    "Machinefile (*.machinefile *.txt);;All files (*)",
                                    "Slurm hostfile (*.hostfile *.txt);;All files (*)",
                                    "Mapping CSV (*.csv);;All files (*)"};
    static const char* suffixes[] = {".rankfile", ".machinefile", ".hostfile", ".csv"};
    const QString suggested = QString("%1-%2%3").arg(QString::fromStdString(run->application),
                                                     QString::fromStdString(run->algorithm), suffixes[kind]);
    const QString path = widgets::saveFileName(this, tr("Export run %1").arg(run->id), suggested, tr(filters[kind]));
    if (path.isEmpty())
        return;
    io::LaunchAdvice advice;
    const QString error = kind == 3 ? exportRunCsv(run->id, path)
                                    : exportRun(run->id,
                                                kind == 0       ? io::LauncherFormat::OpenMpiRankfile
                                                    : kind == 1 ? io::LauncherFormat::MpichMachinefile
                                                                : io::LauncherFormat::SlurmHostfile,
                                                path, &advice);
    if (!error.isEmpty())
        Q_EMIT errorOccurred(tr("The export failed"), error);
    else if (kind != 3)
        showLaunchAdvice(advice, path);
}

} // namespace meridian::workbench
