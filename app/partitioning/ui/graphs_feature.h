#pragma once

#include "app/partitioning/ui/graph_actions.h"
#include "app/project/ui/workbench_feature.h"

#include <QString>

class QAction;

namespace meridian::workbench {

class GraphsPanel;
class ImportGraphDialog;

/// Partitioning in the workbench: the Graphs tab, File > Import > Graph (read in the background, one undoable
/// edit), File > Export > Partition of the selected run, and the background check of the graph files a project
/// refers to (ProjectDocument::graphCheckNeeded).
class GraphsFeature : public WorkbenchFeature {
public:
    GraphsFeature(WorkbenchShell& shell, QObject* parent);

    std::vector<Tab> tabs() const override;
    std::vector<Entry> entries() const override;

    GraphsPanel* panel() const { return m_panel; }
    /// Reads a graph in the background and adds it to the project as one undoable edit; returns the job id. An
    /// error is shown.
    int importGraph(const actions::GraphSource& source);
    /// Opens File > Import > Graph (non-modal; deletes itself when closed).
    ImportGraphDialog* startImportGraphDialog();
    /// Writes a partition run's E.tsv and M.tsv in the background; returns the job id (-1 when the run is not a
    /// partition run; the error is shown).
    int exportPartition(int runId, const QString& edgesPath, const QString& mastersPath);
    /// File > Export > Partition: asks where, for the selected run.
    void exportPartitionWithDialog();

private:
    void checkGraphFiles();

    WorkbenchShell& m_shell;
    GraphsPanel* m_panel = nullptr;
    QAction* m_import = nullptr;
    QAction* m_export = nullptr;
};

} // namespace meridian::workbench
