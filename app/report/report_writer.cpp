#include "app/report/report_writer.h"

#include "widgets/heatmap_data.h"

#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace meridian::report {

namespace {

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

Error ioError(const QString& path, const QString& what)
{
    return makeError(ErrorCode::Io, what.toStdString(), {path.toStdString(), 0, 0});
}

QString figure(const QString& src, const QString& caption, int width)
{
    return QString("<p align='center'><img src='%1' width='%2'><br><i>%3</i></p>")
        .arg(src)
        .arg(width)
        .arg(caption.toHtmlEscaped());
}

} // namespace

namespace {

using ImageSource = std::function<QString(const QString&, const QImage&)>;

QString headHtml(const document::ProjectDocument& document)
{
    const auto project = document.project();
    QString h;
    h += "<html><head><meta charset='utf-8'><title>" + esc(project->name) + " \u2014 Meridian report</title>";
    h += "<style>body{font-family:sans-serif;} table{border-collapse:collapse;} th,td{border:1px solid "
         "#bbb;padding:3px 6px;}"
         " th{background:#eee;} td{white-space:nowrap;} td.n{text-align:right;} .stale{background:#ffe2be;}"
         "</style></head><body>";
    h += "<h1>" + esc(project->name.empty() ? std::string("Untitled project") : project->name) + "</h1>";
    h += "<p>Meridian report, " + QDateTime::currentDateTime().toString(Qt::ISODate).toHtmlEscaped();
    if (!document.path().isEmpty())
        h += ", project file " + QFileInfo(document.path()).fileName().toHtmlEscaped();
    h += ".</p>";
    if (!project->description.empty())
        h += "<p>" + esc(project->description) + "</p>";
    return h;
}

QString summaryHtml(const document::ProjectDocument& document)
{
    const auto project = document.project();
    const auto& topology = project->topology;
    QString h = "<h2>Summary</h2><ul>";
    h += QString("<li>%1 sites, %2 hosts, %3 slots</li>")
             .arg(topology.siteCount())
             .arg(topology.hostCount())
             .arg(topology.siteCount() ? topology.totalCapacity() : 0);
    for (const auto& app : project->applications)
        h += QString("<li>Application <b>%1</b>: %2 processes, %3 communicating pairs, %4 in total, %5 pinned "
                     "processes</li>")
                 .arg(esc(app.name))
                 .arg(app.comm.processCount())
                 .arg(app.comm.nonZeros())
                 .arg(widgets::formatValue(app.comm.totalBytes(), "bytes"))
                 .arg(app.pins.size());
    h += "<li>Network: " + document.networkModelText().toHtmlEscaped() + "</li>";
    h += QString("<li>%1 runs, %2 of them stale</li>").arg(document.runs().size()).arg(document.staleRuns().size());
    h += "</ul>";
    if (!project->sources.empty()) {
        h += "<h3>Sources</h3><ul>";
        for (const auto& s : project->sources)
            h += "<li>" + esc(s) + "</li>";
        h += "</ul>";
    }
    return h;
}

QString sitesHtml(const model::Topology& topology)
{
    QString h = "<h2>Sites</h2><table><thead><tr><th>Site</th><th>Latitude</th><th>Longitude</th><th>Hosts</th>"
                "<th>Slots</th><th>Uplink (MB/s)</th><th>Downlink (MB/s)</th><th>Egress (USD/GB)</th>"
                "<th>Instance (USD/h)</th></tr></thead>";
    auto num = [](double v, int decimals) {
        return std::isnan(v) ? QString("\u2014") : QString::number(v, 'f', decimals);
    };
    for (int s = 0; s < topology.siteCount(); ++s) {
        const auto& site = topology.site(s);
        h += QString("<tr><td>%1</td><td class=n>%2</td><td class=n>%3</td><td class=n>%4</td><td class=n>%5</td><td "
                     "class=n>%6</td><td class=n>%7</td><td class=n>%8</td><td class=n>%9</td></tr>")
                 .arg(esc(site.name), num(site.latitude, 3), num(site.longitude, 3))
                 .arg(topology.hostCountOf(s))
                 .arg(topology.capacity(s))
                 .arg(num(site.uplinkMBps, 0), num(site.downlinkMBps, 0), num(site.egressUsdPerGB, 3),
                      num(site.instanceUsdPerHour, 3));
    }
    return h + "</table>";
}

/// Each partition run's metrics (Geo-Cut's GAS model), the transfer time and WAN cost also normalised to the
/// mean current hash run of its graph (Geo-Cut Figs. 5-8); empty without partition runs.
QString partitionComparisonHtml(const document::ProjectDocument& document)
{
    const auto& runs = document.runs();
    std::map<std::string, std::array<double, 3>> hash; // graph -> time sum, cost sum, count
    bool any = false;
    for (const auto& r : runs) {
        any = any || r->kind == document::RunKind::Partition;
        if (r->kind == document::RunKind::Partition && r->algorithm == "hash" && r->derivedFrom == 0
            && !document.isStale(*r)) {
            auto& h = hash[r->application];
            h[0] += r->metric("transfer_time_s").value_or(0);
            h[1] += r->metric("wan_usd").value_or(0);
            h[2] += 1;
        }
    }
    if (!any)
        return {};
    // Few, compact columns: the page is narrow and a header never wraps mid-word.
    QString h = "<h3>Partition runs</h3><table><thead><tr><th>Run</th><th>Time</th><th>vs hash</th><th>WAN USD</th>"
                "<th>vs hash</th><th>Repl.</th><th>Budget</th><th>Status</th></tr></thead>";
    const auto ratio = [](double value, double sum, double count) {
        return count > 0 && sum > 0 ? QString::number(value / (sum / count), 'f', 3) : QString("\u2014");
    };
    for (const auto& r : runs) {
        if (r->kind != document::RunKind::Partition)
            continue;
        const double time = r->metric("transfer_time_s").value_or(NAN), usd = r->metric("wan_usd").value_or(NAN);
        const auto found = hash.find(r->application);
        const std::array<double, 3> base = found == hash.end() ? std::array<double, 3>{0, 0, 0} : found->second;
        const auto over = r->metric("over_budget_usd");
        const QString budget = !over ? QString("\u2014")
            : *over > 0              ? QString("+%1").arg(QString::number(*over, 'g', 2))
                                     : QString("met");
        h += QString("<tr%1><td>%2</td><td class=n>%3</td><td class=n>%4</td><td class=n>%5</td><td class=n>%6</td>"
                     "<td class=n>%7</td><td>%8</td><td>%9</td></tr>")
                 .arg(document.isStale(*r) ? " class=stale" : "", esc(r->label()),
                      widgets::formatValue(time, "s").toHtmlEscaped(), ratio(time, base[0], base[2]),
                      QString::number(usd, 'g', 3), ratio(usd, base[1], base[2]),
                      QString::number(r->metric("replication_factor").value_or(NAN), 'f', 2), budget,
                      document.isStale(*r) ? "stale" : "current");
    }
    return h + "</table>";
}

/// Each run's cost, also normalised to the mean current random run of its application.
QString comparisonHtml(const document::ProjectDocument& document)
{
    // A new page: the table, the skyline and the bars read together, and a table header never ends a page.
    QString h = "<h2 style='page-break-before: always'>Comparison</h2>";
    const auto& runs = document.runs();
    if (runs.empty())
        return h + "<p>No runs yet.</p>";
    std::map<std::string, std::pair<double, int>> random;
    for (const auto& r : runs)
        if (r->algorithm == "random" && r->metric("cost_s") && !document.isStale(*r)) {
            random[r->application].first += *r->metric("cost_s");
            random[r->application].second += 1;
        }
    const bool anyMapping = std::any_of(runs.begin(), runs.end(),
                                        [](const auto& r) { return r->kind == document::RunKind::Mapping; });
    if (!anyMapping)
        return h + partitionComparisonHtml(document);
    h += "<table><thead><tr><th>Run</th><th>Application</th><th>Seed</th><th>Cost (s)</th><th>Cost / random</th>"
         "<th>Bytes between sites</th><th>WAN egress (USD)</th><th>Runtime (s)</th><th>Status</th></tr></thead>";
    for (const auto& r : runs) {
        if (r->kind != document::RunKind::Mapping)
            continue;
        const bool stale = document.isStale(*r);
        const double cost = r->metric("cost_s").value_or(NAN);
        const auto rnd = random.find(r->application);
        const QString normalised = rnd != random.end() && rnd->second.first > 0
            ? QString::number(cost / (rnd->second.first / rnd->second.second), 'f', 3)
            : QString("\u2014");
        h += QString("<tr%1><td>%2</td><td>%3</td><td class=n>%4</td><td class=n>%5</td><td class=n>%6</td><td "
                     "class=n>%7</td><td class=n>%8</td><td class=n>%9</td>")
                 .arg(stale ? " class=stale" : "", esc(r->algorithm + " #" + std::to_string(r->id)), esc(r->application))
                 .arg(r->seed)
                 .arg(QString::number(cost, 'g', 6), normalised,
                      widgets::formatValue(r->metric("wan_bytes").value_or(NAN), "bytes"),
                      r->metric("wan_usd") ? QString::number(*r->metric("wan_usd"), 'g', 4) : QString("\u2014"),
                      QString::number(r->runtimeSeconds, 'g', 3));
        h += QString("<td>%1</td></tr>").arg(stale ? "stale" : "current");
    }
    return h + "</table>" + partitionComparisonHtml(document);
}

/// A partition run's upload and download per site, each with its time over the site's link.
QString partitionSitesHtml(const document::Run& run, const model::Topology& topology)
{
    if (run.siteUploadBytes.size() != static_cast<std::size_t>(topology.siteCount()))
        return {};
    QString sites;
    for (int s = 0; s < topology.siteCount(); ++s)
        sites += QString("%1%2 up %3 (%4), down %5 (%6)")
                     .arg(sites.isEmpty() ? "" : "; ", esc(topology.site(s).name),
                          widgets::formatValue(run.siteUploadBytes[s], "bytes"),
                          widgets::formatValue(run.siteUploadSeconds[s], "s"),
                          widgets::formatValue(run.siteDownloadBytes[s], "bytes"),
                          widgets::formatValue(run.siteDownloadSeconds[s], "s"));
    return "<li>Per site and iteration: " + sites + "</li>";
}

QString runsHtml(const document::ProjectDocument& document)
{
    const auto& runs = document.runs();
    const auto& topology = document.project()->topology;
    if (runs.empty())
        return {};
    QString h = "<h2>Runs</h2>";
    for (const auto& r : runs) {
        h += "<h3>" + esc(r->label()) + (document.isStale(*r) ? QString(" (stale)") : QString()) + "</h3><ul>";
        h += "<li>Parameters: " + (r->params.values().empty() ? QString("defaults") : esc(r->params.toString()))
            + "</li>";
        h += QString("<li>Seed %1, runtime %2 s</li>").arg(r->seed).arg(r->runtimeSeconds, 0, 'g', 4);
        for (const auto& m : r->metrics)
            h += "<li>" + esc(m.label) + ": "
                + widgets::formatValue(m.value, QString::fromStdString(m.unit)).toHtmlEscaped() + "</li>";
        if (r->kind == document::RunKind::Partition) {
            h += partitionSitesHtml(*r, topology);
            for (const auto& n : r->notes)
                h += "<li>Note: " + esc(n) + "</li>";
            h += "</ul>";
            continue;
        }
        const auto load = r->placement.siteLoad(topology.siteCount());
        QString loads;
        for (int s = 0; s < topology.siteCount() && s < static_cast<int>(load.size()); ++s)
            loads += QString("%1%2 %3/%4")
                         .arg(loads.isEmpty() ? "" : ", ", esc(topology.site(s).name))
                         .arg(load[s])
                         .arg(topology.capacity(s));
        h += "<li>Processes per site: " + loads + "</li>";
        for (const auto& n : r->notes)
            h += "<li>Note: " + esc(n) + "</li>";
        h += "</ul>";
    }
    return h;
}

} // namespace

QString reportHtml(const document::ProjectDocument& document, const ReportImages& images, const ImageSource& imageSource)
{
    QString h = headHtml(document) + summaryHtml(document) + sitesHtml(document.project()->topology);
    if (!images.map.isNull())
        h += figure(imageSource("map", images.map), QObject::tr("Site map"), 640);
    if (!images.heatmaps.empty()) {
        h += "<h2>Input matrices</h2>";
        for (std::size_t i = 0; i < images.heatmaps.size(); ++i)
            h += figure(imageSource(QString("heatmap%1").arg(i), images.heatmaps[i].second), images.heatmaps[i].first,
                        520);
    }
    h += comparisonHtml(document);
    if (!images.skyline.isNull())
        h += figure(imageSource("skyline", images.skyline), QObject::tr("Cost/time skyline with the Pareto front"), 600);
    const bool anyMapping = std::any_of(document.runs().begin(), document.runs().end(),
                                        [](const auto& r) { return r->kind == document::RunKind::Mapping; });
    if (!images.bars.isNull() && anyMapping)
        h += figure(imageSource("bars", images.bars), QObject::tr("Mean cost per application"), 600);
    return h + runsHtml(document) + "</body></html>";
}

Status writeHtmlReport(const document::ProjectDocument& document, const ReportImages& images, const QString& path)
{
    const QString html = reportHtml(document, images, [](const QString&, const QImage& image) {
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        return QString("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
    });
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(path, "cannot write: " + file.errorString());
    file.write(html.toUtf8());
    if (!file.commit())
        return ioError(path, "cannot write: " + file.errorString());
    return {};
}

Status writePdfReport(const document::ProjectDocument& document, const ReportImages& images, const QString& path)
{
    QTextDocument text;
    const QString html = reportHtml(document, images, [&text](const QString& key, const QImage& image) {
        const QString url = "meridian:" + key;
        text.addResource(QTextDocument::ImageResource, QUrl(url), image);
        return url;
    });
    text.setHtml(html);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(path, "cannot write: " + file.errorString());
    {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setResolution(150);
        writer.setTitle(QString::fromStdString(document.project()->name) + " \u2014 Meridian report");
        writer.setCreator("Meridian");
        text.print(&writer);
    }
    if (!file.commit())
        return ioError(path, "cannot write: " + file.errorString());
    return {};
}

} // namespace meridian::report
