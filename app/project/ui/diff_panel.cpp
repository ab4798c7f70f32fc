#include "app/project/ui/diff_panel.h"

#include "widgets/heatmap_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace meridian::workbench {

DiffPanel::DiffPanel(document::ProjectDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_a = new QComboBox(this);
    m_b = new QComboBox(this);
    m_a->setObjectName("diffA");
    m_b->setObjectName("diffB");
    bar->addWidget(new QLabel(tr("Run A:"), this));
    bar->addWidget(m_a, 1);
    bar->addWidget(new QLabel(tr("Run B:"), this));
    bar->addWidget(m_b, 1);
    layout->addLayout(bar);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    auto* split = new QSplitter(Qt::Horizontal, this);
    m_table = new QTableWidget(split);
    m_table->setColumnCount(5);
    m_table->setHorizontalHeaderLabels(
        {tr("Process"), tr("Site in A"), tr("Host in A"), tr("Site in B"), tr("Host in B")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_heatmap = new widgets::HeatmapView(split);
    split->addWidget(m_table);
    split->addWidget(m_heatmap);
    split->setStretchFactor(1, 2);
    split->setSizes({430, 800});
    layout->addWidget(split, 1);
    connect(m_a, &QComboBox::currentIndexChanged, this, &DiffPanel::update);
    // A pair the user picked stays while both runs exist; until then the panel follows the newest runs.
    for (auto* combo : {m_a, m_b})
        connect(combo, &QComboBox::activated, this, [this] { m_userChose = true; });
    connect(m_b, &QComboBox::currentIndexChanged, this, &DiffPanel::update);
    connect(m_document, &document::ProjectDocument::runsChanged, this, &DiffPanel::refreshChoices);
    refreshChoices();
}

std::pair<int, int> DiffPanel::latestPair() const
{
    const auto& runs = m_document->runs();
    for (auto newer = runs.rbegin(); newer != runs.rend(); ++newer) {
        if ((*newer)->kind != document::RunKind::Mapping)
            continue;
        for (auto older = std::next(newer); older != runs.rend(); ++older)
            if ((*older)->kind == document::RunKind::Mapping && (*older)->application == (*newer)->application)
                return {(*older)->id, (*newer)->id};
    }
    return {-1, -1};
}

void DiffPanel::refreshChoices()
{
    const int keepA = m_a->currentData().toInt(), keepB = m_b->currentData().toInt();
    {
        QSignalBlocker ba(m_a), bb(m_b);
        m_a->clear();
        m_b->clear();
        for (const auto& r : m_document->runs()) {
            m_a->addItem(QString::fromStdString(r->label()), r->id);
            m_b->addItem(QString::fromStdString(r->label()), r->id);
        }
        int a = m_a->findData(keepA), b = m_b->findData(keepB);
        if (!m_userChose || a < 0 || b < 0 || a == b) {
            // By default the two most recent mapping runs of one application: the older as A, the newer as B.
            const auto [older, newer] = latestPair();
            a = m_a->findData(older);
            b = m_b->findData(newer);
        }
        m_a->setCurrentIndex(std::max(0, a));
        m_b->setCurrentIndex(b >= 0 ? b : std::min(1, m_b->count() - 1));
    }
    update();
}

bool DiffPanel::showDiff(int runA, int runB)
{
    const int a = m_a->findData(runA), b = m_b->findData(runB);
    if (a < 0 || b < 0)
        return false;
    m_userChose = true;
    {
        QSignalBlocker ba(m_a), bb(m_b);
        m_a->setCurrentIndex(a);
        m_b->setCurrentIndex(b);
    }
    update();
    const auto ra = m_document->run(runA), rb = m_document->run(runB);
    return ra && rb && ra->application == rb->application;
}

void DiffPanel::update()
{
    m_moved = 0;
    m_table->setRowCount(0);
    const auto a = m_document->run(m_a->currentData().toInt());
    const auto b = m_document->run(m_b->currentData().toInt());
    if (!a || !b) {
        m_summary->setText(tr("Select two runs of the same application."));
        m_heatmap->setData({});
        return;
    }
    if (a->kind == document::RunKind::Partition || b->kind == document::RunKind::Partition) {
        m_summary->setText(tr("Diff compares the placements of two mapping runs; compare partition runs in the "
                              "Compare tab (skyline and table)."));
        m_heatmap->setData({});
        return;
    }
    if (a->application != b->application || a->placement.processCount() != b->placement.processCount()) {
        m_summary->setText(
            tr("Run %1 maps %2 and run %3 maps %4: placements of different applications cannot be compared.")
                .arg(a->id)
                .arg(QString::fromStdString(a->application))
                .arg(b->id)
                .arg(QString::fromStdString(b->application)));
        m_heatmap->setData({});
        return;
    }
    const auto project = m_document->project();
    const auto& topology = project->topology;
    auto siteName = [&](int s) {
        return s >= 0 && s < topology.siteCount() ? QString::fromStdString(topology.site(s).name) : QString("?");
    };
    auto hostName = [&](int h) {
        return h >= 0 && h < topology.hostCount() ? QString::fromStdString(topology.host(h).name) : QString("\u2014");
    };
    const auto& pa = a->placement;
    const auto& pb = b->placement;
    // hasHosts() reads every process: asked once, not per process (65,536 processes took seconds).
    const bool hostsA = pa.hasHosts();
    const bool hostsB = pb.hasHosts();
    int sitesChanged = 0;
    std::vector<int> moved;
    for (int i = 0; i < pa.processCount(); ++i) {
        const bool siteMoved = pa.site[i] != pb.site[i];
        const bool hostMoved = hostsA && hostsB && pa.host[i] != pb.host[i];
        if (siteMoved || hostMoved)
            moved.push_back(i);
        sitesChanged += siteMoved;
    }
    m_moved = static_cast<int>(moved.size());
    // A table of 8192 rows is fine for QTableWidget, but cap what is listed to keep it responsive.
    const int listed = std::min<int>(m_moved, 5000);
    m_table->setRowCount(listed);
    for (int k = 0; k < listed; ++k) {
        const int i = moved[k];
        const QStringList cells{QString::number(i), siteName(pa.site[i]),
                                hostsA ? hostName(pa.host[i]) : QString("\u2014"), siteName(pb.site[i]),
                                hostsB ? hostName(pb.host[i]) : QString("\u2014")};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(k, c, new QTableWidgetItem(cells[c]));
    }
    const double costA = a->metric("cost_s").value_or(0.0), costB = b->metric("cost_s").value_or(0.0);
    m_summary->setText(tr("<b>%1</b> of %2 processes moved (%3 to another site)%4. Cost %5 \u2192 %6 (%7%).")
                           .arg(m_moved)
                           .arg(pa.processCount())
                           .arg(sitesChanged)
                           .arg(listed < m_moved ? tr(", the first %1 listed").arg(listed) : QString())
                           .arg(widgets::formatValue(costA, "s"), widgets::formatValue(costB, "s"))
                           .arg(costA > 0 ? 100.0 * (costB - costA) / costA : 0.0, 0, 'f', 1));
    widgets::HeatmapData data;
    data.title = tr("Traffic change between sites, run %1 \u2212 run %2").arg(b->id).arg(a->id);
    data.unit = "bytes";
    if (a->trafficBytes.rows() == b->trafficBytes.rows() && a->trafficBytes.rows() == topology.siteCount())
        data.dense = b->trafficBytes - a->trafficBytes;
    for (const auto& s : topology.sites())
        data.rowLabels << QString::fromStdString(s.name);
    data.columnLabels = data.rowLabels;
    data.rowAxis = tr("from site");
    data.columnAxis = tr("to site");
    m_heatmap->setData(std::move(data));
}

} // namespace meridian::workbench
