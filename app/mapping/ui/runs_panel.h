#pragma once

#include "app/mapping/ui/run_controller.h"
#include "app/project/ui/project_document.h"
#include "core/io/launcher_files.h"

#include <QWidget>

class QLabel;
class QMenu;
class QMessageBox;
class QModelIndex;
class QTextBrowser;
class QVBoxLayout;
class QSortFilterProxyModel;
class QTableView;

namespace meridian::workbench {

class BatchDialog;
class RunTableModel;
class SimulationDetailsDialog;

/// The list of finished runs: select one to show it everywhere; re-run, duplicate into the run panel
/// with other parameters, delete (undoable), re-run every stale run, export the selected run's
/// placement as a rankfile, machinefile, Slurm hostfile or mapping CSV (or a partition run's E.tsv and
/// M.tsv), and derive a what-if from a partition run: sites removed, or an insert/delete batch applied. Mapping
/// runs are simulated on demand, and a simulated run shows where its alpha-beta cost and its simulation put the
/// time ("Where the time goes", or a double click on its Simulated cell).
class RunsPanel : public QWidget {
    Q_OBJECT
public:
    RunsPanel(document::ProjectDocument* document, actions::RunController* controller, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    RunTableModel* model() const { return m_model; }
    /// Returns the ids of the selected runs.
    std::vector<int> selectedRuns() const;
    /// Exports a run's placement; returns an error message or an empty string, and how to launch the file in
    /// `advice` when given.
    QString exportRun(int runId, io::LauncherFormat format, const QString& path, io::LaunchAdvice* advice = nullptr);
    /// Says how to launch an exported file (non-modal; it deletes itself when closed): the launch line, to copy,
    /// what the file's slots mean, and a warning when it names placeholder hosts.
    QMessageBox* showLaunchAdvice(const io::LaunchAdvice& advice, const QString& path);
    QString exportRunCsv(int runId, const QString& path);
    /// Deletes the selected runs (undoable).
    void deleteSelected();
    /// Opens the batch dialog for the selected partition run (window-modal); its OK starts the what-if.
    /// Returns the dialog, or nullptr when no single partition run is selected (errorOccurred says so).
    BatchDialog* applyBatchWithDialog();
    /// Opens, for the one selected run, where its alpha-beta cost and its simulation put the time (non-modal).
    /// Returns the dialog, or nullptr when not exactly one simulated run is selected (errorOccurred says why).
    SimulationDetailsDialog* showSimulationDetails();
    /// The context menu of the run at `index` (re-run, duplicate, diff with, export, simulate, notes, delete), or
    /// nullptr off the runs; it deletes itself when closed.
    QMenu* contextMenuFor(const QModelIndex& index);
    /// The details pane beside the table: the selected run explained (runExplanationHtml).
    QTextBrowser* details() const { return m_details; }

Q_SIGNALS:
    void duplicateRequested(int runId);
    void diffRequested(int runA, int runB);
    void exportPartitionRequested();
    void errorOccurred(const QString& title, const QString& message);

private:
    void exportWithDialog(int kind);
    void removeSitesWithDialog();
    /// Asks for a set of the project's sites (checkboxes); empty when canceled.
    std::vector<int> chooseSites(const QString& title, const QString& label);
    void updateStaleNote();
    void showDetails(int runId);
    void buildTable(QVBoxLayout* layout, QMenu* exportMenu);

    document::ProjectDocument* m_document;
    actions::RunController* m_controller;
    RunTableModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QLabel* m_staleNote = nullptr;
    QTextBrowser* m_details = nullptr;
    QMenu* m_exportMenu = nullptr;
};

} // namespace meridian::workbench
