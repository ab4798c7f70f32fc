#include "app/mapping/ui/run_explanation.h"

#include "app/project/run_analysis.h"
#include "app/report/report_numbers.h"

#include <QCoreApplication>

#include <algorithm>

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

/// The run against the application's other current runs: whether it is the recommended (fastest predicted) one,
/// and in words where eq. 3 and the predicted time rank it and the recommended run differently.
QString rankingHtml(const document::ProjectDocument& document, const document::Run& run)
{
    if (run.kind != document::RunKind::Mapping || document.isStale(run))
        return {};
    const auto recommendations = document::recommend(document.runs(),
                                                     [&](const document::Run& r) { return document.isStale(r); });
    const auto found = std::find_if(recommendations.begin(), recommendations.end(),
                                    [&](const auto& r) { return r.application == run.application; });
    QString h;
    const auto& project = *document.project();
    const auto& network = document.completeNetwork();
    if (const std::string why = document::slowestStep(run, project, network); !why.empty())
        h += "<p>" + tr("In the step-time model, %1.").arg(esc(why)) + "</p>";
    if (found == recommendations.end() || found->metric != "predicted_s")
        return h;
    const auto& best = *found->best;
    if (best.id == run.id) {
        h += "<p><b>" + tr("Recommended") + ":</b> " + tr("the fastest predicted of the application's current runs.")
            + "</p>";
        if (found->lowestTrafficCost)
            h += "<p>" + esc(document::trafficButSlower(*found->lowestTrafficCost, best, project, network)) + ".</p>";
        return h;
    }
    if (const std::string words = document::trafficButSlower(run, best, project, network); !words.empty())
        h += "<p>" + tr("Against the recommended run #%1: %2.").arg(best.id).arg(esc(words)) + "</p>";
    return h;
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
        + ":</b> " + QString::number(run.seed) + "<br><b>"
        + (run.kind == document::RunKind::Mapping ? tr("Mapper runtime") : tr("Runtime")) + ":</b> "
        + report::formatQuantity(run.runtimeSeconds, "s") + "</p>";
    h += "<h4>" + tr("Metrics") + "</h4><table cellspacing='0' cellpadding='2'>";
    for (const auto& m : run.metrics)
        h += QString("<tr><td>%1</td><td align='right'>%2</td></tr>")
                 .arg(esc(m.label), report::formatQuantity(m.value, QString::fromStdString(m.unit)));
    h += "</table>";
    h += rankingHtml(document, run);
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
