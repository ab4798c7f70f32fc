#pragma once

#include "app/mapping/launched_mapping.h"
#include "app/mapping/ui/run_controller.h"

#include <QDialog>

#include <vector>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace meridian::workbench {

/// Asks how the ticked mapping runs go to an MPI launcher (RunController::submitLaunched): the launcher's command
/// before meridian-cli (`{N}` stands for the ranks), the ranks Monte Carlo splits its samples over (every other
/// mapper runs on one), a work folder the launcher's nodes share with this machine, and meridian-cli as they start
/// it. It shows the command the first run would start, says what is missing (Launch stays disabled until nothing
/// is) and remembers the choices (QSettings) for the next time.
class LaunchDialog : public QDialog {
    Q_OBJECT
public:
    /// `defaultFolder` is the work folder offered when none was chosen before (the project's folder).
    LaunchDialog(std::vector<actions::RunRequest> requests, const QString& defaultFolder, QWidget* parent = nullptr);

    /// The settings as the dialog shows them.
    ops::LauncherSettings settings() const;
    /// Keeps the settings for the next dialog (on Launch).
    void remember() const;

    QLineEdit* launcherEdit() const { return m_launcher; }
    QSpinBox* ranksBox() const { return m_ranks; }
    QLineEdit* folderEdit() const { return m_folder; }
    QLineEdit* cliEdit() const { return m_cli; }
    /// The command shown, or what is missing.
    QString commandText() const;
    QString problemText() const;

private:
    void update();

    std::vector<actions::RunRequest> m_requests;
    QLineEdit* m_launcher;
    QSpinBox* m_ranks;
    QLineEdit* m_folder;
    QLineEdit* m_cli;
    QLabel* m_command;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace meridian::workbench
