#include "app/mapping/ui/batch_dialog.h"

#include "widgets/dialog_rows.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace meridian::workbench {

BatchDialog::BatchDialog(const QString& folder, const QString& runLabel, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Apply an Insert/Delete Batch"));
    setMinimumWidth(560);
    auto* intro = new QLabel(tr("Changes the graph of %1 and places the result as a new run: deleted edges leave "
                                "the partition, inserted ones go where Geo-Cut's streaming rule puts them, and "
                                "Geo-Cut's refinement runs whenever a site's traffic has changed by the threshold.")
                                 .arg(runLabel),
                             this);
    intro->setWordWrap(true);
    m_insert = new QLineEdit(this);
    m_insert->setObjectName("batchInsert");
    m_insert->setPlaceholderText(tr("optional: 'src dst' lines, new vertex ids allowed"));
    m_delete = new QLineEdit(this);
    m_delete->setObjectName("batchDelete");
    m_delete->setPlaceholderText(tr("optional: 'src dst' lines, each an edge of the graph"));
    m_threshold = new QDoubleSpinBox(this);
    m_threshold->setObjectName("batchThreshold");
    m_threshold->setRange(0.1, 100.0);
    m_threshold->setDecimals(1);
    m_threshold->setSuffix(" %");
    m_threshold->setValue(10.0);
    m_threshold->setToolTip(tr("Geo-Cut's setting is 10%: refinement runs when the traffic a site sends or "
                               "receives has changed by this share since the last refinement."));
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    auto choose = [this, folder](const QString& title) {
        return QFileDialog::getOpenFileName(this, title, folder, tr("Edge lists (*.txt *.tsv *.edges);;All files (*)"));
    };
    auto* insertLabel = new QLabel(tr("Edges to &insert:"), this);
    insertLabel->setBuddy(m_insert);
    auto* deleteLabel = new QLabel(tr("Edges to &delete:"), this);
    deleteLabel->setBuddy(m_delete);
    auto* form = new QFormLayout;
    form->addRow(insertLabel, widgets::withBrowse(m_insert, this, [choose] { return choose(tr("Edges to insert")); }));
    form->addRow(deleteLabel, widgets::withBrowse(m_delete, this, [choose] { return choose(tr("Edges to delete")); }));
    form->addRow(tr("&Refine after a change of:"), m_threshold);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Apply"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_insert, &QLineEdit::textChanged, this, &BatchDialog::update);
    connect(m_delete, &QLineEdit::textChanged, this, &BatchDialog::update);
    update();
}

double BatchDialog::threshold() const { return m_threshold->value() / 100.0; }

void BatchDialog::update()
{
    QString problem;
    const QString insert = m_insert->text().trimmed(), remove = m_delete->text().trimmed();
    if (insert.isEmpty() && remove.isEmpty())
        problem = tr("Name a file of edges to insert, to delete, or both.");
    for (const QString& path : {insert, remove})
        if (problem.isEmpty() && !path.isEmpty() && !QFileInfo(path).isFile())
            problem = tr("%1 is not a file.").arg(path);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace meridian::workbench
