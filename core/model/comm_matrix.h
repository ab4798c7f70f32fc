#pragma once

#include "core/common/expected.h"

#include <Eigen/SparseCore>

#include <vector>

namespace meridian::model {

/// One directed entry of an application's communication: `bytes` sent from process `from` to `to`
/// in `messages` messages.
struct CommEntry {
    int from = 0;
    int to = 0;
    double bytes = 0.0;
    double messages = 0.0;
};

/// An application's communication matrices over N processes, row = sender, column = receiver:
/// the volume C (bytes) and the message count A (messages), both sparse row-major (CSR) with one
/// shared sparsity pattern, so that index k of volume() and messages() is the same (i, j).
/// Whether message counts were given is recorded: without them the latency term cannot be computed.
class CommMatrix {
public:
    using Sparse = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;

    CommMatrix() = default;

    /// Builds the matrices from entries (duplicates are summed). Rejects indices outside [0, n),
    /// negative or non-finite values. `hasMessages` false means the counts are unknown (all zero).
    static Expected<CommMatrix> fromEntries(int n, const std::vector<CommEntry>& entries, bool hasMessages = true);

    int processCount() const { return static_cast<int>(m_volume.rows()); }
    int nonZeros() const { return static_cast<int>(m_volume.nonZeros()); }
    bool hasMessages() const { return m_hasMessages; }

    const Sparse& volume() const { return m_volume; }
    const Sparse& messages() const { return m_messages; }

    /// Returns the entries in row-major order.
    std::vector<CommEntry> entries() const;
    /// Returns the matrix with senders and receivers exchanged (C^T, A^T).
    CommMatrix transposed() const;
    /// Returns the bytes each process sends plus receives (row sum + column sum, self-traffic once).
    std::vector<double> processVolume() const;
    double totalBytes() const;
    double totalMessages() const;

private:
    Sparse m_volume;
    Sparse m_messages;
    bool m_hasMessages = true;
};

} // namespace meridian::model
