// MainWindow's Help menu: the user guide, the shortcuts, About, and the panels' status tips and What's This.
#include "app/workbench/main_window.h"

#include "app/collectives/ui/collectives_panel.h"
#include "app/mapping/ui/compare_panel.h"
#include "app/mapping/ui/run_panel.h"
#include "app/mapping/ui/runs_panel.h"
#include "app/partitioning/ui/graphs_panel.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/diff_panel.h"
#include "app/project/ui/map_panel.h"
#include "app/project/ui/matrix_panel.h"
#include "app/project/ui/network_panel.h"
#include "app/workbench/help_dialogs.h"
#include "app/workbench/jobs_panel.h"

#include <QMenuBar>
#include <QMessageBox>
#include <QTextDocumentFragment>

namespace meridian::workbench {

void MainWindow::explainPanels()
{
    // The status bar says what a hovered panel does (status tip); Help > What's This (Shift+F1) says more.
    const std::pair<QWidget*, std::pair<QString, QString>> panels[] = {
        {m_mapPanel,
         {tr("Site map: the sites and their links; with a run selected, each marker shows its processes and how "
             "full the site is."),
          tr("<b>Site map</b><p>Each site is a marker; links are coloured by bandwidth, latency or the selected run's "
             "traffic. With a mapping run selected, the number on a marker is the processes placed there and the ring "
             "around it fills as the site's slots do; a red dot marks a site with pinned processes. Drag a site to "
             "move it, double-click to add one, right-click to rename or delete.</p>")}},
        {m_networkPanel,
         {tr("Network: latency and bandwidth between every pair of sites, measured, edited or estimated."),
          tr("<b>Network</b><p>Every site pair's latency and bandwidth and where each number came from: measured, "
             "edited by you, or estimated from distance. Import matrices, NetPIPE runs or meridian-probe "
             "results.</p>")}},
        {m_applicationsPanel,
         {tr("Applications: what each application sends, and which processes are pinned to a site."),
          tr("<b>Applications</b><p>Each application's communication matrices (bytes and messages between "
             "processes) and its pins.</p>")}},
        {m_matrixPanel,
         {tr("Matrices: any matrix of the project as a heatmap; zoom with the wheel, drag to zoom into a rectangle."),
          tr("<b>Matrices</b><p>Latency, bandwidth, an application's volume or a run's site-pair traffic as a heatmap, "
             "with row and column sums.</p>")}},
        {m_comparePanel,
         {tr("Compare: the runs side by side as values or ratios, bars, the cost/dollar skyline and Monte Carlo."),
          tr("<b>Compare</b><p>A table of every run's metrics, as values or as ratios to a baseline run; mean cost "
             "per application; the skyline of time against dollars with its Pareto front; the Monte Carlo CDF; "
             "sweeps.</p>")}},
        {m_diffPanel,
         {tr("Diff: how two runs of one application place the processes differently."),
          tr("<b>Diff</b><p>Two runs of one application: which processes moved between sites and how the site-pair "
             "traffic changed.</p>")}},
        {m_runPanel,
         {tr("Run: tick mappers or partitioners, set their parameters, and run them in the background."),
          tr("<b>Run</b><p>Choose the application or graph, tick the algorithms and run them; each lands in the "
             "Runs list.</p>")}},
        {m_runsPanel,
         {tr("Runs: every finished run; right-click a run for re-run, diff, export, notes and more."),
          tr("<b>Runs</b><p>Every finished run with its metrics. The pane beside the table explains the selected "
             "run: its parameters, processes per site, its mapper's notes and the costliest site pairs.</p>")}},
        {m_jobsPanel,
         {tr("Jobs: what is running now, with progress; cancel a job here."),
          tr("<b>Jobs</b><p>The runs, sweeps and exports under way in the background.</p>")}},
    };
    for (const auto& [widget, texts] : panels) {
        widget->setStatusTip(texts.first);
        widget->setWhatsThis(texts.second);
    }
    // A control with a tooltip says the same in the status bar while the pointer is over it.
    for (QWidget* w : findChildren<QWidget*>())
        if (!w->toolTip().isEmpty() && w->statusTip().isEmpty())
            w->setStatusTip(QTextDocumentFragment::fromHtml(w->toolTip()).toPlainText().simplified());
}

UserGuideDialog* MainWindow::showUserGuide()
{
    if (!m_guide) {
        m_guide = new UserGuideDialog(this);
        m_guide->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_guide->show();
    m_guide->raise();
    return m_guide;
}

ShortcutsDialog* MainWindow::showShortcuts()
{
    auto* dialog = new ShortcutsDialog(menuBar(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

QMessageBox* MainWindow::showAbout()
{
    auto* box = new QMessageBox(QMessageBox::NoIcon, tr("About Meridian"), aboutText(), QMessageBox::Ok, this);
    box->setObjectName("aboutBox");
    box->setIconPixmap(windowIcon().pixmap(64, 64));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return box;
}

} // namespace meridian::workbench
