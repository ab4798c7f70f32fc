#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <cstdint>
#include <string>
#include <vector>

namespace meridian::io {

/// Traffic between two ranks, in bytes and messages.
struct RankTraffic {
    int from = 0;
    int to = 0;
    std::uint64_t bytes = 0;
    std::uint64_t messages = 0;
};

/// A communicator as Open MPI's monitoring describes it (its `D` line), with what its collectives moved,
/// summed over its members: one-to-all (broadcast, scatter), all-to-one (gather, reduce) and all-to-all.
struct MonitoredCommunicator {
    std::string name;
    std::vector<int> ranks;
    std::uint64_t oneToAllBytes = 0, oneToAllMessages = 0;
    std::uint64_t allToOneBytes = 0, allToOneMessages = 0;
    std::uint64_t allToAllBytes = 0, allToAllMessages = 0;
};

/// What Open MPI's monitoring recorded for a run (`mpirun --mca pml_monitoring_enable 2
/// --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename DIR/NAME`, one NAME.RANK.prof per rank).
struct MonitoringCapture {
    std::string name;
    /// The application's point-to-point sends (`E` lines), sender -> receiver in world ranks, direction kept.
    model::CommMatrix pointToPoint;
    /// The point-to-point traffic collectives generated (`C` lines), per pair.
    std::vector<RankTraffic> collectiveTraffic;
    /// The communicators and their collective totals (D, O2A, A2O, A2A lines), MPI_COMM_WORLD first.
    std::vector<MonitoredCommunicator> communicators;
};

/// Reads every NAME.RANK.prof of one run in `folder`. The ranks are 0 .. N-1 with N the size of
/// MPI_COMM_WORLD as the files describe it; a missing rank is an error naming it (and the file expected). Open
/// MPI's own traffic (`I` lines) and one-sided lines are left out. An empty file, a truncated file (a last line
/// without its end, no collectives section after the point-to-point one, a D line without its O2A, A2O and A2A
/// lines, or fewer communicators of a group than another member's file lists), a count above 2^64 - 1 or a
/// communicator total adding up past it, and every malformed line are errors naming the file, line and column.
/// A rank is written as Open MPI writes it (app.0.prof, never app.00.prof), so no rank is read twice. A folder
/// holding the files of several runs must be narrowed with `name`.
/// Open MPI 4.1 does not count persistent sends (MPI_Send_init + MPI_Start) in its monitoring.
Expected<MonitoringCapture> readOpenMpiMonitoring(const std::string& folder, const std::string& name = {});

/// What a monitoring capture's collective numbers are, written into its summary (`"traffic"`). Monitoring does not
/// see operations or send buffers, so its summary has no `collectives` records (kCollectiveBytesDefinition).
inline constexpr const char* kMonitoredTrafficDefinition
    = "not the send buffers of the operations (Open MPI's monitoring does not record operations): per communicator, "
      "the bytes and messages its collectives addressed from one rank to the others (one_to_all: bcast, scatter), "
      "from the others to one (all_to_one: gather, reduce) and between all (all_to_all), each block counted once per "
      "peer, summed over the calls; per rank pair, what the collective algorithms sent (collective_traffic)";

/// The collectives summary of a monitoring capture as JSON text (`meridian-collectives`, version 2, source
/// `openmpi-monitoring`): the communicators with their totals and the per-pair collective traffic, and what they
/// count (kMonitoredTrafficDefinition).
std::string monitoringCollectivesJson(const MonitoringCapture& capture);

} // namespace meridian::io
