#include "app/project/ui/matrix_panel.h"

#include "app/project/project_edits.h"
#include "app/project/ui/matrix_data.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>

#include <numeric>

namespace meridian::workbench {

namespace {

using Sparse = widgets::HeatmapData::Sparse;

bool isInput(MatrixPanel::Source s)
{
    return s == MatrixPanel::Source::Latency || s == MatrixPanel::Source::Bandwidth || s == MatrixPanel::Source::Volume
        || s == MatrixPanel::Source::Messages;
}

} // namespace

MatrixPanel::MatrixPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_source = new QComboBox(this);
    m_source->setObjectName("matrixSource");
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_source->setMinimumContentsLength(30);
    m_arrangement = new QComboBox(this);
    m_arrangement->addItem(tr("Processes as numbered"), int(Arrangement::AsIs));
    m_arrangement->addItem(tr("Reorder by the selected run's sites"), int(Arrangement::ReorderBySite));
    m_arrangement->addItem(tr("Aggregate by site (selected run)"), int(Arrangement::AggregateBySite));
    m_arrangement->addItem(tr("Aggregate by host (selected run)"), int(Arrangement::AggregateByHost));
    m_arrangement->setToolTip(tr("Uses the placement of the run selected in the run list (same application)."));
    m_binning = new QComboBox(this);
    m_binning->addItem(tr("Max per pixel"));
    m_binning->addItem(tr("Sum per pixel"));
    m_log = new QCheckBox(tr("Log scale"), this);
    auto* exportButton = new QPushButton(tr("Export\u2026"), this);
    exportButton->setToolTip(tr("Save this heatmap as PNG, SVG or CSV"));
    bar->addWidget(new QLabel(tr("Matrix:"), this));
    bar->addWidget(m_source, 1);
    bar->addWidget(m_arrangement);
    bar->addWidget(m_binning);
    bar->addWidget(m_log);
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    m_heatmap = new widgets::HeatmapView(this);
    layout->addWidget(m_heatmap, 1);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);

    connect(m_source, &QComboBox::currentIndexChanged, this, &MatrixPanel::showSelected);
    connect(m_source, &QComboBox::activated, this, [this] { m_sourceChosen = true; });
    connect(m_arrangement, &QComboBox::currentIndexChanged, this, &MatrixPanel::showSelected);
    connect(m_log, &QCheckBox::toggled, m_heatmap, &widgets::HeatmapView::setLogScale);
    connect(m_binning, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_heatmap->setBinning(i == 0 ? widgets::HeatmapView::Binning::Max : widgets::HeatmapView::Binning::Sum);
    });
    connect(exportButton, &QPushButton::clicked, this, &MatrixPanel::exportRequested);
    connect(m_heatmap, &widgets::HeatmapView::cellDoubleClicked, this, &MatrixPanel::askEdit);
    connect(m_document, &document::ProjectDocument::projectChanged, this, &MatrixPanel::rebuildChooser);
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, &MatrixPanel::showSelected);
    rebuildChooser();
}

void MatrixPanel::rebuildChooser()
{
    const auto project = m_document->project();
    // The matrix the user chose stays shown across edits; until she chooses one, the first of the project's own
    // (an application's volume, else the network) rather than "Selected run", empty until a run is selected: the
    // chooser was first filled for the empty project the workbench starts with.
    const QVariant keep = m_sourceChosen ? m_source->currentData() : QVariant();
    QSignalBlocker blocker(m_source);
    m_source->clear();
    for (int a = 0; a < static_cast<int>(project->applications.size()); ++a) {
        const auto name = QString::fromStdString(project->applications[a].name);
        m_source->addItem(tr("%1: volume (bytes)").arg(name), QVariantList{int(Source::Volume), a});
        if (project->applications[a].comm.hasMessages()) {
            m_source->addItem(tr("%1: message count").arg(name), QVariantList{int(Source::Messages), a});
            m_source->addItem(tr("%1: average message size").arg(name), QVariantList{int(Source::AverageSize), a});
        }
    }
    if (project->topology.siteCount() > 0) {
        m_source->addItem(tr("Network: latency (ms)"), QVariantList{int(Source::Latency), -1});
        m_source->addItem(tr("Network: bandwidth (MB/s)"), QVariantList{int(Source::Bandwidth), -1});
    }
    m_source->addItem(tr("Selected run: traffic between sites (bytes)"), QVariantList{int(Source::RunTraffic), -1});
    m_source->addItem(tr("Selected run: time between sites (s)"), QVariantList{int(Source::RunTime), -1});
    const int index = m_source->findData(keep);
    m_source->setCurrentIndex(index >= 0 ? index : 0);
    showSelected();
}

bool MatrixPanel::showSource(Source source, int application)
{
    const int index = m_source->findData(QVariantList{int(source), application});
    if (index < 0)
        return false;
    m_sourceChosen = true;
    // A new index shows the source through currentIndexChanged; the same one is shown again here (once).
    if (index == m_source->currentIndex())
        showSelected();
    else
        m_source->setCurrentIndex(index);
    return true;
}

void MatrixPanel::setArrangement(Arrangement arrangement)
{
    m_arrangement->setCurrentIndex(m_arrangement->findData(int(arrangement)));
}

widgets::HeatmapData MatrixPanel::buildData(Source source, int application, Arrangement arrangement) const
{
    return matrixHeatmapData(*m_document, source, application, arrangement);
}

void MatrixPanel::showSelected()
{
    if (m_source->currentIndex() < 0) {
        m_heatmap->setData({});
        return;
    }
    const auto key = m_source->currentData().toList();
    const auto source = Source(key.at(0).toInt());
    const auto arrangement = Arrangement(m_arrangement->currentData().toInt());
    auto data = buildData(source, key.at(1).toInt(), arrangement);
    QString note;
    if (source == Source::Latency || source == Source::Bandwidth)
        note = tr("Double-click a cell to edit it (clear it to have it estimated). %1")
                   .arg(m_document->networkModelText());
    else if (source == Source::RunTraffic || source == Source::RunTime)
        note = m_document->currentRun() < 0 ? tr("Select a run in the run list to see its traffic.") : QString();
    else if (arrangement != Arrangement::AsIs && !data.title.contains(tr("run")))
        note = tr("Select a run of this application to reorder or aggregate by its placement.");
    else if (arrangement == Arrangement::AsIs && source != Source::AverageSize)
        note = tr("Double-click a cell to edit the communication entry.");
    m_note->setText(note);
    m_heatmap->setData(std::move(data));
}

QString MatrixPanel::editCell(int row, int column, const QString& text, bool bothDirections)
{
    if (m_source->currentIndex() < 0)
        return tr("no matrix is shown");
    const auto key = m_source->currentData().toList();
    const auto source = Source(key.at(0).toInt());
    const int application = key.at(1).toInt();
    if (!isInput(source)
        || (source != Source::Latency && source != Source::Bandwidth
            && Arrangement(m_arrangement->currentData().toInt()) != Arrangement::AsIs))
        return tr("this matrix is computed, not an input: it cannot be edited");
    Status status;
    if (source == Source::Latency || source == Source::Bandwidth) {
        const auto q = source == Source::Latency ? model::NetworkQuantity::Latency : model::NetworkQuantity::Bandwidth;
        const auto& topology = m_document->project()->topology;
        status = m_document->edit(tr("Set %1 %2 \u2192 %3")
                                      .arg(source == Source::Latency ? tr("latency") : tr("bandwidth"),
                                           QString::fromStdString(topology.site(row).name),
                                           QString::fromStdString(topology.site(column).name)),
                                  [&](const document::Project& p) {
                                      return document::withNetworkEntry(p, q, row, column, text.toStdString(),
                                                                        bothDirections);
                                  });
    } else {
        bool ok = false;
        const double value = text.trimmed().toDouble(&ok);
        if (!ok)
            return tr("'%1' is not a number").arg(text);
        status = m_document->edit(tr("Set communication %1 \u2192 %2").arg(row).arg(column),
                                  [&](const document::Project& p) {
                                      return document::withCommEntry(p, application, source == Source::Messages, row,
                                                                     column, value);
                                  });
    }
    return status ? QString() : QString::fromStdString(status.error().toString());
}

void MatrixPanel::askEdit(int row, int column)
{
    const auto key = m_source->currentData().toList();
    const auto source = Source(key.at(0).toInt());
    if (!isInput(source))
        return;
    const auto& data = m_heatmap->data();
    bool present = true;
    const double current = data.value(row, column, &present);
    bool ok = false;
    const QString text = QInputDialog::getText(this, tr("Edit cell"),
                                               tr("%1 %2 \u2192 %3 (%4); leave empty to clear:")
                                                   .arg(data.title)
                                                   .arg(data.rowLabels.value(row, QString::number(row)))
                                                   .arg(data.columnLabels.value(column, QString::number(column)))
                                                   .arg(data.unit),
                                               QLineEdit::Normal,
                                               present ? QString::number(current, 'g', 10) : QString(), &ok);
    if (!ok)
        return;
    bool both = false;
    if ((source == Source::Latency || source == Source::Bandwidth) && row != column) {
        QMessageBox box(QMessageBox::Question, tr("Both directions?"),
                        tr("Does the new value hold from %1 to %2 and back?")
                            .arg(data.rowLabels.value(row), data.columnLabels.value(column)),
                        QMessageBox::NoButton, this);
        auto* bothButton = box.addButton(tr("Both directions"), QMessageBox::YesRole);
        auto* oneButton = box.addButton(tr("This direction only"), QMessageBox::NoRole);
        box.addButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() != bothButton && box.clickedButton() != oneButton)
            return;
        both = box.clickedButton() == bothButton;
    }
    if (const QString e = editCell(row, column, text, both); !e.isEmpty())
        Q_EMIT errorOccurred(tr("The cell was not changed"), e);
}

} // namespace meridian::workbench
