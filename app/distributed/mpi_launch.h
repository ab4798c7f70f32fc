#pragma once

#include "core/common/expected.h"
#include "core/common/ranks.h"

#include <memory>

namespace meridian::distributed {

/// How meridian-cli joins the job an MPI launcher started (`mpirun -np N`, `srun -n N`). The launcher tells each
/// process so in its environment (Open MPI's OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, PMI's PMI_SIZE); only then is
/// MPI initialised, so that a command started by hand never touches MPI, its daemons or its network probes. MPI
/// is Open MPI as Debian ships it (libopenmpi-dev), found by CMake's FindMPI.
class Launch {
public:
    /// Joins the launcher's job when there is one, else stands for this process alone. Fails when the launcher
    /// started more processes than MPI sees: another MPI's launcher (MPICH's hydra starting an Open MPI program
    /// gives N jobs of one process each, which would all write the same files).
    static Expected<std::unique_ptr<Launch>> join(int* argc, char*** argv);
    ~Launch(); ///< finalises MPI when it was initialised
    Launch(const Launch&) = delete;
    Launch& operator=(const Launch&) = delete;

    const Ranks& ranks() const { return *m_ranks; }
    /// The number of processes a launcher says it started, from the environment alone (MPI untouched): 0 when no
    /// launcher started this one, -1 when one did without saying how many (PMIx).
    static int launcherSize();
    /// This process's rank as the launcher's environment gives it (0 when it gives none).
    static int launcherRank();
    /// Whether an MPI launcher started this process.
    bool launched() const { return m_launched; }
    /// Stops every rank of the job at once with this exit code (MPI_Abort), for a failure the others cannot learn
    /// of (an exception on one rank); alone, just exits.
    [[noreturn]] void abortAll(int code) const;

private:
    Launch() = default;
    bool m_launched = false;
    std::unique_ptr<Ranks> m_owned;
    const Ranks* m_ranks = &Ranks::single();
};

} // namespace meridian::distributed
