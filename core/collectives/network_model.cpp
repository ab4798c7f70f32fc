#include "core/collectives/network_model.h"

#include "core/cost/bottleneck_cost.h"
#include "core/model/network.h"
#include "core/model/topology.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <queue>
#include <unordered_map>

namespace meridian::collectives {

namespace {

constexpr double kBytesPerMB = 1e6;

/// The links of the model, created as messages need them.
class Links {
public:
    Links(const Layout& layout, const model::Topology& topology, const model::Network& network)
        : m_layout(layout)
        , m_topology(topology)
        , m_network(network)
    {}

    int nodeOut(int rank) { return node(rank, true); }
    int nodeIn(int rank) { return node(rank, false); }
    int uplink(int site) { return siteLink(site, true); }
    int downlink(int site) { return siteLink(site, false); }
    int pair(int a, int b)
    {
        const long long key = static_cast<long long>(a) * m_network.siteCount() + b;
        return lookup(key * 4 + 3, [&] { return m_network.bandwidthMBps(a, b); });
    }

    double capacity(int link) const { return m_capacity[static_cast<std::size_t>(link)]; }
    std::vector<int>& active(int link) { return m_active[static_cast<std::size_t>(link)]; }

private:
    int node(int rank, bool out)
    {
        const int site = m_layout.site[static_cast<std::size_t>(rank)];
        const long long key = static_cast<long long>(m_layout.node[static_cast<std::size_t>(rank)]) + 1;
        return lookup(-(key * 4 + (out ? 0 : 1)), [&] { return m_network.bandwidthMBps(site, site); });
    }
    int siteLink(int site, bool up)
    {
        return lookup(static_cast<long long>(site) * 4 + (up ? 1 : 2),
                      [&] { return cost::accessBandwidthMBps(m_topology, m_network, site, up); });
    }
    template <typename Bandwidth>
    int lookup(long long key, Bandwidth bandwidthMBps)
    {
        auto [it, fresh] = m_index.emplace(key, static_cast<int>(m_capacity.size()));
        if (fresh) {
            m_capacity.push_back(bandwidthMBps() * kBytesPerMB);
            m_active.emplace_back();
        }
        return it->second;
    }

    const Layout& m_layout;
    const model::Topology& m_topology;
    const model::Network& m_network;
    std::unordered_map<long long, int> m_index;
    std::vector<double> m_capacity;
    std::vector<std::vector<int>> m_active;
};

struct Flow {
    double remaining = 0.0;
    double rate = 0.0;
    double since = 0.0;
    int version = 0;
    int linkCount = 0;
    std::array<int, 5> links{};
};

struct Event {
    double time = 0.0;
    long long sequence = 0;
    int message = 0;
    int version = -1; ///< -1: the message starts; else the flow's version when its finish was computed

    bool operator>(const Event& other) const
    {
        return time != other.time ? time > other.time : sequence > other.sequence;
    }
};

class Evaluator {
public:
    Evaluator(const Schedule& schedule, const Layout& layout, const model::Topology& topology,
              const model::Network& network)
        : m_schedule(schedule)
        , m_layout(layout)
        , m_network(network)
        , m_links(layout, topology, network)
        , m_flows(schedule.messages.size())
        , m_pending(schedule.messages.size(), 0)
        , m_readyAt(schedule.messages.size(), 0.0)
        , m_dependents(schedule.messages.size())
        , m_seen(schedule.messages.size(), 0)
    {
        m_timing.arrival.assign(schedule.messages.size(), 0.0);
    }

    Status check() const
    {
        const int p = m_layout.processes();
        for (std::size_t k = 0; k < m_schedule.messages.size(); ++k) {
            const Message& m = m_schedule.messages[k];
            for (int r : {m.from, m.to}) {
                if (r < 0 || r >= p)
                    return makeError(ErrorCode::InvalidInput,
                                     "message " + std::to_string(k) + " names process " + std::to_string(r) + " of "
                                         + std::to_string(p));
                const int s = m_layout.site[static_cast<std::size_t>(r)];
                if (s < 0 || s >= m_network.siteCount())
                    return makeError(ErrorCode::InvalidInput,
                                     "process " + std::to_string(r) + " has no site of the network");
            }
            for (int need : m.needs)
                if (need < 0 || need >= static_cast<int>(k))
                    return makeError(ErrorCode::InvalidInput,
                                     "message " + std::to_string(k) + " needs a message that does not come before it");
            const int a = m_layout.site[static_cast<std::size_t>(m.from)];
            const int b = m_layout.site[static_cast<std::size_t>(m.to)];
            const double bw = m_network.bandwidthMBps(a, b);
            const double lat = m_network.latencyMs(a, b);
            if (!std::isfinite(bw) || bw <= 0.0 || !std::isfinite(lat) || lat < 0.0
                || !std::isfinite(m_network.bandwidthMBps(a, a)) || !std::isfinite(m_network.bandwidthMBps(b, b)))
                return makeError(ErrorCode::InvalidInput,
                                 "the network has no usable latency and bandwidth between sites " + std::to_string(a)
                                     + " and " + std::to_string(b) + " (complete the network first)");
        }
        return {};
    }

    ScheduleTiming run()
    {
        for (std::size_t k = 0; k < m_schedule.messages.size(); ++k) {
            const auto& needs = m_schedule.messages[k].needs;
            m_pending[k] = static_cast<int>(needs.size());
            for (int need : needs)
                m_dependents[static_cast<std::size_t>(need)].push_back(static_cast<int>(k));
            if (needs.empty())
                push(0.0, static_cast<int>(k), -1);
        }
        while (!m_events.empty()) {
            const Event e = m_events.top();
            m_events.pop();
            if (e.version < 0)
                start(e.message, e.time);
            else if (e.version == m_flows[static_cast<std::size_t>(e.message)].version)
                finish(e.message, e.time);
        }
        return std::move(m_timing);
    }

private:
    void push(double time, int message, int version) { m_events.push({time, m_sequence++, message, version}); }

    double latencyS(const Message& m) const
    {
        return m_network.latencyMs(m_layout.site[static_cast<std::size_t>(m.from)],
                                   m_layout.site[static_cast<std::size_t>(m.to)])
            * 1e-3;
    }

    void start(int k, double now)
    {
        const Message& m = m_schedule.messages[static_cast<std::size_t>(k)];
        const bool sameNode = m_layout.node[static_cast<std::size_t>(m.from)]
            == m_layout.node[static_cast<std::size_t>(m.to)];
        if (sameNode || m.bytes <= 0.0) {
            arrived(k, sameNode ? now : now + latencyS(m));
            return;
        }
        Flow& f = m_flows[static_cast<std::size_t>(k)];
        f.remaining = m.bytes;
        f.since = now;
        const int a = m_layout.site[static_cast<std::size_t>(m.from)];
        const int b = m_layout.site[static_cast<std::size_t>(m.to)];
        f.links[0] = m_links.nodeOut(m.from);
        f.links[1] = m_links.nodeIn(m.to);
        f.linkCount = 2;
        if (a != b) {
            f.links[2] = m_links.uplink(a);
            f.links[3] = m_links.pair(a, b);
            f.links[4] = m_links.downlink(b);
            f.linkCount = 5;
        }
        m_timing.bytes += m.bytes;
        if (a != b)
            m_timing.crossSiteBytes += m.bytes;
        for (int l = 0; l < f.linkCount; ++l)
            m_links.active(f.links[static_cast<std::size_t>(l)]).push_back(k);
        reshare(f, now);
    }

    void finish(int k, double now)
    {
        Flow& f = m_flows[static_cast<std::size_t>(k)];
        ++f.version;
        for (int l = 0; l < f.linkCount; ++l) {
            auto& list = m_links.active(f.links[static_cast<std::size_t>(l)]);
            auto it = std::find(list.begin(), list.end(), k);
            *it = list.back();
            list.pop_back();
        }
        reshare(f, now);
        arrived(k, now + latencyS(m_schedule.messages[static_cast<std::size_t>(k)]));
    }

    /// A flow started or ended on `changed`'s links: every flow on them gets its new rate.
    void reshare(const Flow& changed, double now)
    {
        ++m_stamp;
        for (int l = 0; l < changed.linkCount; ++l)
            for (int other : m_links.active(changed.links[static_cast<std::size_t>(l)])) {
                if (m_seen[static_cast<std::size_t>(other)] == m_stamp)
                    continue;
                m_seen[static_cast<std::size_t>(other)] = m_stamp;
                rerate(other, now);
            }
    }

    void rerate(int k, double now)
    {
        Flow& f = m_flows[static_cast<std::size_t>(k)];
        double rate = std::numeric_limits<double>::infinity();
        for (int l = 0; l < f.linkCount; ++l) {
            const int link = f.links[static_cast<std::size_t>(l)];
            rate = std::min(rate, m_links.capacity(link) / static_cast<double>(m_links.active(link).size()));
        }
        if (rate == f.rate)
            return; // its finish event still holds
        f.remaining = std::max(0.0, f.remaining - f.rate * (now - f.since));
        f.since = now;
        f.rate = rate;
        ++f.version;
        push(now + f.remaining / rate, k, f.version);
    }

    void arrived(int k, double time)
    {
        m_timing.arrival[static_cast<std::size_t>(k)] = time;
        m_timing.seconds = std::max(m_timing.seconds, time);
        for (int d : m_dependents[static_cast<std::size_t>(k)]) {
            m_readyAt[static_cast<std::size_t>(d)] = std::max(m_readyAt[static_cast<std::size_t>(d)], time);
            if (--m_pending[static_cast<std::size_t>(d)] == 0)
                push(m_readyAt[static_cast<std::size_t>(d)], d, -1);
        }
    }

    const Schedule& m_schedule;
    const Layout& m_layout;
    const model::Network& m_network;
    Links m_links;
    std::vector<Flow> m_flows;
    std::vector<int> m_pending;
    std::vector<double> m_readyAt;
    std::vector<std::vector<int>> m_dependents;
    std::vector<unsigned> m_seen;
    unsigned m_stamp = 0;
    long long m_sequence = 0;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> m_events;
    ScheduleTiming m_timing;
};

} // namespace

Expected<ScheduleTiming> scheduleTime(const Schedule& schedule, const Layout& layout, const model::Topology& topology,
                                      const model::Network& network)
{
    if (layout.node.size() != layout.site.size())
        return makeError(ErrorCode::InvalidInput, "every process needs a node");
    Evaluator evaluator(schedule, layout, topology, network);
    if (auto ok = evaluator.check(); !ok)
        return ok.error();
    return evaluator.run();
}

} // namespace meridian::collectives
