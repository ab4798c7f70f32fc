#include "core/mapping/host_assignment.h"

#include "core/mapping/local_search.h"
#include "core/mapping/site_filler.h"

#include <algorithm>
#include <atomic>

namespace meridian::mapping {

namespace {

/// The work budget of the host searches of all sites together, in cost-table lookups. Only very large instances
/// reach it (65,536 processes in 64 sites of 64 hosts: about three passes per site).
constexpr double kHostWork = 5e7;

/// The processes of one site, their sub-matrix and the host-level cost tables.
struct SiteView {
    std::vector<int> processes;     // global ids, increasing
    model::CommMatrix comm;         // local ids
    Eigen::MatrixXd latencySeconds; // hosts x hosts
    Eigen::MatrixXd secondsPerByte;
    bool uniform = true; // every split costs the same
};

SiteView makeView(const MappingProblem& problem, const std::vector<int>& siteOf, int site)
{
    const auto& topo = problem.topology();
    const auto& net = problem.network();
    SiteView v;
    std::vector<int> local(siteOf.size(), -1);
    for (int p = 0; p < static_cast<int>(siteOf.size()); ++p) {
        if (siteOf[p] == site) {
            local[p] = static_cast<int>(v.processes.size());
            v.processes.push_back(p);
        }
    }
    const int first = topo.firstHost(site);
    const int k = topo.hostCountOf(site);
    bool anyLink = false;
    for (const auto& [pair, link] : net.hostLinks())
        anyLink = anyLink || (topo.siteOfHost(pair.first) == site && topo.siteOfHost(pair.second) == site);
    bool singleSlots = true;
    for (int a = 0; a < k; ++a)
        singleSlots = singleSlots && topo.host(first + a).slots == 1;
    // Every split costs the same: skip the k x k tables (k can be thousands of single-slot hosts).
    v.uniform = k == 1 || (singleSlots && !anyLink);
    if (v.uniform)
        return v;
    v.latencySeconds.resize(k, k);
    v.secondsPerByte.resize(k, k);
    for (int a = 0; a < k; ++a) {
        for (int b = 0; b < k; ++b) {
            double lat = a == b ? 0.0 : net.latencyMs(site, site) * 1e-3;
            double spb = a == b ? 0.0 : 1.0 / (net.bandwidthMBps(site, site) * 1e6);
            if (const model::HostLink* link = anyLink ? net.hostLink(first + a, first + b) : nullptr) {
                if (std::isfinite(link->latencyMs))
                    lat = link->latencyMs * 1e-3;
                if (std::isfinite(link->bandwidthMBps))
                    spb = 1.0 / (link->bandwidthMBps * 1e6);
            }
            v.latencySeconds(a, b) = lat;
            v.secondsPerByte(a, b) = spb;
        }
    }
    {
        std::vector<model::CommEntry> entries;
        const auto& vol = problem.comm().volume();
        const auto& msg = problem.comm().messages();
        for (int p : v.processes) {
            model::CommMatrix::Sparse::InnerIterator vi(vol, p);
            model::CommMatrix::Sparse::InnerIterator mi(msg, p);
            for (; vi; ++vi, ++mi) {
                const int q = static_cast<int>(vi.col());
                if (local[q] >= 0)
                    entries.push_back({local[p], local[q], vi.value(), mi.value()});
            }
        }
        v.comm = *model::CommMatrix::fromEntries(static_cast<int>(v.processes.size()), entries,
                                                 problem.comm().hasMessages());
    }
    return v;
}

/// Chooses the hosts of site `s`'s processes (writing only theirs into `placement`); `error` is set when the site
/// holds more processes than its slots.
void assignHosts(const MappingProblem& problem, const std::vector<int>& siteOf, int s, std::uint64_t seed,
                 const FeedbackRange& range, model::Placement& placement, std::string& error)
{
    const auto& topo = problem.topology();
    SiteView view = makeView(problem, siteOf, s);
    const int first = topo.firstHost(s);
    const int k = topo.hostCountOf(s);
    if (static_cast<int>(view.processes.size()) > topo.capacity(s)) {
        error = "site '" + topo.site(s).name + "' is over capacity";
        return;
    }
    if (view.processes.empty())
        return;
    if (view.uniform) {
        int h = 0;
        int used = 0;
        for (int p : view.processes) {
            while (used >= topo.host(first + h).slots) {
                ++h;
                used = 0;
            }
            placement.host[p] = first + h;
            ++used;
        }
        return;
    }
    const int m = static_cast<int>(view.processes.size());
    std::vector<int> capacity(k);
    for (int a = 0; a < k; ++a)
        capacity[a] = topo.host(first + a).slots;
    const Adjacency traffic = symmetrize(view.comm.volume());
    std::vector<double> weight(m);
    for (int p = 0; p < m; ++p)
        weight[p] = traffic.degree(p);
    // Hosts are opened best-connected first: the fastest own link, then the most slots.
    std::vector<int> order(k);
    for (int a = 0; a < k; ++a)
        order[a] = a;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const double ca = view.secondsPerByte(a, a), cb = view.secondsPerByte(b, b);
        return ca < cb || (ca == cb && capacity[a] > capacity[b]);
    });
    SiteFiller filler(traffic, weight, std::vector<int>(m, -1));
    for (int a : order)
        filler.fill(a, capacity[a]);
    std::vector<int> local = filler.takeAssignment();

    const cost::AlphaBetaCost cost(view.latencySeconds, view.secondsPerByte, view.comm);
    LocalSearch search(cost, capacity, std::vector<bool>(m, true));
    Random random(seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(s + 1)));
    LocalSearchOptions options;
    options.restarts = m <= 512 ? 4 : 1;
    // The site's share of the work budget, by its share of the processes.
    const double share = kHostWork * m / static_cast<double>(problem.processCount());
    options.maxPasses = LocalSearch::passesWithin(share, m, k, static_cast<double>(traffic.ptr[m]) / m);
    // The sites share the workers, so a site's own progress is not shown (the caller counts sites); a cancel stops
    // the search at once.
    const Feedback quiet({}, [&range] { return range.isCanceled(); });
    search.run(local, options, random, FeedbackRange(quiet, 0.0, 1.0));
    for (int i = 0; i < m; ++i)
        placement.host[view.processes[i]] = first + local[i];
}

} // namespace

void numberSlots(model::Placement& placement, const model::Topology& topology)
{
    std::vector<int> next(topology.hostCount(), 0);
    for (int p = 0; p < placement.processCount(); ++p)
        placement.slot[p] = next[placement.host[p]]++;
}

Expected<model::Placement> completeHosts(const MappingProblem& problem, const std::vector<int>& siteOf,
                                         std::uint64_t seed, const FeedbackRange& range)
{
    const auto& topo = problem.topology();
    const int n = problem.processCount();
    if (static_cast<int>(siteOf.size()) != n)
        return makeError(ErrorCode::Internal, "site assignment has the wrong length");
    model::Placement placement = model::Placement::fromSites(siteOf);
    const int sites = topo.siteCount();
    // Sites are independent (each writes only its own processes' hosts) and shared by the executor's workers; each
    // site's search has its own seed, so the result does not depend on how many workers there are.
    std::vector<std::string> overCapacity(sites);
    std::atomic<int> next{0};
    std::atomic<int> done{0};
    const int workers = std::max(1, std::min(range.executor().concurrency(), sites));
    range.executor().shareWork(workers, [&](int) {
        for (int s = next.fetch_add(1); s < sites && !range.isCanceled(); s = next.fetch_add(1)) {
            assignHosts(problem, siteOf, s, seed, range, placement, overCapacity[s]);
            range.setProgress(static_cast<double>(done.fetch_add(1) + 1) / sites, "hosts and slots");
        }
    });
    for (int s = 0; s < sites; ++s)
        if (!overCapacity[s].empty())
            return makeError(ErrorCode::Internal, overCapacity[s]);
    if (range.isCanceled())
        return makeError(ErrorCode::Canceled, "canceled");
    numberSlots(placement, topo);
    return placement;
}

double hostLevelCost(const MappingProblem& problem, const model::Placement& placement, int site)
{
    SiteView view = makeView(problem, placement.site, site);
    if (view.uniform || view.processes.empty())
        return 0.0;
    const cost::AlphaBetaCost cost(view.latencySeconds, view.secondsPerByte, view.comm);
    std::vector<int> local(view.processes.size());
    const int first = problem.topology().firstHost(site);
    for (std::size_t i = 0; i < view.processes.size(); ++i)
        local[i] = placement.host[view.processes[i]] - first;
    return cost.evaluate(local);
}

} // namespace meridian::mapping
