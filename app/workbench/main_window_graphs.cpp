// MainWindow's graph entries: File > Import > Graph, the Graphs tab's import again, and File > Export >
// Partition of a partition run. The rest of MainWindow is in main_window.cpp.

#include "app/partitioning/ui/graph_actions.h"
#include "app/partitioning/ui/graphs_panel.h"
#include "app/workbench/main_window.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>

namespace meridian::workbench {

void MainWindow::checkGraphFiles()
{
    const auto graphs = m_document->uncheckedGraphs();
    if (graphs.empty())
        return;
    using Checks = std::vector<std::pair<document::GraphInput, std::string>>;
    m_runner->start<Checks>(
        tr("Check the graph files"),
        [graphs](const Feedback& feedback) -> Expected<Checks> {
            Checks checks;
            for (const auto& g : graphs) {
                if (feedback.isCanceled())
                    return makeError(ErrorCode::Canceled, "canceled");
                checks.emplace_back(g, document::graphChangeOnDisk(g));
            }
            return checks;
        },
        [this](Expected<Checks> checks) {
            if (!checks)
                return;
            for (const auto& [graph, change] : *checks)
                m_document->setGraphChange(graph, change);
        });
}

int MainWindow::importGraph(const actions::GraphSource& source)
{
    statusBar()->showMessage(tr("Reading graph %1 in the background (see the Jobs panel)")
                                 .arg(QString::fromStdString(source.name)),
                             8000);
    const QString name = QString::fromStdString(source.name);
    return actions::startGraphImport(
        *m_runner, *m_document, source,
        [this](const QString& message) { showError(tr("The graph was not imported"), message); },
        [this, name](const QString& summary) {
            // The import read these very files: they are as imported.
            const auto project = m_document->project();
            if (const int g = project->graphIndex(name.toStdString()); g >= 0)
                m_document->setGraphChange(project->graphs[g], {});
            m_tabs->setCurrentWidget(m_graphsPanel);
            const auto found = m_graphsPanel->graphList()->findItems(name, Qt::MatchExactly);
            if (!found.isEmpty())
                m_graphsPanel->graphList()->setCurrentItem(found.front());
            statusBar()->showMessage(tr("Imported %1 (Edit > Undo takes it back)").arg(summary), 15000);
        });
}

ImportGraphDialog* MainWindow::startImportGraphDialog()
{
    auto* dialog = new ImportGraphDialog(QFileInfo(m_document->path()).absolutePath(), *m_document->project(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { importGraph(dialog->request()); });
    dialog->open();
    return dialog;
}

int MainWindow::exportPartition(int runId, const QString& edgesPath, const QString& mastersPath)
{
    return actions::startPartitionExport(*m_runner, *m_document, runId, edgesPath, mastersPath,
                                         [this, edgesPath, mastersPath](const QString& error) {
                                             if (!error.isEmpty())
                                                 showError(tr("The partition was not exported"), error);
                                             else
                                                 statusBar()
                                                     ->showMessage(tr("Wrote %1 and %2").arg(edgesPath, mastersPath),
                                                                   10000);
                                         });
}

void MainWindow::exportPartitionWithDialog()
{
    const auto run = m_document->run(m_document->currentRun());
    if (!run || run->kind != document::RunKind::Partition) {
        showError(tr("No partition run selected"), tr("Select a partition run in the Runs list first."));
        return;
    }
    const QString folder = QFileInfo(m_document->path()).absolutePath();
    const QString base = QString::fromStdString(run->application + "-" + run->algorithm);
    const QString edges = QFileDialog::getSaveFileName(this, tr("Edge partition (src dst site per edge)"),
                                                       folder + "/" + base + ".E.tsv", tr("TSV (*.tsv)"));
    if (edges.isEmpty())
        return;
    QString masters = edges;
    masters.replace(QRegularExpression("\\.E\\.tsv$"), ".M.tsv");
    if (masters == edges)
        masters = edges + ".M.tsv";
    masters = QFileDialog::getSaveFileName(this, tr("Masters (vertex site per vertex)"), masters, tr("TSV (*.tsv)"));
    if (!masters.isEmpty())
        exportPartition(run->id, edges, masters);
}

} // namespace meridian::workbench
