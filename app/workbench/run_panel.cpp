#include "app/workbench/run_panel.h"

#include "app/document/project_edits.h"
#include "core/synth/constraint_generator.h"
#include "widgets/param_form.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
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
    top->addRow(tr("Application:"), m_application);
    layout->addLayout(top);

    layout->addWidget(new QLabel(tr("Mappers (tick to run; select to see parameters):"), this));
    m_mappers = new QListWidget(this);
    m_mappers->setObjectName("mapperList");
    m_forms = new QStackedWidget(this);
    for (const auto* mapper : controller->mappers().all()) {
        auto* item = new QListWidgetItem(QString::fromStdString(std::string(mapper->id())), m_mappers);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(QString::fromStdString(std::string(mapper->description())));
        auto* form = new widgets::ParamForm(m_forms);
        form->setSpecs(mapper->parameters());
        form->setObjectName(item->text());
        m_formById.insert(item->text(), form);
        auto* scroll = new QScrollArea(m_forms);
        scroll->setWidget(form);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        m_forms->addWidget(scroll);
    }
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
    auto* run = new QPushButton(tr("Run ticked mappers"), this);
    run->setObjectName("runButton");
    run->setDefault(true);
    layout->addWidget(run);

    auto* pins = new QGroupBox(tr("Constraint generator"), this);
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
        if (requests().empty())
            Q_EMIT errorOccurred(tr("Nothing to run"), tr("Tick at least one mapper and choose an application."));
        else
            runChecked();
    });
    connect(generate, &QPushButton::clicked, this, [this] {
        if (const QString e = generatePins(); !e.isEmpty())
            Q_EMIT errorOccurred(tr("The pins were not changed"), e);
    });
    connect(m_document, &document::ProjectDocument::projectChanged, this, &RunPanel::rebuildApplications);
    rebuildApplications();
    m_mappers->setCurrentRow(0);
}

void RunPanel::rebuildApplications()
{
    const QString keep = m_application->currentText();
    QSignalBlocker blocker(m_application);
    m_application->clear();
    for (const auto& a : m_document->project()->applications)
        m_application->addItem(QString::fromStdString(a.name));
    const int i = m_application->findText(keep);
    m_application->setCurrentIndex(i >= 0 ? i : 0);
}

void RunPanel::setCheckedMappers(const QStringList& ids)
{
    for (int i = 0; i < m_mappers->count(); ++i)
        m_mappers->item(i)->setCheckState(ids.contains(m_mappers->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
}

QStringList RunPanel::checkedMappers() const
{
    QStringList ids;
    for (int i = 0; i < m_mappers->count(); ++i)
        if (m_mappers->item(i)->checkState() == Qt::Checked)
            ids << m_mappers->item(i)->text();
    return ids;
}

widgets::ParamForm* RunPanel::form(const QString& id) const { return m_formById.value(id, nullptr); }

std::vector<actions::RunRequest> RunPanel::requests() const
{
    std::vector<actions::RunRequest> out;
    if (m_application->currentIndex() < 0)
        return out;
    for (const QString& id : checkedMappers())
        for (int k = 0; k < m_seeds->value(); ++k)
            out.push_back({m_application->currentText().toStdString(), id.toStdString(), form(id)->values(),
                           static_cast<std::uint64_t>(m_seed->value() + k), std::nullopt});
    return out;
}

std::vector<int> RunPanel::runChecked() { return m_controller->submit(requests()); }

void RunPanel::loadRun(const document::Run& run)
{
    m_application->setCurrentText(QString::fromStdString(run.application));
    setCheckedMappers({QString::fromStdString(run.algorithm)});
    for (int i = 0; i < m_mappers->count(); ++i)
        if (m_mappers->item(i)->text() == QString::fromStdString(run.algorithm))
            m_mappers->setCurrentRow(i);
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
