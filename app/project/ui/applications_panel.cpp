#include "app/project/ui/applications_panel.h"
#include "widgets/file_dialogs.h"

#include "app/project/project_edits.h"
#include "app/project/ui/file_actions.h"
#include "core/synth/constraint_generator.h"
#include "widgets/heatmap_data.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableWidget>
#include <QVBoxLayout>

namespace meridian::workbench {

namespace {

enum ProcessColumn { ProcessId, Sends, Receives, PinnedSite };

// Edits a pin cell with a list of the project's sites (and "" to unpin).
class SiteDelegate : public QStyledItemDelegate {
public:
    SiteDelegate(document::ProjectDocument* document, QObject* parent)
        : QStyledItemDelegate(parent)
        , m_document(document)
    {}
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&, const QModelIndex&) const override
    {
        auto* box = new QComboBox(parent);
        box->addItem(QString());
        for (const auto& s : m_document->project()->topology.sites())
            box->addItem(QString::fromStdString(s.name));
        return box;
    }
    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        auto* box = static_cast<QComboBox*>(editor);
        box->setCurrentIndex(std::max(0, box->findText(index.data().toString())));
    }
    void setModelData(QWidget* editor, QAbstractItemModel* model, const QModelIndex& index) const override
    {
        model->setData(index, static_cast<QComboBox*>(editor)->currentText());
    }

private:
    document::ProjectDocument* m_document;
};

// The file dialog's filter for a time-independent trace.
QString kTraceFilter() { return QObject::tr("Time-independent traces (*.ti);;All files (*)"); }

// A file chooser row: a line edit and a Browse button.
QLineEdit* fileRow(QFormLayout* form, QWidget* parent, const QString& label, const QString& filter)
{
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* edit = new QLineEdit(row);
    auto* browse = new QPushButton(QObject::tr("Browse\u2026"), row);
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, row, [edit, parent, label, filter] {
        const QString path = QFileDialog::getOpenFileName(parent, label, QFileInfo(edit->text()).absolutePath(), filter);
        if (!path.isEmpty())
            edit->setText(path);
    });
    form->addRow(label, row);
    return edit;
}

QString describeApplication(const document::Application& app)
{
    return QObject::tr("%1 processes, %2 in %3 nonzero pairs%4, %5 pinned; %6")
        .arg(app.comm.processCount())
        .arg(widgets::formatValue(app.comm.totalBytes(), "bytes"))
        .arg(app.comm.nonZeros())
        .arg(
            app.comm.hasMessages()
                ? QObject::tr(", %1 messages").arg(QLocale().toString(qlonglong(std::llround(app.comm.totalMessages()))))
                : QObject::tr(", no message counts"))
        .arg(app.pins.size())
        .arg(app.trace ? QObject::tr("traced (%1 actions): its runs' predicted time replays the trace")
                             .arg(QLocale().toString(qlonglong(app.trace->lines)))
                       : QObject::tr("no trace: its runs' predicted time replays its matrices as bulk-synchronous "
                                     "steps"));
}

/// The trace column's text: the trace's action count, or a dash.
QString traceCell(const document::Application& app)
{
    return app.trace ? QObject::tr("%1 actions").arg(QLocale().toString(qlonglong(app.trace->lines)))
                     : QStringLiteral("\u2013");
}

} // namespace

ApplicationsPanel::ApplicationsPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    layout->addWidget(splitter);

    auto* top = new QWidget(splitter);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* buttons = new QHBoxLayout;
    auto addButton = [&](const QString& text, const QString& tip, bool needsSelection, auto slot) {
        auto* b = new QPushButton(text, top);
        b->setToolTip(tip);
        buttons->addWidget(b);
        connect(b, &QPushButton::clicked, this, slot);
        if (needsSelection)
            m_needSelection << b;
        return b;
    };
    addButton(tr("Import\u2026"), tr("Add an application from its volume matrix, message counts and pins"), false,
              &ApplicationsPanel::importWithDialog);
    addButton(tr("Generate\u2026"), tr("Add an application generated from a communication pattern"), false,
              &ApplicationsPanel::generateWithDialog);
    addButton(tr("Rename\u2026"), tr("Rename the selected application (its files keep their names)"), true,
              &ApplicationsPanel::renameWithDialog);
    addButton(tr("Duplicate"), tr("Copy the selected application, its matrices and pins"), true,
              [this] { report(tr("The application was not duplicated"), duplicateApplication(currentApplication())); });
    addButton(tr("Delete"), tr("Delete the selected application (Edit > Undo brings it back)"), true,
              [this] { report(tr("The application was not deleted"), deleteApplication(currentApplication())); });
    addButton(tr("Trace\u2026"),
              tr("Attach the selected application's time-independent trace (PREFIX.ti from a capture with its trace), "
                 "which its runs' predicted time replays; or remove it"),
              true, &ApplicationsPanel::traceWithDialog);
    buttons->addStretch(1);
    topLayout->addLayout(buttons);
    m_applications = new QTableWidget(0, 6, top);
    m_applications->setObjectName("applicationTable");
    m_applications->setHorizontalHeaderLabels(
        {tr("Application"), tr("Processes"), tr("Volume"), tr("Messages"), tr("Pins"), tr("Trace")});
    m_applications->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_applications->setSelectionMode(QAbstractItemView::SingleSelection);
    m_applications->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_applications->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_applications->verticalHeader()->hide();
    topLayout->addWidget(m_applications);

    auto* bottom = new QWidget(splitter);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* pinBar = new QHBoxLayout;
    m_processTitle = new QLabel(bottom);
    m_processTitle->setWordWrap(true); // one long line would set the window's minimum width
    pinBar->addWidget(m_processTitle, 1);
    auto* importPinsButton = new QPushButton(tr("Import pins\u2026"), bottom);
    importPinsButton->setToolTip(tr("Replace the pins by a CSV of process,site lines"));
    auto* redrawPinsButton = new QPushButton(tr("Redraw at ratio\u2026"), bottom);
    redrawPinsButton->setToolTip(
        tr("Replace the pins by random ones: a share of the processes pinned to random sites"));
    auto* clearPinsButton = new QPushButton(tr("Clear pins"), bottom);
    m_needSelection << importPinsButton << redrawPinsButton << clearPinsButton;
    pinBar->addWidget(importPinsButton);
    pinBar->addWidget(redrawPinsButton);
    pinBar->addWidget(clearPinsButton);
    connect(redrawPinsButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const double ratio = QInputDialog::getDouble(this, tr("Redraw Pins"), tr("Share of processes to pin (0 to 1):"),
                                                     0.2, 0.0, 1.0, 2, &ok);
        if (!ok)
            return;
        const int seed = QInputDialog::getInt(this, tr("Redraw Pins"), tr("Seed (the same seed draws the same pins):"),
                                              1, 1, 1000000, 1, &ok);
        if (ok)
            report(tr("The pins were not redrawn"), redrawPins(ratio, static_cast<std::uint64_t>(seed)));
    });
    bottomLayout->addLayout(pinBar);
    connect(importPinsButton, &QPushButton::clicked, this, &ApplicationsPanel::importPinsWithDialog);
    connect(clearPinsButton, &QPushButton::clicked, this,
            [this] { report(tr("The pins were not cleared"), clearPins()); });
    m_processes = new QTableWidget(0, 4, bottom);
    m_processes->setObjectName("processTable");
    m_processes->setHorizontalHeaderLabels({tr("Process"), tr("Sends"), tr("Receives"), tr("Pinned to site")});
    m_processes->setItemDelegateForColumn(PinnedSite, new SiteDelegate(m_document, m_processes));
    m_processes->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_processes->horizontalHeader()->setSectionResizeMode(PinnedSite, QHeaderView::Stretch);
    m_processes->verticalHeader()->hide();
    bottomLayout->addWidget(m_processes);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);

    connect(m_applications, &QTableWidget::itemSelectionChanged, this, [this] {
        if (m_rebuilding)
            return;
        rebuildProcesses();
        const int a = currentApplication();
        const auto project = m_document->project();
        Q_EMIT currentApplicationChanged(a >= 0 ? QString::fromStdString(project->applications[a].name) : QString());
    });
    connect(m_processes, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_rebuilding || item->column() != PinnedSite)
            return;
        const QString error = setPin(item->row(), item->text().trimmed());
        if (!error.isEmpty()) {
            rebuildProcesses();
            report(tr("The pin was not changed"), error);
        }
    });
    connect(m_document, &document::ProjectDocument::projectChanged, this, &ApplicationsPanel::rebuild);
    rebuild();
}

void ApplicationsPanel::report(const QString& title, const QString& error)
{
    if (!error.isEmpty())
        Q_EMIT errorOccurred(title, error);
}

int ApplicationsPanel::currentApplication() const
{
    const auto rows = m_applications->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.front().row();
}

void ApplicationsPanel::setCurrentApplication(int index)
{
    if (index >= 0 && index < m_applications->rowCount())
        m_applications->selectRow(index);
    else
        m_applications->clearSelection();
}

void ApplicationsPanel::rebuild()
{
    const auto project = m_document->project();
    const int keep = currentApplication();
    const QString keepName = keep >= 0 && m_applications->item(keep, 0) ? m_applications->item(keep, 0)->text()
                                                                        : QString();
    m_rebuilding = true;
    m_applications->setRowCount(static_cast<int>(project->applications.size()));
    for (int a = 0; a < static_cast<int>(project->applications.size()); ++a) {
        const auto& app = project->applications[a];
        const QStringList cells{QString::fromStdString(app.name),
                                QString::number(app.comm.processCount()),
                                widgets::formatValue(app.comm.totalBytes(), "bytes"),
                                app.comm.hasMessages()
                                    ? QLocale().toString(qlonglong(std::llround(app.comm.totalMessages())))
                                    : tr("not given"),
                                QString::number(app.pins.size()),
                                traceCell(app)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == 0)
                item->setToolTip(QString::fromStdString(app.description));
            m_applications->setItem(a, c, item);
        }
    }
    int select = project->applicationIndex(keepName.toStdString());
    if (select < 0 && keep >= 0)
        select = std::min(keep, static_cast<int>(project->applications.size()) - 1);
    if (select < 0 && !project->applications.empty())
        select = 0;
    m_rebuilding = false;
    const int before = currentApplication();
    setCurrentApplication(select);
    if (before == select)
        rebuildProcesses();
}

void ApplicationsPanel::rebuildProcesses()
{
    const auto project = m_document->project();
    const int a = currentApplication();
    for (auto* b : m_needSelection)
        b->setEnabled(a >= 0);
    m_rebuilding = true;
    if (a < 0) {
        m_processes->setRowCount(0);
        m_processTitle->setText(project->applications.empty() ? tr("No application yet: import or generate one.")
                                                              : QString());
        m_rebuilding = false;
        return;
    }
    const auto& app = project->applications[a];
    const int n = app.comm.processCount();
    m_processTitle->setText(tr("<b>%1</b>: %2. Double-click a pin cell to pin or unpin a process.")
                                .arg(QString::fromStdString(app.name).toHtmlEscaped(), describeApplication(app)));
    std::vector<double> sends(n, 0.0), receives(n, 0.0);
    const auto& v = app.comm.volume();
    for (int r = 0; r < v.outerSize(); ++r)
        for (model::CommMatrix::Sparse::InnerIterator it(v, r); it; ++it) {
            sends[r] += it.value();
            receives[it.col()] += it.value();
        }
    const auto pinned = app.pins.siteVector(n);
    m_processes->setUpdatesEnabled(false);
    m_processes->setRowCount(n);
    for (int p = 0; p < n; ++p) {
        auto* id = new QTableWidgetItem(QString::number(p));
        id->setFlags(id->flags() & ~Qt::ItemIsEditable);
        auto* s = new QTableWidgetItem(widgets::formatValue(sends[p], "bytes"));
        s->setFlags(s->flags() & ~Qt::ItemIsEditable);
        auto* r = new QTableWidgetItem(widgets::formatValue(receives[p], "bytes"));
        r->setFlags(r->flags() & ~Qt::ItemIsEditable);
        auto* pin = new QTableWidgetItem(pinned[p] >= 0 ? QString::fromStdString(project->topology.site(pinned[p]).name)
                                                        : QString());
        m_processes->setItem(p, ProcessId, id);
        m_processes->setItem(p, Sends, s);
        m_processes->setItem(p, Receives, r);
        m_processes->setItem(p, PinnedSite, pin);
    }
    m_processes->setUpdatesEnabled(true);
    m_rebuilding = false;
}

QString ApplicationsPanel::importApplication(const QString& name, const document::ApplicationFiles& files)
{
    const auto s = actions::importApplication(*m_document, name.trimmed().toStdString(), files);
    if (!s)
        return QString::fromStdString(s.error().toString());
    setCurrentApplication(m_document->project()->applicationIndex(name.trimmed().toStdString()));
    return {};
}

QString ApplicationsPanel::generateApplication(const QString& name, synth::Pattern pattern,
                                               const synth::PatternOptions& options)
{
    auto comm = synth::generatePattern(pattern, options);
    if (!comm)
        return QString::fromStdString(comm.error().toString());
    document::Application app;
    app.name = name.trimmed().toStdString();
    app.comm = std::move(*comm);
    app.description = "generated: " + std::string(synth::patternId(pattern)) + ", " + std::to_string(options.processes)
        + " processes";
    const auto s = m_document->edit(tr("Generate application %1").arg(name),
                                    [&](const document::Project& p) { return document::withApplication(p, app); });
    if (!s)
        return QString::fromStdString(s.error().toString());
    setCurrentApplication(m_document->project()->applicationIndex(app.name));
    return {};
}

QString ApplicationsPanel::renameApplication(int index, const QString& name)
{
    const auto s = m_document->edit(tr("Rename application to %1").arg(name), [&](const document::Project& p) {
        return document::withRenamedApplication(p, index, name.trimmed().toStdString());
    });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

QString ApplicationsPanel::duplicateApplication(int index)
{
    const auto project = m_document->project();
    if (index < 0 || index >= static_cast<int>(project->applications.size()))
        return tr("select an application first");
    const std::string name = document::unusedApplicationName(*project, project->applications[index].name + " copy");
    const auto s = m_document->edit(tr("Duplicate application %1")
                                        .arg(QString::fromStdString(project->applications[index].name)),
                                    [&](const document::Project& p) {
                                        return document::withDuplicatedApplication(p, index, name);
                                    });
    if (!s)
        return QString::fromStdString(s.error().toString());
    setCurrentApplication(m_document->project()->applicationIndex(name));
    return {};
}

QString ApplicationsPanel::deleteApplication(int index)
{
    const auto project = m_document->project();
    if (index < 0 || index >= static_cast<int>(project->applications.size()))
        return tr("select an application first");
    const auto s = m_document->edit(tr("Delete application %1")
                                        .arg(QString::fromStdString(project->applications[index].name)),
                                    [&](const document::Project& p) { return document::withoutApplication(p, index); });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

QString ApplicationsPanel::setPin(int process, const QString& site)
{
    const int a = currentApplication();
    if (a < 0)
        return tr("select an application first");
    const auto project = m_document->project();
    int siteIndex = -1;
    if (!site.isEmpty()) {
        const auto s = project->topology.siteIndex(site.toStdString());
        if (!s)
            return tr("'%1' is not a site of the project").arg(site);
        siteIndex = *s;
    }
    const QString text = siteIndex >= 0 ? tr("Pin process %1 to %2").arg(process).arg(site)
                                        : tr("Unpin process %1").arg(process);
    const auto s = m_document->edit(text, [&](const document::Project& p) {
        return document::withPin(p, a, process, siteIndex);
    });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

QString ApplicationsPanel::importPins(const QString& path)
{
    const int a = currentApplication();
    if (a < 0)
        return tr("select an application first");
    const auto s = actions::importPins(*m_document, m_document->project()->applications[a].name, path);
    return s ? QString() : QString::fromStdString(s.error().toString());
}

QString ApplicationsPanel::clearPins()
{
    const int a = currentApplication();
    if (a < 0)
        return tr("select an application first");
    const auto s = m_document->edit(tr("Clear the pins of %1")
                                        .arg(QString::fromStdString(m_document->project()->applications[a].name)),
                                    [&](const document::Project& p) { return document::withPins(p, a, {}); });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

QString ApplicationsPanel::redrawPins(double ratio, std::uint64_t seed)
{
    const int a = currentApplication();
    if (a < 0)
        return tr("select an application first");
    const auto s = m_document->edit(tr("Redraw pins of %1 at ratio %2")
                                        .arg(QString::fromStdString(m_document->project()->applications[a].name))
                                        .arg(ratio),
                                    [&](const document::Project& p) -> Expected<document::Project> {
                                        auto pins = synth::generateConstraints(p.applications[a].comm.processCount(),
                                                                               ratio, p.topology, seed);
                                        if (!pins)
                                            return pins.error();
                                        return document::withPins(p, a, std::move(*pins));
                                    });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

void ApplicationsPanel::importWithDialog()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Import an Application"));
    auto* form = new QFormLayout(&dialog);
    auto* name = new QLineEdit(&dialog);
    form->addRow(tr("Name:"), name);
    const QString matrices = tr("Matrices (*.mtx *.csv);;All files (*)");
    auto* volume = fileRow(form, &dialog, tr("Volume (bytes):"), matrices);
    auto* messages = fileRow(form, &dialog, tr("Message counts (optional):"), matrices);
    auto* pins = fileRow(form, &dialog, tr("Pins (optional):"), tr("Pins CSV (*.csv);;All files (*)"));
    auto* trace = fileRow(form, &dialog, tr("Trace (optional):"), kTraceFilter());
    auto* preview = new QLabel(&dialog);
    preview->setWordWrap(true);
    form->addRow(preview);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto files = [&] {
        return document::ApplicationFiles{volume->text().toStdString(), messages->text().toStdString(),
                                          pins->text().toStdString(), trace->text().toStdString()};
    };
    auto update = [&] {
        if (name->text().isEmpty() && !volume->text().isEmpty())
            name->setText(QFileInfo(volume->text()).baseName());
        if (volume->text().isEmpty()) {
            preview->setText(tr("Choose the volume matrix: Matrix Market, or CSV with p0, p1, ... names."));
            box->button(QDialogButtonBox::Ok)->setEnabled(false);
            return;
        }
        auto app = document::readApplication(name->text().toStdString(), files(), m_document->project()->topology);
        preview->setText(app ? tr("Read: %1").arg(describeApplication(*app))
                             : tr("<span style='color:#b00'>%1</span>")
                                   .arg(QString::fromStdString(app.error().toString()).toHtmlEscaped()));
        box->button(QDialogButtonBox::Ok)->setEnabled(bool(app));
    };
    for (auto* edit : {volume, messages, pins, trace})
        connect(edit, &QLineEdit::textChanged, &dialog, update);
    update();
    dialog.resize(620, dialog.sizeHint().height());
    if (dialog.exec() != QDialog::Accepted)
        return;
    report(tr("The application was not imported"), importApplication(name->text(), files()));
}

QString ApplicationsPanel::attachTrace(int index, const QString& path)
{
    if (index < 0)
        return tr("select an application first");
    const auto s = actions::attachTrace(*m_document, index, path);
    return s ? QString() : QString::fromStdString(s.error().toString());
}

void ApplicationsPanel::traceWithDialog()
{
    const int a = currentApplication();
    if (a < 0)
        return;
    const auto& app = m_document->project()->applications[a];
    if (app.trace) {
        QMessageBox ask(QMessageBox::Question, tr("Application Trace"),
                        tr("%1 has a trace of %2 actions: its runs' predicted time replays it.")
                            .arg(QString::fromStdString(app.name))
                            .arg(QLocale().toString(qlonglong(app.trace->lines))),
                        QMessageBox::Cancel, this);
        auto* replace = ask.addButton(tr("Replace\u2026"), QMessageBox::AcceptRole);
        auto* remove = ask.addButton(tr("Remove"), QMessageBox::DestructiveRole);
        ask.exec();
        if (ask.clickedButton() == remove) {
            report(tr("The trace was not removed"), attachTrace(a, QString()));
            return;
        }
        if (ask.clickedButton() != replace)
            return;
    }
    const QString path = widgets::openFileName(this, tr("Trace of %1").arg(QString::fromStdString(app.name)),
                                               kTraceFilter());
    if (!path.isEmpty())
        report(tr("The trace was not attached"), attachTrace(a, path));
}

void ApplicationsPanel::generateWithDialog()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Generate an Application"));
    auto* form = new QFormLayout(&dialog);
    auto* pattern = new QComboBox(&dialog);
    for (auto p : synth::allPatterns()) {
        pattern->addItem(QString::fromUtf8(synth::patternId(p).data(),
                                           static_cast<qsizetype>(synth::patternId(p).size())),
                         int(p));
        pattern->setItemData(pattern->count() - 1, QString::fromStdString(synth::describePattern(p)), Qt::ToolTipRole);
    }
    auto* name = new QLineEdit(&dialog);
    auto* processes = new QSpinBox(&dialog);
    processes->setRange(2, 1 << 20);
    processes->setValue(64);
    auto* iterations = new QSpinBox(&dialog);
    iterations->setRange(0, 1000000);
    iterations->setSpecialValueText(tr("pattern's default"));
    auto* bytes = new QSpinBox(&dialog);
    bytes->setRange(0, 1 << 30);
    bytes->setSpecialValueText(tr("pattern's default"));
    bytes->setSuffix(tr(" bytes"));
    form->addRow(tr("Pattern:"), pattern);
    form->addRow(tr("Name:"), name);
    form->addRow(tr("Processes:"), processes);
    form->addRow(tr("Iterations:"), iterations);
    form->addRow(tr("Message size:"), bytes);
    auto* preview = new QLabel(&dialog);
    preview->setWordWrap(true);
    form->addRow(preview);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(box);
    connect(box, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto options = [&] {
        synth::PatternOptions o;
        o.processes = processes->value();
        o.iterations = iterations->value() > 0 ? iterations->value() : -1;
        o.messageBytes = bytes->value() > 0 ? bytes->value() : -1;
        return o;
    };
    auto update = [&] {
        const auto p = synth::Pattern(pattern->currentData().toInt());
        const QString id = pattern->currentText();
        if (name->text().isEmpty() || name->property("auto").toBool()) {
            name->setText(QString("%1 %2").arg(id.toUpper()).arg(processes->value()));
            name->setProperty("auto", true);
        }
        auto comm = synth::generatePattern(p, options());
        preview->setText(comm ? tr("%1\n%2 processes, %3")
                                    .arg(QString::fromStdString(synth::describePattern(p)))
                                    .arg(comm->processCount())
                                    .arg(widgets::formatValue(comm->totalBytes(), "bytes"))
                              : tr("Cannot generate: %1").arg(QString::fromStdString(comm.error().message)));
        box->button(QDialogButtonBox::Ok)->setEnabled(bool(comm));
    };
    connect(name, &QLineEdit::textEdited, &dialog, [name] { name->setProperty("auto", false); });
    connect(pattern, &QComboBox::currentIndexChanged, &dialog, update);
    connect(processes, &QSpinBox::valueChanged, &dialog, update);
    connect(iterations, &QSpinBox::valueChanged, &dialog, update);
    connect(bytes, &QSpinBox::valueChanged, &dialog, update);
    update();
    if (dialog.exec() != QDialog::Accepted)
        return;
    report(tr("The application was not generated"),
           generateApplication(name->text(), synth::Pattern(pattern->currentData().toInt()), options()));
}

void ApplicationsPanel::renameWithDialog()
{
    const int a = currentApplication();
    if (a < 0)
        return;
    bool ok = false;
    const QString current = QString::fromStdString(m_document->project()->applications[a].name);
    const QString name = QInputDialog::getText(this, tr("Rename Application"), tr("New name:"), QLineEdit::Normal,
                                               current, &ok);
    if (ok && name != current)
        report(tr("The application was not renamed"), renameApplication(a, name));
}

void ApplicationsPanel::importPinsWithDialog()
{
    const QString path = widgets::openFileName(this, tr("Import Pins"), tr("Pins CSV (*.csv);;All files (*)"));
    if (!path.isEmpty())
        report(tr("The pins were not imported"), importPins(path));
}

} // namespace meridian::workbench
