#pragma once

#include "app/jobs/launched_command.h"
#include "app/partitioning/partition_operation.h"
#include "app/project/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"

#include <QString>
#include <QStringList>

namespace meridian::ops {

/// Whether a partition run splits its work over the ranks of a launcher's job (partitionSplitsOverRanks on the
/// request's graph: hash, HDRF in batches or Geo-Cut's stage 1 in batches, on a SNAP graph, without a budget, under
/// the pagerank or sssp profile);
/// meridian-cli runs any other on one rank and refuses it under more.
bool partitionRunSplitsOverRanks(const PartitionRequest& request);

/// Refuses settings a launched partition run cannot start with: jobs::checkLauncherSettings's, a graph the project
/// does not have, an unknown profile, and more than 1 rank for a run that does not split its work.
Status checkPartitionLauncher(const PartitionRequest& request, const jobs::LauncherSettings& settings);

/// The command line a launched partition run starts: the launcher's words with `{N}` replaced, then `meridian-cli
/// partition` on the graph's file where it was imported (the launcher's nodes must see it at that path, as they see
/// the work folder), with its format, homes file and homes seed, the sites of the project saved in `jobFolder`, the
/// request's algorithm, parameters (doubles written to round-trip), seed, profile and budget, `--out`, `--masters`
/// and `--json-out` into `jobFolder`, and `--progress`. Errors: checkPartitionLauncher's.
Expected<QStringList> launchedPartitionCommand(const PartitionRequest& request, const jobs::LauncherSettings& settings,
                                               const QString& jobFolder);

/// Computes a partition run through a launcher (jobs::runLaunchedJob), as runPartition computes it here:
/// 1. refuses a graph file that changed since its import (as a local run does), and saves the request's project
///    snapshot in the job's folder (meridian-cli takes the sites from it);
/// 2. runs launchedPartitionCommand's command;
/// 3. reads the partition's files back against the graph (runFromPartitionFiles: its edges, and masters that follow
///    the project's homes) and measures them here, with the partitioning time, notes and cost bound meridian-cli
///    wrote (`--json-out`); a transfer time or WAN cost that differs from the one it measured is an error, not a run.
/// The run's notes say which launcher computed it, in how long, and each rank's peak memory. Settings
/// checkPartitionLauncher refuses create nothing; a failure keeps the job's folder and names it.
Expected<document::Run> runPartitionLaunched(const PartitionRequest& request, const jobs::LauncherSettings& settings,
                                             const Feedback& feedback);

} // namespace meridian::ops
