#include "app/workbench/jobs_panel.h"

#include "widgets/best_curve_view.h"

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace meridian::workbench {

JobsPanel::JobsPanel(jobs::JobRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_runner(runner)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    auto* content = new QWidget(scroll);
    m_list = new QVBoxLayout(content);
    m_list->setContentsMargins(6, 6, 6, 6);
    m_empty = new QLabel(tr("<i>No runs in progress.</i>"), content);
    m_list->addWidget(m_empty);
    m_list->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll);

    m_timer = new QTimer(this);
    m_timer->setInterval(200);
    connect(m_timer, &QTimer::timeout, this, &JobsPanel::updateElapsed);

    connect(runner, &jobs::JobRunner::jobStarted, this, &JobsPanel::addRow);
    connect(runner, &jobs::JobRunner::jobProgress, this, [this](int id, double fraction, const QString& stage) {
        auto it = m_rows.find(id);
        if (it == m_rows.end())
            return;
        it->progress->setValue(static_cast<int>(fraction * 1000));
        if (!stage.isEmpty())
            it->stage->setText(stage);
    });
    connect(runner, &jobs::JobRunner::jobEnded, this, [this](int id, jobs::JobEnd, const QString&) {
        auto it = m_rows.find(id);
        if (it == m_rows.end())
            return;
        it->widget->deleteLater();
        m_rows.erase(it);
        m_empty->setVisible(m_rows.isEmpty());
        if (m_rows.isEmpty())
            m_timer->stop();
    });
}

void JobsPanel::addRow(int id, const QString& title)
{
    Row row;
    row.widget = new QWidget(m_empty->parentWidget());
    auto* grid = new QGridLayout(row.widget);
    grid->setContentsMargins(0, 2, 0, 2);
    auto* name = new QLabel(QString("<b>%1</b>").arg(title.toHtmlEscaped()), row.widget);
    row.progress = new QProgressBar(row.widget);
    row.progress->setRange(0, 1000);
    row.progress->setTextVisible(true);
    row.progress->setFormat("%p%");
    row.stage = new QLabel(tr("starting"), row.widget);
    row.elapsed = new QLabel(QStringLiteral("0.0 s"), row.widget);
    row.cancel = new QToolButton(row.widget);
    row.cancel->setText(tr("Cancel"));
    row.cancel->setToolTip(tr("Stop this run; nothing in the project changes."));
    grid->addWidget(name, 0, 0, 1, 2);
    grid->addWidget(row.elapsed, 0, 2, Qt::AlignRight);
    grid->addWidget(row.progress, 1, 0);
    grid->addWidget(row.stage, 1, 1);
    grid->addWidget(row.cancel, 1, 2);
    row.best = new widgets::BestCurveView(row.widget);
    row.best->hide();
    grid->addWidget(row.best, 2, 0, 1, 3);
    grid->setColumnStretch(0, 2);
    grid->setColumnStretch(1, 1);
    connect(row.cancel, &QToolButton::clicked, this, [this, id, cancel = row.cancel] {
        cancel->setEnabled(false);
        cancel->setText(tr("Stopping"));
        m_runner->cancel(id);
    });
    m_list->insertWidget(m_list->count() - 1, row.widget);
    m_rows.insert(id, row);
    m_empty->hide();
    m_timer->start();
}

void JobsPanel::updateElapsed()
{
    for (auto it = m_rows.begin(); it != m_rows.end(); ++it) {
        it->elapsed->setText(
            QString("%1 s").arg(static_cast<double>(m_runner->elapsedMs(it.key())) / 1000.0, 0, 'f', 1));
        // A stage can change while the progress value does not (a capture's output lines): read it here too.
        if (const QString stage = m_runner->stage(it.key()); !stage.isEmpty())
            it->stage->setText(stage);
        if (auto curve = m_runner->bestCurve(it.key()); !curve.empty()) {
            it->best->setCurve(std::move(curve), static_cast<double>(m_runner->elapsedMs(it.key())) / 1000.0);
            it->best->show();
        }
    }
}

widgets::BestCurveView* JobsPanel::bestCurve(int jobId) const
{
    auto it = m_rows.find(jobId);
    return it == m_rows.end() ? nullptr : it->best;
}

QProgressBar* JobsPanel::progressBar(int jobId) const
{
    auto it = m_rows.find(jobId);
    return it == m_rows.end() ? nullptr : it->progress;
}

QToolButton* JobsPanel::cancelButton(int jobId) const
{
    auto it = m_rows.find(jobId);
    return it == m_rows.end() ? nullptr : it->cancel;
}

} // namespace meridian::workbench
