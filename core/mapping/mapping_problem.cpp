#include "core/mapping/mapping_problem.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace meridian::mapping {

double Adjacency::degree(int v) const
{
    double sum = 0.0;
    for (int e = ptr[v]; e < ptr[v + 1]; ++e)
        sum += weight[e];
    return sum;
}

Adjacency symmetrize(const model::CommMatrix::Sparse& matrix)
{
    const model::CommMatrix::Sparse both = matrix + model::CommMatrix::Sparse(matrix.transpose());
    Adjacency a;
    const int n = static_cast<int>(both.rows());
    a.ptr.assign(n + 1, 0);
    a.idx.reserve(both.nonZeros());
    a.weight.reserve(both.nonZeros());
    for (int i = 0; i < n; ++i) {
        for (model::CommMatrix::Sparse::InnerIterator it(both, i); it; ++it) {
            if (it.col() == i || it.value() <= 0.0)
                continue;
            a.idx.push_back(static_cast<int>(it.col()));
            a.weight.push_back(it.value());
        }
        a.ptr[i + 1] = static_cast<int>(a.idx.size());
    }
    return a;
}

namespace {

/// Checks that the alpha-beta cost of any placement is a finite number of seconds: every message at the
/// network's longest latency and every byte at its slowest bandwidth. The network's values are in their
/// physical ranges (Network::validate), so only traffic near the largest double can fail; without the check
/// a mapper would compare infinities and the cost print as null.
Status checkFiniteCost(const model::Network& network, const model::CommMatrix& comm)
{
    const double bytes = comm.volume().sum(), messages = comm.messages().sum();
    double longestMs = 0.0, slowestMBps = model::kMaxBandwidthMBps;
    for (int i = 0; i < network.siteCount(); ++i)
        for (int j = 0; j < network.siteCount(); ++j) {
            longestMs = std::max(longestMs, network.value(model::NetworkQuantity::Latency, i, j));
            slowestMBps = std::min(slowestMBps, network.value(model::NetworkQuantity::Bandwidth, i, j));
        }
    for (const auto& [key, link] : network.hostLinks()) {
        longestMs = std::max(longestMs, link.latencyMs);
        slowestMBps = std::min(slowestMBps, link.bandwidthMBps);
    }
    const double worst = messages * longestMs * 1e-3 + bytes / (slowestMBps * 1e6);
    if (std::isfinite(bytes) && std::isfinite(messages) && std::isfinite(worst))
        return {};
    char text[256];
    std::snprintf(text, sizeof text,
                  "the application's traffic (%.6g bytes in %.6g messages) is too large to cost: at the network's "
                  "slowest bandwidth (%.6g MB/s) and longest latency (%.6g ms) its time is not a finite number of "
                  "seconds",
                  bytes, messages, slowestMBps, longestMs);
    return makeError(ErrorCode::InvalidInput, text);
}

} // namespace

Expected<MappingProblem> MappingProblem::create(model::Topology topology, model::Network network,
                                                model::CommMatrix comm, model::Constraints constraints)
{
    const int n = comm.processCount();
    if (n <= 0)
        return makeError(ErrorCode::InvalidInput, "the application has no processes");
    if (topology.siteCount() == 0)
        return makeError(ErrorCode::InvalidInput, "the project has no sites");
    if (network.siteCount() != topology.siteCount())
        return makeError(ErrorCode::InvalidInput,
                         "the network has " + std::to_string(network.siteCount()) + " sites but the topology has "
                             + std::to_string(topology.siteCount()));
    if (!network.isComplete())
        return makeError(ErrorCode::InvalidInput,
                         "the network has missing latency or bandwidth entries; complete it (estimate) before mapping");
    if (auto ok = network.validate(topology.hostCount()); !ok)
        return ok.error();
    if (auto ok = checkFiniteCost(network, comm); !ok)
        return ok.error();
    if (n > topology.totalCapacity())
        return makeError(ErrorCode::Infeasible,
                         "the application has " + std::to_string(n) + " processes but the sites have only "
                             + std::to_string(topology.totalCapacity()) + " slots (short by "
                             + std::to_string(n - topology.totalCapacity()) + ")");
    if (auto ok = constraints.validate(n, topology); !ok)
        return ok.error();

    auto data = std::make_shared<Data>();
    data->pinnedSite = constraints.siteVector(n);
    data->residual.resize(topology.siteCount());
    for (int s = 0; s < topology.siteCount(); ++s)
        data->residual[s] = topology.capacity(s);
    for (int p = 0; p < n; ++p) {
        if (data->pinnedSite[p] >= 0)
            --data->residual[data->pinnedSite[p]];
        else
            data->freeProcesses.push_back(p);
    }
    data->traffic = symmetrize(comm.volume());
    data->trafficVolume.resize(n);
    for (int p = 0; p < n; ++p)
        data->trafficVolume[p] = data->traffic.degree(p);
    data->cost = std::make_unique<cost::AlphaBetaCost>(network, comm);
    data->topology = std::move(topology);
    data->network = std::move(network);
    data->comm = std::move(comm);
    data->constraints = std::move(constraints);

    MappingProblem problem;
    problem.m_data = std::move(data);
    return problem;
}

MappingProblem MappingProblem::withJudge(Judge judge) const
{
    MappingProblem copy = *this;
    copy.m_judge = std::make_shared<const Judge>(std::move(judge));
    return copy;
}

Expected<MappingProblem> MappingProblem::withStart(model::Placement start) const
{
    if (start.processCount() != processCount())
        return makeError(ErrorCode::InvalidInput,
                         "the start placement has " + std::to_string(start.processCount())
                             + " processes but the application has " + std::to_string(processCount()));
    for (int s : start.site)
        if (s < 0 || s >= siteCount())
            return makeError(ErrorCode::InvalidInput, "the start placement names an unknown site");
    for (int h : start.host)
        if (h >= topology().hostCount())
            return makeError(ErrorCode::InvalidInput, "the start placement names an unknown host");
    const auto violations = model::checkPlacement(start, topology(), constraints());
    if (!violations.empty())
        return makeError(ErrorCode::Infeasible, "the start placement is not valid: " + violations.front().message);
    MappingProblem copy = *this;
    copy.m_start = std::make_shared<const model::Placement>(std::move(start));
    return copy;
}

} // namespace meridian::mapping
