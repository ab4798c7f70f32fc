#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>

namespace meridian::partition::refinement {

/// How much local search Geo-Cut's stages 2b and 3 may do together. Work is counted in search steps: edges examined
/// (each vertex a stage looks at adds its edge count) plus the traffic state's moves and predictions
/// (cost::GasState::steps), so a work limit stops the search at the same place on every machine and under any load,
/// and the result stays a function of the seed. A wall-clock deadline may be added; it stops the search wherever it
/// happens to be, so a run with one depends on the machine's speed.
class SearchBudget {
public:
    /// No limit.
    SearchBudget() = default;
    SearchBudget(std::uint64_t workLimit, std::optional<double> seconds)
        : m_workLimit(workLimit)
    {
        if (seconds)
            m_deadline = std::chrono::steady_clock::now()
                + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(*seconds));
    }

    void spend(std::uint64_t edges) { m_spent += edges; }
    /// The work limit is reached or the deadline has passed.
    bool exhausted() const
    {
        return m_spent >= m_workLimit || (m_deadline && std::chrono::steady_clock::now() > *m_deadline);
    }
    std::uint64_t spent() const { return m_spent; }
    std::uint64_t workLimit() const { return m_workLimit; }

private:
    std::uint64_t m_workLimit = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t m_spent = 0;
    std::optional<std::chrono::steady_clock::time_point> m_deadline;
};

} // namespace meridian::partition::refinement
