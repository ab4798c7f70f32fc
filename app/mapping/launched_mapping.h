#pragma once

#include "app/jobs/launched_command.h"
#include "app/mapping/map_operation.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <QString>
#include <QStringList>

#include <string>

namespace meridian::ops {

/// The program MERIDIAN_CLI names, else meridian-cli beside this program (where the workbench installs it).
Expected<QString> cliProgram();

/// Whether a mapper splits its work over the ranks of a launcher's job (monte-carlo; scotch-bw and scotch-lat with
/// parallel=true, on PT-Scotch); the others run whole in one process, and meridian-cli refuses them under more than
/// one rank.
bool splitsOverRanks(const std::string& algorithm, const ParamValues& params);

/// Refuses settings a launched mapping run cannot start with: jobs::checkLauncherSettings's, and more than 1 rank for
/// a mapper that does not split its work.
Status checkLauncher(const MappingRequest& request, const jobs::LauncherSettings& settings);

/// The command line a launched run starts: the launcher's words with `{N}` replaced, then `meridian-cli map` on
/// the project saved in `jobFolder` with the request's application, algorithm, parameters (doubles written to
/// round-trip) and seed, `--run-out` and `--progress`. Errors: checkLauncher's.
Expected<QStringList> launchedMapCommand(const MappingRequest& request, const jobs::LauncherSettings& settings,
                                         const QString& jobFolder);

/// Computes a mapping run through a launcher (jobs::runLaunchedJob), as runMapping computes it here:
/// 1. saves the request's project snapshot (and a start placement) in the job's folder;
/// 2. runs launchedMapCommand's command;
/// 3. reads the run back as the runs file it wrote, checked against the snapshot (document::RunFile), and,
///    when the request says so, simulates and predicts it here when it is small, as runMapping does.
/// The run's fingerprint is the one meridian-cli computed from the saved project, so a run whose inputs changed
/// in the workbench meanwhile lands stale; its notes say which launcher computed it. Settings checkLauncher refuses
/// create nothing; a failure keeps the job's folder and names it.
Expected<document::Run> runMappingLaunched(const MappingRequest& request, const jobs::LauncherSettings& settings,
                                           const Feedback& feedback);

} // namespace meridian::ops
