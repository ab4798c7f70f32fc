#include "core/mapping/site_filler.h"

#include <algorithm>
#include <numeric>

namespace meridian::mapping {

SiteFiller::SiteFiller(const Adjacency& traffic, const std::vector<double>& weight, std::vector<int> assignment)
    : m_traffic(traffic)
    , m_assignment(std::move(assignment))
    , m_gain(m_assignment.size(), 0.0)
    , m_gainBin(m_assignment.size(), -1)
{
    const int n = static_cast<int>(m_assignment.size());
    m_byWeight.resize(n);
    std::iota(m_byWeight.begin(), m_byWeight.end(), 0);
    std::stable_sort(m_byWeight.begin(), m_byWeight.end(), [&](int a, int b) { return weight[a] > weight[b]; });
    m_unselected = static_cast<int>(std::count(m_assignment.begin(), m_assignment.end(), -1));
}

int SiteFiller::nextHeaviest()
{
    while (m_cursor < m_byWeight.size() && m_assignment[m_byWeight[m_cursor]] >= 0)
        ++m_cursor;
    return m_cursor < m_byWeight.size() ? m_byWeight[m_cursor] : -1;
}

int SiteFiller::fill(int bin, int count)
{
    if (count <= 0 || m_unselected == 0)
        return 0;
    // Max-heap on (gain, -index) with lazy deletion: an entry is current when its gain matches.
    using Entry = std::pair<double, int>;
    const auto lower = [](const Entry& a, const Entry& b) {
        return a.first < b.first || (a.first == b.first && a.second > b.second);
    };
    std::priority_queue<Entry, std::vector<Entry>, decltype(lower)> heap(lower);
    std::vector<int> touched;
    const auto addNeighbours = [&](int p) {
        for (int e = m_traffic.ptr[p]; e < m_traffic.ptr[p + 1]; ++e) {
            const int q = m_traffic.idx[e];
            if (m_assignment[q] >= 0)
                continue;
            if (m_gainBin[q] != bin) {
                m_gainBin[q] = bin;
                m_gain[q] = 0.0;
                touched.push_back(q);
            }
            m_gain[q] += m_traffic.weight[e];
            heap.emplace(m_gain[q], q);
        }
    };
    // Processes already in the bin (pins) attract their neighbours from the start.
    for (int p = 0; p < static_cast<int>(m_assignment.size()); ++p)
        if (m_assignment[p] == bin)
            addNeighbours(p);

    int placed = 0;
    const auto place = [&](int p) {
        m_assignment[p] = bin;
        --m_unselected;
        ++placed;
        addNeighbours(p);
    };
    // Line 9: the heaviest unselected process opens the bin.
    if (const int first = nextHeaviest(); first >= 0)
        place(first);
    // Lines 12-14: then the heaviest communicator with the bin, falling back to the heaviest overall.
    while (placed < count && m_unselected > 0) {
        int chosen = -1;
        while (!heap.empty()) {
            const auto [g, p] = heap.top();
            heap.pop();
            if (m_assignment[p] < 0 && m_gainBin[p] == bin && g == m_gain[p]) {
                chosen = p;
                break;
            }
        }
        if (chosen < 0)
            chosen = nextHeaviest();
        if (chosen < 0)
            break;
        place(chosen);
    }
    for (int q : touched)
        m_gainBin[q] = -1;
    return placed;
}

} // namespace meridian::mapping
