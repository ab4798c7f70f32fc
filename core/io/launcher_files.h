#pragma once

#include "core/common/expected.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

#include <string>

namespace meridian::io {

/// The launcher formats Meridian exports: Open MPI rankfiles, MPICH/Intel machinefiles, Slurm hostfiles.
enum class LauncherFormat {
    OpenMpiRankfile,  ///< `rank N=host slot=S`, sorted by rank, every rank listed (mpirun --rankfile).
    MpichMachinefile, ///< One `host:1` line per rank in rank order (Hydra and Intel MPI -machinefile).
    SlurmHostfile     ///< Line k is the host of task k (SLURM_HOSTFILE with srun --distribution=arbitrary).
};

/// Returns the text of a launcher file for a complete placement (every process on a host and slot).
/// The rankfile starts with a `#` comment saying how to launch it; the machinefile and the Slurm
/// hostfile have none (line k must be rank k). Fails when a process has no host.
Expected<std::string> launcherFileText(LauncherFormat format, const model::Placement& placement,
                                       const model::Topology& topology);

/// Writes a launcher file atomically (nothing is written on failure).
Status writeLauncherFile(const std::string& path, LauncherFormat format, const model::Placement& placement,
                         const model::Topology& topology);

} // namespace meridian::io
