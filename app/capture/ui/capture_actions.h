#pragma once

#include "app/jobs/job_runner.h"
#include "app/project/ui/project_document.h"
#include "core/common/expected.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <string>

namespace meridian::actions {

/// Adds an application read from a capture (capture::readCapture: Meridian's capture files, Open MPI's
/// monitoring files or an OTF2 trace), with its time-independent trace when `trace` names one (checked against
/// the matrix), as one undoable edit. On error the document is unchanged.
Status importCapturedApplication(document::ProjectDocument& document, const std::string& name, const QString& path,
                                 const QString& trace = {});

/// Runs an MPI command with the tracer as a background job (its stage shows the command's last output line;
/// cancel stops the command) and, when it succeeds, adds what it sent as the application `name`.
/// `failed` gets a message when the command fails, writes nothing or its capture cannot be added; `landed`
/// runs once the application was added.
struct CaptureRequest {
    QStringList command;
    QString prefix;
    std::string name;
    bool trace = false; ///< also record the time-independent trace, kept with the application
};
int startCapture(jobs::JobRunner& runner, document::ProjectDocument& document, const CaptureRequest& request,
                 std::function<void(const QString& message)> failed, std::function<void()> landed = {});

} // namespace meridian::actions
