#include "core/collectives/schedule.h"

#include "core/model/network.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace meridian::collectives {

namespace {

int largestPowerOfTwoAtMost(int p)
{
    int q = 1;
    while (q * 2 <= p)
        q *= 2;
    return q;
}

/// Appends messages; each process sends one at a time (its previous send is added to what a message needs).
class Builder {
public:
    explicit Builder(int processes)
        : m_lastSend(static_cast<std::size_t>(processes), -1)
    {
        m_schedule.processes = processes;
    }

    int send(int from, int to, double bytes, const std::vector<int>& needs)
    {
        Message m{from, to, bytes, {}};
        const int previous = m_lastSend[static_cast<std::size_t>(from)];
        if (previous >= 0)
            m.needs.push_back(previous);
        for (int n : needs)
            if (n >= 0 && n != previous && std::find(m.needs.begin(), m.needs.end(), n) == m.needs.end())
                m.needs.push_back(n);
        m_schedule.messages.push_back(std::move(m));
        const int index = static_cast<int>(m_schedule.messages.size()) - 1;
        m_lastSend[static_cast<std::size_t>(from)] = index;
        return index;
    }

    /// Appends a whole schedule (built on its own, say reversed); returns, per process, the messages it received in
    /// it (what its next step waits for).
    std::vector<std::vector<int>> absorb(const Schedule& stage)
    {
        const int offset = static_cast<int>(m_schedule.messages.size());
        std::vector<std::vector<int>> received(m_lastSend.size());
        for (const Message& m : stage.messages) {
            Message copy = m;
            for (int& n : copy.needs)
                n += offset;
            const int previous = m_lastSend[static_cast<std::size_t>(m.from)];
            if (previous >= 0 && previous < offset)
                copy.needs.push_back(previous);
            m_schedule.messages.push_back(std::move(copy));
            const int index = static_cast<int>(m_schedule.messages.size()) - 1;
            m_lastSend[static_cast<std::size_t>(m.from)] = index;
            received[static_cast<std::size_t>(m.to)].push_back(index);
        }
        return received;
    }

    Schedule take() { return std::move(m_schedule); }
    std::size_t size() const { return m_schedule.messages.size(); }

private:
    Schedule m_schedule;
    std::vector<int> m_lastSend;
};

using Arrivals = std::vector<std::vector<int>>; // per group member, the messages it waits for

Arrivals holding(std::size_t members, const std::vector<int>& rootHas)
{
    Arrivals out(members);
    out[0] = rootHas;
    return out;
}

/// A one-to-all broadcast over `group` (group[0] holds the data once `has[0]` arrived). Returns, per member, the
/// message that brought it the data.
Arrivals flatBroadcast(Builder& b, const std::vector<int>& group, double bytes, const Arrivals& has)
{
    Arrivals got = has;
    for (std::size_t i = 1; i < group.size(); ++i)
        got[i] = {b.send(group[0], group[i], bytes, has[0])};
    return got;
}

Arrivals binomialBroadcast(Builder& b, const std::vector<int>& group, double bytes, const Arrivals& has)
{
    Arrivals got = has;
    const std::size_t p = group.size();
    for (std::size_t span = 1; span < p; span *= 2)
        for (std::size_t i = 0; i < span && i + span < p; ++i)
            got[i + span] = {b.send(group[i], group[i + span], bytes, got[i])};
    return got;
}

Arrivals chainBroadcast(Builder& b, const std::vector<int>& group, double bytes, int chunks, const Arrivals& has)
{
    Arrivals got = has;
    const double chunk = bytes / chunks;
    // previous[c]: what brought chunk c to the current sender.
    std::vector<std::vector<int>> previous(static_cast<std::size_t>(chunks), has[0]);
    for (std::size_t i = 0; i + 1 < group.size(); ++i) {
        for (int c = 0; c < chunks; ++c) {
            const int m = b.send(group[i], group[i + 1], chunk, previous[static_cast<std::size_t>(c)]);
            previous[static_cast<std::size_t>(c)] = {m};
        }
        got[i + 1] = previous.back();
    }
    return got;
}

/// Ring steps: in each, member i sends `blockBytes[(i - step) mod p]` to member i + 1, after what it received in
/// the step before (or `has[i]` for the first).
Arrivals ringSteps(Builder& b, const std::vector<int>& group, const std::vector<double>& blockBytes, int steps,
                   const Arrivals& has)
{
    const int p = static_cast<int>(group.size());
    Arrivals got = has;
    for (int step = 0; step < steps; ++step) {
        Arrivals next(got.size());
        for (int i = 0; i < p; ++i) {
            const int block = ((i - step) % p + p) % p;
            const int to = (i + 1) % p;
            next[static_cast<std::size_t>(to)] = {
                b.send(group[static_cast<std::size_t>(i)], group[static_cast<std::size_t>(to)],
                       blockBytes[static_cast<std::size_t>(block)], got[static_cast<std::size_t>(i)])};
        }
        got = std::move(next);
    }
    return got;
}

Arrivals bucketBroadcast(Builder& b, const std::vector<int>& group, double bytes, const Arrivals& has)
{
    const std::size_t p = group.size();
    const double block = bytes / static_cast<double>(p);
    Arrivals got = has;
    for (std::size_t i = 1; i < p; ++i)
        got[i] = {b.send(group[0], group[i], block, has[0])};
    return ringSteps(b, group, std::vector<double>(p, block), static_cast<int>(p) - 1, got);
}

/// Binomial scatter of member blocks `blocks[i]` from group[0]: the holder of [lo, lo + len) sends the upper part to
/// its first member and goes on with the lower one.
void binomialScatterRange(Builder& b, const std::vector<int>& group, const std::vector<double>& blocks, std::size_t lo,
                          std::size_t len, const std::vector<int>& has, Arrivals& got)
{
    while (len > 1) {
        const std::size_t mid = (len + 1) / 2;
        double bytes = 0.0;
        for (std::size_t k = lo + mid; k < lo + len; ++k)
            bytes += blocks[k];
        const int m = b.send(group[lo], group[lo + mid], bytes, has);
        got[lo + mid] = {m};
        binomialScatterRange(b, group, blocks, lo + mid, len - mid, {m}, got);
        len = mid;
    }
}

Arrivals scatterOver(Builder& b, Algorithm algorithm, const std::vector<int>& group, const std::vector<double>& blocks,
                     const Arrivals& has)
{
    Arrivals got = has;
    if (algorithm == Algorithm::Flat) {
        for (std::size_t i = 1; i < group.size(); ++i)
            got[i] = {b.send(group[0], group[i], blocks[i], has[0])};
    } else {
        binomialScatterRange(b, group, blocks, 0, group.size(), has[0], got);
    }
    return got;
}

/// Pairwise exchanges: in step k every member swaps `bytes(k)` with its partner member ^ 2^k, after what it
/// received in the step before. The group's size must be a power of two.
template <typename BytesOfStep>
Arrivals exchangeSteps(Builder& b, const std::vector<int>& group, int steps, BytesOfStep bytesOfStep, bool halving,
                       const Arrivals& has)
{
    const std::size_t p = group.size();
    Arrivals got = has;
    for (int k = 0; k < steps; ++k) {
        const std::size_t distance = halving ? p >> (k + 1) : std::size_t{1} << k;
        Arrivals next(p);
        for (std::size_t i = 0; i < p; ++i) {
            const std::size_t partner = i ^ distance;
            next[partner] = {b.send(group[i], group[partner], bytesOfStep(k), got[i])};
        }
        got = std::move(next);
    }
    return got;
}

int log2Exact(std::size_t p)
{
    int steps = 0;
    while ((std::size_t{1} << steps) < p)
        ++steps;
    return steps;
}

/// Recursive doubling or Rabenseifner's allreduce over any process count: beyond the largest power of two p',
/// the first 2 (p - p') members pair up, the odd one handing its buffer to the even one before and getting the
/// result after (as Open MPI does).
Arrivals powerOfTwoAllreduce(Builder& b, const std::vector<int>& group, double bytes, bool rabenseifner,
                             const Arrivals& has)
{
    const std::size_t p = group.size();
    const std::size_t core = static_cast<std::size_t>(largestPowerOfTwoAtMost(static_cast<int>(p)));
    const std::size_t extra = p - core;
    Arrivals got = has;
    std::vector<int> members;
    Arrivals memberHas;
    for (std::size_t i = 0; i < p; ++i) {
        if (i < 2 * extra && i % 2 == 1) {
            got[i - 1].push_back(b.send(group[i], group[i - 1], bytes, got[i]));
            continue;
        }
        members.push_back(group[i]);
    }
    for (std::size_t i = 0; i < p; ++i)
        if (!(i < 2 * extra && i % 2 == 1))
            memberHas.push_back(got[i]);
    const int steps = log2Exact(core);
    Arrivals done;
    if (rabenseifner) {
        const double coreBytes = bytes;
        Arrivals halved = exchangeSteps(
            b, members, steps, [&](int k) { return coreBytes / std::pow(2.0, k + 1); }, true, memberHas);
        done = exchangeSteps(
            b, members, steps, [&](int k) { return coreBytes / std::pow(2.0, steps - k); }, false, halved);
    } else {
        done = exchangeSteps(
            b, members, steps, [&](int) { return bytes; }, false, memberHas);
    }
    Arrivals out(p);
    std::size_t j = 0;
    for (std::size_t i = 0; i < p; ++i) {
        if (i < 2 * extra && i % 2 == 1)
            continue;
        out[i] = done[j++];
        if (i < 2 * extra)
            out[i + 1] = {b.send(group[i], group[i + 1], bytes, out[i])};
    }
    return out;
}

/// Members of each site, counting ranks from the root (root, root + 1, ... mod p): the site's first such rank is its
/// leader (the root for its own site), and the sites come in the order of their leaders.
std::vector<std::vector<int>> siteGroups(const Layout& layout, int root)
{
    const int p = layout.processes();
    std::map<int, std::size_t> index;
    std::vector<std::vector<int>> groups;
    for (int k = 0; k < p; ++k) {
        const int r = (root + k) % p;
        const int s = layout.site[static_cast<std::size_t>(r)];
        auto [it, fresh] = index.emplace(s, groups.size());
        if (fresh)
            groups.emplace_back();
        groups[it->second].push_back(r);
    }
    return groups;
}

std::vector<int> rootFirst(int p, int root)
{
    std::vector<int> ranks(static_cast<std::size_t>(p));
    for (int k = 0; k < p; ++k)
        ranks[static_cast<std::size_t>(k)] = (root + k) % p;
    return ranks;
}

std::vector<double> blocksOf(const std::vector<int>& group, double blockBytes)
{
    return std::vector<double>(group.size(), blockBytes);
}

/// The hierarchical broadcast: binomial across the sites' leaders, then binomial within each site.
void hierarchicalBroadcast(Builder& b, const Layout& layout, int root, double bytes)
{
    const auto groups = siteGroups(layout, root);
    std::vector<int> leaders;
    leaders.reserve(groups.size());
    for (const auto& g : groups)
        leaders.push_back(g.front());
    const Arrivals atLeaders = binomialBroadcast(b, leaders, bytes, Arrivals(leaders.size()));
    for (std::size_t s = 0; s < groups.size(); ++s)
        binomialBroadcast(b, groups[s], bytes, holding(groups[s].size(), atLeaders[s]));
}

Schedule broadcastOver(Algorithm algorithm, const std::vector<int>& order, int processes, double bytes, int chunks,
                       const Layout& layout, int root)
{
    Builder b(processes);
    const Arrivals none(order.size());
    switch (algorithm) {
    case Algorithm::Flat:
        flatBroadcast(b, order, bytes, none);
        break;
    case Algorithm::Bucket:
        bucketBroadcast(b, order, bytes, none);
        break;
    case Algorithm::Chain:
    case Algorithm::TopologyChain:
        chainBroadcast(b, order, bytes, chunks, none);
        break;
    case Algorithm::Hierarchical:
        hierarchicalBroadcast(b, layout, root, bytes);
        break;
    default:
        binomialBroadcast(b, order, bytes, none);
        break;
    }
    return b.take();
}

/// Scatter of `bytes` (p blocks) from the root: flat or binomial over all, or hierarchical (each site's leader gets
/// its site's blocks from the root in turn, then scatters them binomially within the site).
Schedule scatterSchedule(Algorithm algorithm, const Layout& layout, int root, double bytes)
{
    const int p = layout.processes();
    const double block = bytes / p;
    Builder b(p);
    if (algorithm != Algorithm::Hierarchical) {
        const auto order = rootFirst(p, root);
        scatterOver(b, algorithm, order, blocksOf(order, block), Arrivals(order.size()));
        return b.take();
    }
    const auto groups = siteGroups(layout, root);
    std::vector<int> leaders;
    std::vector<double> leaderBytes;
    for (const auto& g : groups) {
        leaders.push_back(g.front());
        leaderBytes.push_back(block * static_cast<double>(g.size()));
    }
    const Arrivals atLeaders = scatterOver(b, Algorithm::Flat, leaders, leaderBytes, Arrivals(leaders.size()));
    for (std::size_t s = 0; s < groups.size(); ++s)
        scatterOver(b, Algorithm::Mst, groups[s], blocksOf(groups[s], block), holding(groups[s].size(), atLeaders[s]));
    return b.take();
}

/// Reduce to the root by `algorithm` (the broadcast reversed), then broadcast from it the same way.
Schedule reduceThenBroadcast(Algorithm algorithm, const std::vector<int>& order, int p, double bytes,
                             const Layout& layout, int root)
{
    const Schedule down = broadcastOver(algorithm, order, p, bytes, 1, layout, root);
    Builder b(p);
    const auto received = b.absorb(reversed(down));
    const Arrivals has = holding(order.size(), received[static_cast<std::size_t>(root)]);
    if (algorithm == Algorithm::Flat)
        flatBroadcast(b, order, bytes, has);
    else
        binomialBroadcast(b, order, bytes, has);
    return b.take();
}

Arrivals membersOf(const std::vector<int>& group, const std::vector<std::vector<int>>& received)
{
    Arrivals out;
    for (int r : group)
        out.push_back(received[static_cast<std::size_t>(r)]);
    return out;
}

/// Hierarchical allreduce: binomial reduce within each site to its leader, recursive doubling among the leaders,
/// binomial broadcast within each site.
Schedule hierarchicalAllreduce(const Layout& layout, int root, double bytes)
{
    const int p = layout.processes();
    const auto groups = siteGroups(layout, root);
    Builder inward(p);
    for (const auto& g : groups)
        binomialBroadcast(inward, g, bytes, Arrivals(g.size()));
    Builder b(p);
    const auto received = b.absorb(reversed(inward.take()));
    std::vector<int> leaders;
    leaders.reserve(groups.size());
    for (const auto& g : groups)
        leaders.push_back(g.front());
    const Arrivals atLeaders = powerOfTwoAllreduce(b, leaders, bytes, false, membersOf(leaders, received));
    for (std::size_t s = 0; s < groups.size(); ++s)
        binomialBroadcast(b, groups[s], bytes, holding(groups[s].size(), atLeaders[s]));
    return b.take();
}

Schedule allreduceSchedule(Algorithm algorithm, const Layout& layout, int root, double bytes)
{
    const int p = layout.processes();
    const auto order = rootFirst(p, root);
    switch (algorithm) {
    case Algorithm::Ring: {
        Builder b(p);
        const double block = bytes / p;
        ringSteps(b, order, blocksOf(order, block), 2 * (p - 1), Arrivals(order.size()));
        return b.take();
    }
    case Algorithm::RecursiveDoubling:
    case Algorithm::Rabenseifner: {
        Builder b(p);
        powerOfTwoAllreduce(b, order, bytes, algorithm == Algorithm::Rabenseifner, Arrivals(order.size()));
        return b.take();
    }
    case Algorithm::Hierarchical:
        return hierarchicalAllreduce(layout, root, bytes);
    default:
        return reduceThenBroadcast(algorithm, order, p, bytes, layout, root);
    }
}

/// Hierarchical allgather: each site gathers its blocks at its leader, the leaders pass their sites' blocks around
/// a ring, and each leader broadcasts the whole buffer within its site.
Schedule hierarchicalAllgather(const Layout& layout, double bytes)
{
    const int p = layout.processes();
    const double block = bytes / p;
    const auto groups = siteGroups(layout, 0);
    Builder inward(p);
    for (const auto& g : groups)
        scatterOver(inward, Algorithm::Mst, g, blocksOf(g, block), Arrivals(g.size()));
    Builder b(p);
    const auto received = b.absorb(reversed(inward.take()));
    std::vector<int> leaders;
    std::vector<double> siteBytes;
    for (const auto& g : groups) {
        leaders.push_back(g.front());
        siteBytes.push_back(block * static_cast<double>(g.size()));
    }
    const Arrivals atLeaders = ringSteps(b, leaders, siteBytes, static_cast<int>(leaders.size()) - 1,
                                         membersOf(leaders, received));
    for (std::size_t s = 0; s < groups.size(); ++s)
        binomialBroadcast(b, groups[s], bytes, holding(groups[s].size(), atLeaders[s]));
    return b.take();
}

Schedule allgatherSchedule(Algorithm algorithm, const Layout& layout, double bytes)
{
    const int p = layout.processes();
    const auto order = rootFirst(p, 0);
    const double block = bytes / p;
    switch (algorithm) {
    case Algorithm::Ring: {
        Builder b(p);
        ringSteps(b, order, blocksOf(order, block), p - 1, Arrivals(order.size()));
        return b.take();
    }
    case Algorithm::RecursiveDoubling: {
        Builder b(p);
        exchangeSteps(
            b, order, log2Exact(order.size()), [&](int k) { return block * std::pow(2.0, k); }, false,
            Arrivals(order.size()));
        return b.take();
    }
    case Algorithm::Hierarchical:
        return hierarchicalAllgather(layout, bytes);
    default: {
        // Flat: gather at rank 0 in turn, then rank 0 sends the whole buffer to each in turn.
        Builder gather(p);
        scatterOver(gather, Algorithm::Flat, order, blocksOf(order, block), Arrivals(order.size()));
        Builder b(p);
        const auto received = b.absorb(reversed(gather.take()));
        flatBroadcast(b, order, bytes, holding(order.size(), received[0]));
        return b.take();
    }
    }
}

/// The pairwise exchange over a group: in step s member i sends `pairBytes(i, i + s)` to member i + s (mod size)
/// after what it received in the step before.
template <typename PairBytes>
Arrivals pairwiseSteps(Builder& b, const std::vector<int>& group, PairBytes pairBytes, const Arrivals& has)
{
    const std::size_t p = group.size();
    Arrivals got = has;
    for (std::size_t step = 1; step < p; ++step) {
        Arrivals next(p);
        for (std::size_t i = 0; i < p; ++i) {
            const std::size_t to = (i + step) % p;
            next[to] = {b.send(group[i], group[to], pairBytes(i, to), got[i])};
        }
        got = std::move(next);
    }
    return got;
}

/// Hierarchical all-to-all (Fan et al.): within each site the processes exchange directly; each sends its leader
/// what it has for other sites; the leaders exchange pairwise what their sites send each other; each leader hands
/// its processes what came for them.
Schedule hierarchicalAlltoall(const Layout& layout, double perProcess)
{
    const int p = layout.processes();
    const double block = perProcess / p;
    const auto groups = siteGroups(layout, 0);
    Builder b(p);
    std::vector<int> leaders;
    Arrivals leaderHas;
    for (const auto& g : groups) {
        pairwiseSteps(
            b, g, [&](std::size_t, std::size_t) { return block; }, Arrivals(g.size()));
        const double offSite = block * static_cast<double>(p - static_cast<int>(g.size()));
        std::vector<int> into;
        for (std::size_t i = 1; i < g.size() && offSite > 0.0; ++i)
            into.push_back(b.send(g[i], g[0], offSite, {}));
        leaders.push_back(g.front());
        leaderHas.push_back(into);
    }
    const Arrivals atLeaders = pairwiseSteps(
        b, leaders,
        [&](std::size_t a, std::size_t c) {
            return block * static_cast<double>(groups[a].size()) * static_cast<double>(groups[c].size());
        },
        leaderHas);
    for (std::size_t s = 0; s < groups.size(); ++s) {
        const double offSite = block * static_cast<double>(p - static_cast<int>(groups[s].size()));
        for (std::size_t i = 1; i < groups[s].size() && offSite > 0.0; ++i)
            b.send(groups[s][0], groups[s][i], offSite, atLeaders[s]);
    }
    return b.take();
}

Schedule alltoallSchedule(Algorithm algorithm, const Layout& layout, double perProcess)
{
    const int p = layout.processes();
    const auto order = rootFirst(p, 0);
    const double block = perProcess / p;
    Builder b(p);
    switch (algorithm) {
    case Algorithm::Hypercube:
        // Dimension exchange: each step forwards half of what a process holds (its own and relayed blocks).
        exchangeSteps(
            b, order, log2Exact(order.size()), [&](int) { return perProcess / 2.0; }, false, Arrivals(order.size()));
        return b.take();
    case Algorithm::Hierarchical:
        return hierarchicalAlltoall(layout, perProcess);
    default:
        pairwiseSteps(
            b, order, [&](std::size_t, std::size_t) { return block; }, Arrivals(order.size()));
        return b.take();
    }
}

} // namespace

double Schedule::totalBytes() const
{
    double sum = 0.0;
    for (const Message& m : messages)
        sum += m.bytes;
    return sum;
}

double shuffleBufferBytes(const CollectiveSpec& spec)
{
    if (spec.shuffle.localReduction)
        return spec.shuffle.reducedBytes > 0.0 ? spec.shuffle.reducedBytes : spec.bytes;
    return spec.bytes * spec.shuffle.mapTasks;
}

Schedule reversed(const Schedule& schedule)
{
    const int n = static_cast<int>(schedule.messages.size());
    Schedule out;
    out.processes = schedule.processes;
    out.messages.resize(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        const Message& m = schedule.messages[static_cast<std::size_t>(k)];
        Message& r = out.messages[static_cast<std::size_t>(n - 1 - k)];
        r.from = m.to;
        r.to = m.from;
        r.bytes = m.bytes;
        // What waited for m now comes first: m's reverse waits for their reverses.
        for (int need : m.needs)
            out.messages[static_cast<std::size_t>(n - 1 - need)].needs.push_back(n - 1 - k);
    }
    return out;
}

std::vector<int> topologyChainOrder(const Layout& layout, int root, const model::Network& network)
{
    auto groups = siteGroups(layout, root);
    // Within a site, node by node (the root's node first), keeping rank order within a node.
    for (auto& g : groups) {
        std::map<int, std::size_t> firstSeen;
        for (std::size_t i = 0; i < g.size(); ++i)
            firstSeen.emplace(layout.node[static_cast<std::size_t>(g[i])], i);
        std::stable_sort(g.begin(), g.end(), [&](int a, int b) {
            return firstSeen[layout.node[static_cast<std::size_t>(a)]]
                < firstSeen[layout.node[static_cast<std::size_t>(b)]];
        });
    }
    std::vector<int> order(groups.front());
    std::vector<char> used(groups.size(), 0);
    used[0] = 1;
    int current = layout.site[static_cast<std::size_t>(root)];
    for (std::size_t step = 1; step < groups.size(); ++step) {
        std::size_t best = 0;
        for (std::size_t g = 1; g < groups.size(); ++g) {
            if (used[g])
                continue;
            const int s = layout.site[static_cast<std::size_t>(groups[g].front())];
            if (best == 0)
                best = g;
            const int b = layout.site[static_cast<std::size_t>(groups[best].front())];
            const double bw = network.bandwidthMBps(current, s);
            const double bestBw = network.bandwidthMBps(current, b);
            if (bw > bestBw || (bw == bestBw && network.latencyMs(current, s) < network.latencyMs(current, b)))
                best = g;
        }
        used[best] = 1;
        order.insert(order.end(), groups[best].begin(), groups[best].end());
        current = layout.site[static_cast<std::size_t>(groups[best].front())];
    }
    return order;
}

Expected<Schedule> buildSchedule(const CollectiveSpec& spec, const Layout& layout, const model::Network* network)
{
    if (auto ok = checkCollective(spec, layout); !ok)
        return ok.error();
    const int p = layout.processes();
    for (int r = 0; r < p; ++r)
        if (network
            && (layout.site[static_cast<std::size_t>(r)] < 0
                || layout.site[static_cast<std::size_t>(r)] >= network->siteCount()))
            return makeError(ErrorCode::InvalidInput, "rank " + std::to_string(r) + " has no site of the network");
    if (spec.algorithm == Algorithm::TopologyChain && !network)
        return makeError(ErrorCode::InvalidInput, "the topology-aware chain needs the network to order its sites");
    const Algorithm a = spec.algorithm;
    switch (spec.operation) {
    case Operation::Broadcast:
    case Operation::Reduce: {
        const auto order = a == Algorithm::TopologyChain ? topologyChainOrder(layout, spec.root, *network)
                                                         : rootFirst(p, spec.root);
        Schedule down = broadcastOver(a, order, p, spec.bytes, spec.chunks, layout, spec.root);
        return spec.operation == Operation::Broadcast ? down : reversed(down);
    }
    case Operation::Scatter:
        return scatterSchedule(a, layout, spec.root, spec.bytes);
    case Operation::Gather:
        return reversed(scatterSchedule(a, layout, spec.root, spec.bytes));
    case Operation::Allreduce:
        return allreduceSchedule(a, layout, spec.root, spec.bytes);
    case Operation::Allgather:
        return allgatherSchedule(a, layout, spec.bytes);
    case Operation::Alltoall:
        return alltoallSchedule(a, layout, spec.bytes);
    case Operation::Shuffle:
        return alltoallSchedule(a, layout, shuffleBufferBytes(spec));
    }
    return makeError(ErrorCode::InvalidInput, "unknown operation");
}

} // namespace meridian::collectives
