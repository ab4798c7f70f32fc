#include "app/workbench/main_window.h"

#include "app/document/project_file.h"
#include "widgets/heatmap_view.h"
#include "widgets/site_table_model.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QVBoxLayout>

namespace meridian::workbench {

namespace {

enum MatrixKind { kLatency, kBandwidth, kVolume, kMessages, kAverageSize };

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Meridian"));
    auto* splitter = new QSplitter(this);

    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(6, 6, 6, 6);
    auto* sitesTitle = new QLabel(tr("<b>Sites</b>"), left);
    m_siteModel = new widgets::SiteTableModel(this);
    m_siteTable = new QTableView(left);
    m_siteTable->setModel(m_siteModel);
    m_siteTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_siteTable->verticalHeader()->hide();
    m_siteTable->horizontalHeader()->setStretchLastSection(true);
    m_networkNote = new QLabel(left);
    m_networkNote->setWordWrap(true);
    m_networkNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    leftLayout->addWidget(sitesTitle);
    leftLayout->addWidget(m_siteTable, 1);
    leftLayout->addWidget(m_networkNote);

    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(6, 6, 6, 6);
    auto* controls = new QHBoxLayout;
    m_matrixChooser = new QComboBox(right);
    m_matrixChooser->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_matrixChooser->setMinimumContentsLength(32);
    m_logScale = new QCheckBox(tr("Log scale"), right);
    controls->addWidget(new QLabel(tr("Matrix:"), right));
    controls->addWidget(m_matrixChooser);
    controls->addWidget(m_logScale);
    controls->addStretch(1);
    m_heatmap = new widgets::HeatmapView(right);
    rightLayout->addLayout(controls);
    rightLayout->addWidget(m_heatmap, 1);

    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({560, 720});
    setCentralWidget(splitter);

    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open Project\u2026"), this, &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    connect(m_matrixChooser, &QComboBox::currentIndexChanged, this, &MainWindow::showSelectedMatrix);
    connect(m_logScale, &QCheckBox::toggled, m_heatmap, &widgets::HeatmapView::setLogScale);
    statusBar()->showMessage(tr("Open a project with File > Open Project"));
    resize(1280, 760);
}

MainWindow::~MainWindow() = default;

Status MainWindow::loadProject(const QString& path)
{
    auto loaded = document::ProjectFile::load(path);
    if (!loaded)
        return loaded.error();
    m_project = std::make_unique<document::Project>(std::move(*loaded));
    m_path = path;
    model::DistanceModel model;
    m_completeNetwork = m_project->completeNetwork(&model);
    m_siteModel->setTopology(m_project->topology);
    m_siteTable->resizeColumnsToContents();
    m_networkNote->setText(QString::fromStdString(model.describe()));
    setWindowTitle(QString("%1 \u2014 Meridian").arg(QString::fromStdString(m_project->name)));
    statusBar()->showMessage(tr("%1: %2 sites, %3 slots, %4 applications")
                                 .arg(QFileInfo(path).fileName())
                                 .arg(m_project->topology.siteCount())
                                 .arg(m_project->topology.totalCapacity())
                                 .arg(m_project->applications.size()));
    rebuildMatrixChooser();
    return {};
}

bool MainWindow::openProject(const QString& path)
{
    if (auto s = loadProject(path); !s) {
        QMessageBox::critical(this, tr("Cannot open the project"), QString::fromStdString(s.error().toString()));
        return false;
    }
    return true;
}

void MainWindow::openWithDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), QFileInfo(m_path).absolutePath(),
                                                      tr("Meridian projects (*.meridian *.json);;All files (*)"));
    if (!path.isEmpty())
        openProject(path);
}

void MainWindow::rebuildMatrixChooser()
{
    QSignalBlocker blocker(m_matrixChooser);
    m_matrixChooser->clear();
    for (int a = 0; a < static_cast<int>(m_project->applications.size()); ++a) {
        const auto name = QString::fromStdString(m_project->applications[a].name);
        m_matrixChooser->addItem(tr("%1: volume (bytes)").arg(name), QVariantList{kVolume, a});
        if (m_project->applications[a].comm.hasMessages()) {
            m_matrixChooser->addItem(tr("%1: messages").arg(name), QVariantList{kMessages, a});
            m_matrixChooser->addItem(tr("%1: average message size").arg(name), QVariantList{kAverageSize, a});
        }
    }
    m_matrixChooser->addItem(tr("Network: latency (ms)"), QVariantList{kLatency, -1});
    m_matrixChooser->addItem(tr("Network: bandwidth (MB/s)"), QVariantList{kBandwidth, -1});
    m_matrixChooser->setCurrentIndex(0);
    showSelectedMatrix();
}

void MainWindow::showSelectedMatrix()
{
    if (!m_project || m_matrixChooser->currentIndex() < 0)
        return;
    const auto key = m_matrixChooser->currentData().toList();
    const int kind = key.at(0).toInt();
    widgets::HeatmapData data;
    data.title = m_matrixChooser->currentText();
    if (kind == kLatency || kind == kBandwidth) {
        const auto q = kind == kLatency ? model::NetworkQuantity::Latency : model::NetworkQuantity::Bandwidth;
        data.dense = kind == kLatency ? m_completeNetwork.latencyMs() : m_completeNetwork.bandwidthMBps();
        data.unit = kind == kLatency ? "ms" : "MB/s";
        for (const auto& s : m_project->topology.sites()) {
            data.rowLabels << QString::fromStdString(s.name);
            data.columnLabels << QString::fromStdString(s.name);
        }
        data.rowAxis = tr("from");
        data.columnAxis = tr("to");
        const model::Network network = m_completeNetwork;
        data.cellNote = [network, q](int r, int c) {
            return QString::fromStdString(std::string(model::provenanceId(network.provenance(q, r, c))));
        };
    } else {
        const auto& comm = m_project->applications[key.at(1).toInt()].comm;
        data.isSparse = true;
        data.rowAxis = tr("sender");
        data.columnAxis = tr("receiver");
        if (kind == kVolume) {
            data.sparse = comm.volume();
            data.unit = "bytes";
        } else if (kind == kMessages) {
            data.sparse = comm.messages();
            data.unit = "messages";
        } else {
            data.sparse = comm.volume();
            for (Eigen::Index k = 0; k < data.sparse.nonZeros(); ++k) {
                const double count = comm.messages().valuePtr()[k];
                data.sparse.valuePtr()[k] = count > 0 ? data.sparse.valuePtr()[k] / count : 0.0;
            }
            data.unit = "bytes";
        }
    }
    m_heatmap->setData(std::move(data));
}

} // namespace meridian::workbench
