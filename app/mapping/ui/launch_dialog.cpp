#include "app/mapping/ui/launch_dialog.h"

#include "app/jobs/slurm_batch.h"
#include "app/partitioning/launched_partition.h"
#include "widgets/dialog_rows.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace meridian::workbench {

namespace {

constexpr const char* kLauncherKey = "launch/launcher";
constexpr const char* kRanksKey = "launch/ranks";
constexpr const char* kFolderKey = "launch/folder";
constexpr const char* kCliKey = "launch/cli";
constexpr const char* kSubmissionKey = "launch/slurmBatch";
constexpr const char* kBatchOptionsKey = "launch/sbatchOptions";
constexpr const char* kHereLauncher = "mpirun -np {N}";
constexpr const char* kBatchLauncher = "srun --mpi=pmix";

} // namespace

LaunchDialog::LaunchDialog(std::vector<actions::RunRequest> requests, std::shared_ptr<const document::Project> project,
                           const QString& defaultFolder, QWidget* parent)
    : QDialog(parent)
    , m_requests(std::move(requests))
    , m_project(std::move(project))
{
    setWindowTitle(tr("Run on a Launcher"));
    setMinimumWidth(640);
    auto* intro = new QLabel(
        tr("Runs the %n run(s) with meridian-cli under an MPI launcher: on a cluster (srun, mpirun with a "
           "hostfile, or a Slurm batch job that sbatch queues), or with mpirun on this machine. The project as it is "
           "now is saved in a folder of its own "
           "under the work folder, which the launcher's nodes must see at the same path (and a graph's file at the "
           "path it was imported from). Each run's progress shows in the Jobs panel, and the run lands in the list "
           "as if computed here.",
           nullptr, static_cast<int>(m_requests.size())),
        this);
    intro->setWordWrap(true);
    const QSettings settings;
    m_submission = new QComboBox(this);
    m_submission->setObjectName("launchSubmission");
    m_submission->addItems({tr("Start the launcher from here"), tr("Submit a Slurm batch job (sbatch)")});
    m_submission->setCurrentIndex(settings.value(kSubmissionKey, false).toBool() ? 1 : 0);
    m_submission->setToolTip(tr("A batch job waits in Slurm's queue for its nodes: Meridian writes its script "
                                "(job.sh in the run's folder), submits it with sbatch and follows it with scontrol; "
                                "Cancel calls scancel. Slurm's commands must be on this machine's PATH."));
    m_launcher = new QLineEdit(settings.value(kLauncherKey, kHereLauncher).toString(), this);
    m_launcher->setObjectName("launchTemplate");
    m_launcher->setToolTip(tr("The words before meridian-cli; {N} becomes the ranks. For example: mpirun -np {N}, "
                              "mpirun --hostfile hosts -np {N}, srun -n {N}; in a batch job, srun --mpi=pmix (its "
                              "tasks are the job's)."));
    m_batchOptions = new QLineEdit(settings.value(kBatchOptionsKey).toString(), this);
    m_batchOptions->setObjectName("launchBatchOptions");
    m_batchOptions->setPlaceholderText(tr("--partition=compute --time=01:00:00"));
    m_batchOptions->setToolTip(tr("The job's own sbatch options, each an #SBATCH line of its script: partition, "
                                  "time limit, account, nodes. Meridian writes the tasks (the ranks) and the output "
                                  "files."));
    m_ranks = new QSpinBox(this);
    m_ranks->setObjectName("launchRanks");
    m_ranks->setRange(1, 65535);
    m_ranks->setValue(settings.value(kRanksKey, 2).toInt());
    m_ranks->setToolTip(tr("Monte Carlo splits its samples over the ranks, with the result of one process; "
                           "scotch-bw and scotch-lat with parallel=true split their graph over them on PT-Scotch; "
                           "hash, hdrf with batch above 0, and geo-cut with start=cost, batch above 0, "
                           "lq_fraction=0 and replica_passes=0 (its stage 1 alone) split a SNAP graph's edges over "
                           "them without a budget under the pagerank or sssp profile, with the partition of one "
                           "process. Every other run goes whole on one rank."));
    const auto cli = ops::cliProgram();
    m_folder = new QLineEdit(settings.value(kFolderKey, defaultFolder).toString(), this);
    m_folder->setObjectName("launchFolder");
    m_cli = new QLineEdit(settings.value(kCliKey, cli ? *cli : QString()).toString(), this);
    m_cli->setObjectName("launchCli");
    m_cli->setToolTip(tr("meridian-cli as the launcher's nodes start it: its path on them."));
    m_commandTitle = new QLabel(this);
    m_command = new QPlainTextEdit(this);
    m_command->setObjectName("launchCommand");
    m_command->setReadOnly(true);
    m_command->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // A command wraps at spaces; a script keeps its lines (scrolling sideways).
    m_command->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_problem = new QLabel(this);
    m_problem->setObjectName("launchProblem");
    m_problem->setWordWrap(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&Submit:"), m_submission);
    form->addRow(tr("&Launcher:"), m_launcher);
    form->addRow(tr("s&batch options:"), m_batchOptions);
    form->addRow(tr("&Ranks (runs that split):"), m_ranks);
    auto* folderLabel = new QLabel(tr("&Work folder:"), this);
    folderLabel->setBuddy(m_folder);
    auto* cliLabel = new QLabel(tr("m&eridian-cli:"), this);
    cliLabel->setBuddy(m_cli);
    form->addRow(folderLabel, widgets::withBrowse(m_folder, this, [this] {
                     return QFileDialog::getExistingDirectory(this, tr("Work Folder"), m_folder->text());
                 }));
    form->addRow(cliLabel, widgets::withBrowse(m_cli, this, [this] {
                     return QFileDialog::getOpenFileName(this, tr("meridian-cli"), QFileInfo(m_cli->text()).path());
                 }));
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Launch"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_commandTitle);
    layout->addWidget(m_command);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        remember();
        accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QLineEdit* edit : {m_launcher, m_folder, m_cli, m_batchOptions})
        connect(edit, &QLineEdit::textChanged, this, &LaunchDialog::update);
    connect(m_ranks, &QSpinBox::valueChanged, this, &LaunchDialog::update);
    connect(m_submission, &QComboBox::currentIndexChanged, this, &LaunchDialog::submissionChanged);
    m_batchOptions->setEnabled(m_submission->currentIndex() == 1);
    update();
}

void LaunchDialog::submissionChanged()
{
    const bool batch = m_submission->currentIndex() == 1;
    m_batchOptions->setEnabled(batch);
    const QString launcher = m_launcher->text().trimmed();
    if (batch && launcher == kHereLauncher)
        m_launcher->setText(kBatchLauncher);
    else if (!batch && launcher == kBatchLauncher)
        m_launcher->setText(kHereLauncher);
    update();
}

jobs::LauncherSettings LaunchDialog::settings() const
{
    const bool batch = m_submission->currentIndex() == 1;
    return {m_launcher->text().trimmed(),
            m_ranks->value(),
            m_folder->text().trimmed(),
            m_cli->text().trimmed(),
            batch ? jobs::LauncherSettings::Submission::SlurmBatch : jobs::LauncherSettings::Submission::Command,
            batch ? m_batchOptions->text().trimmed() : QString()};
}

void LaunchDialog::remember() const
{
    QSettings settings;
    settings.setValue(kLauncherKey, m_launcher->text().trimmed());
    settings.setValue(kRanksKey, m_ranks->value());
    settings.setValue(kFolderKey, m_folder->text().trimmed());
    settings.setValue(kCliKey, m_cli->text().trimmed());
    settings.setValue(kSubmissionKey, m_submission->currentIndex() == 1);
    settings.setValue(kBatchOptionsKey, m_batchOptions->text().trimmed());
}

QString LaunchDialog::commandText() const { return m_command->toPlainText(); }
QString LaunchDialog::problemText() const { return m_problem->isHidden() ? QString() : m_problem->text(); }

Expected<QStringList> LaunchDialog::firstCommand(const jobs::LauncherSettings& chosen) const
{
    const actions::RunRequest& first = m_requests.front();
    const QString folder = QDir(chosen.workFolder).filePath("meridian-job-XXXXXX");
    jobs::LauncherSettings one = chosen;
    if (first.partition) {
        if (!m_project)
            return makeError(ErrorCode::InvalidInput, "no project to launch a partition run on");
        const ops::PartitionRequest request = actions::RunController::partitionRequest(first, m_project, 0);
        if (!ops::partitionRunSplitsOverRanks(request))
            one.ranks = 1;
        return ops::launchedPartitionCommand(request, one, folder);
    }
    ops::MappingRequest request;
    request.application = first.application;
    request.algorithm = first.algorithm;
    request.params = first.params;
    request.seed = first.seed;
    request.start = first.start;
    if (!ops::splitsOverRanks(first.algorithm, first.params))
        one.ranks = 1;
    return ops::launchedMapCommand(request, one, folder);
}

void LaunchDialog::update()
{
    const jobs::LauncherSettings chosen = settings();
    QString problem;
    if (m_requests.empty())
        problem = tr("Tick at least one algorithm and choose an application or a graph.");
    else if (chosen.workFolder.isEmpty() || !QFileInfo(chosen.workFolder).isDir())
        problem = tr("Choose a work folder that exists (the launcher's nodes must see it at the same path).");
    else if (!QFileInfo(chosen.workFolder).isWritable())
        problem = tr("The work folder %1 cannot be written.").arg(chosen.workFolder);
    else if (chosen.cliProgram.isEmpty() || !QFileInfo(chosen.cliProgram).isExecutable())
        problem = tr("Name meridian-cli as the launcher's nodes start it (%1 is not a program here).")
                      .arg(chosen.cliProgram.isEmpty() ? tr("nothing") : chosen.cliProgram);
    const bool batch = chosen.submission == jobs::LauncherSettings::Submission::SlurmBatch;
    if (problem.isEmpty() && batch && QStandardPaths::findExecutable("sbatch").isEmpty())
        problem = tr("sbatch is not on this machine's PATH: a batch job needs Slurm's commands here.");
    QString command;
    if (!m_requests.empty()) {
        const auto words = firstCommand(chosen);
        if (words && batch)
            command = jobs::slurmBatchScript(chosen, *words, QDir(chosen.workFolder).filePath("meridian-job-XXXXXX"));
        else if (words)
            command = jobs::shellLine(*words);
        else if (problem.isEmpty())
            problem = QString::fromStdString(words.error().message);
    }
    m_commandTitle->setText(batch ? tr("The first run's job script:") : tr("The first run starts:"));
    m_command->setLineWrapMode(batch ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    const int lines = batch ? 16 : 5;
    m_command->setFixedHeight(m_command->fontMetrics().lineSpacing() * lines + 2 * m_command->frameWidth() + 8);
    m_command->setPlainText(command);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

} // namespace meridian::workbench
