#include "app/capture/ui/capture_actions.h"

#include "app/capture/capture.h"
#include "app/jobs/output_tail.h"
#include "app/project/project_edits.h"
#include "app/project/project_imports.h"

#include <QObject>

namespace meridian::actions {

Status importCapturedApplication(document::ProjectDocument& document, const std::string& name, const QString& path,
                                 const QString& trace)
{
    std::string described;
    auto comm = capture::readCapture(path, described);
    if (!comm)
        return comm.error();
    document::Application application;
    application.name = name;
    application.description = described;
    application.comm = std::move(*comm);
    if (!trace.isEmpty()) {
        auto read = document::readTraceFor(trace.toStdString(), application.comm);
        if (!read)
            return read.error();
        application.trace = std::move(*read);
    }
    return document.edit(QObject::tr("Import captured application %1").arg(QString::fromStdString(name)),
                         [&](const document::Project& p) { return document::withApplication(p, application); });
}

int startCapture(jobs::JobRunner& runner, document::ProjectDocument& document, const CaptureRequest& request,
                 std::function<void(const QString& message)> failed, std::function<void()> landed)
{
    const QString title = QObject::tr("Capture of %1").arg(request.command.join(' '));
    return runner.start<capture::CaptureOutcome>(
        title,
        [request](const Feedback& feedback) {
            jobs::OutputTail tail(feedback);
            capture::CaptureOptions options;
            options.output = [&tail](const QByteArray& output) { tail.add(output); };
            options.trace = request.trace;
            return capture::runCapture(request.command, request.prefix, options, feedback);
        },
        [&document, request, failed = std::move(failed),
         landed = std::move(landed)](Expected<capture::CaptureOutcome> outcome) {
            if (!outcome) {
                failed(QString::fromStdString(outcome.error().toString()));
                return;
            }
            if (outcome->crashed || outcome->exitStatus != 0) {
                failed(outcome->crashed && outcome->signal > 0
                           ? QObject::tr("'%1' was killed by signal %2; nothing was written")
                                 .arg(request.command.value(0))
                                 .arg(outcome->signal)
                           : outcome->crashed
                           ? QObject::tr("'%1' crashed; nothing was written").arg(request.command.value(0))
                           : QObject::tr("'%1' exited with status %2; nothing was written")
                                 .arg(request.command.value(0))
                                 .arg(outcome->exitStatus));
                return;
            }
            if (auto added = importCapturedApplication(document, request.name, request.prefix + ".volume.mtx",
                                                       request.trace ? request.prefix + ".ti" : QString());
                !added)
                failed(QString::fromStdString(added.error().toString()));
            else if (landed)
                landed();
        });
}

} // namespace meridian::actions
