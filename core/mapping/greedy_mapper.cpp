#include "core/mapping/greedy_mapper.h"

#include <numeric>
#include <queue>

namespace meridian::mapping {

namespace {

/// The state of the greedy placement: each placed process attaches its unplaced neighbours; the most attached
/// one is placed next, on the free site best connected to its heaviest placed neighbour (its anchor).
class GreedyPlacer {
public:
    explicit GreedyPlacer(const MappingProblem& problem)
        : m_net(problem.network())
        , m_g(problem.traffic())
        , m_m(problem.siteCount())
        , m_siteOf(problem.pinnedAssignment())
        , m_room(problem.residualCapacity())
        , m_rowBandwidth(m_m, 0.0)
        , m_byVolume(problem.processCount())
        , m_attached(problem.processCount(), 0.0)
        , m_anchorWeight(problem.processCount(), 0.0)
        , m_anchor(problem.processCount(), -1)
        , m_queue(lower)
    {
        for (int s = 0; s < m_m; ++s)
            for (int t = 0; t < m_m; ++t)
                m_rowBandwidth[s] += m_net.bandwidthMBps(s, t);
        std::iota(m_byVolume.begin(), m_byVolume.end(), 0);
        std::stable_sort(m_byVolume.begin(), m_byVolume.end(),
                         [&](int a, int b) { return problem.trafficVolume()[a] > problem.trafficVolume()[b]; });
        for (int p = 0; p < problem.processCount(); ++p)
            if (m_siteOf[p] >= 0)
                placed(p);
    }

    /// Places the next process: the most attached one near its anchor, else the heaviest unplaced one on the
    /// best-connected site with room.
    void placeNext()
    {
        int p = mostAttached();
        int site;
        if (p >= 0) {
            site = nearestFreeSite(m_siteOf[m_anchor[p]]);
        } else {
            while (m_siteOf[m_byVolume[m_cursor]] >= 0)
                ++m_cursor;
            p = m_byVolume[m_cursor];
            site = bestConnectedSite();
        }
        m_siteOf[p] = site;
        --m_room[site];
        placed(p);
    }

    std::vector<int> take() { return std::move(m_siteOf); }

private:
    using Entry = std::pair<double, int>;
    static bool lower(const Entry& a, const Entry& b)
    {
        return a.first < b.first || (a.first == b.first && a.second > b.second);
    }

    /// Adds p's weight to its unplaced neighbours' attachment and makes p their anchor if it is the heaviest.
    void placed(int p)
    {
        for (int e = m_g.ptr[p]; e < m_g.ptr[p + 1]; ++e) {
            const int q = m_g.idx[e];
            if (m_siteOf[q] >= 0)
                continue;
            m_attached[q] += m_g.weight[e];
            if (m_g.weight[e] > m_anchorWeight[q] || (m_g.weight[e] == m_anchorWeight[q] && p < m_anchor[q])) {
                m_anchorWeight[q] = m_g.weight[e];
                m_anchor[q] = p;
            }
            m_queue.emplace(m_attached[q], q);
        }
    }
    /// The unplaced process with the largest attachment (stale queue entries skipped), or -1.
    int mostAttached()
    {
        while (!m_queue.empty()) {
            const auto [w, q] = m_queue.top();
            m_queue.pop();
            if (m_siteOf[q] < 0 && w == m_attached[q])
                return q;
        }
        return -1;
    }
    int bestConnectedSite() const
    {
        int best = -1;
        for (int s = 0; s < m_m; ++s)
            if (m_room[s] > 0 && (best < 0 || m_rowBandwidth[s] > m_rowBandwidth[best]))
                best = s;
        return best;
    }
    int nearestFreeSite(int from) const
    {
        int best = -1;
        for (int s = 0; s < m_m; ++s)
            if (m_room[s] > 0 && (best < 0 || m_net.bandwidthMBps(from, s) > m_net.bandwidthMBps(from, best)))
                best = s;
        return best;
    }

    const model::Network& m_net;
    const Adjacency& m_g;
    int m_m;
    std::vector<int> m_siteOf;
    std::vector<int> m_room;
    std::vector<double> m_rowBandwidth;
    std::vector<int> m_byVolume;
    std::size_t m_cursor = 0;
    std::vector<double> m_attached;
    std::vector<double> m_anchorWeight;
    std::vector<int> m_anchor;
    std::priority_queue<Entry, std::vector<Entry>, bool (*)(const Entry&, const Entry&)> m_queue;
};

} // namespace

Expected<MappingResult> GreedyMapper::mapImpl(const MappingProblem& problem, const ParamValues&, std::uint64_t,
                                              const FeedbackRange& range) const
{
    GreedyPlacer placer(problem);
    const int n = problem.processCount();
    const int count = static_cast<int>(problem.freeProcesses().size());
    for (int done = 0; done < count; ++done) {
        if ((done & 1023) == 0) {
            if (range.isCanceled())
                return makeError(ErrorCode::Canceled, "canceled");
            range.setProgress(static_cast<double>(done) / n, "greedy placement");
        }
        placer.placeNext();
    }
    MappingResult result;
    result.placement = model::Placement::fromSites(placer.take());
    return result;
}

} // namespace meridian::mapping
