#include "app/collectives/ui/collectives_panel.h"
#include "widgets/file_dialogs.h"

#include "app/collectives/collective_input.h"
#include "app/jobs/job_runner.h"
#include "app/report/compare_charts.h"
#include "core/io/text_file.h"
#include "widgets/world_map_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>
#include <map>

namespace meridian::workbench {

using namespace collectives;

namespace {

constexpr double kSweepMin = ops::kCollectiveSweepMin;
constexpr double kSweepMax = ops::kCollectiveSweepMax;

QString bytesText(double bytes)
{
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    return QString("%1 %2").arg(bytes, 0, 'g', 4).arg(units[u]);
}

QString secondsText(double s)
{
    if (s < 1e-3)
        return QString("%1 µs").arg(s * 1e6, 0, 'g', 3);
    if (s < 1.0)
        return QString("%1 ms").arg(s * 1e3, 0, 'g', 3);
    return QString("%1 s").arg(s, 0, 'g', 4);
}

/// The colour of an algorithm, the same in every chart and in the band; the algorithms of one operation never share
/// one (the palette has eight).
QColor algorithmColor(Algorithm a)
{
    switch (a) {
    case Algorithm::Flat:
        return seriesColor(0);
    case Algorithm::Mst:
        return seriesColor(1);
    case Algorithm::Bucket:
    case Algorithm::Ring:
        return seriesColor(2);
    case Algorithm::Chain:
    case Algorithm::RecursiveDoubling:
        return seriesColor(3);
    case Algorithm::TopologyChain:
        return seriesColor(4);
    case Algorithm::Rabenseifner:
        return seriesColor(5);
    case Algorithm::Hierarchical:
        return seriesColor(6);
    case Algorithm::Hypercube:
        return seriesColor(7);
    }
    return seriesColor(0);
}

QLogValueAxis* logAxis(double low, double high, int base, const QString& format, const QString& title)
{
    auto* axis = new QLogValueAxis;
    axis->setBase(base);
    axis->setRange(low, high);
    axis->setLabelFormat(format);
    axis->setTitleText(title);
    return axis;
}

QString rulesToolTip()
{
    return QCoreApplication::translate("meridian::workbench::CollectivesPanel",
                                       "A coll_tuned dynamic rules file naming, per message size, the fastest "
                                       "algorithm Open MPI has: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
                                       "coll_tuned_dynamic_rules_filename FILE");
}

} // namespace

/// The fastest algorithm per message size, as coloured spans under the size chart's plot area (log scale).
class BandStrip : public QWidget {
public:
    BandStrip(QChartView* chart, QWidget* parent)
        : QWidget(parent)
        , m_chart(chart)
    {
        setFixedHeight(30);
    }

    void setBands(std::vector<SizeBand> bands)
    {
        m_bands = std::move(bands);
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        const QRectF plot = m_chart->chart()->plotArea();
        const double left = plot.left();
        const double width = plot.width();
        const auto x = [&](double bytes) {
            return left
                + width * (std::log2(bytes) - std::log2(kSweepMin)) / (std::log2(kSweepMax) - std::log2(kSweepMin));
        };
        for (std::size_t i = 0; i < m_bands.size(); ++i) {
            const SizeBand& b = m_bands[i];
            // A band reaches halfway (in log) to the next one's first size.
            const double from = i == 0 ? kSweepMin : std::sqrt(m_bands[i - 1].toBytes * b.fromBytes);
            const double to = i + 1 == m_bands.size() ? kSweepMax : std::sqrt(b.toBytes * m_bands[i + 1].fromBytes);
            const QRectF r(x(from), 2, x(to) - x(from), height() - 4);
            p.fillRect(r, algorithmColor(b.algorithm));
            p.setPen(Qt::white);
            p.drawText(r, Qt::AlignCenter,
                       p.fontMetrics().elidedText(algorithmId(b.algorithm), Qt::ElideRight,
                                                  static_cast<int>(r.width())));
        }
    }

private:
    QChartView* m_chart;
    std::vector<SizeBand> m_bands;
};

CollectivesPanel::CollectivesPanel(document::ProjectDocument* document, jobs::JobRunner* runner, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_runner(runner)
{
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Operation:"), this));
    m_operation = new QComboBox(this);
    for (Operation op : allOperations())
        m_operation->addItem(operationId(op), static_cast<int>(op));
    bar->addWidget(m_operation);
    bar->addWidget(new QLabel(tr("Root:"), this));
    m_root = new QSpinBox(this);
    m_root->setRange(0, 0);
    bar->addWidget(m_root);
    bar->addWidget(new QLabel(tr("Size:"), this));
    m_size = new QLineEdit("64 MiB", this);
    m_size->setToolTip(tr("Bytes, or with KB, MB, GB (10^3) or KiB, MiB, GiB (2^10): the buffer of a broadcast, "
                          "reduce or allreduce; the whole buffer of a scatter, gather or allgather; each process's "
                          "send buffer of an all-to-all; one map task's output of a shuffle."));
    m_size->setMaximumWidth(110);
    bar->addWidget(m_size);
    bar->addWidget(new QLabel(tr("Model:"), this));
    m_model = new QComboBox(this);
    m_model->addItem(tr("network"), static_cast<int>(CostModel::Network));
    m_model->addItem(tr("twister (Eq. 1-3)"), static_cast<int>(CostModel::Twister));
    m_model->setToolTip(tr("network: each algorithm's schedule message by message on the project's network, "
                           "concurrent messages sharing node interfaces, uplinks and site-pair links. twister: "
                           "Twister's broadcast equations for one uniform link (the slowest the processes use)."));
    bar->addWidget(m_model);
    bar->addStretch();
    m_exportChart = new QPushButton(tr("Export chart…"), this);
    m_exportRules = new QPushButton(tr("Export Open MPI rules…"), this);
    m_exportRules->setToolTip(rulesToolTip());
    bar->addWidget(m_exportChart);
    bar->addWidget(m_exportRules);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // The two charts in tabs rather than stacked: each gets the panel's whole height, which a 1280 x 800 window
    // cannot give two charts and keep their axes and legends legible.
    m_charts = new QTabWidget(this);
    m_charts->setObjectName("collectiveCharts");
    auto* bySize = new QWidget(m_charts);
    auto* sizeLayout = new QVBoxLayout(bySize);
    sizeLayout->setContentsMargins(0, 0, 0, 0);
    sizeLayout->setSpacing(0);
    m_sizeChart = makeChartView(bySize, tr("Time against message size"));
    m_bands = new BandStrip(m_sizeChart, bySize);
    m_bands->setToolTip(tr("The fastest algorithm at each message size"));
    sizeLayout->addWidget(m_sizeChart, 1);
    sizeLayout->addWidget(m_bands);
    m_countChart = makeChartView(m_charts, tr("Time against process count"));
    // The legend beside the plot, one algorithm a line: below it, six names are cut short.
    for (auto* view : {m_sizeChart, m_countChart})
        view->chart()->legend()->setAlignment(Qt::AlignRight);
    m_charts->addTab(bySize, tr("By message size"));
    m_charts->addTab(m_countChart, tr("By process count"));
    m_map = new widgets::WorldMapView(this);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_charts);
    split->addWidget(m_map);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400}); // proportions until the splitter is first shown

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);

    connect(m_operation, &QComboBox::currentIndexChanged, this, &CollectivesPanel::replan);
    connect(m_model, &QComboBox::currentIndexChanged, this, &CollectivesPanel::replan);
    connect(m_root, &QSpinBox::valueChanged, this, &CollectivesPanel::replan);
    connect(m_size, &QLineEdit::editingFinished, this, &CollectivesPanel::replan);
    connect(m_document, &document::ProjectDocument::currentRunChanged, this, &CollectivesPanel::replan);
    connect(m_document, &document::ProjectDocument::projectChanged, this, &CollectivesPanel::replan);
    connect(m_exportRules, &QPushButton::clicked, this, [this] {
        const QString path = widgets::saveFileName(this, tr("Export Open MPI rules"), "coll_tuned.rules");
        if (path.isEmpty())
            return;
        if (const QString error = exportRules(path); !error.isEmpty())
            Q_EMIT errorOccurred(tr("Export Open MPI rules"), error);
    });
    connect(m_exportChart, &QPushButton::clicked, this, [this] {
        const QString path = widgets::saveFileName(this, tr("Export chart"), "collectives.png", "PNG (*.png)");
        if (path.isEmpty())
            return;
        if (const QString error = exportChart(path); !error.isEmpty())
            Q_EMIT errorOccurred(tr("Export chart"), error);
    });
    clear(tr("Select a mapping run in Runs to plan its collectives."));
}

CollectivesPanel::~CollectivesPanel()
{
    // A job still under way must not land on a deleted panel: a canceled job's completion never runs.
    if (m_job >= 0 && m_runner)
        m_runner->cancel(m_job);
}

void CollectivesPanel::clear(const QString& why)
{
    m_plan.reset();
    m_summary->setText(why);
    clearChart(m_sizeChart->chart());
    clearChart(m_countChart->chart());
    m_bands->setBands({});
    m_map->setLinks({}, {}, {});
    m_exportRules->setEnabled(false);
    m_exportChart->setEnabled(false);
    Q_EMIT planChanged();
}

void CollectivesPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        replan();
}

void CollectivesPanel::replan()
{
    ++m_generation;
    if (m_job >= 0 && m_runner)
        m_runner->cancel(m_job);
    m_job = -1;
    // Planning costs seconds on large runs: a hidden panel plans when it is shown.
    m_stale = !isVisible();
    if (m_stale || !m_runner)
        return;
    const auto project = m_document->project();
    QVector<widgets::MapSite> sites;
    for (const auto& s : project->topology.sites())
        sites.push_back({QString::fromStdString(s.name), s.latitude, s.longitude, {}, {}});
    m_map->setSites(sites);
    const auto run = m_document->run(m_document->currentRun());
    if (!run || run->kind != document::RunKind::Mapping) {
        clear(tr("Select a mapping run in Runs to plan its collectives."));
        return;
    }
    auto placement = model::withHosts(run->placement, project->topology);
    if (!placement) {
        clear(tr("Run #%1 cannot be planned: %2").arg(run->id).arg(QString::fromStdString(placement.error().message)));
        return;
    }
    CollectivePlan input;
    input.run = run->id;
    input.layout = ops::layoutOf(*placement);
    m_root->blockSignals(true);
    m_root->setMaximum(std::max(0, input.layout.processes() - 1));
    m_root->blockSignals(false);
    input.request.operation = static_cast<Operation>(m_operation->currentData().toInt());
    input.request.model = static_cast<CostModel>(m_model->currentData().toInt());
    input.request.root = m_root->value();
    auto bytes = ops::parseByteSize(m_size->text().toStdString(), "the size");
    if (!bytes) {
        clear(QString::fromStdString(bytes.error().message));
        return;
    }
    input.request.bytes = *bytes;
    m_summary->setText(tr("Planning %1 for run #%2…").arg(operationId(input.request.operation)).arg(run->id));
    const int generation = m_generation;
    const QString title = tr("Collectives: %1 on run #%2").arg(operationId(input.request.operation)).arg(run->id);
    auto network = std::make_shared<model::Network>(m_document->completeNetwork());
    auto work = [input, project, network](const Feedback& feedback) {
        return ops::planCollective(input, project->topology, *network, feedback);
    };
    m_job = m_runner->start<std::shared_ptr<const CollectivePlan>>(
        title, work, [this, generation](Expected<std::shared_ptr<const CollectivePlan>> out) {
            if (generation != m_generation)
                return;
            m_job = -1;
            if (!out) {
                clear(QString::fromStdString(out.error().message));
                return;
            }
            display(std::move(*out));
        });
}

void CollectivesPanel::display(std::shared_ptr<const CollectivePlan> plan)
{
    m_plan = std::move(plan);
    fillSizeChart();
    fillCountChart();
    fillMap();
    m_summary->setText(describe());
    const bool tuned = tunedOperation(m_plan->request.operation).has_value();
    m_exportRules->setEnabled(tuned);
    m_exportRules->setToolTip(tuned ? rulesToolTip() : tr("Open MPI's coll_tuned has no shuffle"));
    m_exportChart->setEnabled(true);
    Q_EMIT planChanged();
}

void CollectivesPanel::fillSizeChart()
{
    QChart* chart = m_sizeChart->chart();
    clearChart(chart);
    const auto& sweep = m_plan->sweep;
    double low = std::numeric_limits<double>::infinity(), high = 0.0;
    std::map<Algorithm, QLineSeries*> series;
    for (std::size_t i = 0; i < sweep.sizes.size(); ++i)
        for (const AlgorithmTime& t : sweep.rankings[i].results) {
            auto*& s = series[t.algorithm];
            if (!s) {
                s = new QLineSeries;
                s->setName(algorithmId(t.algorithm));
                s->setColor(algorithmColor(t.algorithm));
            }
            s->append(sweep.sizes[i], t.seconds);
            low = std::min(low, t.seconds);
            high = std::max(high, t.seconds);
        }
    // Ticks every hundredfold: every tenfold crowds the labels into each other on a narrow chart.
    auto* x = logAxis(kSweepMin, kSweepMax, 100, "%.0e", tr("size (bytes)"));
    auto* y = logAxis(low / 2, high * 2, 10, "%.0e", tr("time (s)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto& [a, s] : series) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    chart->setTitle(
        tr("%1 on run #%2: time against message size").arg(operationId(m_plan->request.operation)).arg(m_plan->run));
    m_bands->setBands(sweep.bands);
}

void CollectivesPanel::fillCountChart()
{
    QChart* chart = m_countChart->chart();
    clearChart(chart);
    double low = std::numeric_limits<double>::infinity(), high = 0.0;
    std::map<Algorithm, QLineSeries*> series;
    for (const auto& [count, ranking] : m_plan->byCount)
        for (const AlgorithmTime& t : ranking.results) {
            auto*& s = series[t.algorithm];
            if (!s) {
                s = new QLineSeries;
                s->setName(algorithmId(t.algorithm));
                s->setColor(algorithmColor(t.algorithm));
            }
            s->append(count, t.seconds);
            low = std::min(low, t.seconds);
            high = std::max(high, t.seconds);
        }
    if (series.empty())
        return;
    auto* x = logAxis(1.5, m_plan->byCount.back().first * 1.5, 2, "%.0f", tr("processes (the run's first k)"));
    auto* y = logAxis(low / 2, high * 2, 10, "%.0e", tr("time (s)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto& [a, s] : series) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    chart->setTitle(tr("At %1: time against process count").arg(bytesText(m_plan->request.bytes)));
}

void CollectivesPanel::fillMap()
{
    const auto project = m_document->project();
    const auto& topology = project->topology;
    QVector<widgets::MapSite> sites;
    std::vector<int> processes(static_cast<std::size_t>(topology.siteCount()), 0);
    for (int s : m_plan->layout.site)
        ++processes[static_cast<std::size_t>(s)];
    for (int s = 0; s < topology.siteCount(); ++s) {
        const auto& site = topology.site(s);
        const int n = processes[static_cast<std::size_t>(s)];
        sites.push_back({QString::fromStdString(site.name), site.latitude, site.longitude,
                         tr("%1 of the run's processes").arg(n), n > 0 ? tr("%1 proc.").arg(n) : QString()});
    }
    m_map->setSites(sites);
    // The fastest algorithm's messages between sites, summed per site pair.
    std::map<std::pair<int, int>, std::pair<double, int>> pairs;
    for (const Message& m : m_plan->bestSchedule.messages) {
        const int a = m_plan->layout.site[static_cast<std::size_t>(m.from)];
        const int b = m_plan->layout.site[static_cast<std::size_t>(m.to)];
        if (a == b)
            continue;
        auto& [bytes, count] = pairs[{a, b}];
        bytes += m.bytes;
        ++count;
    }
    const QString algorithm = algorithmId(m_plan->atSize.results.front().algorithm);
    QVector<widgets::MapLink> links;
    for (const auto& [pair, value] : pairs)
        links.push_back({pair.first, pair.second, value.first / 1e6,
                         tr("%1: %2 in %3 messages from %4 to %5")
                             .arg(algorithm, bytesText(value.first))
                             .arg(value.second)
                             .arg(QString::fromStdString(topology.site(pair.first).name),
                                  QString::fromStdString(topology.site(pair.second).name))});
    m_map->setLinks(links, tr("%1 sends (MB)").arg(algorithm), tr("MB"));
    m_map->fitToSites();
}

QString CollectivesPanel::describe() const
{
    const auto& p = *m_plan;
    const AlgorithmTime& best = p.atSize.results.front();
    QString text = tr("Run #%1, %2 processes. At %3 the fastest %4 is <b>%5</b>: %6")
                       .arg(p.run)
                       .arg(p.layout.processes())
                       .arg(bytesText(p.request.bytes), operationId(p.request.operation), algorithmId(best.algorithm),
                            secondsText(best.seconds));
    if (best.chunks > 1)
        text += tr(" in %1 chunks").arg(best.chunks);
    text += tr(", %1 across sites").arg(bytesText(best.crossSiteBytes));
    if (p.atSize.results.size() > 1) {
        const AlgorithmTime& next = p.atSize.results[1];
        text += tr("; next %1 (%2, %3 across sites)")
                    .arg(algorithmId(next.algorithm), secondsText(next.seconds), bytesText(next.crossSiteBytes));
    }
    text += tr(". Fastest by size: ");
    QStringList bands;
    for (const SizeBand& b : p.sweep.bands)
        bands << tr("%1–%2 %3").arg(bytesText(b.fromBytes), bytesText(b.toBytes), algorithmId(b.algorithm));
    text += bands.join(" · ") + ".";
    for (const Skipped& s : p.atSize.skipped)
        text += tr("<br>%1 left out: %2").arg(algorithmId(s.algorithm), QString::fromStdString(s.reason));
    for (const std::string& n : p.atSize.notes)
        text += "<br>" + QString::fromStdString(n);
    return text;
}

QString CollectivesPanel::exportRules(const QString& path)
{
    if (!m_plan)
        return tr("nothing is planned yet: select a mapping run");
    if (auto written = ops::writeTunedRules(path.toStdString(), m_plan->request.operation, m_plan->sweep,
                                            m_plan->layout.processes());
        !written)
        return QString::fromStdString(written.error().toString());
    return {};
}

QString CollectivesPanel::exportChart(const QString& path)
{
    if (!m_plan)
        return tr("nothing is planned yet: select a mapping run");
    if (!m_charts->currentWidget()->grab().save(path, "PNG"))
        return tr("could not write %1").arg(path);
    return {};
}

} // namespace meridian::workbench
