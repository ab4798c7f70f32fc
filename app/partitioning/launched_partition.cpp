#include "app/partitioning/launched_partition.h"

#include "app/partitioning/partition_files.h"
#include "app/project/project_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdio>

namespace meridian::ops {

namespace {

std::string local(const QString& text) { return text.toStdString(); }

/// The project's graph of the request, or an error naming it.
Expected<const document::GraphInput*> graphOf(const PartitionRequest& request)
{
    const int g = request.project->graphIndex(request.graph);
    if (g < 0)
        return makeError(ErrorCode::InvalidInput, "the project has no graph '" + request.graph + "'");
    return &request.project->graphs[static_cast<std::size_t>(g)];
}

/// What `meridian-cli partition` wrote with --json-out (what it prints).
Expected<QJsonObject> printedJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, "cannot read " + local(path) + ": " + local(file.errorString()));
    QJsonParseError error{};
    const QJsonDocument json = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !json.isObject() || !json.object().value("runtime_s").isDouble()
        || !json.object().value("transfer_time_s").isDouble() || !json.object().value("wan_cost_usd").isDouble())
        return makeError(ErrorCode::Io,
                         "expected the JSON object meridian-cli partition prints, with runtime_s, "
                         "transfer_time_s and wan_cost_usd",
                         SourceLocation{local(path), 0, 0});
    return json.object();
}

/// What the printed JSON says of the run: its runtime, notes, each rank's peak memory, its cost bound.
PartitionComputedElsewhere computedBy(const QJsonObject& printed, const QDir& folder,
                                      const jobs::LauncherSettings& settings)
{
    PartitionComputedElsewhere files;
    files.edgesPath = local(folder.filePath("edges.tsv"));
    files.mastersPath = local(folder.filePath("masters.tsv"));
    files.runtimeSeconds = printed.value("runtime_s").toDouble();
    for (const QJsonValue note : printed.value("notes").toArray())
        files.notes.push_back(local(note.toString()));
    char whole[64];
    std::snprintf(whole, sizeof whole, " in %.3g s (the whole command)", printed.value("whole_s").toDouble());
    std::string computed = "computed by meridian-cli under " + local(jobs::launcherDescription(settings)) + whole;
    const QJsonArray peaks = printed.value("rank_peak_memory_bytes").toArray();
    if (!peaks.isEmpty()) {
        computed += "; each rank's peak memory:";
        for (qsizetype r = 0; r < peaks.size(); ++r)
            computed += (r == 0 ? " " : ", ") + std::to_string(std::llround(peaks[r].toDouble() / 1e6)) + " MB";
    } else if (printed.value("peak_memory_bytes").isDouble()) {
        computed += "; peak memory " + std::to_string(std::llround(printed.value("peak_memory_bytes").toDouble() / 1e6))
            + " MB";
    }
    files.notes.push_back(computed);
    const QJsonValue bound = printed.value("budget").toObject().value("lower_bound_usd");
    if (bound.isDouble())
        files.costBound = bound.toDouble();
    return files;
}

/// A metric the run measured here against the one meridian-cli printed: the same files give the same number, to the
/// last digits a different order of summing changes.
Status agrees(const document::Run& run, const char* metric, const QJsonObject& printed, const char* key)
{
    const double here = run.metric(metric).value_or(NAN);
    const double there = printed.value(key).toDouble();
    if (std::abs(here - there) <= 1e-9 * std::max(std::abs(here), std::abs(there)))
        return {};
    char text[200];
    std::snprintf(text, sizeof text, "meridian-cli measured %s %.17g, but its files measure %.17g here", key, there,
                  here);
    return makeError(ErrorCode::Io, std::string(text) + ": they are not the partition it measured");
}

} // namespace

bool partitionRunSplitsOverRanks(const PartitionRequest& request)
{
    auto graph = graphOf(request);
    auto profile = cost::TrafficProfile::fromId(request.profile, request.activeFraction);
    return graph && profile
        && partitionSplitsOverRanks(request.algorithm, request.params, (*graph)->format, request.budgetUsd.has_value(),
                                    *profile);
}

Status checkPartitionLauncher(const PartitionRequest& request, const jobs::LauncherSettings& settings)
{
    if (auto checked = jobs::checkLauncherSettings(settings); !checked)
        return checked;
    if (auto graph = graphOf(request); !graph)
        return graph.error();
    if (auto profile = cost::TrafficProfile::fromId(request.profile, request.activeFraction); !profile)
        return profile.error();
    if (settings.ranks > 1 && !partitionRunSplitsOverRanks(request))
        return makeError(ErrorCode::InvalidInput,
                         request.algorithm
                             + " runs whole in one process: launch it with 1 rank (hash, hdrf with batch above 0, and "
                               "geo-cut with start=cost, batch above 0, lq_fraction=0 and replica_passes=0 split a "
                               "SNAP graph over several, without a budget, under the pagerank or sssp profile)");
    return {};
}

Expected<QStringList> launchedPartitionCommand(const PartitionRequest& request, const jobs::LauncherSettings& settings,
                                               const QString& jobFolder)
{
    if (auto checked = checkPartitionLauncher(request, settings); !checked)
        return checked.error();
    const document::GraphInput& graph = **graphOf(request);
    const QDir folder(jobFolder);
    QStringList command = jobs::launcherWords(settings);
    command << settings.cliProgram << "partition"
            << "--graph" << QString::fromStdString(graph.path) << "--format"
            << QString::fromUtf8(io::graphFormatId(graph.format).data(),
                                 static_cast<qsizetype>(io::graphFormatId(graph.format).size()));
    if (!graph.homesPath.empty())
        command << "--homes" << QString::fromStdString(graph.homesPath);
    command << "--homes-seed" << QString::number(graph.homesSeed) << "--project" << folder.filePath("project.meridian")
            << "--algorithm" << QString::fromStdString(request.algorithm) << "--seed" << QString::number(request.seed);
    for (const auto& [name, value] : request.params.values())
        command << "--param" << jobs::paramAssignment(name, value);
    command << "--profile" << QString::fromStdString(request.profile);
    if (request.profile == "sssp")
        command << "--active-fraction" << jobs::roundTrip(request.activeFraction);
    if (request.budgetUsd)
        command << "--budget" << jobs::roundTrip(*request.budgetUsd);
    command << "--out" << folder.filePath("edges.tsv") << "--masters" << folder.filePath("masters.tsv") << "--json-out"
            << folder.filePath("partition.json") << "--progress";
    return command;
}

Expected<document::Run> runPartitionLaunched(const PartitionRequest& request, const jobs::LauncherSettings& settings,
                                             const Feedback& feedback)
{
    if (auto checked = checkPartitionLauncher(request, settings); !checked)
        return checked.error();
    const auto command = [&](const QDir& folder) -> Expected<QStringList> {
        // The graph must be the one imported: a local run refuses a changed file before it starts, and so does this.
        if (auto unchanged = document::checkGraphOnDisk(**graphOf(request)); !unchanged)
            return unchanged.error();
        return launchedPartitionCommand(request, settings, folder.path());
    };
    const auto save = [&](const QDir& folder) {
        return document::ProjectFile::save(*request.project, folder.filePath("project.meridian"));
    };
    const auto readBack = [&](const QDir& folder) -> Expected<document::Run> {
        auto printed = printedJson(folder.filePath("partition.json"));
        if (!printed)
            return printed.error();
        auto run = runFromPartitionFiles(request, computedBy(*printed, folder, settings), feedback);
        if (!run)
            return run;
        if (auto same = agrees(*run, "transfer_time_s", *printed, "transfer_time_s"); !same)
            return same.error();
        if (auto same = agrees(*run, "wan_usd", *printed, "wan_cost_usd"); !same)
            return same.error();
        return run;
    };
    return jobs::runLaunched<document::Run>(settings, {command, save}, readBack, feedback);
}

} // namespace meridian::ops
