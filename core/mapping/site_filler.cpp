#include "core/mapping/site_filler.h"

#include <algorithm>
#include <numeric>

namespace meridian::mapping {

std::vector<int> SiteFiller::byWeight(const std::vector<double>& weight)
{
    std::vector<int> order(weight.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weight[a] > weight[b]; });
    return order;
}

SiteFiller::SiteFiller(const Adjacency& traffic, const std::vector<double>& weight, std::vector<int> assignment)
    : SiteFiller(traffic, byWeight(weight), std::move(assignment))
{}

SiteFiller::SiteFiller(const Adjacency& traffic, std::vector<int> byWeight, std::vector<int> assignment)
    : m_traffic(traffic)
    , m_assignment(std::move(assignment))
    , m_byWeight(std::move(byWeight))
    , m_gain(m_assignment.size(), 0.0)
    , m_gainBin(m_assignment.size(), -1)
    , m_heapPos(m_assignment.size(), -1)
{
    m_unselected = 0;
    for (int p = 0; p < static_cast<int>(m_assignment.size()); ++p) {
        const int b = m_assignment[p];
        if (b < 0) {
            ++m_unselected;
            continue;
        }
        if (b >= static_cast<int>(m_members.size()))
            m_members.resize(static_cast<std::size_t>(b) + 1);
        m_members[b].push_back(p);
    }
}

int SiteFiller::nextHeaviest()
{
    while (m_cursor < m_byWeight.size() && m_assignment[m_byWeight[m_cursor]] >= 0)
        ++m_cursor;
    return m_cursor < m_byWeight.size() ? m_byWeight[m_cursor] : -1;
}

void SiteFiller::siftUp(std::size_t i)
{
    const int p = m_heap[i];
    while (i > 0) {
        const std::size_t parent = (i - 1) / 2;
        if (!above(p, m_heap[parent]))
            break;
        m_heap[i] = m_heap[parent];
        m_heapPos[m_heap[i]] = static_cast<int>(i);
        i = parent;
    }
    m_heap[i] = p;
    m_heapPos[p] = static_cast<int>(i);
}

void SiteFiller::siftDown(std::size_t i)
{
    const int p = m_heap[i];
    const std::size_t size = m_heap.size();
    for (;;) {
        std::size_t child = 2 * i + 1;
        if (child >= size)
            break;
        if (child + 1 < size && above(m_heap[child + 1], m_heap[child]))
            ++child;
        if (!above(m_heap[child], p))
            break;
        m_heap[i] = m_heap[child];
        m_heapPos[m_heap[i]] = static_cast<int>(i);
        i = child;
    }
    m_heap[i] = p;
    m_heapPos[p] = static_cast<int>(i);
}

void SiteFiller::raise(int p)
{
    if (m_heapPos[p] < 0) {
        m_heap.push_back(p);
        m_heapPos[p] = static_cast<int>(m_heap.size() - 1);
    }
    siftUp(static_cast<std::size_t>(m_heapPos[p]));
}

void SiteFiller::remove(int p)
{
    const auto i = static_cast<std::size_t>(m_heapPos[p]);
    m_heapPos[p] = -1;
    const int last = m_heap.back();
    m_heap.pop_back();
    if (last == p)
        return;
    m_heap[i] = last;
    m_heapPos[last] = static_cast<int>(i);
    siftUp(i);
    siftDown(static_cast<std::size_t>(m_heapPos[last]));
}

int SiteFiller::fill(int bin, int count)
{
    if (count <= 0 || m_unselected == 0)
        return 0;
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
            raise(q);
        }
    };
    // Processes already in the bin (pins) attract their neighbours from the start, in index order.
    if (bin >= static_cast<int>(m_members.size()))
        m_members.resize(static_cast<std::size_t>(bin) + 1);
    std::vector<int>& members = m_members[bin];
    std::sort(members.begin(), members.end());
    for (int p : members)
        addNeighbours(p);

    int placed = 0;
    const auto place = [&](int p) {
        if (m_heapPos[p] >= 0)
            remove(p);
        m_assignment[p] = bin;
        members.push_back(p);
        --m_unselected;
        ++placed;
        addNeighbours(p);
    };
    // Line 9: the heaviest unselected process opens the bin.
    if (const int first = nextHeaviest(); first >= 0)
        place(first);
    // Lines 12-14: then the heaviest communicator with the bin, falling back to the heaviest overall.
    while (placed < count && m_unselected > 0) {
        const int chosen = m_heap.empty() ? nextHeaviest() : m_heap.front();
        if (chosen < 0)
            break;
        place(chosen);
    }
    for (int q : m_heap)
        m_heapPos[q] = -1;
    m_heap.clear();
    for (int q : touched)
        m_gainBin[q] = -1;
    return placed;
}

} // namespace meridian::mapping
