#include "app/partitioning/ui/graphs_feature.h"

#include "app/jobs/job_runner.h"
#include "app/partitioning/ui/graphs_panel.h"
#include "app/project/ui/project_document.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QListWidget>
#include <QRegularExpression>
#include <QTimer>

namespace meridian::workbench {

GraphsFeature::GraphsFeature(WorkbenchShell& shell, QObject* parent)
    : WorkbenchFeature(parent)
    , m_shell(shell)
{
    auto* document = shell.document();
    m_panel = new GraphsPanel(document, shell.shellWindow());
    connect(m_panel, &GraphsPanel::errorOccurred, this,
            [this](const QString& title, const QString& message) { m_shell.showError(title, message); });
    connect(m_panel, &GraphsPanel::importRequested, this, [this] { startImportGraphDialog(); });
    connect(m_panel, &GraphsPanel::reimportRequested, this, &GraphsFeature::importGraph);
    // Several watcher events while a file is written make one check.
    auto* graphCheck = new QTimer(this);
    graphCheck->setSingleShot(true);
    graphCheck->setInterval(200);
    connect(graphCheck, &QTimer::timeout, this, &GraphsFeature::checkGraphFiles);
    connect(document, &document::ProjectDocument::graphCheckNeeded, graphCheck, qOverload<>(&QTimer::start));
    m_import = new QAction(tr("&Graph (SNAP, METIS, Matrix Market)\u2026"), this);
    m_import->setObjectName("actionImportGraph");
    connect(m_import, &QAction::triggered, this, [this] { startImportGraphDialog(); });
    m_export = new QAction(tr("&Partition of the Selected Run (E.tsv, M.tsv)\u2026"), this);
    m_export->setObjectName("actionExportPartition");
    connect(m_export, &QAction::triggered, this, &GraphsFeature::exportPartitionWithDialog);
}

std::vector<WorkbenchFeature::Tab> GraphsFeature::tabs() const
{
    return {{40, m_panel, tr("Graphs"), tr("Graphs: the graphs to partition across sites."),
             tr("<b>Graphs</b><p>Graphs imported from SNAP, METIS or Matrix Market files, for the partitioners.</p>")}};
}

std::vector<WorkbenchFeature::Entry> GraphsFeature::entries() const
{
    return {{Menu::Import, 85, m_import}, {Menu::Export, 15, m_export}};
}

void GraphsFeature::checkGraphFiles()
{
    auto* document = m_shell.document();
    const auto graphs = document->uncheckedGraphs();
    if (graphs.empty())
        return;
    using Checks = std::vector<std::pair<document::GraphInput, std::string>>;
    m_shell.jobRunner()->start<Checks>(
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
        [document](Expected<Checks> checks) {
            if (!checks)
                return;
            for (const auto& [graph, change] : *checks)
                document->setGraphChange(graph, change);
        });
}

int GraphsFeature::importGraph(const actions::GraphSource& source)
{
    m_shell.showStatus(tr("Reading graph %1 in the background (see the Jobs panel)")
                           .arg(QString::fromStdString(source.name)),
                       8000);
    const QString name = QString::fromStdString(source.name);
    auto* document = m_shell.document();
    return actions::startGraphImport(
        *m_shell.jobRunner(), *document, source,
        [this](const QString& message) { m_shell.showError(tr("The graph was not imported"), message); },
        [this, document, name](const QString& summary) {
            // The import read these very files: they are as imported.
            const auto project = document->project();
            if (const int g = project->graphIndex(name.toStdString()); g >= 0)
                document->setGraphChange(project->graphs[g], {});
            m_shell.showTab(m_panel);
            const auto found = m_panel->graphList()->findItems(name, Qt::MatchExactly);
            if (!found.isEmpty())
                m_panel->graphList()->setCurrentItem(found.front());
            m_shell.showStatus(tr("Imported %1 (Edit > Undo takes it back)").arg(summary), 15000);
        });
}

ImportGraphDialog* GraphsFeature::startImportGraphDialog()
{
    auto* document = m_shell.document();
    auto* dialog = new ImportGraphDialog(QFileInfo(document->path()).absolutePath(), *document->project(),
                                         m_shell.shellWindow());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { importGraph(dialog->request()); });
    dialog->open();
    return dialog;
}

int GraphsFeature::exportPartition(int runId, const QString& edgesPath, const QString& mastersPath)
{
    return actions::startPartitionExport(*m_shell.jobRunner(), *m_shell.document(), runId, edgesPath, mastersPath,
                                         [this, edgesPath, mastersPath](const QString& error) {
                                             if (!error.isEmpty())
                                                 m_shell.showError(tr("The partition was not exported"), error);
                                             else
                                                 m_shell.showStatus(tr("Wrote %1 and %2").arg(edgesPath, mastersPath),
                                                                    10000);
                                         });
}

void GraphsFeature::exportPartitionWithDialog()
{
    auto* document = m_shell.document();
    const auto run = document->run(document->currentRun());
    if (!run || run->kind != document::RunKind::Partition) {
        m_shell.showError(tr("No partition run selected"), tr("Select a partition run in the Runs list first."));
        return;
    }
    const QString folder = QFileInfo(document->path()).absolutePath();
    const QString base = QString::fromStdString(run->application + "-" + run->algorithm);
    QWidget* window = m_shell.shellWindow();
    const QString edges = QFileDialog::getSaveFileName(window, tr("Edge partition (src dst site per edge)"),
                                                       folder + "/" + base + ".E.tsv", tr("TSV (*.tsv)"));
    if (edges.isEmpty())
        return;
    QString masters = edges;
    masters.replace(QRegularExpression("\\.E\\.tsv$"), ".M.tsv");
    if (masters == edges)
        masters = edges + ".M.tsv";
    masters = QFileDialog::getSaveFileName(window, tr("Masters (vertex site per vertex)"), masters, tr("TSV (*.tsv)"));
    if (!masters.isEmpty())
        exportPartition(run->id, edges, masters);
}

} // namespace meridian::workbench
