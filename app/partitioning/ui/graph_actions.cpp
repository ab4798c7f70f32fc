#include "app/partitioning/ui/graph_actions.h"

#include "app/partitioning/partition_operation.h"
#include "app/project/project_edits.h"
#include "core/io/edge_partition_io.h"
#include "core/io/text_file.h"

#include <QLocale>
#include <QObject>

namespace meridian::actions {

int startGraphImport(jobs::JobRunner& runner, document::ProjectDocument& document, const GraphSource& source,
                     std::function<void(const QString& message)> failed,
                     std::function<void(const QString& summary)> landed)
{
    const auto project = document.project();
    return runner.start<document::GraphInput>(
        QObject::tr("Import graph %1").arg(QString::fromStdString(source.name)),
        [source, project](const Feedback& feedback) -> Expected<document::GraphInput> {
            auto imported = document::importGraph(source.name, source.path, source.format, source.homesPath,
                                                  source.homesSeed, project->topology, feedback);
            if (!imported)
                return imported.error();
            return std::move(imported->first);
        },
        [&document, failed = std::move(failed), landed = std::move(landed)](Expected<document::GraphInput> input) {
            if (!input) {
                failed(QString::fromStdString(input.error().toString()));
                return;
            }
            const QString name = QString::fromStdString(input->name);
            const auto& s = input->stats;
            const QString summary = QObject::tr("graph %1: %2 vertices, %3 edges")
                                        .arg(name, QLocale().toString(static_cast<qulonglong>(s.vertices)),
                                             QLocale().toString(static_cast<qulonglong>(s.edges)));
            auto status = document.edit(QObject::tr("Import graph %1").arg(name),
                                        [&](const document::Project& p) { return document::withGraph(p, *input); });
            if (!status)
                failed(QString::fromStdString(status.error().toString()));
            else if (landed)
                landed(summary);
        });
}

int startPartitionExport(jobs::JobRunner& runner, const document::ProjectDocument& document, int runId,
                         const QString& edgesPath, const QString& mastersPath, std::function<void(const QString&)> done)
{
    const auto run = document.run(runId);
    const auto project = document.project();
    const QString title = QObject::tr("Export the partition of run %1").arg(runId);
    if (!run || run->kind != document::RunKind::Partition || !run->partition) {
        done(QObject::tr("run %1 is not a partition run").arg(runId));
        return -1;
    }
    return runner.start<bool>(
        title,
        [run, project, edges = edgesPath.toStdString(),
         masters = mastersPath.toStdString()](const Feedback& feedback) -> Expected<bool> {
            feedback.setProgress(0.0, "reading the graph");
            auto loaded = ops::loadRunGraph(*project, *run, feedback);
            if (!loaded)
                return loaded.error();
            feedback.setProgress(0.5, "writing");
            std::vector<io::PendingFile> files{io::edgePartitionFile(edges, loaded->graph, *run->partition,
                                                                     project->topology, feedback.executor()),
                                               io::mastersFile(masters, loaded->graph, *run->partition,
                                                               project->topology, feedback.executor())};
            if (auto s = io::writeFilesTogether(files); !s)
                return s.error();
            return true;
        },
        [done = std::move(done)](const Expected<bool>& written) {
            done(written ? QString() : QString::fromStdString(written.error().toString()));
        });
}

} // namespace meridian::actions
