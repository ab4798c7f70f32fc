#include "app/partitioning/ui/partition_charts.h"

#include "app/report/compare_charts.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <map>

namespace meridian::workbench {

namespace {

void addAxes(QChart* chart, QAbstractBarSeries* series, const QStringList& categories, double top, const QString& title)
{
    chart->addSeries(series);
    auto* x = new QBarCategoryAxis;
    x->append(categories);
    auto* y = new QValueAxis;
    y->setRange(0, top * 1.1);
    y->applyNiceNumbers();
    y->setTitleText(title);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
}

} // namespace

void fillPartitionBars(QChart* chart, const document::ProjectDocument& document, const std::string& graph)
{
    clearChart(chart);
    // algorithm -> sum of transfer time, sum of WAN cost, count; in the order the runs were made
    std::vector<std::pair<std::string, std::array<double, 3>>> sums;
    for (const auto& r : document.runs()) {
        if (r->kind != document::RunKind::Partition || r->application != graph || document.isStale(*r))
            continue;
        auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& s) { return s.first == r->algorithm; });
        if (it == sums.end())
            it = sums.insert(sums.end(), {r->algorithm, {0.0, 0.0, 0.0}});
        it->second[0] += r->metric("transfer_time_s").value_or(0.0);
        it->second[1] += r->metric("wan_usd").value_or(0.0);
        it->second[2] += 1.0;
    }
    if (sums.empty()) {
        chart->setTitle(
            graph.empty()
                ? QObject::tr("Partition runs (import a graph and run partitioners on it)")
                : QObject::tr("Partition runs of %1 (no current runs yet)").arg(QString::fromStdString(graph)));
        return;
    }
    std::array<double, 2> base{0.0, 0.0};
    const auto hash = std::find_if(sums.begin(), sums.end(), [](const auto& s) { return s.first == "hash"; });
    for (int k = 0; k < 2; ++k)
        for (const auto& [algorithm, s] : sums)
            base[k] = hash != sums.end() ? hash->second[k] / hash->second[2] : std::max(base[k], s[k] / s[2]);
    auto* series = new QBarSeries;
    const QString names[] = {QObject::tr("Transfer time"), QObject::tr("WAN cost")};
    double top = 0.0;
    QStringList categories;
    for (const auto& s : sums)
        categories << QString::fromStdString(s.first);
    for (int k = 0; k < 2; ++k) {
        auto* set = new QBarSet(names[k]);
        set->setColor(seriesColor(static_cast<std::size_t>(k)));
        for (const auto& [algorithm, s] : sums) {
            const double v = base[k] > 0.0 ? s[k] / s[2] / base[k] : 0.0;
            *set << v;
            top = std::max(top, v);
        }
        series->append(set);
    }
    const bool toHash = hash != sums.end();
    addAxes(chart, series, categories, std::max(1.0, top),
            toHash ? QObject::tr("mean / hash's mean") : QObject::tr("mean / largest mean (no current hash run)"));
    chart->setTitle(QObject::tr("Partitioners on %1: transfer time and WAN cost%2")
                        .arg(QString::fromStdString(graph),
                             toHash ? QObject::tr(", normalised to hash") : QObject::tr(", normalised")));
}

void fillSiteShares(QChart* chart, const document::Run* run, const model::Topology& topology)
{
    clearChart(chart);
    const int sites = topology.siteCount();
    if (!run || run->kind != document::RunKind::Partition
        || run->siteUploadBytes.size() != static_cast<std::size_t>(sites)) {
        chart->setTitle(QObject::tr("Per-site upload and download (select a partition run)"));
        return;
    }
    double up = 0.0, down = 0.0, slowest = 0.0;
    int bottleneck = 0;
    for (int s = 0; s < sites; ++s) {
        up += run->siteUploadBytes[s];
        down += run->siteDownloadBytes[s];
        const double t = std::max(run->siteUploadSeconds[s], run->siteDownloadSeconds[s]);
        if (t > slowest) {
            slowest = t;
            bottleneck = s;
        }
    }
    auto* series = new QBarSeries;
    auto* upSet = new QBarSet(QObject::tr("Share of the WAN upload"));
    auto* downSet = new QBarSet(QObject::tr("Share of the WAN download"));
    upSet->setColor(seriesColor(0));
    downSet->setColor(seriesColor(1));
    QStringList categories;
    double top = 0.0;
    for (int s = 0; s < sites; ++s) {
        categories << QString::fromStdString(topology.site(s).name);
        const double u = up > 0 ? run->siteUploadBytes[s] / up : 0.0,
                     d = down > 0 ? run->siteDownloadBytes[s] / down : 0.0;
        *upSet << u;
        *downSet << d;
        top = std::max({top, u, d});
    }
    series->append(upSet);
    series->append(downSet);
    addAxes(chart, series, categories, std::min(1.0, top), QObject::tr("share"));
    chart->setTitle(
        QObject::tr("%1: each site's share of the WAN traffic; %2's link is the slowest")
            .arg(QString::fromStdString(run->label()), QString::fromStdString(topology.site(bottleneck).name)));
}

} // namespace meridian::workbench
