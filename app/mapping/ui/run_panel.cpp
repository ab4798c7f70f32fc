#include "app/mapping/ui/run_panel.h"

#include "core/cost/gas_cost.h"

#include "app/partitioning/budget_sweep.h"
#include "app/project/project_edits.h"
#include "core/partition/cost_bound.h"
#include "core/synth/constraint_generator.h"
#include "widgets/param_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDoubleValidator>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace meridian::workbench {

RunPanel::RunPanel(document::ProjectDocument* document, actions::RunController* controller, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_controller(controller)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* top = new QFormLayout;
    m_application = new QComboBox(this);
    m_application->setObjectName("runApplication");
    m_application->setToolTip(tr("An application gets the mappers; a graph gets the partitioners."));
    top->addRow(tr("Input:"), m_application);
    layout->addLayout(top);

    m_algorithmsLabel = new QLabel(this);
    layout->addWidget(m_algorithmsLabel);
    m_mappers = new QListWidget(this);
    m_mappers->setObjectName("mapperList");
    m_forms = new QStackedWidget(this);
    for (const auto* mapper : controller->mappers().all())
        addAlgorithm(QString::fromStdString(std::string(mapper->id())),
                     QString::fromStdString(std::string(mapper->description())), mapper->parameters(), false);
    for (const auto* partitioner : controller->partitioners().all())
        addAlgorithm(QString::fromStdString(std::string(partitioner->id())),
                     QString::fromStdString(std::string(partitioner->description())), partitioner->parameters(), true);
    m_mappers->setMaximumHeight(220);
    layout->addWidget(m_mappers);
    auto* formBox = new QGroupBox(tr("Parameters"), this);
    auto* formLayout = new QVBoxLayout(formBox);
    formLayout->addWidget(m_forms);
    layout->addWidget(formBox, 1);

    auto* seeds = new QFormLayout;
    m_seed = new QSpinBox(this);
    m_seed->setRange(1, 1000000);
    m_seed->setToolTip(tr("Same seed, same placement, on any machine."));
    m_seeds = new QSpinBox(this);
    m_seeds->setRange(1, 100);
    m_seeds->setToolTip(tr("Runs every ticked mapper with seeds seed, seed+1, ..."));
    seeds->addRow(tr("Seed:"), m_seed);
    seeds->addRow(tr("Seeds:"), m_seeds);
    layout->addLayout(seeds);
    layout->addWidget(buildPartitionSettings());
    // What the ticked algorithms need and the project lacks, said once, before anything runs.
    m_requirements = new QLabel(this);
    m_requirements->setObjectName("runRequirements");
    m_requirements->setWordWrap(true);
    m_requirements->setStyleSheet("QLabel { background: #fff4e5; border: 1px solid #e0b070; padding: 4px; }");
    m_requirements->hide();
    layout->addWidget(m_requirements);
    auto* run = new QPushButton(this);
    m_runButton = run;
    run->setObjectName("runButton");
    run->setDefault(true);
    layout->addWidget(run);

    auto* pins = new QGroupBox(tr("Constraint generator"), this);
    m_pinsBox = pins;
    auto* pinLayout = new QFormLayout(pins);
    m_ratio = new QDoubleSpinBox(pins);
    m_ratio->setRange(0.0, 1.0);
    m_ratio->setSingleStep(0.1);
    m_ratio->setValue(0.2);
    m_ratio->setToolTip(tr("Share of processes pinned to a site (SC17's constraint ratio)."));
    m_pinSeed = new QSpinBox(pins);
    m_pinSeed->setRange(1, 1000000);
    auto* generate = new QPushButton(tr("Redraw pins"), pins);
    generate->setToolTip(tr("Replaces the application's pins with random ones at this ratio (undoable)."));
    pinLayout->addRow(tr("Ratio:"), m_ratio);
    pinLayout->addRow(tr("Seed:"), m_pinSeed);
    pinLayout->addRow(generate);
    layout->addWidget(pins);

    connect(m_mappers, &QListWidget::currentRowChanged, m_forms, &QStackedWidget::setCurrentIndex);
    connect(run, &QPushButton::clicked, this, [this] {
        if (isGraphInput() && m_budgetOn->isChecked() && !partitionSettings().budgetUsd)
            Q_EMIT errorOccurred(tr("No valid budget"),
                                 tr("The WAN budget '%1' is not a number of USD; type one (for example 8.4e-06) or "
                                    "untick WAN budget.")
                                     .arg(m_budget->text()));
        else if (const QString refusal = budgetRefusal(); !refusal.isEmpty())
            Q_EMIT errorOccurred(tr("The budget cannot be met"), refusal);
        else if (requests().empty())
            Q_EMIT errorOccurred(tr("Nothing to run"),
                                 isGraphInput() ? tr("Tick at least one partitioner and choose a graph.")
                                                : tr("Tick at least one mapper and choose an application."));
        else
            runChecked();
    });
    connect(m_application, &QComboBox::currentIndexChanged, this, &RunPanel::showAlgorithmsForInput);
    connect(generate, &QPushButton::clicked, this, [this] {
        if (const QString e = generatePins(); !e.isEmpty())
            Q_EMIT errorOccurred(tr("The pins were not changed"), e);
    });
    connect(m_document, &document::ProjectDocument::projectChanged, this, &RunPanel::rebuildApplications);
    connect(m_document, &document::ProjectDocument::projectChanged, this, &RunPanel::updateRequirements);
    connect(controller, &actions::RunController::graphHCostReady, this, [this](const QString& graph, double usd) {
        if (graph != m_application->currentText())
            return;
        m_budget->setText(QString::number(usd, 'g', 12));
        m_budgetOn->setChecked(true);
        m_budgetNote->setText(
            tr("GrapH's WAN cost on %1: %2 USD per iteration (Geo-Cut's B).").arg(graph, QString::number(usd, 'g', 6)));
    });
    connect(controller, &actions::RunController::costBoundReady, this,
            [this](const QString& key, std::uint64_t fingerprint, double usd) {
                m_boundsPending.remove(key);
                m_bounds.insert(key, Bound{fingerprint, usd});
                updateCostBound();
            });
    connect(controller, &actions::RunController::runFailed, this, [this](const QString& title, const QString&) {
        if (title.startsWith(tr("Lowest possible WAN cost"))) {
            m_boundsPending.clear();
            m_boundNote->setText(tr("The lowest possible cost could not be computed (see the message)."));
        }
    });
    rebuildApplications();
}

void RunPanel::addAlgorithm(const QString& id, const QString& description, const std::vector<ParamSpec>& specs,
                            bool partitioner)
{
    auto* item = new QListWidgetItem(id, m_mappers);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
    item->setToolTip(description);
    item->setData(kPartitionerRole, partitioner);
    auto* form = new widgets::ParamForm(m_forms);
    form->setSpecs(specs);
    form->setObjectName(id);
    (partitioner ? m_partitionFormById : m_formById).insert(id, form);
    auto* scroll = new QScrollArea(m_forms);
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_forms->addWidget(scroll);
}

QWidget* RunPanel::buildPartitionSettings()
{
    m_partitionBox = new QGroupBox(tr("Traffic and budget (Geo-Cut)"), this);
    auto* form = new QFormLayout(m_partitionBox);
    m_profile = new QComboBox(m_partitionBox);
    m_profile->setObjectName("partitionProfile");
    m_profile->addItem(tr("PageRank"), "pagerank");
    m_profile->addItem(tr("SSSP"), "sssp");
    m_profile->addItem(tr("Subgraph isomorphism"), "subgraph-isomorphism");
    m_profile->setToolTip(
        tr("What one GAS iteration sends (Geo-Cut Section 6): the size of gathered and applied data."));
    m_activeFraction = new QDoubleSpinBox(m_partitionBox);
    m_activeFraction->setRange(0.001, 1.0);
    m_activeFraction->setDecimals(3);
    m_activeFraction->setSingleStep(0.05);
    m_activeFraction->setValue(0.1);
    m_activeFraction->setToolTip(tr("SSSP: the share of vertices active in an iteration."));
    m_budgetOn = new QCheckBox(tr("WAN budget"), m_partitionBox);
    m_budgetOn->setObjectName("budgetOn");
    m_budgetOn->setToolTip(tr("Geo-Cut's B (eq. 6): the WAN dollars one iteration may cost. Every vertex's data "
                              "and master stay at its home, so some budgets cannot be met: Meridian computes the "
                              "lowest cost any partition can reach and refuses a budget below it before running. "
                              "Geo-Cut lowers its cost to the budget when it can, and says by how much it is over "
                              "when it cannot; the other partitioners ignore the budget and report how far over "
                              "they are."));
    // A line edit, not a spin box: one iteration of a small graph costs micro-dollars, which a spin box's fixed
    // decimals would round away.
    m_budget = new QLineEdit(m_partitionBox);
    m_budget->setObjectName("budget");
    auto* validator = new QDoubleValidator(0.0, 1e12, 12, m_budget);
    validator->setNotation(QDoubleValidator::ScientificNotation);
    validator->setLocale(QLocale::c());
    m_budget->setValidator(validator);
    m_budget->setPlaceholderText(tr("USD per iteration, e.g. 8.4e-06"));
    m_budget->setEnabled(false);
    auto* graphH = new QPushButton(tr("GrapH's cost"), m_partitionBox);
    graphH->setObjectName("graphHCost");
    graphH->setToolTip(tr("Sets the budget to the WAN cost of GrapH's partition of this graph, the setting of "
                          "Geo-Cut's evaluation (computed in the background)."));
    auto* sweep = new QPushButton(tr("Sweep 1.0 to 0.6 B"), m_partitionBox);
    sweep->setObjectName("budgetSweep");
    sweep->setToolTip(tr("Runs every ticked partitioner at 1.0, 0.9, 0.8, 0.7 and 0.6 times the budget B (Geo-Cut "
                         "Figs. 19-20); the runs land on the skyline. Run > Sweep the Budget on a Launcher sends "
                         "the same runs to a cluster."));
    m_budgetNote = new QLabel(m_partitionBox);
    m_budgetNote->setWordWrap(true);
    m_boundNote = new QLabel(m_partitionBox);
    m_boundNote->setObjectName("costBound");
    m_boundNote->setWordWrap(true);
    auto* budgetButtons = new QHBoxLayout;
    budgetButtons->addWidget(graphH);
    budgetButtons->addWidget(sweep);
    form->addRow(tr("Profile:"), m_profile);
    form->addRow(tr("Active share:"), m_activeFraction);
    form->addRow(m_budgetOn, m_budget);
    form->addRow(budgetButtons);
    form->addRow(m_budgetNote);
    form->addRow(m_boundNote);
    connect(sweep, &QPushButton::clicked, this, [this] {
        if (const QString e = runBudgetSweep(); !e.isEmpty())
            Q_EMIT errorOccurred(tr("No budget sweep"), e);
    });
    connect(m_budgetOn, &QCheckBox::toggled, m_budget, &QWidget::setEnabled);
    connect(m_budgetOn, &QCheckBox::toggled, this, &RunPanel::updateCostBound);
    connect(m_budget, &QLineEdit::textChanged, this, &RunPanel::updateCostBound);
    connect(m_profile, &QComboBox::currentIndexChanged, this, &RunPanel::updateCostBound);
    connect(m_activeFraction, &QDoubleSpinBox::valueChanged, this, &RunPanel::updateCostBound);
    connect(m_profile, &QComboBox::currentIndexChanged, this,
            [this] { m_activeFraction->setEnabled(m_profile->currentData().toString() == "sssp"); });
    m_activeFraction->setEnabled(false);
    connect(graphH, &QPushButton::clicked, this, [this] {
        if (!isGraphInput())
            return;
        m_budgetNote->setText(tr("Computing GrapH's WAN cost..."));
        m_controller->computeGraphHCost(m_application->currentText().toStdString(), partitionSettings(),
                                        static_cast<std::uint64_t>(m_seed->value()));
    });
    return m_partitionBox;
}

actions::PartitionSettings RunPanel::partitionSettings() const
{
    actions::PartitionSettings settings;
    settings.profile = m_profile->currentData().toString().toStdString();
    settings.activeFraction = m_activeFraction->value();
    bool ok = false;
    const double budget = m_budget->text().toDouble(&ok);
    if (m_budgetOn->isChecked() && ok && budget >= 0.0)
        settings.budgetUsd = budget;
    return settings;
}

void RunPanel::setPartitionSettings(const actions::PartitionSettings& settings)
{
    m_profile->setCurrentIndex(std::max(0, m_profile->findData(QString::fromStdString(settings.profile))));
    m_activeFraction->setValue(settings.activeFraction);
    m_budgetOn->setChecked(settings.budgetUsd.has_value());
    if (settings.budgetUsd)
        m_budget->setText(QString::number(*settings.budgetUsd, 'g', 12));
}

std::vector<actions::RunRequest> RunPanel::budgetSweepRequests(QString& refusal)
{
    refusal.clear();
    const auto settings = partitionSettings();
    if (!isGraphInput() || !settings.budgetUsd || *settings.budgetUsd <= 0.0) {
        refusal = tr("Choose a graph and set a WAN budget B first (GrapH's cost is Geo-Cut's setting).");
        return {};
    }
    auto base = requests();
    if (base.empty()) {
        refusal = tr("Tick at least one partitioner.");
        return {};
    }
    const std::optional<double> bound = costBound();
    const ops::BudgetSweepPlan plan = ops::planBudgetSweep(*settings.budgetUsd, bound, ops::kBudgetSweepFractions);
    std::vector<actions::RunRequest> all;
    for (const double fraction : plan.run)
        for (auto request : base) {
            request.partition->budgetUsd = *settings.budgetUsd * fraction;
            all.push_back(std::move(request));
        }
    QStringList skipped;
    for (const double fraction : plan.skipped)
        skipped << QString::number(fraction, 'f', 1) + " B";
    if (all.empty()) {
        refusal = tr("Every budget of the sweep is below the lowest cost any partition can reach (%1 USD per "
                     "iteration): raise B.")
                      .arg(QString::number(*bound, 'g', 6));
        return {};
    }
    if (!skipped.isEmpty())
        m_boundNote->setText(tr("Not run: %1, below the lowest cost any partition can reach (%2 USD per iteration).")
                                 .arg(skipped.join(", "), QString::number(*bound, 'g', 6)));
    return all;
}

QString RunPanel::runBudgetSweep()
{
    QString refusal;
    const auto all = budgetSweepRequests(refusal);
    if (all.empty())
        return refusal;
    m_controller->submit(all);
    return {};
}

std::optional<double> RunPanel::costBound() const
{
    if (!isGraphInput())
        return std::nullopt;
    const std::string graph = m_application->currentText().toStdString();
    const auto it = m_bounds.find(actions::RunController::costBoundKey(graph, partitionSettings()));
    if (it == m_bounds.end() || it->fingerprint != m_document->fingerprint(graph))
        return std::nullopt;
    return it->usd;
}

QString RunPanel::budgetRefusal() const
{
    const auto settings = partitionSettings();
    const auto bound = costBound();
    if (!isGraphInput() || !settings.budgetUsd || !bound)
        return {};
    const auto status = partition::checkBudgetReachable(*settings.budgetUsd, *bound);
    return status ? QString() : QString::fromStdString(status.error().message);
}

void RunPanel::updateCostBound()
{
    if (!isGraphInput() || !m_budgetOn->isChecked()) {
        m_boundNote->clear();
        return;
    }
    const std::string graph = m_application->currentText().toStdString();
    const auto settings = partitionSettings();
    if (const auto bound = costBound()) {
        QString text = tr("No partition of %1 can cost less than %2 USD per iteration (a lower bound from a "
                          "relaxation; every master stays at its home).")
                           .arg(m_application->currentText(), QString::number(*bound, 'g', 6));
        if (settings.budgetUsd && *settings.budgetUsd < *bound)
            text += ' ' + tr("The budget is below it: no partitioner can meet it.");
        m_boundNote->setText(text);
        return;
    }
    const QString key = actions::RunController::costBoundKey(graph, settings);
    const std::uint64_t fingerprint = m_document->fingerprint(graph);
    m_boundNote->setText(tr("Computing the lowest WAN cost any partition can reach..."));
    if (m_boundsPending.value(key, 0) == fingerprint + 1)
        return;
    m_boundsPending.insert(key, fingerprint + 1);
    m_controller->computeCostBound(graph, settings);
}

bool RunPanel::isGraphInput() const { return m_application->currentData(kGraphRole).toBool(); }

void RunPanel::rebuildApplications()
{
    const QString keep = m_application->currentText();
    QSignalBlocker blocker(m_application);
    m_application->clear();
    const auto project = m_document->project();
    for (const auto& a : project->applications)
        m_application->addItem(QString::fromStdString(a.name));
    if (!project->applications.empty() && !project->graphs.empty())
        m_application->insertSeparator(m_application->count());
    for (const auto& g : project->graphs) {
        m_application->addItem(QString::fromStdString(g.name));
        const int i = m_application->count() - 1;
        m_application->setItemData(i, true, kGraphRole);
        m_application
            ->setItemData(i, tr("Graph: %1 vertices, %2 edges (partitioners)").arg(g.stats.vertices).arg(g.stats.edges),
                          Qt::ToolTipRole);
    }
    const int i = m_application->findText(keep);
    m_application->setCurrentIndex(i >= 0 ? i : 0);
    showAlgorithmsForInput();
}

void RunPanel::showAlgorithmsForInput()
{
    const bool graph = isGraphInput();
    int first = -1;
    for (int i = 0; i < m_mappers->count(); ++i) {
        const bool hidden = m_mappers->item(i)->data(kPartitionerRole).toBool() != graph;
        m_mappers->item(i)->setHidden(hidden);
        if (!hidden && first < 0)
            first = i;
    }
    const int current = m_mappers->currentRow();
    if (current < 0 || m_mappers->item(current)->isHidden())
        m_mappers->setCurrentRow(first);
    m_algorithmsLabel->setText(graph ? tr("Partitioners (tick to run; select to see parameters):")
                                     : tr("Mappers (tick to run; select to see parameters):"));
    m_runButton->setText(graph ? tr("Run ticked partitioners") : tr("Run ticked mappers"));
    m_partitionBox->setVisible(graph);
    m_pinsBox->setVisible(!graph);
    m_budgetNote->clear();
    updateCostBound();
    updateRequirements();
}

void RunPanel::updateRequirements()
{
    const std::string missing = isGraphInput() ? cost::GasNetwork::missingInputs(m_document->project()->topology)
                                               : std::string();
    m_requirements->setVisible(!missing.empty());
    m_runButton->setEnabled(missing.empty());
    if (missing.empty())
        return;
    m_requirements->setText(
        tr("The partitioners cannot run: %1. They weigh every site's uplink and downlink and "
           "price its uploads: fill those in the Sites table (Uplink, Downlink, Egress) or import a "
           "sites file with up_MBps, down_MBps and egress_usd_per_GB.")
            .arg(QString::fromStdString(missing)));
}

void RunPanel::setCheckedMappers(const QStringList& ids)
{
    for (int i = 0; i < m_mappers->count(); ++i) {
        auto* item = m_mappers->item(i);
        item->setCheckState(!item->isHidden() && ids.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
}

QStringList RunPanel::checkedMappers() const
{
    QStringList ids;
    for (int i = 0; i < m_mappers->count(); ++i)
        if (!m_mappers->item(i)->isHidden() && m_mappers->item(i)->checkState() == Qt::Checked)
            ids << m_mappers->item(i)->text();
    return ids;
}

widgets::ParamForm* RunPanel::form(const QString& id) const
{
    return (isGraphInput() ? m_partitionFormById : m_formById).value(id, nullptr);
}

std::vector<actions::RunRequest> RunPanel::requests() const
{
    std::vector<actions::RunRequest> out;
    if (m_application->currentIndex() < 0)
        return out;
    std::optional<actions::PartitionSettings> partition;
    if (isGraphInput())
        partition = partitionSettings();
    for (const QString& id : checkedMappers())
        for (int k = 0; k < m_seeds->value(); ++k)
            out.push_back({m_application->currentText().toStdString(), id.toStdString(), form(id)->values(),
                           static_cast<std::uint64_t>(m_seed->value() + k), std::nullopt, partition});
    return out;
}

std::vector<int> RunPanel::runChecked()
{
    if (isGraphInput() && !cost::GasNetwork::missingInputs(m_document->project()->topology).empty())
        return {}; // the note above the button says why; nothing is started to fail one dialog per partitioner
    return m_controller->submit(requests());
}

void RunPanel::loadRun(const document::Run& run)
{
    m_application->setCurrentText(QString::fromStdString(run.application));
    setCheckedMappers({QString::fromStdString(run.algorithm)});
    for (int i = 0; i < m_mappers->count(); ++i)
        if (!m_mappers->item(i)->isHidden() && m_mappers->item(i)->text() == QString::fromStdString(run.algorithm))
            m_mappers->setCurrentRow(i);
    if (run.kind == document::RunKind::Partition)
        setPartitionSettings({run.profile, run.activeFraction, run.budgetUsd});
    if (auto* f = form(QString::fromStdString(run.algorithm)))
        f->setValues(run.params);
    m_seed->setValue(static_cast<int>(run.seed));
    m_seeds->setValue(1);
}

QString RunPanel::generatePins()
{
    const auto project = m_document->project();
    const int a = project->applicationIndex(m_application->currentText().toStdString());
    if (a < 0)
        return tr("choose an application first");
    const double ratio = m_ratio->value();
    const auto seed = static_cast<std::uint64_t>(m_pinSeed->value());
    const auto status = m_document
                            ->edit(tr("Redraw pins of %1 at ratio %2").arg(m_application->currentText()).arg(ratio),
                                   [&](const document::Project& p) -> Expected<document::Project> {
                                       auto pins = synth::generateConstraints(p.applications[a].comm.processCount(),
                                                                              ratio, p.topology, seed);
                                       if (!pins)
                                           return pins.error();
                                       return document::withPins(p, a, std::move(*pins));
                                   });
    return status ? QString() : QString::fromStdString(status.error().toString());
}

} // namespace meridian::workbench
