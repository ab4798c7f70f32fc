#include "core/cost/instance_metrics.h"

namespace meridian::cost {

Expected<InstanceMetrics> instanceMetrics(const model::Placement& placement, const model::Topology& topology,
                                          const model::Network& network, const model::CommMatrix& comm)
{
    if (!placement.hasHosts())
        return makeError(ErrorCode::InvalidInput, "instance metrics need a placement with a host for every process");
    if (placement.processCount() != comm.processCount())
        return makeError(ErrorCode::InvalidInput,
                         "the placement has " + std::to_string(placement.processCount())
                             + " processes but the matrix has " + std::to_string(comm.processCount()));
    InstanceMetrics m;
    const auto& v = comm.volume();
    const auto& a = comm.messages();
    const int* outer = v.outerIndexPtr();
    const int* inner = v.innerIndexPtr();
    for (int i = 0; i < comm.processCount(); ++i) {
        const int hi = placement.host[i];
        for (int e = outer[i]; e < outer[i + 1]; ++e) {
            const int j = inner[e];
            if (j == i)
                continue;
            const double bytes = v.valuePtr()[e];
            const double msgs = a.valuePtr()[e];
            const int hj = placement.host[j];
            if (hi == hj) {
                m.intraBytes += bytes;
                m.intraMessages += msgs;
                continue;
            }
            m.interBytes += bytes;
            m.interMessages += msgs;
            const model::HostLink* link = network.hostLink(hi, hj);
            const double mbps = link ? link->bandwidthMBps
                                     : network.bandwidthMBps(topology.siteOfHost(hi), topology.siteOfHost(hj));
            m.commTimeSeconds += bytes / (mbps * 1e6);
        }
    }
    return m;
}

} // namespace meridian::cost
