#include "core/mapping/simple_mappers.h"

#include "core/mapping/host_assignment.h"

namespace meridian::mapping {

namespace {

/// Every slot of the topology as (host, slot), grouped by site in host order.
std::vector<std::vector<std::pair<int, int>>> slotsBySite(const model::Topology& topo)
{
    std::vector<std::vector<std::pair<int, int>>> slots(topo.siteCount());
    for (int h = 0; h < topo.hostCount(); ++h)
        for (int k = 0; k < topo.host(h).slots; ++k)
            slots[topo.siteOfHost(h)].emplace_back(h, k);
    return slots;
}

} // namespace

RandomSiteSampler::RandomSiteSampler(const MappingProblem& problem)
    : m_free(problem.freeProcesses())
{
    const auto& residual = problem.residualCapacity();
    for (int s = 0; s < static_cast<int>(residual.size()); ++s)
        m_tokens.insert(m_tokens.end(), residual[s], s);
}

void RandomSiteSampler::draw(std::vector<int>& assignment, Random& random)
{
    const std::size_t total = m_tokens.size();
    for (std::size_t i = 0; i < m_free.size(); ++i) {
        const std::size_t j = i + random.uniformInt(total - i);
        std::swap(m_tokens[i], m_tokens[j]);
        assignment[m_free[i]] = m_tokens[i];
    }
}

Expected<MappingResult> RandomMapper::mapImpl(const MappingProblem& problem, const ParamValues&, std::uint64_t seed,
                                              const FeedbackRange&) const
{
    const auto& topo = problem.topology();
    Random random(seed);
    auto slots = slotsBySite(topo);
    model::Placement placement = model::Placement::fromSites(problem.pinnedAssignment());
    std::vector<std::pair<int, int>> pool;
    for (int s = 0; s < topo.siteCount(); ++s) {
        random.shuffle(slots[s]);
        std::size_t used = 0;
        for (int p = 0; p < problem.processCount(); ++p) {
            if (problem.pinnedSite()[p] == s) {
                placement.host[p] = slots[s][used].first;
                placement.slot[p] = slots[s][used].second;
                ++used;
            }
        }
        pool.insert(pool.end(), slots[s].begin() + static_cast<std::ptrdiff_t>(used), slots[s].end());
    }
    random.shuffle(pool);
    std::size_t next = 0;
    for (int p : problem.freeProcesses()) {
        placement.host[p] = pool[next].first;
        placement.slot[p] = pool[next].second;
        placement.site[p] = topo.siteOfHost(pool[next].first);
        ++next;
    }
    MappingResult result;
    result.placement = std::move(placement);
    return result;
}

Expected<MappingResult> RoundRobinMapper::mapImpl(const MappingProblem& problem, const ParamValues&, std::uint64_t,
                                                  const FeedbackRange&) const
{
    const auto& topo = problem.topology();
    model::Placement placement = model::Placement::fromSites(problem.pinnedAssignment());
    std::vector<int> used(topo.hostCount(), 0);
    int cursor = 0; // hosts before it are full (free processes only scan forward)
    const auto take = [&](int p, int firstHost, int lastHost) {
        for (int h = firstHost; h < lastHost; ++h) {
            if (firstHost == 0 && h < cursor)
                h = cursor;
            if (used[h] < topo.host(h).slots) {
                if (firstHost == 0)
                    cursor = h;
                placement.host[p] = h;
                placement.slot[p] = used[h]++;
                placement.site[p] = topo.siteOfHost(h);
                return;
            }
        }
    };
    for (int p = 0; p < problem.processCount(); ++p) {
        const int s = problem.pinnedSite()[p];
        if (s >= 0)
            take(p, topo.firstHost(s), topo.firstHost(s) + topo.hostCountOf(s));
    }
    for (int p : problem.freeProcesses())
        take(p, 0, topo.hostCount());
    MappingResult result;
    result.placement = std::move(placement);
    return result;
}

Expected<MappingResult> InterleaveMapper::mapImpl(const MappingProblem& problem, const ParamValues&, std::uint64_t,
                                                  const FeedbackRange&) const
{
    const auto& topo = problem.topology();
    const int hosts = topo.hostCount();
    model::Placement placement = model::Placement::fromSites(problem.pinnedAssignment());
    std::vector<int> used(hosts, 0);
    // Pinned processes cycle over the hosts of their own site.
    std::vector<int> siteCursor(topo.siteCount(), 0);
    for (int p = 0; p < problem.processCount(); ++p) {
        const int s = problem.pinnedSite()[p];
        if (s < 0)
            continue;
        const int first = topo.firstHost(s);
        const int k = topo.hostCountOf(s);
        for (int tries = 0; tries < k; ++tries) {
            const int h = first + (siteCursor[s]++ % k);
            if (used[h] < topo.host(h).slots) {
                placement.host[p] = h;
                placement.slot[p] = used[h]++;
                break;
            }
        }
    }
    int cursor = 0;
    for (int p : problem.freeProcesses()) {
        for (int tries = 0; tries < hosts; ++tries) {
            const int h = cursor++ % hosts;
            if (used[h] < topo.host(h).slots) {
                placement.host[p] = h;
                placement.slot[p] = used[h]++;
                placement.site[p] = topo.siteOfHost(h);
                break;
            }
        }
    }
    MappingResult result;
    result.placement = std::move(placement);
    return result;
}

} // namespace meridian::mapping
