#include "app/workbench/run_explanation.h"

#include "app/document/run_analysis.h"
#include "app/report/report_numbers.h"

#include <QCoreApplication>

namespace meridian::workbench {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("RunExplanation", text); }
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString sitesHtml(const document::Run& run, const model::Topology& topology)
{
    const auto load = run.placement.siteLoad(topology.siteCount());
    QString h = "<h4>" + tr("Processes per site") + "</h4><table cellspacing='0' cellpadding='2'><tr><th align='left'>"
        + tr("Site") + "</th><th align='right'>" + tr("Processes") + "</th><th align='right'>" + tr("Slots")
        + "</th><th align='right'>" + tr("Full") + "</th></tr>";
    for (int s = 0; s < topology.siteCount() && s < static_cast<int>(load.size()); ++s) {
        const int slots = topology.capacity(s);
        h += QString("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td><td align='right'>%4</td></tr>")
                 .arg(esc(topology.site(s).name))
                 .arg(load[s])
                 .arg(slots)
                 .arg(slots > 0 ? report::formatQuantity(double(load[s]) / slots, "%") : QString("\u2014"));
    }
    return h + "</table>";
}

QString pairsHtml(const document::Run& run, const model::Topology& topology)
{
    const auto pairs = document::heaviestSitePairs(run, topology, 6);
    if (pairs.empty())
        return "<h4>" + tr("Where the time goes") + "</h4><p>" + tr("No traffic leaves a site.") + "</p>";
    QString h = "<h4>" + tr("Where the time goes") + "</h4><table cellspacing='0' cellpadding='2'><tr><th align='left'>"
        + tr("From \u2192 to") + "</th><th align='right'>" + tr("Bytes") + "</th><th align='right'>" + tr("Time")
        + "</th><th align='right'>" + tr("Share") + "</th><th align='right'>" + tr("Egress") + "</th></tr>";
    for (const auto& p : pairs)
        h += QString("<tr><td>%1 \u2192 %2</td><td align='right'>%3</td><td align='right'>%4</td><td "
                     "align='right'>%5</td><td align='right'>%6</td></tr>")
                 .arg(esc(topology.site(p.from).name), esc(topology.site(p.to).name),
                      report::formatQuantity(p.bytes, "bytes"), report::formatQuantity(p.seconds, "s"),
                      report::formatQuantity(p.shareOfCost, "%"),
                      report::formatQuantity(p.egressUsd.value_or(NAN), "USD"));
    return h + "</table>";
}

} // namespace

QString runExplanationHtml(const document::ProjectDocument& document, const document::Run& run)
{
    const auto& topology = document.project()->topology;
    QString h = "<h3>" + esc(run.label()) + "</h3>";
    if (document.isStale(run))
        h += "<p style='color:#8a5a00'>" + tr("Stale: its inputs changed after it ran. Re-run it to update it.")
            + "</p>";
    if (run.derivedFrom > 0)
        h += "<p>" + tr("A what-if derived from run #%1: %2").arg(run.derivedFrom).arg(esc(run.derivation)) + "</p>";
    h += "<p><b>" + tr("Parameters") + ":</b> "
        + (run.params.values().empty() ? tr("defaults") : esc(run.params.toString())) + "<br><b>" + tr("Seed")
        + ":</b> " + QString::number(run.seed) + "<br><b>" + tr("Mapper runtime") + ":</b> "
        + report::formatQuantity(run.runtimeSeconds, "s") + "</p>";
    h += "<h4>" + tr("Metrics") + "</h4><table cellspacing='0' cellpadding='2'>";
    for (const auto& m : run.metrics)
        h += QString("<tr><td>%1</td><td align='right'>%2</td></tr>")
                 .arg(esc(m.label), report::formatQuantity(m.value, QString::fromStdString(m.unit)));
    h += "</table>";
    if (run.kind == document::RunKind::Mapping && run.placement.processCount() > 0) {
        h += sitesHtml(run, topology);
        h += pairsHtml(run, topology);
    }
    h += "<h4>" + tr("Notes") + "</h4>";
    if (run.notes.empty())
        h += "<p>" + tr("The algorithm left no notes.") + "</p>";
    else {
        h += "<ul>";
        for (const auto& n : run.notes)
            h += "<li>" + esc(n) + "</li>";
        h += "</ul>";
    }
    return h;
}

} // namespace meridian::workbench
