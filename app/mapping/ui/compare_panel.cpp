#include "app/mapping/ui/compare_panel.h"
#include "app/project/run_analysis.h"
#include "widgets/file_dialogs.h"

#include "app/partitioning/ui/partition_charts.h"

#include "app/report/compare_charts.h"
#include "core/cost/pareto_front.h"

#include "app/mapping/ui/run_table_model.h"
#include "app/project/ui/file_actions.h"
#include "core/synth/patterns.h"
#include "widgets/heatmap_data.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace meridian::workbench {

ComparePanel::ComparePanel(document::ProjectDocument* document, actions::RunController* controller,
                           MapperProvider mappers, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_controller(controller)
    , m_mapperProvider(std::move(mappers))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_tabs = new QTabWidget(this);
    layout->addWidget(m_tabs);

    m_tabs->addTab(buildTableTab(), tr("Table"));
    // Bars.
    m_bars = makeChartView(this, tr("Mean traffic cost per application, normalised to random"));
    m_tabs->addTab(chartTab(m_bars, nullptr), tr("Bars"));
    m_tabs->addTab(buildSkylineTab(), tr("Skyline"));
    m_tabs->addTab(buildMonteCarloTab(), tr("Monte Carlo"));
    m_tabs->addTab(buildSweepTab(), tr("Sweeps"));
    m_tabs->addTab(buildPartitionTab(), tr("Partitions"));

    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this] {
        if (m_baseline->currentIndex() >= 0)
            m_compareModel->setBaseline(m_baseline->currentData().toInt());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    m_document->setCurrentRun(current.data(CompareTableModel::RunIdRole).toInt());
            });
    connect(m_skyApplication, &QComboBox::currentIndexChanged, this, [this] {
        {
            QSignalBlocker bx(m_xMetric), by(m_yMetric);
            fitAxesToInput();
        }
        refreshSkyline();
    });
    for (auto* combo : {m_xMetric, m_yMetric})
        connect(combo, &QComboBox::currentIndexChanged, this, &ComparePanel::refreshSkyline);
    connect(m_mcRun, &QComboBox::currentIndexChanged, this, &ComparePanel::refreshMonteCarlo);
    connect(m_sweepMetric, &QComboBox::currentIndexChanged, this, &ComparePanel::refreshSweepChart);
    connect(m_controller, &actions::RunController::sweepFinished, this, &ComparePanel::showSweep);
    connect(m_document, &document::ProjectDocument::runsChanged, this, &ComparePanel::refresh);
    connect(m_document, &document::ProjectDocument::projectChanged, this, [this] {
        const QString keep = m_sweepApplication->currentText();
        m_sweepApplication->clear();
        for (const auto& a : m_document->project()->applications)
            m_sweepApplication->addItem(QString::fromStdString(a.name));
        m_sweepApplication->setCurrentText(keep);
    });
    // The skyline follows the selected run's application (or graph): a run of another input shows its own.
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, [this] {
        if (auto run = m_document->run(m_document->currentRun()); run
            && m_skyApplication->findText(QString::fromStdString(run->application)) >= 0
            && m_skyApplication->currentText() != QString::fromStdString(run->application)) {
            m_skyApplication->setCurrentText(QString::fromStdString(run->application)); // refreshes the skyline
            return;
        }
        refreshSkyline();
    });
    Q_EMIT m_document->projectChanged();
    refresh();
    refreshSweepChart();
}

/// The run table with its baseline chooser: each metric divided by the baseline run's.
QWidget* ComparePanel::buildTableTab()
{
    auto* tableTab = new QWidget(m_tabs);
    auto* tableLayout = new QVBoxLayout(tableTab);
    auto* baselineBar = new QHBoxLayout;
    m_baseline = new QComboBox(tableTab);
    m_baseline->setObjectName("baselineRun");
    baselineBar->addWidget(new QLabel(tr("Baseline run:"), tableTab));
    baselineBar->addWidget(m_baseline, 1);
    auto* show = new QComboBox(tableTab);
    show->setObjectName("compareShow");
    show->addItem(tr("Values and ratios"), int(CompareTableModel::Show::Both));
    show->addItem(tr("Values"), int(CompareTableModel::Show::Values));
    show->addItem(tr("Ratios to the baseline"), int(CompareTableModel::Show::Ratios));
    show->setToolTip(tr("Ratios divide each metric by the baseline run's (same application only)"));
    baselineBar->addWidget(new QLabel(tr("Show:"), tableTab));
    baselineBar->addWidget(show);
    tableLayout->addLayout(baselineBar);
    m_compareModel = new CompareTableModel(m_document, this);
    m_table = new QTableView(tableTab);
    m_table->setModel(m_compareModel);
    connect(show, &QComboBox::currentIndexChanged, this, [this, show] {
        m_compareModel->setShow(static_cast<CompareTableModel::Show>(show->currentData().toInt()));
    });
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tableLayout->addWidget(m_table);
    return tableTab;
}

/// Two metrics of one application's runs against each other, with the Pareto front.
QWidget* ComparePanel::buildSkylineTab()
{
    auto* skyControls = new QWidget(this);
    auto* skyLayout = new QHBoxLayout(skyControls);
    skyLayout->setContentsMargins(0, 0, 0, 0);
    m_skyApplication = new QComboBox(skyControls);
    m_skyApplication->setObjectName("skylineInput");
    connect(m_skyApplication, &QComboBox::activated, this, [this] { m_inputChosen = true; });
    m_xMetric = new QComboBox(skyControls);
    m_yMetric = new QComboBox(skyControls);
    m_xMetric->setObjectName("skylineX");
    m_yMetric->setObjectName("skylineY");
    skyLayout->addWidget(new QLabel(tr("Input:"), skyControls));
    skyLayout->addWidget(m_skyApplication);
    skyLayout->addWidget(new QLabel(tr("x:"), skyControls));
    skyLayout->addWidget(m_xMetric, 1);
    skyLayout->addWidget(new QLabel(tr("y:"), skyControls));
    skyLayout->addWidget(m_yMetric, 1);
    m_paretoPoints = new QSpinBox(skyControls);
    m_paretoPoints->setObjectName("paretoPoints");
    m_paretoPoints->setRange(2, 41);
    m_paretoPoints->setValue(6);
    m_paretoPoints->setSuffix(tr(" weights"));
    m_paretoSweep = new QPushButton(tr("Pareto sweep"), skyControls);
    m_paretoSweep->setObjectName("paretoSweep");
    m_paretoSweep->setToolTip(tr("Runs refine on this application between time alone (weight 0) and dollars alone "
                                 "(weight 1): each run lands on the skyline. Sites need instance prices."));
    skyLayout->addWidget(m_paretoPoints);
    skyLayout->addWidget(m_paretoSweep);
    connect(m_paretoSweep, &QPushButton::clicked, this, &ComparePanel::startParetoSweep);
    // A choice the user makes stays; until then the axes follow the defaults as runs report them.
    connect(m_xMetric, &QComboBox::activated, this, [this] { m_xChosen = m_xMetric->currentData().toString(); });
    connect(m_yMetric, &QComboBox::activated, this, [this] { m_yChosen = m_yMetric->currentData().toString(); });
    auto* controls = new QWidget(this);
    auto* controlsLayout = new QVBoxLayout(controls);
    controlsLayout->setContentsMargins(0, 0, 0, 0);
    controlsLayout->addWidget(skyControls);
    m_skyNote = new QLabel(controls);
    m_skyNote->setObjectName("skylineNote");
    m_skyNote->setWordWrap(true);
    m_skyNote->setStyleSheet("QLabel { background: #fff4e5; border: 1px solid #e0b070; padding: 4px; }");
    m_skyNote->hide();
    controlsLayout->addWidget(m_skyNote);
    m_skyline = makeChartView(this, tr("Cost/time skyline"));
    // A sweep's runs often sit close together next to far worse baselines: drag a rectangle to zoom in on them,
    // right-click to zoom out.
    m_skyline->setRubberBand(QChartView::RectangleRubberBand);
    m_skyline->setToolTip(tr("Drag a rectangle to zoom in, right-click to zoom out; click a run to select it"));
    return chartTab(m_skyline, controls);
}

/// SC17's Fig. 9 and 10 for a Monte Carlo run.
QWidget* ComparePanel::buildMonteCarloTab()
{
    auto* mcControls = new QWidget(this);
    auto* mcLayout = new QHBoxLayout(mcControls);
    mcLayout->setContentsMargins(0, 0, 0, 0);
    m_mcRun = new QComboBox(mcControls);
    mcLayout->addWidget(new QLabel(tr("Monte Carlo run:"), mcControls));
    mcLayout->addWidget(m_mcRun, 1);
    m_cdf = makeChartView(this, tr("Cost distribution of random placements (CDF)"));
    m_bestOfK = makeChartView(this, tr("Best of K random placements"));
    auto* mcTab = new QWidget(m_tabs);
    auto* mcTabLayout = new QVBoxLayout(mcTab);
    mcTabLayout->addWidget(mcControls);
    auto* mcSplit = new QSplitter(Qt::Horizontal, mcTab);
    mcSplit->addWidget(chartTab(m_cdf, nullptr));
    mcSplit->addWidget(chartTab(m_bestOfK, nullptr));
    mcTabLayout->addWidget(mcSplit, 1);
    return mcTab;
}

/// Constraint-ratio and process-count sweeps (SC17's Fig. 7 and 8) of the mappers ticked in the run panel.
QWidget* ComparePanel::buildSweepTab()
{
    auto* sweepControls = new QWidget(this);
    auto* sweepLayout = new QHBoxLayout(sweepControls);
    sweepLayout->setContentsMargins(0, 0, 0, 0);
    m_sweepKind = new QComboBox(sweepControls);
    m_sweepKind->addItem(tr("Constraint ratio"), int(ops::SweepKind::ConstraintRatio));
    m_sweepKind->addItem(tr("Process count"), int(ops::SweepKind::ProcessCount));
    m_sweepPoints = new QLineEdit(QStringLiteral("0, 0.2, 0.4, 0.6, 0.8"), sweepControls);
    m_sweepPoints->setToolTip(tr("Comma-separated ratios in [0, 1], or process counts"));
    m_sweepApplication = new QComboBox(sweepControls);
    m_sweepApplication->setToolTip(tr("The application whose pins are redrawn (constraint-ratio sweep)"));
    m_sweepPattern = new QComboBox(sweepControls);
    for (auto p : synth::allPatterns())
        m_sweepPattern->addItem(QString::fromStdString(std::string(synth::patternId(p))));
    m_sweepPattern->setToolTip(tr("The generated pattern (process-count sweep); sites are scaled to fit"));
    m_sweepSeeds = new QSpinBox(sweepControls);
    m_sweepSeeds->setRange(1, 100);
    m_sweepSeeds->setValue(3);
    m_sweepMetric = new QComboBox(sweepControls);
    m_sweepMetric->addItem(tr("Cost / random"));
    m_sweepMetric->addItem(tr("Runtime (s)"));
    auto* runSweep = new QPushButton(tr("Run sweep"), sweepControls);
    runSweep->setToolTip(tr("Runs the mappers ticked in the run panel, plus random as the baseline"));
    for (QWidget* w :
         std::initializer_list<QWidget*>{new QLabel(tr("Sweep:"), sweepControls), m_sweepKind, m_sweepPoints,
                                         m_sweepApplication, m_sweepPattern, new QLabel(tr("seeds"), sweepControls),
                                         m_sweepSeeds, m_sweepMetric, runSweep})
        sweepLayout->addWidget(w);
    sweepLayout->setStretchFactor(m_sweepPoints, 1);
    m_sweepChart = makeChartView(this, tr("Sweep"));
    connect(m_sweepKind, &QComboBox::currentIndexChanged, this, [this] {
        const bool ratio = m_sweepKind->currentData().toInt() == int(ops::SweepKind::ConstraintRatio);
        m_sweepPoints->setText(ratio ? QStringLiteral("0, 0.2, 0.4, 0.6, 0.8") : QStringLiteral("64, 256, 1024"));
        m_sweepApplication->setVisible(ratio);
        m_sweepPattern->setVisible(!ratio);
    });
    m_sweepPattern->setVisible(false);
    connect(runSweep, &QPushButton::clicked, this, &ComparePanel::startSweep);
    return chartTab(m_sweepChart, sweepControls);
}

QWidget* ComparePanel::chartTab(QChartView* view, QWidget* controls)
{
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* bar = new QHBoxLayout;
    if (controls)
        bar->addWidget(controls, 1);
    else
        bar->addStretch(1);
    auto* exportButton = new QPushButton(tr("Export\u2026"), tab);
    exportButton->setToolTip(tr("Save this chart as PNG or SVG"));
    bar->addWidget(exportButton);
    layout->addLayout(bar);
    layout->addWidget(view, 1);
    connect(exportButton, &QPushButton::clicked, this, [this, view] {
        const QString path = widgets::saveFileName(this, tr("Export chart"), view->chart()->title() + ".png",
                                                   tr("PNG image (*.png);;SVG drawing (*.svg)"));
        if (path.isEmpty())
            return;
        const auto s = actions::saveDrawing(path, view->size(), view->chart()->title(),
                                            [view](QPainter& p, const QRect& r) { view->render(&p, r); });
        if (!s)
            Q_EMIT errorOccurred(tr("The export failed"), QString::fromStdString(s.error().toString()));
    });
    return tab;
}

/// Geo-Cut's bars (normalised to hash) for one graph, and the selected partition run's per-site shares.
QWidget* ComparePanel::buildPartitionTab()
{
    auto* controls = new QWidget(this);
    auto* row = new QHBoxLayout(controls);
    row->setContentsMargins(0, 0, 0, 0);
    m_partitionGraph = new QComboBox(controls);
    m_partitionGraph->setObjectName("partitionGraph");
    row->addWidget(new QLabel(tr("Graph:"), controls));
    row->addWidget(m_partitionGraph);
    row->addStretch(1);
    m_partitionBars = makeChartView(this, tr("Partitioners, normalised to hash"));
    m_siteShares = makeChartView(this, tr("Per-site upload and download"));
    auto* tab = new QWidget(this);
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chartTab(m_partitionBars, controls), 1);
    layout->addWidget(chartTab(m_siteShares, nullptr), 1);
    connect(m_partitionGraph, &QComboBox::currentIndexChanged, this, &ComparePanel::refreshPartitions);
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, &ComparePanel::refreshPartitions);
    return tab;
}

void ComparePanel::refreshPartitions()
{
    const auto run = m_document->run(m_document->currentRun());
    fillPartitionBars(m_partitionBars->chart(), *m_document, m_partitionGraph->currentText().toStdString());
    fillSiteShares(m_siteShares->chart(), run.get(), m_document->project()->topology);
}

QChartView* ComparePanel::chart(Tab tab) const
{
    switch (tab) {
    case PartitionsTab:
        return m_partitionBars;
    case BarsTab:
        return m_bars;
    case SkylineTab:
        return m_skyline;
    case MonteCarloTab:
        return m_cdf;
    case SweepsTab:
        return m_sweepChart;
    default:
        return nullptr;
    }
}

QString ComparePanel::exportChart(Tab tab, const QString& path) const
{
    QChartView* view = chart(tab);
    if (!view)
        return tr("that tab has no chart");
    const QSize size = view->size().isEmpty() || view->size().width() < 200 ? QSize(900, 600) : view->size();
    const auto s = actions::saveDrawing(path, size, view->chart()->title(),
                                        [view](QPainter& p, const QRect& r) { view->render(&p, r); });
    return s ? QString() : QString::fromStdString(s.error().toString());
}

void ComparePanel::refresh()
{
    refreshBaselines();
    // Metrics offered on the skyline: the union over runs, in first-seen order.
    const QString keepX = m_xChosen, keepY = m_yChosen;
    const QString keepApp = m_skyApplication->currentText();
    {
        QSignalBlocker bx(m_xMetric), by(m_yMetric), ba(m_skyApplication), bm(m_mcRun);
        m_xMetric->clear();
        m_yMetric->clear();
        std::vector<std::string> seen;
        for (const auto& r : m_document->runs())
            for (const auto& m : r->metrics)
                if (std::find(seen.begin(), seen.end(), m.id) == seen.end()) {
                    seen.push_back(m.id);
                    m_xMetric->addItem(metricTitle(m), QString::fromStdString(m.id));
                    m_yMetric->addItem(metricTitle(m), QString::fromStdString(m.id));
                }
        auto pick = [](QComboBox* c, const QString& keep, std::initializer_list<const char*> fallbacks) {
            int i = c->findData(keep);
            for (const char* f : fallbacks)
                if (i < 0)
                    i = c->findData(QString(f));
            c->setCurrentIndex(std::max(0, i));
        };
        pick(m_xMetric, keepX, {"usd", "wan_usd", "wan_bytes"});
        // Time is the predicted run time where runs have one (what recommendations rank by), else eq. 3's cost.
        pick(m_yMetric, keepY, {"predicted_s", "cost_s"});
        m_skyApplication->clear();
        for (const auto& a : m_document->project()->applications)
            m_skyApplication->addItem(QString::fromStdString(a.name));
        for (const auto& g : m_document->project()->graphs)
            m_skyApplication->addItem(QString::fromStdString(g.name));
        // The user's choice of input stays; until then the input is the selected run's, or the latest run's.
        const int appIndex = m_skyApplication->findText(keepApp);
        QString runInput;
        if (!m_inputChosen || appIndex < 0) {
            if (auto run = m_document->run(m_document->currentRun()))
                runInput = QString::fromStdString(run->application);
            else if (!m_document->runs().empty())
                runInput = QString::fromStdString(m_document->runs().back()->application);
        }
        if (!runInput.isEmpty())
            m_skyApplication->setCurrentText(runInput);
        else if (appIndex >= 0)
            m_skyApplication->setCurrentIndex(appIndex);
        fitAxesToInput();

        const int keepMc = m_mcRun->currentData().toInt();
        m_mcRun->clear();
        for (const auto& r : m_document->runs())
            if (!r->costSamples.empty())
                m_mcRun->addItem(QString::fromStdString(r->label()), r->id);
        const int mcIndex = m_mcRun->findData(keepMc);
        m_mcRun->setCurrentIndex(mcIndex >= 0 ? mcIndex : m_mcRun->count() - 1);
    }
    {
        QSignalBlocker blocker(m_partitionGraph);
        const QString keep = m_partitionGraph->currentText();
        m_partitionGraph->clear();
        for (const auto& g : m_document->project()->graphs)
            m_partitionGraph->addItem(QString::fromStdString(g.name));
        m_partitionGraph->setCurrentIndex(std::max(0, m_partitionGraph->findText(keep)));
        if (auto run = m_document->run(m_document->currentRun()); run && run->kind == document::RunKind::Partition)
            m_partitionGraph->setCurrentText(QString::fromStdString(run->application));
    }
    refreshBars();
    refreshSkyline();
    refreshMonteCarlo();
    refreshPartitions();
}

void ComparePanel::fitAxesToInput()
{
    // A graph's runs are partitions: WAN dollars against the transfer time of an iteration (Geo-Cut's
    // trade-off); an application's runs are placements: WAN dollars against the mapping cost.
    const bool graph = m_document->project()->graphIndex(m_skyApplication->currentText().toStdString()) >= 0;
    m_paretoSweep->setEnabled(!graph && m_skyApplication->count() > 0);
    const QString y = m_yMetric->currentData().toString();
    const QString wanted = graph ? "transfer_time_s" : "cost_s";
    const QString other = graph ? "cost_s" : "transfer_time_s";
    if ((y == other || y.isEmpty()) && m_yMetric->findData(wanted) >= 0)
        m_yMetric->setCurrentIndex(m_yMetric->findData(wanted));
    // Dollars: an application's runs count egress and instances (`usd`), a graph's the WAN egress. A metric
    // the user chose stays while some run of the input reports it.
    const std::string x = m_xMetric->currentData().toString().toStdString();
    const std::string input = m_skyApplication->currentText().toStdString();
    bool reported = false;
    for (const auto& r : m_document->runs())
        reported = reported || (r->application == input && r->metric(x));
    const QString dollars = graph ? "wan_usd" : "usd";
    if (!reported && m_xMetric->findData(dollars) >= 0)
        m_xMetric->setCurrentIndex(m_xMetric->findData(dollars));
}

void ComparePanel::refreshBaselines()
{
    QSignalBlocker blocker(m_baseline);
    const int keep = m_compareModel->baseline();
    m_baseline->clear();
    for (const auto& r : m_document->runs())
        m_baseline->addItem(QString::fromStdString(r->label()), r->id);
    int index = m_baseline->findData(keep);
    if (index < 0)
        for (int i = 0; i < m_baseline->count() && index < 0; ++i)
            if (m_document->run(m_baseline->itemData(i).toInt())->algorithm == "random")
                index = i;
    m_baseline->setCurrentIndex(std::max(0, index));
    if (m_baseline->currentIndex() >= 0)
        m_compareModel->setBaseline(m_baseline->currentData().toInt());
}

void ComparePanel::refreshBars()
{
    QChart* chart = m_bars->chart();
    clearChart(chart);
    // Mean cost of the current runs of each (application, algorithm), normalised to random's mean.
    std::map<std::string, std::map<std::string, std::pair<double, int>>> sums;
    std::vector<std::string> algorithms;
    for (const auto& r : m_document->runs()) {
        if (m_document->isStale(*r) || !r->metric("cost_s"))
            continue;
        auto& cell = sums[r->application][r->algorithm];
        cell.first += *r->metric("cost_s");
        cell.second += 1;
        if (std::find(algorithms.begin(), algorithms.end(), r->algorithm) == algorithms.end())
            algorithms.push_back(r->algorithm);
    }
    if (sums.empty()) {
        chart->setTitle(tr("Mean traffic cost per application (no current runs yet)"));
        return;
    }
    auto* series = new QBarSeries;
    bool allNormalised = true;
    std::size_t color = 0;
    double top = 0.0;
    for (const auto& [app, byAlgorithm] : sums) {
        const auto random = byAlgorithm.find("random");
        double base = 0.0;
        if (random != byAlgorithm.end())
            base = random->second.first / random->second.second;
        else {
            allNormalised = false;
            for (const auto& [alg, c] : byAlgorithm)
                base = std::max(base, c.first / c.second);
        }
        auto* set = new QBarSet(QString::fromStdString(app));
        set->setColor(seriesColor(color++));
        for (const auto& alg : algorithms) {
            auto it = byAlgorithm.find(alg);
            const double v = it == byAlgorithm.end() || base <= 0 ? 0.0 : it->second.first / it->second.second / base;
            *set << v;
            top = std::max(top, v);
        }
        series->append(set);
    }
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    for (const auto& a : algorithms)
        x->append(QString::fromStdString(a));
    // Round ticks (0, 0.2, 0.4, ...) rather than five even splits of the range (0.26, 0.53, ...).
    // The axis title is short (it runs along the axis); the title says why it is not random's.
    auto* y = niceAxis(0, std::max(1.05, top * 1.05), allNormalised ? tr("cost / random") : tr("cost / worst"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->setTitle(allNormalised ? tr("Mean traffic cost per application, normalised to random")
                                  : tr("Mean traffic cost per application, normalised to the worst mapper's<br>"
                                       "<small>some applications have no random run</small>"));
}

void ComparePanel::updateSkylineNote(const std::string& input, const std::string& xId)
{
    // An application's dollars need every used site's instance price and every egress price; a graph's, the egress.
    const bool graph = m_document->project()->graphIndex(input) >= 0;
    const std::string dollars = graph ? "wan_usd" : "usd";
    bool runs = false, reported = false;
    for (const auto& r : m_document->runs())
        if (r->application == input) {
            runs = true;
            reported = reported || r->metric(dollars).has_value();
        }
    const QString missing = missingPrices(m_document->project()->topology, graph);
    if (!runs || reported || xId == dollars || missing.isEmpty()) {
        m_skyNote->hide();
        return;
    }
    m_skyNote->setText(tr("The x axis shows %1, not the dollars a run costs (%2): %3. Add the prices in the Sites "
                          "table (or a sites file's instance_usd_per_hour and egress_usd_per_GB columns) and run "
                          "again; the skyline then shows dollars against time.")
                           .arg(m_xMetric->currentText().section(" (", 0, 0).toLower(),
                                graph ? tr("WAN egress") : tr("egress and instances"), missing));
    m_skyNote->show();
}

bool ComparePanel::setSkylineAxes(const QString& xMetric, const QString& yMetric)
{
    const int x = m_xMetric->findData(xMetric), y = m_yMetric->findData(yMetric);
    if (x < 0 || y < 0)
        return false;
    m_xMetric->setCurrentIndex(x);
    m_yMetric->setCurrentIndex(y);
    m_xChosen = xMetric;
    m_yChosen = yMetric;
    refreshSkyline();
    return true;
}

std::optional<QPointF> ComparePanel::skylinePoint(int runId) const
{
    for (const auto& [id, p] : m_skyPoints)
        if (id == runId)
            return p;
    return std::nullopt;
}

int ComparePanel::skylineRunAt(const QPointF& value) const
{
    int best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    QChart* chart = m_skyline->chart();
    const auto series = chart->series();
    const QPointF target = series.isEmpty() ? value : chart->mapToPosition(value, series.front());
    for (const auto& [id, p] : m_skyPoints) {
        const QPointF q = series.isEmpty() ? p : chart->mapToPosition(p, series.front());
        const double d = std::hypot(q.x() - target.x(), q.y() - target.y());
        if (d < bestDistance) {
            bestDistance = d;
            best = id;
        }
    }
    return best;
}

namespace {

/// How many different points `which` of `points` are (equal within a millionth: identical runs).
std::size_t distinctPoints(const std::vector<std::pair<double, double>>& points, const std::vector<std::size_t>& which)
{
    const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-6 * std::max(std::abs(a), std::abs(b)); };
    std::vector<std::pair<double, double>> seen;
    for (std::size_t k : which) {
        const auto& p = points[k];
        if (std::none_of(seen.begin(), seen.end(),
                         [&](const auto& q) { return near(p.first, q.first) && near(p.second, q.second); }))
            seen.push_back(p);
    }
    return seen.size();
}

/// The skyline's two axis units: bytes in KB, MB, GB or TB by the largest value of the input's runs that have both
/// metrics, so the ticks read as numbers a person says.
template <typename Runs>
std::pair<AxisUnit, AxisUnit> skylineUnits(const Runs& runs, const std::string& app, const std::string& xId,
                                           const std::string& yId)
{
    document::RunMetric xMetric, yMetric;
    double largestX = 0.0, largestY = 0.0;
    for (const auto& r : runs)
        if (r->application == app && r->metric(xId) && r->metric(yId))
            for (const auto& m : r->metrics) {
                if (m.id == xId) {
                    xMetric = m;
                    largestX = std::max(largestX, std::abs(m.value));
                }
                if (m.id == yId) {
                    yMetric = m;
                    largestY = std::max(largestY, std::abs(m.value));
                }
            }
    return {axisUnit(xMetric, largestX), axisUnit(yMetric, largestY)};
}

} // namespace

void ComparePanel::refreshSkyline()
{
    QChart* chart = m_skyline->chart();
    clearChart(chart);
    m_skyPoints.clear();
    m_front.clear();
    m_skyFrontPoints = 0;
    const std::string xId = m_xMetric->currentData().toString().toStdString();
    const std::string yId = m_yMetric->currentData().toString().toStdString();
    const std::string app = m_skyApplication->currentText().toStdString();
    updateSkylineNote(app, xId);
    if (xId.empty() || yId.empty()) {
        chart->setTitle(tr("Cost/time skyline (no runs yet)"));
        return;
    }
    std::map<std::string, QScatterSeries*> byAlgorithm;
    auto* stale = new QScatterSeries;
    stale->setName(tr("stale runs"));
    stale->setColor(QColor(190, 190, 190));
    stale->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    stale->setMarkerSize(10);
    std::vector<std::pair<double, double>> points;
    std::vector<int> ids;
    QPointF selected;
    bool hasSelected = false;
    double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = -minX;
    const auto [xUnit, yUnit] = skylineUnits(m_document->runs(), app, xId, yId);
    for (const auto& r : m_document->runs()) {
        if (r->application != app)
            continue;
        auto x = r->metric(xId), y = r->metric(yId);
        if (!x || !y)
            continue;
        *x /= xUnit.divisor;
        *y /= yUnit.divisor;
        const QPointF p(*x, *y);
        minX = std::min(minX, *x);
        maxX = std::max(maxX, *x);
        minY = std::min(minY, *y);
        maxY = std::max(maxY, *y);
        m_skyPoints.emplace_back(r->id, p);
        if (r->id == m_document->currentRun()) {
            selected = p;
            hasSelected = true;
        }
        if (m_document->isStale(*r)) {
            stale->append(p);
            continue;
        }
        points.emplace_back(*x, *y);
        ids.push_back(r->id);
        // refine's dollar and weighted objectives (a Pareto sweep's runs) are a series of their own.
        std::string series = r->algorithm;
        if (r->params.contains("objective") && r->params.choice("objective") != "time")
            series += " (" + r->params.choice("objective") + ")";
        auto& s = byAlgorithm[series];
        if (!s) {
            s = new QScatterSeries;
            s->setName(QString::fromStdString(series));
            s->setMarkerSize(11);
        }
        s->append(p);
    }
    std::size_t color = 0;
    std::vector<QXYSeries*> all;
    for (auto& [name, s] : byAlgorithm) {
        s->setColor(seriesColor(color++));
        s->setBorderColor(Qt::white);
        all.push_back(s);
    }
    if (stale->count() > 0)
        all.push_back(stale);
    else
        delete stale;
    const auto front = cost::paretoFront(points);
    for (std::size_t k : front)
        m_front.push_back(ids[k]);
    if (!front.empty())
        all.insert(all.begin(), frontStaircase(points, front));
    if (hasSelected)
        all.push_back(selectionRing(selected));
    if (all.empty()) {
        chart->setTitle(tr("Cost/time skyline (no runs of %1 report both metrics)").arg(QString::fromStdString(app)));
        return;
    }
    const auto [xAxis, yAxis] = paddedAxes(QRectF(QPointF(minX, minY), QPointF(maxX, maxY)), xUnit.title, yUnit.title);
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);
    for (auto* s : all) {
        chart->addSeries(s);
        s->attachAxis(xAxis);
        s->attachAxis(yAxis);
        if (auto* scatter = qobject_cast<QScatterSeries*>(s))
            connect(scatter, &QScatterSeries::clicked, this, [this](const QPointF& p) {
                const int id = skylineRunAt(p);
                if (id >= 0)
                    m_document->setCurrentRun(id);
            });
    }
    m_skyFrontPoints = distinctPoints(points, front);
    std::vector<std::size_t> every(points.size());
    std::iota(every.begin(), every.end(), std::size_t(0));
    // Runs with equal values are drawn on top of one another: the title says how many points there are. The second,
    // smaller line keeps the first short enough for a long application name.
    const std::size_t shown = distinctPoints(points, every);
    QString title = tr("Skyline of %1: %2 runs, %3 on the Pareto front")
                        .arg(QString::fromStdString(app))
                        .arg(m_skyPoints.size())
                        .arg(m_front.size());
    title += shown == points.size() ? tr("<br><small>lower left is better</small>")
        : shown == 1
        ? tr("<br><small>lower left is better; one point: the runs' values are equal</small>")
        : tr("<br><small>lower left is better; %1 points: runs with equal values hide each other</small>").arg(shown);
    chart->setTitle(title);
}

void ComparePanel::addReportFigures(report::Figures& figures, const QSize& size, double minimumTextPoints)
{
    const QString keepInput = m_skyApplication->currentText();
    const int keepMc = m_mcRun->currentIndex(), keepGraph = m_partitionGraph->currentIndex();
    const auto& runs = m_document->runs();
    for (int i = 0; i < m_skyApplication->count(); ++i) {
        const std::string input = m_skyApplication->itemText(i).toStdString();
        if (std::none_of(runs.begin(), runs.end(), [&](const auto& r) { return r->application == input; }))
            continue;
        m_skyApplication->setCurrentIndex(i);
        refreshSkyline();
        figures["skyline:" + m_skyApplication->itemText(i)] = {
            (m_skyFrontPoints > 1 ? tr("%1: %2 against %3 for each run, with the Pareto front (dashed).")
                                  : tr("%1: %2 against %3 for each run; one point is best on both."))
                .arg(m_skyApplication->itemText(i), m_yMetric->currentText(), m_xMetric->currentText()),
            chartSvg(m_skyline, size, minimumTextPoints)};
    }
    for (int i = 0; i < m_mcRun->count(); ++i) {
        const int id = m_mcRun->itemData(i).toInt();
        if (const auto run = m_document->run(id); !run || !document::samplesDiffer(*run))
            continue; // a single point: the report says so in words
        m_mcRun->setCurrentIndex(i);
        refreshMonteCarlo();
        figures[QString("cdf:%1").arg(id)] = {
            tr("Monte Carlo: the share of %1's sampled placements at or below each cost; dashed lines mark the "
               "other mappers' best runs.")
                .arg(m_mcRun->itemText(i)),
            chartSvg(m_cdf, size, minimumTextPoints)};
        figures[QString("best-of-k:%1").arg(id)] = {
            tr("Monte Carlo: the best cost among K sampled placements of %1, against K.").arg(m_mcRun->itemText(i)),
            chartSvg(m_bestOfK, size, minimumTextPoints)};
    }
    if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r->kind == document::RunKind::Mapping; }))
        figures["bars"] = {
            tr("Mean traffic cost (SC17 eq. 3) of each algorithm's current runs, per application, over random's."),
            chartSvg(m_bars, size, minimumTextPoints)};
    for (int i = 0; i < m_partitionGraph->count(); ++i) {
        const std::string graph = m_partitionGraph->itemText(i).toStdString();
        if (std::none_of(runs.begin(), runs.end(), [&](const auto& r) {
                return r->kind == document::RunKind::Partition && r->application == graph;
            }))
            continue;
        m_partitionGraph->setCurrentIndex(i);
        refreshPartitions();
        figures["partitions:" + m_partitionGraph->itemText(i)] = {
            tr("%1: each partitioner's transfer time and WAN cost.").arg(m_partitionGraph->itemText(i)),
            chartSvg(m_partitionBars, size, minimumTextPoints)};
    }
    m_skyApplication->setCurrentText(keepInput);
    refreshSkyline();
    m_mcRun->setCurrentIndex(keepMc);
    refreshMonteCarlo();
    m_partitionGraph->setCurrentIndex(keepGraph);
    refreshPartitions();
}

void ComparePanel::refreshMonteCarlo()
{
    const auto run = m_document->run(m_mcRun->currentData().toInt());
    // Every other mapper's best current cost on the same application, marked on both charts.
    std::map<std::string, double> others;
    if (run)
        for (const auto& r : m_document->runs())
            if (r->application == run->application && r->id != run->id && !m_document->isStale(*r)
                && r->metric("cost_s")) {
                auto [it, inserted] = others.emplace(r->algorithm, *r->metric("cost_s"));
                if (!inserted)
                    it->second = std::min(it->second, *r->metric("cost_s"));
            }
    fillMonteCarloCharts(m_cdf->chart(), m_bestOfK->chart(), run.get(), others);
}

void ComparePanel::setSweep(ops::SweepKind kind, const QString& points, int seeds)
{
    m_sweepKind->setCurrentIndex(m_sweepKind->findData(int(kind)));
    m_sweepPoints->setText(points);
    m_sweepSeeds->setValue(seeds);
}

int ComparePanel::startParetoSweep()
{
    const std::string input = m_skyApplication->currentText().toStdString();
    if (m_document->project()->applicationIndex(input) < 0) {
        Q_EMIT errorOccurred(tr("Pareto sweep"), tr("A Pareto sweep maps an application; choose one as the input."));
        return -1;
    }
    return m_controller->startParetoSweep(input, m_paretoPoints->value());
}

int ComparePanel::startSweep()
{
    auto request = m_controller->sweepRequest();
    request.kind = ops::SweepKind(m_sweepKind->currentData().toInt());
    request.application = m_sweepApplication->currentText().toStdString();
    request.pattern = m_sweepPattern->currentText().toStdString();
    request.seeds = m_sweepSeeds->value();
    request.mappers = m_mapperProvider();
    std::erase_if(request.mappers, [](const auto& m) { return m.first == "random"; });
    auto points = ops::parseSweepPoints(request.kind, m_sweepPoints->text().toStdString());
    if (!points && m_sweepPoints->text().trimmed().isEmpty())
        points = std::vector<double>();
    if (!points) {
        Q_EMIT errorOccurred(tr("The sweep was not started"), QString::fromStdString(points.error().message) + ".");
        return -1;
    }
    request.points = std::move(*points);
    if (request.points.empty() || request.mappers.empty()) {
        Q_EMIT errorOccurred(
            tr("The sweep was not started"),
            tr("Give at least one point and tick at least one mapper other than random in the run panel."));
        return -1;
    }
    return m_controller->startSweep(std::move(request));
}

void ComparePanel::showSweep(const ops::SweepResult& result)
{
    m_sweep = result;
    m_tabs->setCurrentIndex(SweepsTab);
    refreshSweepChart();
}

void ComparePanel::refreshSweepChart()
{
    fillSweepChart(m_sweepChart->chart(), m_sweep ? &*m_sweep : nullptr, m_sweepMetric->currentIndex() == 1);
}

} // namespace meridian::workbench
