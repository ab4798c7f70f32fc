#pragma once

#include "core/common/expected.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

#include <string>
#include <utility>
#include <vector>

namespace meridian::io {

/// The launcher formats Meridian exports: Open MPI rankfiles, MPICH/Intel machinefiles, Slurm hostfiles.
enum class LauncherFormat {
    OpenMpiRankfile,  ///< `rank N=host slot=S`, sorted by rank, every rank listed (mpirun --rankfile).
    MpichMachinefile, ///< One `host:1` line per rank in rank order (Hydra and Intel MPI -machinefile).
    SlurmHostfile     ///< Line k is the host of task k (SLURM_HOSTFILE with srun --distribution=arbitrary).
};

/// Returns the text of a launcher file for a complete placement (every process on a host and slot).
/// The rankfile starts with `#` comments saying how to launch it (with -np) and what its slots mean; the
/// machinefile and the Slurm hostfile have none (line k must be rank k). Fails when a process has no host.
Expected<std::string> launcherFileText(LauncherFormat format, const model::Placement& placement,
                                       const model::Topology& topology);

/// How to start what a launcher file describes, given with every export (the CLI prints it, the workbench shows
/// it): the exact launch line, what the file's slots mean to that launcher, and the sites whose hosts are still
/// placeholders (Topology::isPlaceholderHost), which no launcher can reach.
struct LaunchAdvice {
    /// The launch line with the rank count, the file's path (quoted for a POSIX shell when it needs it) and
    /// "./app" for the program and its arguments, e.g. "mpirun -np 64 --rankfile run.rankfile ./app".
    std::string command;
    /// What the launcher does with the file's hosts and slots, and what it needs of them.
    std::string slots;
    /// The sites whose placeholder hosts the file names, in site order, and one such host of each.
    std::vector<std::pair<std::string, std::string>> placeholders;

    /// A sentence naming the placeholder sites and saying the file cannot be launched until their machines are
    /// named; empty when there are none.
    std::string placeholderWarning() const;
};

/// The advice for a launcher file written at `path` for a complete placement.
LaunchAdvice launchAdvice(LauncherFormat format, const model::Placement& placement, const model::Topology& topology,
                          const std::string& path);

/// Quotes a word for a POSIX shell when it holds anything but letters, digits and "_./-+=:,@%" (single quotes).
std::string shellWord(const std::string& word);

/// Writes a launcher file atomically (nothing is written on failure).
Status writeLauncherFile(const std::string& path, LauncherFormat format, const model::Placement& placement,
                         const model::Topology& topology);

} // namespace meridian::io
