#include "core/model/comm_matrix.h"

#include <cmath>
#include <string>

namespace meridian::model {

Expected<CommMatrix> CommMatrix::fromEntries(int n, const std::vector<CommEntry>& entries, bool hasMessages)
{
    if (n < 0)
        return makeError(ErrorCode::InvalidInput, "the process count must not be negative");
    std::vector<Eigen::Triplet<double, int>> volume, messages;
    volume.reserve(entries.size());
    messages.reserve(entries.size());
    for (const auto& e : entries) {
        if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n)
            return makeError(ErrorCode::InvalidInput,
                             "entry (" + std::to_string(e.from) + ", " + std::to_string(e.to) + ") is outside a "
                                 + std::to_string(n) + "-process matrix");
        if (!std::isfinite(e.bytes) || e.bytes < 0 || !std::isfinite(e.messages) || e.messages < 0)
            return makeError(ErrorCode::InvalidInput,
                             "entry (" + std::to_string(e.from) + ", " + std::to_string(e.to)
                                 + ") needs finite, non-negative bytes and messages");
        volume.emplace_back(e.from, e.to, e.bytes);
        messages.emplace_back(e.from, e.to, hasMessages ? e.messages : 0.0);
    }
    CommMatrix m;
    m.m_hasMessages = hasMessages;
    m.m_volume.resize(n, n);
    m.m_messages.resize(n, n);
    // setFromTriplets sums duplicates and keeps explicit zeros, so both matrices get the same pattern.
    m.m_volume.setFromTriplets(volume.begin(), volume.end());
    m.m_messages.setFromTriplets(messages.begin(), messages.end());
    m.m_volume.makeCompressed();
    m.m_messages.makeCompressed();
    return m;
}

std::vector<CommEntry> CommMatrix::entries() const
{
    std::vector<CommEntry> out;
    out.reserve(nonZeros());
    const int* outer = m_volume.outerIndexPtr();
    const int* inner = m_volume.innerIndexPtr();
    for (int i = 0; i < processCount(); ++i)
        for (int k = outer[i]; k < outer[i + 1]; ++k)
            out.push_back({i, inner[k], m_volume.valuePtr()[k], m_messages.valuePtr()[k]});
    return out;
}

CommMatrix CommMatrix::transposed() const
{
    CommMatrix t;
    t.m_hasMessages = m_hasMessages;
    t.m_volume = Sparse(m_volume.transpose());
    t.m_messages = Sparse(m_messages.transpose());
    t.m_volume.makeCompressed();
    t.m_messages.makeCompressed();
    return t;
}

std::vector<double> CommMatrix::processVolume() const
{
    std::vector<double> v(processCount(), 0.0);
    const int* outer = m_volume.outerIndexPtr();
    const int* inner = m_volume.innerIndexPtr();
    const double* values = m_volume.valuePtr();
    for (int i = 0; i < processCount(); ++i) {
        for (int k = outer[i]; k < outer[i + 1]; ++k) {
            v[i] += values[k];
            if (inner[k] != i)
                v[inner[k]] += values[k];
        }
    }
    return v;
}

double CommMatrix::totalBytes() const { return m_volume.sum(); }
double CommMatrix::totalMessages() const { return m_messages.sum(); }

} // namespace meridian::model
