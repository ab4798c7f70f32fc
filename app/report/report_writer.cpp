#include "app/report/report_writer.h"

#include "app/project/run_analysis.h"
#include "app/report/pdf_printer.h"
#include "app/report/report_numbers.h"
#include "app/version.h"

#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace meridian::report {

namespace {

using document::Run;
using RunPtr = std::shared_ptr<const Run>;

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString esc(const QString& s) { return s.toHtmlEscaped(); }

Error ioError(const QString& path, const QString& what)
{
    return makeError(ErrorCode::Io, what.toStdString(), {path.toStdString(), 0, 0});
}

/// The print style: A4 pages (margins set by the printer), tables whose header repeats on every page and never
/// ends one, rows and figures kept whole, numbers right-aligned in tabular figures.
constexpr const char* kStyle = R"css(
body { font-family: "DejaVu Sans", "Liberation Sans", sans-serif; font-size: 10pt; color: #1d2430; line-height: 1.45;
       margin: 0 auto; max-width: 60em; }
h1, h2, h3, h4 { font-weight: 600; color: #10233f; break-after: avoid; page-break-after: avoid; }
h2 { font-size: 15pt; border-bottom: 1.5px solid #10233f; padding-bottom: 2pt; margin: 20pt 0 8pt; }
h3 { font-size: 11.5pt; margin: 14pt 0 5pt; }
h4 { font-size: 10pt; margin: 10pt 0 3pt; }
section.chapter { break-before: page; page-break-before: always; }
.title-page { height: 245mm; display: flex; flex-direction: column; justify-content: center;
              break-after: page; page-break-after: always; }
.title-page .kicker { text-transform: uppercase; letter-spacing: 0.18em; color: #2c6fbb; font-size: 10pt; }
.title-page h1 { font-size: 30pt; margin: 6pt 0 8pt; border: none; }
.title-page .subtitle { font-size: 13pt; color: #44516a; margin-bottom: 28pt; }
.title-page dl { display: grid; grid-template-columns: max-content auto; gap: 4pt 16pt; font-size: 10pt; }
.title-page dt { color: #6b7687; }
.title-page dd { margin: 0; }
.recommendation { background: #eef4fb; border-left: 4px solid #2c6fbb; padding: 8pt 12pt; margin: 8pt 0;
                  break-inside: avoid; }
table { border-collapse: collapse; width: 100%; font-size: 8.8pt; margin: 6pt 0 10pt; }
thead { display: table-header-group; }
tr, .keep { break-inside: avoid; page-break-inside: avoid; }
th { text-align: left; vertical-align: bottom; border-bottom: 1.5px solid #10233f; padding: 3pt 5pt;
     hyphens: none; word-break: keep-all; overflow-wrap: normal; }
td { padding: 2.5pt 5pt; border-bottom: 0.5px solid #d5dae2; vertical-align: top; }
th.n, td.n { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.best td { background: #e3f1e6; font-weight: 600; }
tr.stale td { color: #8a6d3b; background: #fff4e0; }
figure { margin: 10pt 0 14pt; break-inside: avoid; page-break-inside: avoid; text-align: center; }
figure svg, figure img { width: 100%; height: auto; }
figure svg * { font-family: "DejaVu Sans", "Liberation Sans", sans-serif; }
figure.half { display: inline-block; width: 49%; margin: 6pt 0; vertical-align: top; }
figcaption { font-size: 8.8pt; color: #44516a; margin-top: 3pt; }
.muted { color: #6b7687; }
.nowrap { white-space: nowrap; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 0.9em; }
ul.notes { font-size: 9pt; }
)css";

/// One table column: a header and whether its cells are numbers (right-aligned).
struct Column {
    QString title;
    bool numeric = false;
};

QString tableHtml(const std::vector<Column>& columns, const std::vector<std::pair<QString, QStringList>>& rows)
{
    QString h = "<table><thead><tr>";
    for (const auto& c : columns)
        h += QString("<th%1>%2</th>").arg(c.numeric ? " class=n" : "", esc(c.title));
    h += "</tr></thead><tbody>";
    for (const auto& [rowClass, cells] : rows) {
        h += rowClass.isEmpty() ? QString("<tr>") : QString("<tr class='%1'>").arg(rowClass);
        for (int i = 0; i < cells.size(); ++i)
            h += QString("<td%1>%2</td>")
                     .arg(i < static_cast<int>(columns.size()) && columns[i].numeric ? " class=n" : "", cells[i]);
        h += "</tr>";
    }
    return h + "</tbody></table>";
}

/// Writes figures in order, numbered, inline.
class FigureWriter {
public:
    explicit FigureWriter(const Figures& figures)
        : m_figures(figures)
    {}
    bool has(const QString& key) const { return m_figures.count(key) > 0; }
    QString operator()(const QString& key, const QString& figureClass = {})
    {
        const auto found = m_figures.find(key);
        if (found == m_figures.end())
            return {};
        const Figure& f = found->second;
        QString body;
        if (!f.svg.isEmpty()) {
            const auto start = f.svg.indexOf("<svg");
            body = QString::fromUtf8(start >= 0 ? f.svg.mid(start) : f.svg);
            // Ids are per document: QSvgGenerator numbers its gradients and clips from 1 in every drawing, so
            // inline drawings would paint each other's gradients. Each figure's ids get its own prefix.
            const QString prefix = QString("f%1-").arg(m_number + 1);
            body.replace("id=\"", "id=\"" + prefix)
                .replace("url(#", "url(#" + prefix)
                .replace("href=\"#", "href=\"#" + prefix);
        } else {
            return {};
        }
        ++m_number;
        return QString("<figure%1>%2<figcaption>Figure %3. %4</figcaption></figure>")
            .arg(figureClass.isEmpty() ? QString() : " class='" + figureClass + "'", body)
            .arg(m_number)
            .arg(esc(f.caption));
    }

private:
    const Figures& m_figures;
    int m_number = 0;
};

/// Keeps a heading with what follows it on one page (Chromium does not honour break-after: avoid on headings).
QString keep(const QString& html) { return "<div class='keep'>" + html + "</div>"; }

/// "1 site", "4 sites".
QString counted(long long n, const char* noun)
{
    return QString("%1 %2%3").arg(n).arg(QString::fromLatin1(noun), n == 1 ? "" : "s");
}

/// A project's notes mark commands as `code`, as Markdown does: set in a monospaced font, without the backticks.
QString codeSpans(const QString& html)
{
    static const QRegularExpression code("`([^`]+)`");
    return QString(html).replace(code, "<code>\\1</code>");
}

/// "monte-carlo (#6)", kept on one line: a table cell never breaks it at its hyphen.
QString runName(const Run& run)
{
    return QString("<span class=nowrap>%1 (#%2)</span>").arg(esc(run.algorithm)).arg(run.id);
}

QString titlePage(const ReportInput& input)
{
    const auto& document = *input.document;
    const auto project = document.project();
    const QString name = project->name.empty() ? QString("Untitled project") : esc(project->name);
    QStringList applications;
    for (const auto& a : project->applications)
        applications << esc(a.name);
    const QString subtitle = !project->description.empty() ? esc(project->description)
        : applications.isEmpty()
        ? QString("Where work runs across %1 sites").arg(project->topology.siteCount())
        : QString("Where %1 should run across %2 sites").arg(applications.join(", ")).arg(project->topology.siteCount());
    QString h = "<section class='title-page'><div class='kicker'>Placement study</div><h1>" + name + "</h1>";
    h += "<div class='subtitle'>" + subtitle + "</div><dl>";
    const auto row = [&h](const QString& term, const QString& value) {
        h += "<dt>" + term + "</dt><dd>" + value + "</dd>";
    };
    if (!document.path().isEmpty())
        row("Project file", esc(QFileInfo(document.path()).fileName()));
    row("Written", QDateTime::currentDateTime().toString("yyyy-MM-dd HH:mm"));
    row("Prepared with", QString("Meridian %1").arg(MERIDIAN_VERSION));
    row("Sites",
        QString("%1, %2, %3")
            .arg(counted(project->topology.siteCount(), "site"), counted(project->topology.hostCount(), "host"),
                 counted(project->topology.siteCount() ? project->topology.totalCapacity() : 0, "slot")));
    row("Runs compared", QString::number(document.runs().size()));
    return h + "</dl></section>";
}

/// "3.10× lower (1.23 s against 3.81 s)" or, when the run is worse, "1.20× higher".
QString against(double value, double baseline, const QString& unit)
{
    if (!(baseline > 0) || !(value > 0))
        return QString("%1 against %2").arg(formatQuantity(value, unit), formatQuantity(baseline, unit));
    const bool lower = value <= baseline;
    return QString("%1 %2 (%3 against %4)")
        .arg(formatQuantity(lower ? baseline / value : value / baseline, "x"), lower ? "lower" : "higher",
             formatQuantity(value, unit), formatQuantity(baseline, unit));
}

QString baselineText(const document::Recommendation& r)
{
    if (r.baselineKind == "random")
        return r.baselineRuns == 1 ? QString("a random placement")
                                   : QString("random placements (the mean of %1 runs)").arg(r.baselineRuns);
    return QString("a random placement (the mean of %1 sampled by monte-carlo)").arg(r.baselineRuns);
}

/// "predicted run time" or "communication cost": what a recommendation ranks by, in words.
QString metricWords(const document::Recommendation& r)
{
    return r.metric == "predicted_s" ? QString("predicted run time") : QString("communication cost");
}

QString recommendationSentence(const ReportInput& input, const document::Recommendation& r)
{
    const Run& best = *r.best;
    const double value = *best.metric(r.metric);
    // Level times (document::isLevel, as the recommendation ranks them): "1.00× lower (3,673 s against 3,673 s)"
    // would say nothing.
    const auto level = document::isLevel;
    const bool allLevel = r.baselineCost && level(value, *r.baselineCost)
        && (!r.runnerUp || level(value, *r.runnerUp->metric(r.metric)));
    if (allLevel)
        return QString("For <b>%1</b>, every run compared has the same %2 as a random placement, %3: where the "
                       "processes go makes no difference, and <b>%4</b> is as good as any.")
            .arg(esc(r.application), metricWords(r), formatQuantity(value, "s"), runName(best));
    QString s = QString("For <b>%1</b>, use <b>%2</b>. ").arg(esc(r.application), runName(best));
    if (r.baselineCost && level(value, *r.baselineCost)) {
        s += QString("Its %1, %2, is that of %3.").arg(metricWords(r), formatQuantity(value, "s"), baselineText(r));
    } else if (r.baselineCost) {
        s += QString("Its %1 is %2 than %3").arg(metricWords(r), against(value, *r.baselineCost, "s"), baselineText(r));
        const auto usd = best.metric(r.usdMetric);
        if (usd && r.baselineUsd) {
            const double change = *r.baselineUsd > 0 ? (*usd - *r.baselineUsd) / *r.baselineUsd : 0.0;
            s += QString(", and it costs %1 per iteration in %2, ")
                     .arg(formatQuantity(*usd, "USD"), r.usdMetric == "usd" ? "egress and instances" : "WAN egress");
            s += std::abs(change) < 0.0005
                ? QString("the same as the baseline")
                : QString("%1 %2").arg(formatQuantity(std::abs(change), "%"), change <= 0 ? "less" : "more");
        }
        s += ".";
    } else {
        s += QString("Its %1, %2, is the lowest of the runs compared.").arg(metricWords(r), formatQuantity(value, "s"));
    }
    if (r.runnerUp) {
        const double next = *r.runnerUp->metric(r.metric);
        s += QString(" The next best algorithm, %1, takes %2").arg(runName(*r.runnerUp), formatQuantity(next, "s"));
        s += level(value, next) ? QString(", level with it.")
            : value > 0         ? QString(", %1 as long.").arg(formatQuantity(next / value, "x"))
                                : QString(".");
    }
    if (r.lowestTrafficCost) {
        const auto& document = *input.document;
        const std::string words = document::trafficButSlower(*r.lowestTrafficCost, best, *document.project(),
                                                             document.completeNetwork());
        if (!words.empty())
            s += " Eq. 3 ranks them differently: " + esc(words) + ".";
    }
    if (r.metric != "predicted_s")
        s += " (Ranked by SC17's eq. 3: not every run has a predicted run time; simulate them to rank by time.)";
    return s;
}

/// The mean of a graph's current hash runs (Geo-Cut's baseline): transfer time and WAN dollars; 0 without one.
struct HashMean {
    double seconds = 0.0;
    double usd = 0.0;
};

HashMean hashMean(const document::ProjectDocument& document, const std::string& graph)
{
    HashMean mean;
    int runs = 0;
    for (const auto& r : document.runs())
        if (r->kind == document::RunKind::Partition && r->algorithm == "hash" && r->derivedFrom == 0
            && r->application == graph && !document.isStale(*r)) {
            mean.seconds += r->metric("transfer_time_s").value_or(0);
            mean.usd += r->metric("wan_usd").value_or(0);
            ++runs;
        }
    if (runs > 0) {
        mean.seconds /= runs;
        mean.usd /= runs;
    }
    return mean;
}

/// One paragraph per graph with current partition runs: the one of shortest transfer time, against the mean of the
/// hash runs (Geo-Cut's baseline) in time and WAN dollars, and the next best partitioner.
QString partitionSummaries(const document::ProjectDocument& document)
{
    QString h;
    for (const auto& graph : document.project()->graphs) {
        std::vector<RunPtr> runs;
        for (const auto& r : document.runs())
            if (r->kind == document::RunKind::Partition && r->application == graph.name && !document.isStale(*r)
                && r->metric("transfer_time_s"))
                runs.push_back(r);
        if (runs.empty())
            continue;
        std::stable_sort(runs.begin(), runs.end(), [](const RunPtr& a, const RunPtr& b) {
            return *a->metric("transfer_time_s") < *b->metric("transfer_time_s");
        });
        const Run& best = *runs.front();
        const double time = *best.metric("transfer_time_s");
        QString p = QString("For the graph <b>%1</b>, partition with <b>%2</b>. ").arg(esc(graph.name), runName(best));
        const HashMean hash = hashMean(document, graph.name);
        if (hash.seconds > 0 && best.algorithm != "hash") {
            p += QString("Its transfer time per iteration is %1 than hash's").arg(against(time, hash.seconds, "s"));
            const auto usd = best.metric("wan_usd");
            if (usd && hash.usd > 0) {
                const double change = (*usd - hash.usd) / hash.usd;
                p += QString(", and its WAN egress costs %1 per iteration, %2 %3")
                         .arg(formatQuantity(*usd, "USD"), formatQuantity(std::abs(change), "%"),
                              change <= 0 ? "less" : "more");
            }
            p += ".";
        } else {
            p += QString("Its transfer time per iteration, %1, is the shortest of the runs compared.")
                     .arg(formatQuantity(time, "s"));
        }
        const auto next = std::find_if(runs.begin() + 1, runs.end(),
                                       [&](const RunPtr& r) { return r->algorithm != best.algorithm; });
        if (next != runs.end())
            p += QString(" The next best, %1, takes %2.")
                     .arg(runName(**next), formatQuantity(*(*next)->metric("transfer_time_s"), "s"));
        h += "<p class='recommendation'>" + p + "</p>";
    }
    return h;
}

QString summarySection(const ReportInput& input, const std::vector<document::Recommendation>& recommendations)
{
    const auto& document = *input.document;
    QString h = "<h2>1 Summary</h2>";
    const QString partitions = partitionSummaries(document);
    if (recommendations.empty() && partitions.isEmpty())
        h += "<p>No current runs: the sections below describe the inputs only. Run mappers or partitioners (Run "
             "&gt; Run Ticked Algorithms, or <code>meridian-cli report</code> on a project without runs) to get a "
             "recommendation.</p>";
    for (const auto& r : recommendations)
        h += "<p class='recommendation'>" + recommendationSentence(input, r) + "</p>";
    h += partitions;
    if (!recommendations.empty()) {
        std::vector<std::pair<QString, QStringList>> rows;
        for (const auto& r : recommendations) {
            const Run& best = *r.best;
            const auto usd = best.metric(r.usdMetric);
            rows.push_back(
                {{},
                 {esc(r.application), runName(best), formatQuantity(best.metric("predicted_s").value_or(NAN), "s"),
                  formatQuantity(*best.metric("cost_s"), "s"),
                  r.baselineCost ? formatQuantity(*r.baselineCost / *best.metric(r.metric), "x") : "\u2014",
                  usd ? formatQuantity(*usd, "USD") : "\u2014", r.runnerUp ? runName(*r.runnerUp) : "\u2014"}});
        }
        h += tableHtml({{"Application"},
                        {"Recommended run"},
                        {"Predicted time", true},
                        {"Traffic cost", true},
                        {"Speed-up", true},
                        {"Dollars", true},
                        {"Next best"}},
                       rows);
        h += "<p class='muted'>Predicted time: the run time of the application's communication, SimGrid's SMPI "
             "replaying its trace or its matrices as bulk-synchronous steps on the project's platform (see "
             "Method); runs are recommended by it. Traffic cost: SC17's eq. 3, every message's latency and transfer "
             "time added as if one process sent them all, a measure of total traffic rather than a time. Speed-up: "
             "the baseline's predicted time (or cost) over the recommended run's. Dollars: per iteration.</p>";
    }
    if (const auto stale = document.staleRuns(); !stale.empty())
        h += QString("<p>%1 run(s) are stale (computed on inputs that have changed since) and are not "
                     "recommended; they are marked in the tables.</p>")
                 .arg(stale.size());
    return h;
}

QString sitesTable(const model::Topology& topology)
{
    std::vector<std::pair<QString, QStringList>> rows;
    for (int s = 0; s < topology.siteCount(); ++s) {
        const auto& site = topology.site(s);
        rows.push_back(
            {{},
             {esc(site.name), formatCoordinate(site.latitude), formatCoordinate(site.longitude),
              QString::number(topology.hostCountOf(s)), QString::number(topology.capacity(s)),
              formatQuantity(site.uplinkMBps, "MB/s"), formatQuantity(site.downlinkMBps, "MB/s"),
              formatQuantity(site.egressUsdPerGB, "USD/GB"), formatQuantity(site.instanceUsdPerHour, "USD/h")}});
    }
    return tableHtml({{"Site"},
                      {"Latitude", true},
                      {"Longitude", true},
                      {"Hosts", true},
                      {"Slots", true},
                      {"Uplink", true},
                      {"Downlink", true},
                      {"Egress", true},
                      {"Instance", true}},
                     rows);
}

QString inputsSection(const ReportInput& input, FigureWriter& figure)
{
    const auto& document = *input.document;
    const auto project = document.project();
    const auto& topology = project->topology;
    QString h = "<section class='chapter'><h2>2 Inputs</h2>";
    // One site has no link between sites to estimate: the distance model would describe nothing.
    QString network = topology.siteCount() > 1 ? document.networkModelText() : QString();
    if (network.endsWith('.'))
        network.chop(1);
    h += QString("<p>%1 with %2 and %3.%4</p>")
             .arg(counted(topology.siteCount(), "site"), counted(topology.hostCount(), "host"),
                  counted(topology.siteCount() ? topology.totalCapacity() : 0, "slot"),
                  network.isEmpty() ? QString() : " Network: " + esc(network) + ".");
    h += keep("<h3>Sites</h3>" + sitesTable(topology));
    h += figure("map");
    if (topology.siteCount() == 1) {
        const auto& network = document.completeNetwork();
        h += QString("<p>Within the one site: latency %1, bandwidth %2 between any two of its hosts (unless the "
                     "project gives host-level links).</p>")
                 .arg(formatQuantity(network.latencyMs(0, 0) / 1000.0, "s"),
                      formatQuantity(network.bandwidthMBps(0, 0), "MB/s"));
    }
    if (figure.has("latency") || figure.has("bandwidth")) {
        QString network = "<h3>Network</h3>" + figure("latency", "half");
        network += figure("bandwidth", "half");
        h += keep(network);
    }
    if (!project->applications.empty()) {
        std::vector<std::pair<QString, QStringList>> rows;
        for (const auto& app : project->applications)
            rows.push_back(
                {{},
                 {esc(app.name), QString::number(app.comm.processCount()), QString::number(app.comm.nonZeros()),
                  formatQuantity(app.comm.totalBytes(), "bytes"), QString::number(app.pins.size())}});
        h += keep(
            "<h3>Applications</h3>"
            + tableHtml({{"Application"}, {"Processes", true}, {"Pairs", true}, {"Volume", true}, {"Pinned", true}},
                        rows));
        for (const auto& app : project->applications)
            h += figure("volume:" + QString::fromStdString(app.name), "half");
    }
    if (!project->sources.empty()) {
        QString sources = "<h3>Sources</h3><ul class='notes'>";
        for (const auto& s : project->sources)
            sources += "<li>" + codeSpans(esc(s)) + "</li>";
        h += keep(sources + "</ul>");
    }
    return h + "</section>";
}

QString mappingRows(const ReportInput& input, const document::Recommendation* r, const std::string& application)
{
    const auto& document = *input.document;
    std::vector<RunPtr> runs;
    for (const auto& run : document.runs())
        if (run->kind == document::RunKind::Mapping && run->application == application)
            runs.push_back(run);
    // Fastest first: by predicted time, runs without one after, by traffic cost.
    std::stable_sort(runs.begin(), runs.end(), [](const RunPtr& a, const RunPtr& b) {
        const double ta = a->metric("predicted_s").value_or(INFINITY), tb = b->metric("predicted_s").value_or(INFINITY);
        if (ta != tb)
            return ta < tb;
        return a->metric("cost_s").value_or(INFINITY) < b->metric("cost_s").value_or(INFINITY);
    });
    const std::string metric = r ? r->metric : std::string("cost_s");
    std::vector<std::pair<QString, QStringList>> rows;
    for (const auto& run : runs) {
        const double cost = run->metric("cost_s").value_or(NAN);
        const double value = run->metric(metric).value_or(NAN);
        const bool stale = document.isStale(*run);
        const QString rowClass = stale ? "stale" : r && r->best == run ? "best" : "";
        const auto money = [&run](const char* id) { return formatQuantity(run->metric(id).value_or(NAN), "USD"); };
        rows.push_back(
            {rowClass,
             {runName(*run), formatQuantity(run->metric("predicted_s").value_or(NAN), "s"), formatQuantity(cost, "s"),
              r && r->baselineCost && value > 0 ? formatQuantity(*r->baselineCost / value, "x") : "\u2014",
              formatQuantity(run->metric("wan_bytes").value_or(NAN), "bytes"), money("wan_usd"), money("usd"),
              formatQuantity(run->runtimeSeconds, "s"), stale ? "stale" : "current"}});
    }
    return tableHtml({{"Run"},
                      {"Predicted time", true},
                      {"Traffic cost", true},
                      {"Speed-up", true},
                      {"Between sites", true},
                      {"Egress", true},
                      {"Dollars", true},
                      {"Mapper ran", true},
                      {"Status"}},
                     rows);
}

/// Each partition run's metrics (Geo-Cut's GAS model), the transfer time and WAN cost also as a ratio to the mean
/// current hash run of its graph (Geo-Cut Figs. 5-8).
QString partitionTable(const document::ProjectDocument& document)
{
    const auto ratio = [](double value, double mean) {
        return mean > 0 ? formatQuantity(value / mean, "x") : QString("\u2014");
    };
    std::vector<std::pair<QString, QStringList>> rows;
    for (const auto& r : document.runs()) {
        if (r->kind != document::RunKind::Partition)
            continue;
        const double time = r->metric("transfer_time_s").value_or(NAN), usd = r->metric("wan_usd").value_or(NAN);
        const HashMean base = hashMean(document, r->application);
        const auto over = r->metric("over_budget_usd");
        const QString budget = !over ? QString("\u2014") : *over > 0 ? "+" + formatQuantity(*over, "USD") : "met";
        rows.push_back({document.isStale(*r) ? "stale" : "",
                        {"<span class=nowrap>" + esc(r->label()) + "</span>", formatQuantity(time, "s"),
                         ratio(time, base.seconds), formatQuantity(usd, "USD"), ratio(usd, base.usd),
                         formatQuantity(r->metric("replication_factor").value_or(NAN), ""), budget,
                         document.isStale(*r) ? "stale" : "current"}});
    }
    if (rows.empty())
        return {};
    const QString heading = "<h3>Partition runs</h3><p>Each partition run's transfer time per iteration and WAN cost, "
                            "also as a ratio to the mean hash run of its graph (vs hash).</p>";
    const QString table = tableHtml({{"Run"},
                                     {"Transfer time", true},
                                     {"vs hash", true},
                                     {"WAN cost", true},
                                     {"vs hash", true},
                                     {"Replication", true},
                                     {"Budget"},
                                     {"Status"}},
                                    rows);
    // A short table stays whole with its heading; a long one keeps its header on every page.
    return rows.size() <= 25 ? keep(heading + table) : keep(heading) + table;
}

QString resultsSection(const ReportInput& input, const std::vector<document::Recommendation>& recommendations,
                       FigureWriter& figure)
{
    const auto& document = *input.document;
    QString h = "<section class='chapter'><h2>3 Results</h2>";
    if (document.runs().empty())
        return h + "<p>No runs yet.</p></section>";
    std::vector<std::string> applications;
    for (const auto& run : document.runs())
        if (run->kind == document::RunKind::Mapping
            && std::find(applications.begin(), applications.end(), run->application) == applications.end())
            applications.push_back(run->application);
    if (!applications.empty())
        h += "<p>Each application's runs, fastest first (by predicted time). Speed-up is the baseline's predicted "
             "time over the run's (its traffic cost where runs have no predicted time); the recommended run is "
             "highlighted, stale runs are shaded.</p>";
    for (const auto& application : applications) {
        const auto found = std::find_if(recommendations.begin(), recommendations.end(),
                                        [&](const auto& r) { return r.application == application; });
        h += keep("<h3>" + esc(application) + "</h3>"
                  + mappingRows(input, found == recommendations.end() ? nullptr : &*found, application));
        h += figure("skyline:" + QString::fromStdString(application));
        for (const auto& run : document.runs())
            if (run->application == application && !run->costSamples.empty()) {
                if (!document::samplesDiffer(*run)) {
                    h += QString("<p>All %1 placements that %2 sampled have the same traffic cost, %3: where "
                                 "the processes go does not change it (no curve to draw).</p>")
                             .arg(QLocale(QLocale::English).toString(static_cast<qlonglong>(run->costSamples.size())),
                                  runName(*run), formatQuantity(run->costSamples.front(), "s"));
                    continue;
                }
                h += figure(QString("cdf:%1").arg(run->id));
                h += figure(QString("best-of-k:%1").arg(run->id));
            }
    }
    if (!applications.empty())
        h += figure("bars");
    h += partitionTable(document);
    for (const auto& g : document.project()->graphs)
        h += figure("partitions:" + QString::fromStdString(g.name));
    return h + "</section>";
}

QString whereTimeGoesSection(const ReportInput& input, const std::vector<document::Recommendation>& recommendations,
                             FigureWriter& figure)
{
    if (recommendations.empty())
        return {};
    const auto& topology = input.document->project()->topology;
    // A chapter starts a page; one that only says that no traffic leaves a site (a single-site study) does not.
    const bool anyPairs = std::any_of(recommendations.begin(), recommendations.end(), [&](const auto& r) {
        return !document::heaviestSitePairs(*r.best, topology, 1).empty();
    });
    QString h = QString("<section%1><h2>4 Where the time goes</h2>").arg(anyPairs ? " class='chapter'" : "");
    if (anyPairs)
        h += "<p>The costliest pairs of sites in each recommended run: what one site sends the other per iteration, "
             "that traffic's time and share of the run's traffic cost (SC17 eq. 3), and its egress charge.</p>";
    QStringList oneSite;
    for (const auto& r : recommendations) {
        const auto pairs = document::heaviestSitePairs(*r.best, topology, 8);
        const QString heading = "<h3>" + runName(*r.best) + " on " + esc(r.application) + "</h3>";
        if (pairs.empty()) {
            oneSite << runName(*r.best) + " on " + esc(r.application);
            continue;
        }
        double share = 0.0;
        std::vector<std::pair<QString, QStringList>> rows;
        for (const auto& p : pairs) {
            share += p.shareOfCost;
            rows.push_back({{},
                            {esc(topology.site(p.from).name), esc(topology.site(p.to).name),
                             formatQuantity(p.bytes, "bytes"), formatQuantity(p.seconds, "s"),
                             formatQuantity(p.shareOfCost, "%"), formatQuantity(p.egressUsd.value_or(NAN), "USD")}});
        }
        h += keep(
            heading
            + QString("<p>These %1 pairs account for %2 of the cost.</p>")
                  .arg(pairs.size())
                  .arg(formatQuantity(share, "%"))
            + tableHtml({{"From"}, {"To"}, {"Bytes", true}, {"Time", true}, {"Share", true}, {"Egress", true}}, rows));
        h += figure(QString("traffic:%1").arg(r.best->id));
    }
    // Said once for all of them, not once per run.
    if (!oneSite.isEmpty())
        h += QString("<p>%1 %2 every process on one site: no traffic leaves a site.</p>")
                 .arg(oneSite.size() == 1
                          ? oneSite.front()
                          : QStringList(oneSite.mid(0, oneSite.size() - 1)).join(", ") + " and " + oneSite.back(),
                      oneSite.size() == 1 ? "keeps" : "keep");
    return h + "</section>";
}

/// The processes each run of one application puts on each site, one column per run (at most eight per table), with
/// the sites' slots: one table instead of a table per run, so that runs that differ stand out.
QString processesPerSite(const ReportInput& input, const std::vector<RunPtr>& runs)
{
    const auto& topology = input.document->project()->topology;
    QString h;
    constexpr std::size_t kColumns = 8;
    for (std::size_t first = 0; first < runs.size(); first += kColumns) {
        const std::size_t last = std::min(runs.size(), first + kColumns);
        std::vector<Column> columns{{"Site"}, {"Slots", true}};
        std::vector<std::vector<int>> loads;
        for (std::size_t r = first; r < last; ++r) {
            columns.push_back(
                {QString("#%1 %2").arg(runs[r]->id).arg(QString::fromStdString(runs[r]->algorithm)), true});
            loads.push_back(runs[r]->placement.siteLoad(topology.siteCount()));
        }
        std::vector<std::pair<QString, QStringList>> rows;
        for (int s = 0; s < topology.siteCount(); ++s) {
            QStringList cells{esc(topology.site(s).name), QString::number(topology.capacity(s))};
            bool used = false;
            for (const auto& load : loads) {
                const int n = s < static_cast<int>(load.size()) ? load[s] : 0;
                used = used || n > 0;
                cells << (n > 0 ? QString::number(n) : QString("\u00b7"));
            }
            if (used)
                rows.push_back({{}, cells});
        }
        h += tableHtml(columns, rows);
    }
    return h;
}

QString runDetails(const ReportInput& input, const Run& run)
{
    QString h = "<div class='keep'><h4>" + esc(run.label())
        + (input.document->isStale(run) ? QString(" (stale)") : QString()) + "</h4>";
    h += "<p>Parameters: " + (run.params.values().empty() ? QString("defaults") : esc(run.params.toString()))
        + QString(". Seed %1; the %2 ran for %3.</p>")
              .arg(run.seed)
              .arg(run.kind == document::RunKind::Partition ? "partitioner" : "mapper")
              .arg(formatQuantity(run.runtimeSeconds, "s"));
    if (!run.notes.empty()) {
        h += "<ul class='notes'>";
        for (const auto& n : run.notes)
            h += "<li>" + esc(n) + "</li>";
        h += "</ul>";
    }
    return h + "</div>";
}

/// Every run, by application: the processes per site of its mapping runs in one table, then each run's parameters
/// and notes.
QString runsInDetailSection(const ReportInput& input)
{
    const auto& document = *input.document;
    QString h = "<section class='chapter'><h2>5 Runs in detail</h2>";
    std::vector<std::string> subjects;
    for (const auto& run : document.runs())
        if (std::find(subjects.begin(), subjects.end(), run->application) == subjects.end())
            subjects.push_back(run->application);
    for (const auto& subject : subjects) {
        std::vector<RunPtr> runs, mapped;
        for (const auto& run : document.runs())
            if (run->application == subject) {
                runs.push_back(run);
                if (run->kind == document::RunKind::Mapping && run->placement.processCount() > 0)
                    mapped.push_back(run);
            }
        QString head = "<h3>" + esc(subject) + "</h3>";
        if (!mapped.empty())
            head += "<p>Processes per site (\u00b7: none).</p>" + processesPerSite(input, mapped);
        h += keep(head);
        for (const auto& run : runs)
            h += runDetails(input, *run);
    }
    return h + "</section>";
}

QString methodSection()
{
    return "<section class='chapter'><h2>6 Method</h2>"
           "<p><b>Predicted run time.</b> Runs are recommended by their predicted run time: SimGrid's SMPI replays "
           "the application on the project's platform (every site's links, shared by the flows that cross them, "
           "and the MPI protocol: eager below 64 KiB, rendezvous above), each process on the host the placement "
           "names. An application captured with its trace replays what each rank did, in order; one known by its "
           "matrices replays them as bulk-synchronous steps (each pair's messages spread evenly over S steps, S the "
           "median message count; every step each process posts its receives and sends, then waits for all of "
           "them). Each run's notes say which model it used.</p>"
           "<p><b>Traffic cost.</b> The geo-distributed process mapping cost (SC17's eq. 3): over every pair of "
           "processes, the messages times the latency between their sites (or their instances, within a site) plus "
           "the bytes over the bandwidth between them, summed (the alpha-beta model). It would be the communication "
           "time if no "
           "two transfers overlapped; it measures total traffic, and where transfers do overlap it can rank "
           "placements otherwise than their time does: the summary says so where it does.</p>"
           "<p><b>Dollars.</b> WAN egress is the bytes leaving each site times that site's price per GB; instances "
           "are the nodes a placement uses times their hourly price for the predicted run time (the traffic cost "
           "where a run has none). Both are per iteration.</p>"
           "<p><b>Baseline.</b> Random placements of the same processes on the same slots: the mean of the random "
           "runs when there are any, otherwise the mean of the placements a monte-carlo run sampled.</p>"
           "<p><b>Figures.</b> Charts, the map and the heatmaps are drawn by the workbench's own views at the size "
           "they are printed; a heatmap's colours are on a log scale where its caption says so.</p></section>";
}

} // namespace

QString reportHtml(const ReportInput& input)
{
    const auto& document = *input.document;
    const auto recommendations = document::recommend(document.runs(), [&](const Run& r) { return document.isStale(r); });
    FigureWriter figure(input.figures);
    const auto project = document.project();
    QString h = "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>"
        + esc(project->name.empty() ? std::string("Untitled project") : project->name)
        + " \u2014 placement study</title><style>" + kStyle + "</style></head><body>";
    // One section after another: the figures are numbered in the order they are written.
    h += titlePage(input);
    h += summarySection(input, recommendations);
    h += inputsSection(input, figure);
    h += resultsSection(input, recommendations, figure);
    h += whereTimeGoesSection(input, recommendations, figure);
    if (!document.runs().empty())
        h += runsInDetailSection(input);
    return h + methodSection() + "</body></html>";
}

Status writeHtmlReport(const ReportInput& input, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return ioError(path, "cannot write: " + file.errorString());
    file.write(reportHtml(input).toUtf8());
    if (!file.commit())
        return ioError(path, "cannot write: " + file.errorString());
    return {};
}

Status writePdfReport(const ReportInput& input, const QString& path)
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return ioError(path, "cannot create a temporary folder for the report's HTML: " + dir.errorString());
    const QString html = dir.filePath("report.html");
    if (auto s = writeHtmlReport(input, html); !s)
        return s;
    return printHtmlToPdf(html, path);
}

Status writeReport(const ReportInput& input, const QString& path)
{
    return QFileInfo(path).suffix().compare("pdf", Qt::CaseInsensitive) == 0 ? writePdfReport(input, path)
                                                                             : writeHtmlReport(input, path);
}

} // namespace meridian::report
