#pragma once

#include "core/model/comm_matrix.h"
#include "core/model/network.h"

#include <Eigen/Dense>

#include <span>
#include <vector>

namespace meridian::cost {

/// The parts of the alpha-beta cost of one placement, all in seconds except where stated.
struct CostBreakdown {
    double total = 0.0;           ///< latencyPart + bandwidthPart.
    double latencyPart = 0.0;     ///< sum over i != j of A(i,j) L(P_i, P_j).
    double bandwidthPart = 0.0;   ///< sum over i != j of C(i,j) / B(P_i, P_j).
    Eigen::MatrixXd trafficBytes; ///< site x site bytes sent (row = sending site), self-traffic excluded.
    Eigen::MatrixXd messages;     ///< site x site message counts.
    Eigen::MatrixXd timeSeconds;  ///< site x site share of the total cost.
    std::vector<int> load;        ///< processes per site.
};

/// The communication cost of a site-level placement, eq. 3 of the SC17 geo-distributed process mapping
/// paper: Cost(P) = sum over i != j of A(i,j) L(P_i,P_j) + C(i,j) / B(P_i,P_j), with L converted from ms
/// to s and B from MB/s to bytes/s. Self-communication (i == j) costs nothing.
///
/// The evaluator copies what it needs at construction (an M x M table per term and the matrix in CSR and
/// CSC form), so it is independent of its arguments afterwards and may be shared read-only across threads.
/// Full evaluation is O(nnz); moveDelta and swapDelta are O(degree) and equal, up to rounding, the
/// difference of two full evaluations.
class AlphaBetaCost {
public:
    /// `network` must be complete (NetworkEstimator::complete) and have the sites that placements name.
    AlphaBetaCost(const model::Network& network, const model::CommMatrix& comm);
    /// Builds the evaluator from per-pair costs directly: `latencySeconds(k,l)` per message and
    /// `secondsPerByte(k,l)` per byte (0 allowed: a free pair, such as two processes on one host when
    /// shared memory is not modelled). Used for host-level completion inside a site.
    AlphaBetaCost(const Eigen::MatrixXd& latencySeconds, const Eigen::MatrixXd& secondsPerByte,
                  const model::CommMatrix& comm);

    int siteCount() const { return m_siteCount; }
    int processCount() const { return m_processCount; }

    /// Returns the cost in seconds of placing process i in site siteOf[i].
    double evaluate(std::span<const int> siteOf) const;
    /// Returns the cost with its latency and bandwidth parts and site x site matrices.
    CostBreakdown breakdown(std::span<const int> siteOf) const;
    /// Returns cost(after) - cost(before) for moving `process` to `toSite`. O(degree).
    double moveDelta(std::span<const int> siteOf, int process, int toSite) const;
    /// Returns cost(after) - cost(before) for exchanging the sites of p and q. O(degree(p) + degree(q)).
    double swapDelta(std::span<const int> siteOf, int p, int q) const;

    /// Returns the processes p sends to (self included when the matrix has a diagonal entry).
    std::span<const int> outNeighbours(int p) const
    {
        return {m_outIdx.data() + m_outPtr[p], static_cast<std::size_t>(m_outPtr[p + 1] - m_outPtr[p])};
    }
    /// Returns the processes that send to p.
    std::span<const int> inNeighbours(int p) const
    {
        return {m_inIdx.data() + m_inPtr[p], static_cast<std::size_t>(m_inPtr[p + 1] - m_inPtr[p])};
    }

private:
    template <typename SiteOf>
    double moveDeltaWith(const SiteOf& siteOf, int process, int from, int to) const;

    double pairCost(int k, int l, double messages, double bytes) const
    {
        return messages * m_latencyS[k * m_siteCount + l] + bytes * m_secondsPerByte[k * m_siteCount + l];
    }

    int m_siteCount = 0;
    int m_processCount = 0;
    std::vector<double> m_latencyS;       // row-major M x M, seconds
    std::vector<double> m_secondsPerByte; // row-major M x M, 1 / (bytes/s)
    // Outgoing entries (CSR of the matrix) and incoming entries (CSR of its transpose).
    std::vector<int> m_outPtr, m_outIdx, m_inPtr, m_inIdx;
    std::vector<double> m_outMsgs, m_outBytes, m_inMsgs, m_inBytes;
};

} // namespace meridian::cost
