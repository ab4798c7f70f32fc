#include "app/partitioning/ui/graphs_panel.h"

#include "app/project/project_edits.h"
#include "app/report/compare_charts.h"
#include "widgets/dialog_rows.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

namespace meridian::workbench {

ImportGraphDialog::ImportGraphDialog(const QString& folder, const document::Project& project, QWidget* parent)
    : QDialog(parent)
    , m_project(project)
{
    setWindowTitle(tr("Import Graph"));
    setMinimumWidth(560);
    auto* form = new QFormLayout;
    m_path = new QLineEdit(this);
    m_path->setObjectName("graphPath");
    m_path->setPlaceholderText(tr("a SNAP edge list, a METIS graph or a Matrix Market matrix"));
    m_format = new QComboBox(this);
    m_format->addItem(tr("SNAP edge list"), "snap");
    m_format->addItem(tr("METIS"), "metis");
    m_format->addItem(tr("Matrix Market"), "mtx");
    m_name = new QLineEdit(this);
    m_name->setObjectName("graphName");
    m_homes = new QLineEdit(this);
    m_homes->setObjectName("graphHomes");
    m_homes->setPlaceholderText(tr("optional: 'vertex site' lines"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1000000000);
    m_seed->setValue(1);
    m_seed->setToolTip(tr("Vertices the homes file does not list (all, without a file) get a home drawn uniformly "
                          "at random over the project's %1 sites with this seed.")
                           .arg(project.topology.siteCount()));
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    auto* pathLabel = new QLabel(tr("&Graph file:"), this);
    pathLabel->setBuddy(m_path);
    auto* homesLabel = new QLabel(tr("&Homes file:"), this);
    homesLabel->setBuddy(m_homes);
    form->addRow(pathLabel, widgets::withBrowse(m_path, this, [this, folder] {
                     return QFileDialog::getOpenFileName(this, tr("Graph"), folder,
                                                         tr("Graphs (*.txt *.tsv *.edges *.graph *.metis *.mtx);;"
                                                            "All files (*)"));
                 }));
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(homesLabel, widgets::withBrowse(m_homes, this, [this, folder] {
                     return QFileDialog::getOpenFileName(this, tr("Homes"), folder);
                 }));
    form->addRow(tr("Homes &seed:"), m_seed);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_path, &QLineEdit::textChanged, this, [this](const QString& path) {
        const auto format = io::guessGraphFormat(path.toStdString());
        m_format->setCurrentIndex(m_format->findData(QString::fromStdString(std::string(io::graphFormatId(format)))));
        if (!path.isEmpty())
            m_name->setText(QString::fromStdString(
                document::unusedApplicationName(m_project, QFileInfo(path).completeBaseName().toStdString())));
        update();
    });
    connect(m_name, &QLineEdit::textChanged, this, &ImportGraphDialog::update);
    connect(m_homes, &QLineEdit::textChanged, this, &ImportGraphDialog::update);
    update();
}

void ImportGraphDialog::update()
{
    QString problem;
    if (m_project.topology.siteCount() == 0)
        problem = tr("The project has no sites yet: the vertices need sites to live in.");
    else if (m_path->text().isEmpty())
        problem = tr("Choose the graph file.");
    else if (!QFileInfo(m_path->text()).isFile())
        problem = tr("%1 is not a file.").arg(m_path->text());
    else if (!m_homes->text().isEmpty() && !QFileInfo(m_homes->text()).isFile())
        problem = tr("%1 is not a file.").arg(m_homes->text());
    else if (m_name->text().trimmed().isEmpty())
        problem = tr("Give the graph a name.");
    else if (m_project.applicationIndex(m_name->text().toStdString()) >= 0)
        problem = tr("An application is named %1.").arg(m_name->text());
    else if (m_project.graphIndex(m_name->text().toStdString()) >= 0)
        problem = tr("Importing replaces the graph %1 (its runs become stale).").arg(m_name->text());
    m_problem->setText(problem);
    const bool blocking = !problem.isEmpty() && !problem.startsWith(tr("Importing replaces"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!blocking);
}

actions::GraphSource ImportGraphDialog::request() const
{
    actions::GraphSource r;
    r.name = m_name->text().trimmed().toStdString();
    r.path = m_path->text().toStdString();
    r.format = *io::graphFormatFromId(m_format->currentData().toString().toStdString());
    r.homesPath = m_homes->text().toStdString();
    r.homesSeed = static_cast<std::uint64_t>(m_seed->value());
    return r;
}

GraphsPanel::GraphsPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    m_list = new QListWidget(left);
    m_list->setObjectName("graphList");
    auto* importButton = new QPushButton(tr("Import\u2026"), left);
    m_reimport = new QPushButton(tr("Import again"), left);
    m_reimport->setToolTip(tr("Reads the graph's files again with the same settings (after they changed on disk)."));
    m_remove = new QPushButton(tr("Remove"), left);
    m_remove->setToolTip(tr("Removes the graph from the project (its files stay where they are)."));
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(importButton);
    leftLayout->addWidget(m_reimport);
    leftLayout->addWidget(m_remove);

    auto* right = new QWidget(this);
    auto* rightLayout = new QVBoxLayout(right);
    m_details = new QLabel(right);
    m_details->setObjectName("graphDetails");
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_chart = makeChartView(right, tr("Degree distribution"));
    m_chart->chart()->legend()->hide();
    rightLayout->addWidget(m_details);
    rightLayout->addWidget(m_chart, 1);

    auto* splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(importButton, &QPushButton::clicked, this, &GraphsPanel::importRequested);
    connect(m_reimport, &QPushButton::clicked, this, [this] {
        const auto project = m_document->project();
        const int g = project->graphIndex(currentGraph().toStdString());
        if (g < 0)
            return;
        const auto& input = project->graphs[g];
        Q_EMIT reimportRequested({input.name, input.path, input.format, input.homesPath, input.homesSeed});
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const QString e = removeGraph(currentGraph()); !e.isEmpty())
            Q_EMIT errorOccurred(tr("The graph was not removed"), e);
    });
    connect(m_list, &QListWidget::currentRowChanged, this, &GraphsPanel::showCurrent);
    connect(m_document, &document::ProjectDocument::projectChanged, this, &GraphsPanel::rebuild);
    connect(m_document, &document::ProjectDocument::graphFilesChanged, this, &GraphsPanel::showCurrent);
    rebuild();
}

QString GraphsPanel::currentGraph() const { return m_list->currentItem() ? m_list->currentItem()->text() : QString(); }

QString GraphsPanel::removeGraph(const QString& name)
{
    const auto status = m_document->edit(tr("Remove graph %1").arg(name), [&](const document::Project& p) {
        return document::withoutGraph(p, name.toStdString());
    });
    return status ? QString() : QString::fromStdString(status.error().toString());
}

void GraphsPanel::rebuild()
{
    const QString keep = currentGraph();
    QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const auto& g : m_document->project()->graphs)
        m_list->addItem(QString::fromStdString(g.name));
    const auto found = m_list->findItems(keep, Qt::MatchExactly);
    m_list->setCurrentRow(found.isEmpty() ? (m_list->count() > 0 ? 0 : -1) : m_list->row(found.front()));
    showCurrent();
}

namespace {

void fillDegreeChart(QChart* chart, const document::GraphStats& stats)
{
    clearChart(chart);
    auto* series = new QScatterSeries;
    series->setMarkerSize(9);
    series->setColor(seriesColor(0));
    double maxCount = 1;
    for (std::size_t k = 0; k < stats.degreeHistogram.size(); ++k)
        if (stats.degreeHistogram[k] > 0) {
            series->append(std::ldexp(1.0, static_cast<int>(k)), static_cast<double>(stats.degreeHistogram[k]));
            maxCount = std::max(maxCount, static_cast<double>(stats.degreeHistogram[k]));
        }
    chart->addSeries(series);
    auto* x = new QLogValueAxis;
    x->setBase(2);
    x->setLabelFormat("%g");
    x->setTitleText(QObject::tr("Degree (in + out), lower end of each power-of-two band"));
    x->setRange(0.8, std::ldexp(1.0, static_cast<int>(std::max<std::size_t>(stats.degreeHistogram.size(), 1))) * 1.25);
    auto* y = new QLogValueAxis;
    y->setBase(10);
    y->setLabelFormat("%g");
    y->setTitleText(QObject::tr("Vertices"));
    y->setRange(0.8, maxCount * 1.5);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace

void GraphsPanel::showCurrent()
{
    const auto project = m_document->project();
    const int g = project->graphIndex(currentGraph().toStdString());
    m_reimport->setEnabled(g >= 0);
    m_remove->setEnabled(g >= 0);
    if (g < 0) {
        m_details->setText(project->graphs.empty()
                               ? tr("No graph yet. File > Import > Graph adds one (SNAP, METIS or Matrix Market) for "
                                    "the partitioners; its file stays where it is.")
                               : QString());
        clearChart(m_chart->chart());
        return;
    }
    const auto& input = project->graphs[g];
    const auto& s = input.stats;
    QString text = tr("<b>%1</b><br>%2 (%3)<br>%4 vertices, %5 edges, largest degree %6")
                       .arg(QString::fromStdString(input.name).toHtmlEscaped(),
                            QString::fromStdString(input.path).toHtmlEscaped(),
                            QString::fromStdString(std::string(io::graphFormatId(input.format))))
                       .arg(QLocale().toString(static_cast<qulonglong>(s.vertices)),
                            QLocale().toString(static_cast<qulonglong>(s.edges)),
                            QLocale().toString(static_cast<qulonglong>(s.maxDegree)));
    if (s.selfLoopsDropped > 0)
        text += tr(" (%1 self-loops dropped)").arg(QLocale().toString(static_cast<qulonglong>(s.selfLoopsDropped)));
    text += tr("<br>Homes: %1")
                .arg(QString::fromStdString(input.homesText(project->topology.siteCount())).toHtmlEscaped());
    if (const auto change = m_document->graphChangeOnDisk(input.name); !change.empty())
        text += tr("<br><span style='color:#b00020'>%1: its runs are stale. Import it again to use the new "
                   "file.</span>")
                    .arg(QString::fromStdString(change).toHtmlEscaped());
    m_details->setText(text);
    fillDegreeChart(m_chart->chart(), s);
    m_chart->chart()->setTitle(tr("Degree distribution of %1").arg(QString::fromStdString(input.name)));
}

} // namespace meridian::workbench
