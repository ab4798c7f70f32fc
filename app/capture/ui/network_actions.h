#pragma once

#include "app/capture/probe_run.h"
#include "app/jobs/job_runner.h"
#include "app/project/ui/project_document.h"
#include "core/common/expected.h"

#include <QString>

#include <functional>

namespace meridian::actions {

/// Imports a meridian-probe result (PREFIX or any of its three files) into the network as one undoable edit:
/// every pair it measured becomes measured with the probe's date (document::withProbeResults), so runs that
/// used older entries become stale. Returns a sentence saying what was set; on error nothing changes.
Expected<QString> importProbeResults(document::ProjectDocument& document, const QString& path);
/// Applies results already read (what a probe job hands back), as importProbeResults does.
Expected<QString> applyProbeResults(document::ProjectDocument& document, const io::ProbeResults& results);

/// Sets one site pair's latency and bandwidth from a NetPIPE output file, dated by the file, as one undoable
/// edit (both directions unless `bothDirections` is false). Returns a sentence saying what was set.
Expected<QString> importNetpipeLink(document::ProjectDocument& document, const QString& path, int from, int to,
                                    bool bothDirections);

/// Runs meridian-probe as a background job (its stage shows the probe's last output line; cancel stops it) and,
/// when it succeeds, imports its results. `failed` gets a message when the probe fails or its results cannot be
/// imported; `landed` gets importProbeResults' sentence.
int startProbe(jobs::JobRunner& runner, document::ProjectDocument& document, const capture::ProbeRequest& request,
               std::function<void(const QString& message)> failed, std::function<void(const QString& summary)> landed);

} // namespace meridian::actions
