#include "app/capture/ui/capture_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QVBoxLayout>

namespace meridian::workbench {

CaptureDialog::CaptureDialog(const QString& folder, QWidget* parent)
    : QDialog(parent)
    , m_command(new QLineEdit(this))
    , m_prefix(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_trace(new QCheckBox(tr("Also record the &trace, replayed for the predicted run time"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Capture Application"));
    auto* intro = new QLabel(tr("Runs your MPI program with Meridian's tracer preloaded and adds what each process "
                                "sent to each other as an application. The run goes on in the background: the Jobs "
                                "panel shows its last output line and can cancel it. Nothing is written unless the "
                                "command succeeds."),
                             this);
    intro->setWordWrap(true);
    m_command->setPlaceholderText(tr("mpirun -np 16 ./my_program --its-options"));
    m_command->setToolTip(tr("The command as you would type it. Open MPI's mpirun gets the tracer with -x; any other "
                             "launcher in its environment."));
    m_prefix->setText(QDir(folder).filePath("capture"));
    m_prefix->setToolTip(tr("The capture files are PREFIX.volume.mtx, PREFIX.messages.mtx and "
                            "PREFIX.collectives.json. On a cluster, a folder rank 0 can write."));
    auto* browse = new QPushButton(tr("Browse\u2026"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getSaveFileName(this, tr("Capture files prefix"), m_prefix->text());
        if (!chosen.isEmpty())
            m_prefix->setText(chosen);
    });
    auto* prefixRow = new QHBoxLayout;
    prefixRow->addWidget(m_prefix, 1);
    prefixRow->addWidget(browse);
    m_name->setText(QFileInfo(m_prefix->text()).fileName());
    m_trace->setChecked(true);
    m_trace->setToolTip(tr("SimGrid's time-independent trace (PREFIX.ti): every rank's sends, receives, waits and "
                           "collectives and the computing between them. The project keeps it with the application "
                           "and replays it for each run's predicted time. A program that uses collectives on its "
                           "own communicators cannot be traced: clear this to capture its matrices only."));

    auto* form = new QFormLayout;
    form->addRow(tr("&Command:"), m_command);
    auto* prefixLabel = new QLabel(tr("Capture &files:"), this);
    prefixLabel->setBuddy(m_prefix); // a row holding a layout gets no buddy of its own
    form->addRow(prefixLabel, prefixRow);
    form->addRow(tr("Application &name:"), m_name);
    form->addRow(QString(), m_trace);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Run and Capture"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_command, &QLineEdit::textChanged, this, &CaptureDialog::update);
    connect(m_prefix, &QLineEdit::textChanged, this, [this] {
        if (!m_nameEdited)
            m_name->setText(QFileInfo(m_prefix->text()).fileName());
        update();
    });
    connect(m_name, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
    connect(m_name, &QLineEdit::textChanged, this, &CaptureDialog::update);
    setMinimumWidth(560);
    update();
}

actions::CaptureRequest CaptureDialog::request() const
{
    return {QProcess::splitCommand(m_command->text()), m_prefix->text().trimmed(),
            m_name->text().trimmed().toStdString(), m_trace->isChecked()};
}

void CaptureDialog::update()
{
    const bool ready = !QProcess::splitCommand(m_command->text()).isEmpty() && !m_prefix->text().trimmed().isEmpty()
        && !m_name->text().trimmed().isEmpty();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ready);
}

} // namespace meridian::workbench
