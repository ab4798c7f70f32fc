#include "app/project/ui/matrix_data.h"

#include "app/project/measurement_age.h"

#include <QCoreApplication>

#include <numeric>

namespace meridian::workbench {

namespace {

using Sparse = widgets::HeatmapData::Sparse;

QString tr(const char* text) { return QCoreApplication::translate("MatrixPanel", text); }

QStringList siteNamesOf(const model::Topology& topology)
{
    QStringList names;
    for (const auto& s : topology.sites())
        names << QString::fromStdString(s.name);
    return names;
}

widgets::HeatmapData networkData(const document::ProjectDocument& document, bool latency, const QStringList& sites)
{
    widgets::HeatmapData data;
    const auto q = latency ? model::NetworkQuantity::Latency : model::NetworkQuantity::Bandwidth;
    const model::Network& network = document.completeNetwork();
    data.title = latency ? tr("Latency between sites") : tr("Bandwidth between sites");
    data.unit = latency ? "ms" : "MB/s";
    data.dense = latency ? network.latencyMs() : network.bandwidthMBps();
    data.rowLabels = data.columnLabels = sites;
    data.rowAxis = tr("from");
    data.columnAxis = tr("to");
    data.cellNote = [network, q](int r, int c) {
        if (const auto date = network.measuredAt(q, r, c); date != 0)
            return tr("measured %1").arg(document::measurementDateText(date));
        return QString::fromStdString(std::string(model::provenanceId(network.provenance(q, r, c))));
    };
    return data;
}

widgets::HeatmapData runData(const document::Run& run, bool traffic, const QStringList& sites)
{
    widgets::HeatmapData data;
    data.title = (traffic ? tr("Traffic between sites, %1") : tr("Time between sites, %1"))
                     .arg(QString::fromStdString(run.label()));
    data.unit = traffic ? "bytes" : "s";
    data.dense = traffic ? run.trafficBytes : run.timeSeconds;
    data.rowLabels = data.columnLabels = sites;
    data.rowAxis = tr("from site");
    data.columnAxis = tr("to site");
    return data;
}

/// The application's matrix for a source: volume, message counts, or their ratio per entry.
Sparse applicationMatrix(const model::CommMatrix& comm, MatrixSource source)
{
    Sparse matrix = source == MatrixSource::Messages ? comm.messages() : comm.volume();
    if (source == MatrixSource::AverageSize)
        for (Eigen::Index k = 0; k < matrix.nonZeros(); ++k) {
            const double count = comm.messages().valuePtr()[k];
            matrix.valuePtr()[k] = count > 0 ? matrix.valuePtr()[k] / count : 0.0;
        }
    return matrix;
}

/// Processes as numbered, the pinned ones marked and labelled with their site.
void markPins(const document::Application& app, const QStringList& sites, widgets::HeatmapData& data)
{
    const int n = app.comm.processCount();
    const auto pinned = app.pins.siteVector(n);
    for (const auto& pin : app.pins.pins())
        data.markedRows.push_back(pin.process);
    data.markLegend = app.pins.size() == 1 ? tr("1 pinned process") : tr("%1 pinned processes").arg(app.pins.size());
    if (app.pins.empty())
        return;
    // Process labels say where a pinned process must run (tooltips, and ticks when zoomed in).
    for (int p = 0; p < n; ++p)
        data.rowLabels << (pinned[p] >= 0 ? tr("p%1 (pinned to %2)").arg(p).arg(sites.value(pinned[p]))
                                          : QString("p%1").arg(p));
    data.columnLabels = data.rowLabels;
}

/// Processes reordered by the run's site, host and slot, with a line where each site's group starts.
void reorderBySite(const Sparse& matrix, const document::Run& run, const QStringList& sites, widgets::HeatmapData& data)
{
    const auto& placement = run.placement;
    const int n = static_cast<int>(matrix.rows());
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::tie(placement.site[a], placement.host[a], placement.slot[a])
            < std::tie(placement.site[b], placement.host[b], placement.slot[b]);
    });
    std::vector<int> position(n);
    for (int i = 0; i < n; ++i)
        position[order[i]] = i;
    std::vector<Eigen::Triplet<double>> triplets;
    triplets.reserve(matrix.nonZeros());
    for (int r = 0; r < matrix.outerSize(); ++r)
        for (Sparse::InnerIterator it(matrix, r); it; ++it)
            triplets.emplace_back(position[r], position[it.col()], it.value());
    Sparse reordered(n, n);
    reordered.setFromTriplets(triplets.begin(), triplets.end());
    data.sparse.swap(reordered);
    // Built by concatenation: QString::arg's parsing of a pattern cost most of a 65,536-process reorder.
    data.rowLabels.reserve(n);
    std::vector<QString> suffix;
    suffix.reserve(static_cast<std::size_t>(sites.size()));
    for (const QString& site : sites)
        suffix.push_back(QStringLiteral(" @ ") + site);
    for (int i = 0; i < n; ++i) {
        const int site = placement.site[order[i]];
        data.rowLabels << QLatin1Char('p') + QString::number(order[i])
                + (site >= 0 && site < static_cast<int>(suffix.size()) ? suffix[site] : QStringLiteral(" @ "));
        if (i > 0 && site != placement.site[order[i - 1]])
            data.groupStarts.push_back(i);
    }
    data.columnLabels = data.rowLabels;
    data.title += tr(" (processes ordered by the sites of run %1)").arg(run.id);
}

/// The matrix summed by the run's sites or hosts; an average message size is bytes over counts per group
/// (an average does not sum).
Eigen::MatrixXd aggregate(const model::CommMatrix& comm, const Sparse& matrix, MatrixSource source,
                          const model::Placement& placement, bool bySite, int groups)
{
    const auto groupOf = [&](Eigen::Index p) { return bySite ? placement.site[p] : placement.host[p]; };
    if (source == MatrixSource::AverageSize) {
        Eigen::MatrixXd bytes = Eigen::MatrixXd::Zero(groups, groups), count = bytes;
        const auto& v = comm.volume();
        for (int r = 0; r < v.outerSize(); ++r)
            for (Sparse::InnerIterator it(v, r); it; ++it) {
                bytes(groupOf(r), groupOf(it.col())) += it.value();
                count(groupOf(r), groupOf(it.col())) += comm.messages().valuePtr()[&it.value() - v.valuePtr()];
            }
        return (count.array() > 0).select(bytes.array() / count.array(), 0.0);
    }
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(groups, groups);
    for (int r = 0; r < matrix.outerSize(); ++r)
        for (Sparse::InnerIterator it(matrix, r); it; ++it)
            sums(groupOf(r), groupOf(it.col())) += it.value();
    return sums;
}

widgets::HeatmapData applicationData(const model::Topology& topology, const document::Application& app,
                                     const document::Run* run, MatrixSource source, MatrixArrangement arrangement,
                                     const QStringList& sites)
{
    widgets::HeatmapData data;
    const auto& comm = app.comm;
    Sparse matrix = applicationMatrix(comm, source);
    data.unit = source == MatrixSource::Messages ? "messages" : "bytes";
    const QString what = source == MatrixSource::Volume ? tr("volume")
        : source == MatrixSource::Messages              ? tr("message count")
                                                        : tr("average message size");
    data.title = QString("%1: %2").arg(QString::fromStdString(app.name), what);
    data.rowAxis = tr("sender");
    data.columnAxis = tr("receiver");
    data.isSparse = true;
    const bool usePlacement = arrangement != MatrixArrangement::AsIs && run && run->application == app.name
        && run->placement.processCount() == comm.processCount();
    if (!usePlacement) {
        data.sparse = matrix;
        markPins(app, sites, data);
        return data;
    }
    if (arrangement == MatrixArrangement::ReorderBySite) {
        reorderBySite(matrix, *run, sites, data);
        return data;
    }
    const bool bySite = arrangement == MatrixArrangement::AggregateBySite || !run->placement.hasHosts();
    data.dense = aggregate(comm, matrix, source, run->placement, bySite,
                           bySite ? topology.siteCount() : topology.hostCount());
    data.isSparse = false;
    if (bySite) {
        data.rowLabels = data.columnLabels = sites;
        data.rowAxis = tr("from site");
        data.columnAxis = tr("to site");
    } else {
        for (int h = 0; h < topology.hostCount(); ++h)
            data.rowLabels << QString::fromStdString(topology.host(h).name);
        data.columnLabels = data.rowLabels;
        data.rowAxis = tr("from host");
        data.columnAxis = tr("to host");
    }
    data.title += bySite ? tr(" by site (run %1)").arg(run->id) : tr(" by host (run %1)").arg(run->id);
    return data;
}

} // namespace

widgets::HeatmapData matrixHeatmapData(const document::ProjectDocument& document, MatrixSource source, int application,
                                       MatrixArrangement arrangement)
{
    const auto project = document.project();
    const QStringList sites = siteNamesOf(project->topology);
    const auto run = document.run(document.currentRun());
    if (source == MatrixSource::Latency || source == MatrixSource::Bandwidth)
        return networkData(document, source == MatrixSource::Latency, sites);
    if (source == MatrixSource::RunTraffic || source == MatrixSource::RunTime)
        return run ? runData(*run, source == MatrixSource::RunTraffic, sites) : widgets::HeatmapData{};
    if (application < 0 || application >= static_cast<int>(project->applications.size()))
        return {};
    return applicationData(project->topology, project->applications[application], run.get(), source, arrangement, sites);
}

} // namespace meridian::workbench
