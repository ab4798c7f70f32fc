#include "app/mapping/launched_mapping.h"

#include "app/project/installed_program.h"
#include "app/project/project_file.h"
#include "app/project/run_file.h"
#include "core/io/placement_io.h"
#include "core/io/text_file.h"

#include <QDir>

namespace meridian::ops {

namespace {

std::string local(const QString& text) { return text.toStdString(); }

/// Saves what the command reads into the job folder: the project snapshot and a start placement.
Status saveInputs(const MappingRequest& request, const QDir& folder)
{
    if (auto saved = document::ProjectFile::save(*request.project, folder.filePath("project.meridian")); !saved)
        return saved;
    if (!request.start)
        return {};
    return io::writeTextFileAtomically(local(folder.filePath("start.csv")),
                                       io::mappingCsvText(*request.start, request.project->topology));
}

/// Reads the run the command wrote and checks it is the one asked for.
Expected<document::Run> readRun(const MappingRequest& request, const QString& path)
{
    auto loaded = document::RunFile::load(path, *request.project);
    if (!loaded)
        return loaded.error();
    const auto asked = [&](const document::Run& run) {
        return run.algorithm == request.algorithm && run.application == request.application && run.seed == request.seed
            && run.params.values() == request.params.values();
    };
    if (loaded->runs.size() != 1 || !asked(loaded->runs.front()))
        return makeError(ErrorCode::Io,
                         local(path) + ": expected the one run of " + request.algorithm + " on " + request.application
                             + " with seed " + std::to_string(request.seed) + " and " + request.params.toString());
    return std::move(loaded->runs.front());
}

} // namespace

Expected<QString> cliProgram() { return document::installedProgram("meridian-cli", "MERIDIAN_CLI"); }

bool splitsOverRanks(const std::string& algorithm, const ParamValues& params)
{
    return algorithm == "monte-carlo"
        || ((algorithm == "scotch-bw" || algorithm == "scotch-lat") && params.contains("parallel")
            && params.flag("parallel"));
}

Status checkLauncher(const MappingRequest& request, const jobs::LauncherSettings& settings)
{
    if (auto checked = jobs::checkLauncherSettings(settings); !checked)
        return checked;
    if (settings.ranks > 1 && !splitsOverRanks(request.algorithm, request.params))
        return makeError(ErrorCode::InvalidInput,
                         request.algorithm
                             + " runs whole in one process: launch it with 1 rank (monte-carlo splits its samples "
                               "over several, and scotch-bw and scotch-lat with parallel=true their graph)");
    return {};
}

Expected<QStringList> launchedMapCommand(const MappingRequest& request, const jobs::LauncherSettings& settings,
                                         const QString& jobFolder)
{
    if (auto checked = checkLauncher(request, settings); !checked)
        return checked.error();
    QStringList command = jobs::launcherWords(settings);
    const QDir folder(jobFolder);
    command << settings.cliProgram << "map"
            << "--project" << folder.filePath("project.meridian") << "--application"
            << QString::fromStdString(request.application) << "--algorithm" << QString::fromStdString(request.algorithm)
            << "--seed" << QString::number(request.seed);
    for (const auto& [name, value] : request.params.values())
        command << "--param" << jobs::paramAssignment(name, value);
    if (request.start)
        command << "--start" << folder.filePath("start.csv");
    command << "--run-out" << folder.filePath("run.json") << "--progress";
    return command;
}

Expected<document::Run> runMappingLaunched(const MappingRequest& request, const jobs::LauncherSettings& settings,
                                           const Feedback& feedback)
{
    if (auto checked = checkLauncher(request, settings); !checked)
        return checked.error();
    const auto command = [&](const QDir& folder) { return launchedMapCommand(request, settings, folder.path()); };
    const auto save = [&](const QDir& folder) { return saveInputs(request, folder); };
    const auto readBack = [&](const QDir& folder) -> Expected<document::Run> {
        auto run = readRun(request, folder.filePath("run.json"));
        if (!run)
            return run;
        run->notes.push_back("computed by meridian-cli under " + local(jobs::launcherDescription(settings)));
        if (request.simulateSmallRuns)
            if (auto simulated = simulateIfSmall(*run, *request.project, request.completeNetwork, feedback); !simulated)
                return simulated.error();
        return run;
    };
    return jobs::runLaunched<document::Run>(settings, {command, save}, readBack, feedback);
}

} // namespace meridian::ops
