#include "app/project/ui/network_panel.h"

#include "app/project/measurement_age.h"
#include "app/project/project_edits.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace meridian::workbench {

using model::NetworkQuantity;

namespace {

// The shade of entries measured too long ago (document::kOldMeasurementDays).
const QColor kOldColor(255, 236, 179);

} // namespace

NetworkPanel::NetworkPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_quantity = new QComboBox(this);
    m_quantity->setObjectName("networkQuantity");
    m_quantity->addItem(tr("Latency (ms)"), int(NetworkQuantity::Latency));
    m_quantity->addItem(tr("Bandwidth (MB/s)"), int(NetworkQuantity::Bandwidth));
    auto* pasteButton = new QPushButton(tr("Paste"), this);
    pasteButton->setToolTip(tr("Paste a tab-separated block copied from a spreadsheet at the selected cell (Ctrl+V)"));
    auto* importButton = new QPushButton(tr("Import\u2026"), this);
    importButton->setToolTip(tr("Replace this matrix by a CSV with site names or a Matrix Market file"));
    bar->addWidget(new QLabel(tr("Matrix:"), this));
    bar->addWidget(m_quantity);
    bar->addStretch(1);
    bar->addWidget(pasteButton);
    bar->addWidget(importButton);
    layout->addLayout(bar);
    m_table = new QTableWidget(this);
    m_table->setObjectName("networkTable");
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                             | QAbstractItemView::AnyKeyPressed);
    layout->addWidget(m_table, 1);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);

    m_ask = [this](const QString& pair) -> std::optional<bool> {
        QMessageBox box(QMessageBox::Question, tr("Both directions?"),
                        tr("Does the new value of %1 hold in both directions?").arg(pair), QMessageBox::NoButton, this);
        auto* both = box.addButton(tr("Both directions"), QMessageBox::YesRole);
        auto* one = box.addButton(tr("This direction only"), QMessageBox::NoRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(both);
        box.exec();
        if (box.clickedButton() == both)
            return true;
        if (box.clickedButton() == one)
            return false;
        return std::nullopt;
    };

    connect(m_quantity, &QComboBox::currentIndexChanged, this, &NetworkPanel::rebuild);
    connect(pasteButton, &QPushButton::clicked, this, &NetworkPanel::pasteFromClipboard);
    connect(importButton, &QPushButton::clicked, this, [this] { Q_EMIT importRequested(quantity()); });
    auto* shortcut = new QShortcut(QKeySequence::Paste, m_table);
    shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(shortcut, &QShortcut::activated, this, &NetworkPanel::pasteFromClipboard);
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_rebuilding)
            return;
        const QString error = editCell(item->row(), item->column(), item->text());
        if (!error.isEmpty()) {
            rebuild();
            if (error != QLatin1String("canceled"))
                Q_EMIT errorOccurred(tr("The entry was not changed"), error);
        }
    });
    connect(m_document, &document::ProjectDocument::projectChanged, this, &NetworkPanel::rebuild);
    rebuild();
}

NetworkQuantity NetworkPanel::quantity() const { return NetworkQuantity(m_quantity->currentData().toInt()); }

void NetworkPanel::setQuantity(NetworkQuantity quantity)
{
    m_quantity->setCurrentIndex(m_quantity->findData(int(quantity)));
}

void NetworkPanel::rebuild()
{
    const auto project = m_document->project();
    const auto& topology = project->topology;
    const auto& complete = m_document->completeNetwork();
    const int n = topology.siteCount();
    const auto q = quantity();
    m_rebuilding = true;
    m_table->clear();
    m_table->setRowCount(n);
    m_table->setColumnCount(n);
    QStringList names;
    for (const auto& s : topology.sites())
        names << QString::fromStdString(s.name);
    m_table->setHorizontalHeaderLabels(names);
    m_table->setVerticalHeaderLabels(names);
    const model::MeasuredAt now = QDateTime::currentSecsSinceEpoch();
    int old = 0;
    if (complete.siteCount() == n)
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                const auto provenance = project->network.provenance(q, i, j);
                const bool known = provenance == model::Provenance::Measured || provenance == model::Provenance::Edited;
                // Measured and edited values as given; an estimate to three significant digits, which is all a
                // distance model knows.
                auto* item = new QTableWidgetItem(QString::number(complete.value(q, i, j), 'g', known ? 6 : 3));
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                QFont font = item->font();
                font.setItalic(!known);
                font.setBold(provenance == model::Provenance::Edited);
                item->setFont(font);
                if (!known)
                    item->setForeground(QColor(130, 130, 130));
                QString origin = known ? QString::fromStdString(std::string(model::provenanceId(provenance)))
                                       : tr("estimated from distance");
                if (const auto date = project->network.measuredAt(q, i, j); date != 0) {
                    origin = tr("measured %1 (%2)")
                                 .arg(document::measurementDateText(date), document::measurementAgeText(date, now));
                    if (document::measurementAgeDays(date, now) > document::kOldMeasurementDays) {
                        item->setBackground(kOldColor);
                        ++old;
                    }
                }
                item->setToolTip(tr("%1 \u2192 %2: %3").arg(names[i], names[j], origin));
                m_table->setItem(i, j, item);
            }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    const int measured = project->network.count(q, model::Provenance::Measured)
        + project->network.count(q, model::Provenance::Edited);
    QString dates;
    if (const auto d = project->network.measurementDates(); d.dated > 0) {
        dates = d.oldest == d.newest
            ? tr("Measured %1 (%2).")
                  .arg(document::measurementDateText(d.newest), document::measurementAgeText(d.newest, now))
            : tr("Measured between %1 (%2) and %3 (%4).")
                  .arg(document::measurementDateText(d.oldest), document::measurementAgeText(d.oldest, now),
                       document::measurementDateText(d.newest), document::measurementAgeText(d.newest, now));
        if (old > 0)
            dates += " "
                + tr("%n entries (shaded) are over %1 days old: networks change, re-measure them with Run > "
                     "Measure Network.",
                     "", old)
                      .arg(document::kOldMeasurementDays);
    }
    m_note->setText(
        n == 0 ? tr("Add sites first (File > Import > Sites, or double-click the map).")
               : tr("%1 of %2 entries measured or edited (plain or bold); the rest are estimated (grey italics).")
                     .arg(measured)
                     .arg(n * n)
                + (dates.isEmpty() ? QString() : "\n" + dates) + "\n" + m_document->networkModelText());
    m_rebuilding = false;
}

QString NetworkPanel::editCell(int row, int column, const QString& text, std::optional<bool> bothDirections)
{
    const auto project = m_document->project();
    const int n = project->topology.siteCount();
    if (row < 0 || column < 0 || row >= n || column >= n)
        return tr("no such cell");
    const QString from = QString::fromStdString(project->topology.site(row).name);
    const QString to = QString::fromStdString(project->topology.site(column).name);
    if (!bothDirections && row != column) {
        bothDirections = m_ask(tr("%1 \u2192 %2").arg(from, to));
        if (!bothDirections)
            return QStringLiteral("canceled");
    }
    const bool both = row != column && bothDirections.value_or(false);
    const auto q = quantity();
    const QString what = q == NetworkQuantity::Latency ? tr("latency") : tr("bandwidth");
    const auto s = m_document->edit(both ? tr("Set %1 %2 \u2194 %3").arg(what, from, to)
                                         : tr("Set %1 %2 \u2192 %3").arg(what, from, to),
                                    [&](const document::Project& p) {
                                        return document::withNetworkEntry(p, q, row, column, text.toStdString(), both);
                                    });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

QString NetworkPanel::paste(int row, int column, const QString& text)
{
    std::vector<std::vector<std::string>> cells;
    QString body = text;
    body.replace("\r\n", "\n");
    while (body.endsWith('\n'))
        body.chop(1);
    if (body.isEmpty())
        return tr("the clipboard holds no text");
    for (const QString& line : body.split('\n')) {
        std::vector<std::string> cellsOfRow;
        for (const QString& cell : line.split('\t'))
            cellsOfRow.push_back(cell.trimmed().toStdString());
        cells.push_back(std::move(cellsOfRow));
    }
    const auto q = quantity();
    const auto s = m_document->edit(tr("Paste %1 \u00d7 %2 %3 entries")
                                        .arg(cells.size())
                                        .arg(cells.front().size())
                                        .arg(q == NetworkQuantity::Latency ? tr("latency") : tr("bandwidth")),
                                    [&](const document::Project& p) {
                                        return document::withNetworkBlock(p, q, row, column, cells);
                                    });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

void NetworkPanel::pasteFromClipboard()
{
    const int row = std::max(0, m_table->currentRow());
    const int column = std::max(0, m_table->currentColumn());
    const QString error = paste(row, column, QApplication::clipboard()->text());
    if (!error.isEmpty())
        Q_EMIT errorOccurred(tr("Nothing was pasted"), error);
}

} // namespace meridian::workbench
