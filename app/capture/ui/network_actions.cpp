#include "app/capture/ui/network_actions.h"

#include "app/jobs/output_tail.h"
#include "app/project/measurement_age.h"
#include "app/project/project_edits.h"
#include "core/io/netpipe.h"

#include <QObject>

namespace meridian::actions {

namespace {

QString siteName(const document::Project& project, int site)
{
    return QString::fromStdString(project.topology.site(site).name);
}

} // namespace

Expected<QString> importProbeResults(document::ProjectDocument& document, const QString& path)
{
    return io::readProbeResults(path.toStdString()).and_then([&](const io::ProbeResults& probe) {
        return applyProbeResults(document, probe);
    });
}

Expected<QString> applyProbeResults(document::ProjectDocument& document, const io::ProbeResults& results)
{
    const auto* probe = &results;
    auto imported = document::withProbeResults(*document.project(), *probe);
    if (!imported)
        return imported.error();
    const QString summary = imported->bySite
        ? QObject::tr("the latency and bandwidth of %n site pair(s), measured %1", "", imported->siteEntries)
              .arg(document::measurementDateText(probe->measuredAt))
        : QObject::tr("%n host link(s) and the medians of %1 site pair(s), measured %2", "", imported->hostLinks)
              .arg(imported->siteEntries)
              .arg(document::measurementDateText(probe->measuredAt));
    if (auto s = document.edit(QObject::tr("Import network measurement"),
                               [&](const document::Project&) -> Expected<document::Project> {
                                   return std::move(imported->project);
                               });
        !s)
        return s.error();
    return summary;
}

Expected<QString> importNetpipeLink(document::ProjectDocument& document, const QString& path, int from, int to,
                                    bool bothDirections)
{
    auto link = io::readNetpipe(path.toStdString());
    if (!link)
        return link.error();
    const auto project = document.project();
    if (auto s = document.edit(QObject::tr("Import NetPIPE link"),
                               [&](const document::Project& p) {
                                   return document::withMeasuredLink(p, from, to, link->latencyMs, link->bandwidthMBps,
                                                                     bothDirections, link->measuredAt);
                               });
        !s)
        return s.error();
    return QObject::tr("%1 %2 %3: %4 ms, %5 MB/s, measured %6")
        .arg(siteName(*project, from), bothDirections ? QString("\u2194") : QString("\u2192"), siteName(*project, to))
        .arg(link->latencyMs, 0, 'g', 4)
        .arg(link->bandwidthMBps, 0, 'g', 5)
        .arg(document::measurementDateText(link->measuredAt));
}

int startProbe(jobs::JobRunner& runner, document::ProjectDocument& document, const capture::ProbeRequest& request,
               std::function<void(const QString& message)> failed, std::function<void(const QString& summary)> landed)
{
    return runner.start<io::ProbeResults>(
        QObject::tr("Network probe with %1").arg(request.launcher.join(' ')),
        [request](const Feedback& feedback) {
            jobs::OutputTail tail(feedback);
            return capture::runProbe(
                request, [&tail](const QByteArray& output) { tail.add(output); }, feedback);
        },
        [&document, failed = std::move(failed), landed = std::move(landed)](Expected<io::ProbeResults> results) {
            if (!results) {
                failed(QString::fromStdString(results.error().toString()));
                return;
            }
            auto imported = applyProbeResults(document, *results);
            if (!imported)
                failed(QString::fromStdString(imported.error().toString()));
            else if (landed)
                landed(*imported);
        });
}

} // namespace meridian::actions
