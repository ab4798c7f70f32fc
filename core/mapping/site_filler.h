#pragma once

#include "core/mapping/mapping_problem.h"

#include <utility>
#include <vector>

namespace meridian::mapping {

/// The filling step of SC17 Algorithm 1 (lines 9-14), shared by every mapper that grows bins:
/// the heaviest unselected process opens a bin, then the bin takes, one at a time, the unselected process
/// with the heaviest communication with the processes already in it (pinned ones included), until it
/// holds the requested number. Ties go to the lower process index, so the result is deterministic.
///
/// Works on any bins (sites or hosts) over a traffic graph; O((n + nnz) log n) per complete fill.
class SiteFiller {
public:
    /// `assignment` holds the bin of each already placed process (pins) and -1 for the others;
    /// `weight` is the heaviness used to open a bin (total traffic per process).
    SiteFiller(const Adjacency& traffic, const std::vector<double>& weight, std::vector<int> assignment);
    /// The same with the processes already sorted by decreasing weight (byWeight(weight)), for callers that fill
    /// many times from one start.
    SiteFiller(const Adjacency& traffic, std::vector<int> byWeight, std::vector<int> assignment);

    /// Returns the processes by decreasing weight, ties by index.
    static std::vector<int> byWeight(const std::vector<double>& weight);

    /// Places up to `count` unselected processes into `bin` and returns how many were placed.
    int fill(int bin, int count);
    /// Returns the number of processes not placed yet.
    int unselected() const { return m_unselected; }
    const std::vector<int>& assignment() const { return m_assignment; }
    std::vector<int> takeAssignment() { return std::move(m_assignment); }

private:
    int nextHeaviest();
    /// The candidate heap of the bin being filled: a binary max-heap on (gain, lower index) whose entries know
    /// their position, so that a gain that grows moves its entry up instead of adding another.
    bool above(int p, int q) const { return m_gain[p] > m_gain[q] || (m_gain[p] == m_gain[q] && p < q); }
    void siftUp(std::size_t i);
    void siftDown(std::size_t i);
    void raise(int p);
    void remove(int p);

    const Adjacency& m_traffic;
    std::vector<int> m_assignment;
    std::vector<int> m_byWeight; // processes sorted by decreasing weight
    std::size_t m_cursor = 0;
    int m_unselected = 0;
    std::vector<double> m_gain;
    std::vector<int> m_gainBin;              // which bin m_gain[p] refers to
    std::vector<std::vector<int>> m_members; // the processes placed in each bin (pins first), by bin index
    std::vector<int> m_heap;
    std::vector<int> m_heapPos; // position in m_heap, -1 when out of it
};

} // namespace meridian::mapping
