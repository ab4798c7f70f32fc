#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"
#include "core/model/network.h"
#include "core/model/placement.h"
#include "core/model/topology.h"

namespace meridian::cost {

/// CloudMap's instance-level quality metrics of a host-level placement (CloudMap's eq. 1-4):
///   DiffInst(i,j) = 1 if Instance(i) != Instance(j), else 0                                   (eq. 1)
///   Inter = sum over i < j of DiffInst(i,j) Comm(i,j)                                        (eq. 2)
///   Intra = sum over i < j of Comm(i,j) - Inter                                              (eq. 3)
///   CommTime = sum over i < j of Comm(i,j) / Bandwidth(i,j) x DiffInst(i,j)                  (eq. 4)
/// with Comm(i,j) = C(i,j) + C(j,i) (both directions). Because Meridian's bandwidth may be asymmetric,
/// CommTime adds C(i,j)/B(h_i,h_j) + C(j,i)/B(h_j,h_i), which is eq. 4 whenever B is symmetric.
/// Bandwidth(i,j) is the host link between the two instances if the network has one, else the
/// site-level entry. Inter and Intra are also reported in messages (CloudMap's latency variant).
struct InstanceMetrics {
    double interBytes = 0.0;
    double intraBytes = 0.0;
    double interMessages = 0.0;
    double intraMessages = 0.0;
    double commTimeSeconds = 0.0;
};

/// Computes the metrics in O(nnz). Fails if the placement is not completed to hosts.
/// `network` must be complete.
Expected<InstanceMetrics> instanceMetrics(const model::Placement& placement, const model::Topology& topology,
                                          const model::Network& network, const model::CommMatrix& comm);

} // namespace meridian::cost
