#include "core/cost/alpha_beta_cost.h"

namespace meridian::cost {

namespace {

void copyCsr(const model::CommMatrix& m, std::vector<int>& ptr, std::vector<int>& idx, std::vector<double>& msgs,
             std::vector<double>& bytes)
{
    const auto& v = m.volume();
    const auto& a = m.messages();
    ptr.assign(v.outerIndexPtr(), v.outerIndexPtr() + v.rows() + 1);
    idx.assign(v.innerIndexPtr(), v.innerIndexPtr() + v.nonZeros());
    bytes.assign(v.valuePtr(), v.valuePtr() + v.nonZeros());
    msgs.assign(a.valuePtr(), a.valuePtr() + a.nonZeros());
}

} // namespace

namespace {

Eigen::MatrixXd latencySecondsOf(const model::Network& network) { return network.latencyMs() * 1e-3; }

Eigen::MatrixXd secondsPerByteOf(const model::Network& network)
{
    return (network.bandwidthMBps() * 1e6).cwiseInverse();
}

} // namespace

AlphaBetaCost::AlphaBetaCost(const model::Network& network, const model::CommMatrix& comm)
    : AlphaBetaCost(latencySecondsOf(network), secondsPerByteOf(network), comm)
{}

AlphaBetaCost::AlphaBetaCost(const Eigen::MatrixXd& latencySeconds, const Eigen::MatrixXd& secondsPerByte,
                             const model::CommMatrix& comm)
    : m_siteCount(static_cast<int>(latencySeconds.rows()))
    , m_processCount(comm.processCount())
{
    const int m = m_siteCount;
    m_latencyS.resize(static_cast<std::size_t>(m) * m);
    m_secondsPerByte.resize(static_cast<std::size_t>(m) * m);
    for (int k = 0; k < m; ++k) {
        for (int l = 0; l < m; ++l) {
            m_latencyS[k * m + l] = latencySeconds(k, l);
            m_secondsPerByte[k * m + l] = secondsPerByte(k, l);
        }
    }
    copyCsr(comm, m_outPtr, m_outIdx, m_outMsgs, m_outBytes);
    copyCsr(comm.transposed(), m_inPtr, m_inIdx, m_inMsgs, m_inBytes);
}

double AlphaBetaCost::evaluate(std::span<const int> siteOf) const
{
    double total = 0.0;
    for (int i = 0; i < m_processCount; ++i) {
        const int k = siteOf[i];
        for (int e = m_outPtr[i]; e < m_outPtr[i + 1]; ++e) {
            const int j = m_outIdx[e];
            if (j != i)
                total += pairCost(k, siteOf[j], m_outMsgs[e], m_outBytes[e]);
        }
    }
    return total;
}

CostBreakdown AlphaBetaCost::breakdown(std::span<const int> siteOf) const
{
    const int m = m_siteCount;
    CostBreakdown b;
    b.trafficBytes = Eigen::MatrixXd::Zero(m, m);
    b.messages = Eigen::MatrixXd::Zero(m, m);
    b.timeSeconds = Eigen::MatrixXd::Zero(m, m);
    b.load.assign(m, 0);
    for (int i = 0; i < m_processCount; ++i) {
        const int k = siteOf[i];
        ++b.load[k];
        for (int e = m_outPtr[i]; e < m_outPtr[i + 1]; ++e) {
            const int j = m_outIdx[e];
            if (j == i)
                continue;
            const int l = siteOf[j];
            const double lat = m_outMsgs[e] * m_latencyS[k * m + l];
            const double bw = m_outBytes[e] * m_secondsPerByte[k * m + l];
            b.latencyPart += lat;
            b.bandwidthPart += bw;
            b.trafficBytes(k, l) += m_outBytes[e];
            b.messages(k, l) += m_outMsgs[e];
            b.timeSeconds(k, l) += lat + bw;
        }
    }
    b.total = b.latencyPart + b.bandwidthPart;
    return b;
}

template <typename SiteOf>
double AlphaBetaCost::moveDeltaWith(const SiteOf& siteOf, int p, int from, int to) const
{
    double delta = 0.0;
    for (int e = m_outPtr[p]; e < m_outPtr[p + 1]; ++e) {
        const int j = m_outIdx[e];
        if (j == p)
            continue;
        const int l = siteOf(j);
        delta += pairCost(to, l, m_outMsgs[e], m_outBytes[e]) - pairCost(from, l, m_outMsgs[e], m_outBytes[e]);
    }
    for (int e = m_inPtr[p]; e < m_inPtr[p + 1]; ++e) {
        const int i = m_inIdx[e];
        if (i == p)
            continue;
        const int k = siteOf(i);
        delta += pairCost(k, to, m_inMsgs[e], m_inBytes[e]) - pairCost(k, from, m_inMsgs[e], m_inBytes[e]);
    }
    return delta;
}

double AlphaBetaCost::moveDelta(std::span<const int> siteOf, int process, int toSite) const
{
    const int from = siteOf[process];
    if (from == toSite)
        return 0.0;
    return moveDeltaWith([&](int x) { return siteOf[x]; }, process, from, toSite);
}

double AlphaBetaCost::swapDelta(std::span<const int> siteOf, int p, int q) const
{
    const int a = siteOf[p];
    const int b = siteOf[q];
    if (a == b)
        return 0.0;
    // A swap is two moves in sequence: p to b (q still in b), then q to a with p already in b.
    const double first = moveDeltaWith([&](int x) { return siteOf[x]; }, p, a, b);
    const double second = moveDeltaWith([&](int x) { return x == p ? b : siteOf[x]; }, q, b, a);
    return first + second;
}

} // namespace meridian::cost
