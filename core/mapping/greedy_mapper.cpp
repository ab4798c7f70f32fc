#include "core/mapping/greedy_mapper.h"

#include <numeric>
#include <queue>

namespace meridian::mapping {

Expected<MappingResult> GreedyMapper::mapImpl(const MappingProblem& problem, const ParamValues&, std::uint64_t,
                                              const FeedbackRange& range) const
{
    const int n = problem.processCount();
    const int m = problem.siteCount();
    const auto& net = problem.network();
    const Adjacency& g = problem.traffic();
    std::vector<int> siteOf = problem.pinnedAssignment();
    std::vector<int> room = problem.residualCapacity();

    std::vector<double> rowBandwidth(m, 0.0);
    for (int s = 0; s < m; ++s)
        for (int t = 0; t < m; ++t)
            rowBandwidth[s] += net.bandwidthMBps(s, t);

    std::vector<int> byVolume(n);
    std::iota(byVolume.begin(), byVolume.end(), 0);
    std::stable_sort(byVolume.begin(), byVolume.end(),
                     [&](int a, int b) { return problem.trafficVolume()[a] > problem.trafficVolume()[b]; });
    std::size_t cursor = 0;

    // Connection weight to placed processes, and the heaviest placed neighbour (the anchor).
    std::vector<double> attached(n, 0.0);
    std::vector<double> anchorWeight(n, 0.0);
    std::vector<int> anchor(n, -1);
    using Entry = std::pair<double, int>;
    const auto lower = [](const Entry& a, const Entry& b) {
        return a.first < b.first || (a.first == b.first && a.second > b.second);
    };
    std::priority_queue<Entry, std::vector<Entry>, decltype(lower)> queue(lower);

    const auto placed = [&](int p) {
        for (int e = g.ptr[p]; e < g.ptr[p + 1]; ++e) {
            const int q = g.idx[e];
            if (siteOf[q] >= 0)
                continue;
            attached[q] += g.weight[e];
            if (g.weight[e] > anchorWeight[q] || (g.weight[e] == anchorWeight[q] && p < anchor[q])) {
                anchorWeight[q] = g.weight[e];
                anchor[q] = p;
            }
            queue.emplace(attached[q], q);
        }
    };
    const auto bestConnectedSite = [&] {
        int best = -1;
        for (int s = 0; s < m; ++s)
            if (room[s] > 0 && (best < 0 || rowBandwidth[s] > rowBandwidth[best]))
                best = s;
        return best;
    };
    const auto nearestFreeSite = [&](int from) {
        int best = -1;
        for (int s = 0; s < m; ++s)
            if (room[s] > 0 && (best < 0 || net.bandwidthMBps(from, s) > net.bandwidthMBps(from, best)))
                best = s;
        return best;
    };

    for (int p = 0; p < n; ++p)
        if (siteOf[p] >= 0)
            placed(p);
    int remaining = static_cast<int>(problem.freeProcesses().size());
    int done = 0;
    while (remaining > 0) {
        if ((done & 1023) == 0) {
            if (range.isCanceled())
                return makeError(ErrorCode::Canceled, "canceled");
            range.setProgress(static_cast<double>(done) / n, "greedy placement");
        }
        int p = -1;
        while (!queue.empty()) {
            const auto [w, q] = queue.top();
            queue.pop();
            if (siteOf[q] < 0 && w == attached[q]) {
                p = q;
                break;
            }
        }
        int site;
        if (p >= 0) {
            site = nearestFreeSite(siteOf[anchor[p]]);
        } else {
            while (siteOf[byVolume[cursor]] >= 0)
                ++cursor;
            p = byVolume[cursor];
            site = bestConnectedSite();
        }
        siteOf[p] = site;
        --room[site];
        --remaining;
        ++done;
        placed(p);
    }
    MappingResult result;
    result.placement = model::Placement::fromSites(std::move(siteOf));
    return result;
}

} // namespace meridian::mapping
