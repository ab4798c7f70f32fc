#pragma once

#include "app/mapping/launched_mapping.h"
#include "app/mapping/ui/run_controller.h"

#include <QDialog>

#include <memory>
#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace meridian::workbench {

/// Asks how the ticked runs go to an MPI launcher (RunController::submitLaunched): the launcher's command before
/// meridian-cli (`{N}` stands for the ranks), the ranks the runs that split their work use (Monte Carlo's samples,
/// PT-Scotch's graph, the edges of hash and of the streams in batches, HDRF's and Geo-Cut's stage 1; every other run
/// goes on one), a work folder the launcher's
/// nodes share with this machine, and meridian-cli as they start it; whether the launcher runs here or in a Slurm
/// batch job (slurm_batch.h), with the job's sbatch options. It shows the command the first run would start (the
/// job's script for a batch job), says what is missing (Launch stays disabled until nothing is) and remembers the
/// choices (QSettings) for the next time.
class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    /// `defaultFolder` is the work folder offered when none was chosen before (the project's folder); `project` is
    /// the project the runs are on (a partition run's command names its graph's file).
    LaunchDialog(std::vector<actions::RunRequest> requests, std::shared_ptr<const document::Project> project,
                 const QString& defaultFolder, QWidget* parent = nullptr);

    /// The settings as the dialog shows them.
    jobs::LauncherSettings settings() const;
    /// Keeps the settings for the next dialog (on Launch).
    void remember() const;

    QLineEdit* launcherEdit() const { return m_launcher; }
    QSpinBox* ranksBox() const { return m_ranks; }
    QLineEdit* folderEdit() const { return m_folder; }
    QLineEdit* cliEdit() const { return m_cli; }
    /// Index 0: the launcher runs here; 1: a Slurm batch job.
    QComboBox* submissionBox() const { return m_submission; }
    QLineEdit* batchOptionsEdit() const { return m_batchOptions; }
    /// The command shown, or what is missing.
    QString commandText() const;
    QString problemText() const;

private:
    void update();
    /// Shows the sbatch options for a batch job, and offers the launcher that suits it when the other's default is
    /// still there.
    void submissionChanged();
    /// The command the first request starts with these settings, or why it cannot start.
    Expected<QStringList> firstCommand(const jobs::LauncherSettings& chosen) const;

    std::vector<actions::RunRequest> m_requests;
    std::shared_ptr<const document::Project> m_project;
    QLineEdit* m_launcher;
    QSpinBox* m_ranks;
    QLineEdit* m_folder;
    QLineEdit* m_cli;
    QComboBox* m_submission;
    QLineEdit* m_batchOptions;
    QLabel* m_commandTitle;
    QPlainTextEdit* m_command;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace meridian::workbench
