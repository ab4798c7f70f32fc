#include "core/partition/streaming_partitioners.h"

#include "core/partition/edge_batches.h"
#include "core/partition/online_placers.h"
#include "core/partition/stream_state.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

namespace meridian::partition {

StreamState::StreamState(const PartitionProblem& problem)
    : m_binds(problem.sizes.binds)
    , m_gather(problem.sizes.gather)
    , m_vertex(problem.graph->vertexCount)
    , m_edgeSite(problem.graph->edgeCount(), 0)
    , m_load(problem.siteCount(), 0)
{
    for (std::uint32_t v = 0; v < problem.graph->vertexCount; ++v)
        m_vertex[v] = Vertex{1ull << problem.home[v], 0, problem.sizes.apply[v], problem.home[v]};
}

model::EdgePartition StreamState::take()
{
    model::EdgePartition p;
    p.edgeSite = std::move(m_edgeSite);
    p.masterSite.resize(m_vertex.size());
    for (std::size_t v = 0; v < m_vertex.size(); ++v)
        p.masterSite[v] = m_vertex[v].master;
    std::vector<Vertex>().swap(m_vertex); // the stream is over: give the memory back before refinement
    return p;
}

namespace {

/// Visits every edge in stream order: `prefetch(v)` for the endpoints of the edge 16 ahead (the rules are bound by
/// memory latency on random vertices), then `place(e, u, v)`; reports progress and polls for cancel. Returns the
/// seconds it took, or nullopt when canceled.
template <typename Prefetch, typename Place>
std::optional<double> streamEdges(const model::Graph& g, std::uint64_t seed, const FeedbackRange& range,
                                  const Prefetch& prefetch, const Place& place)
{
    std::size_t done = 0;
    const std::size_t total = g.edgeCount();
    const auto start = std::chrono::steady_clock::now();
    const bool finished = forEachEdgeInStreamOrder(
        total, seed,
        [&](std::size_t e) {
            constexpr std::size_t kAhead = 16;
            if (e + kAhead < total) {
                prefetch(g.src[e + kAhead]);
                prefetch(g.dst[e + kAhead]);
            }
            place(e, g.src[e], g.dst[e]);
            if ((++done & 0xFFFFF) == 0)
                range.setProgress(static_cast<double>(done) / static_cast<double>(total), "streaming edges");
        },
        [&] { return range.isCanceled(); });
    if (!finished)
        return std::nullopt;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Streams every edge through `choose(e, u, v) -> site`, then returns the partition.
template <typename Choose>
Expected<PartitionResult> stream(const PartitionProblem& problem, StreamState& state, std::uint64_t seed,
                                 const FeedbackRange& range, const Choose& choose)
{
    const auto seconds = streamEdges(
        *problem.graph, seed, range, [&](std::uint32_t v) { state.prefetch(v); },
        [&](std::size_t e, std::uint32_t u, std::uint32_t v) { state.place(e, u, v, choose(e, u, v)); });
    if (!seconds)
        return makeError(ErrorCode::Canceled, "canceled");
    PartitionResult r;
    r.streamingSeconds = *seconds;
    r.partition = state.take();
    return r;
}

/// Runs an online placer (hash, HDRF) over the graph's edges in their order, a block at a time between polls for
/// cancel and progress reports.
Expected<PartitionResult> runOnline(const PartitionProblem& problem, std::string_view id, const ParamValues& values,
                                    std::uint64_t seed, const FeedbackRange& range)
{
    const auto& g = *problem.graph;
    auto placer = makeOnlinePlacer(id, values, seed, problem.siteCount());
    placer->addVertices(problem.home.data(), problem.home.size());
    model::EdgePartition partition;
    partition.edgeSite.resize(g.edgeCount());
    const auto start = std::chrono::steady_clock::now();
    constexpr std::size_t kBlock = 1u << 20;
    for (std::size_t first = 0; first < g.edgeCount(); first += kBlock) {
        if (range.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        const std::size_t count = std::min(kBlock, g.edgeCount() - first);
        placer->place(g.src.data() + first, g.dst.data() + first, count, first, partition.edgeSite.data() + first);
        range.setProgress(static_cast<double>(first + count) / static_cast<double>(g.edgeCount()), "streaming edges");
    }
    PartitionResult r;
    r.streamingSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    partition.masterSite = problem.home;
    r.partition = std::move(partition);
    return r;
}

} // namespace

Expected<PartitionResult> HashPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                   std::uint64_t seed, const FeedbackRange& range) const
{
    return runOnline(problem, id(), values, seed, range);
}

Expected<PartitionResult> GreedyPartitioner::runImpl(const PartitionProblem& problem, const ParamValues&,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const auto& g = *problem.graph;
    std::vector<std::uint32_t> remaining(g.vertexCount, 0);
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        ++remaining[g.src[e]];
        ++remaining[g.dst[e]];
    }
    StreamState state(problem);
    return stream(problem, state, seed, range, [&](std::size_t, std::uint32_t u, std::uint32_t v) {
        --remaining[u];
        --remaining[v];
        const std::uint64_t both = state.replicas(u) & state.replicas(v);
        if (both)
            return state.leastLoaded(both);
        return state.leastLoaded(remaining[u] >= remaining[v] ? state.replicas(u) : state.replicas(v));
    });
}

std::vector<ParamSpec> HdrfPartitioner::parameters() const
{
    return {ParamSpec::real("lambda", 1.0, 0.0, 100.0, "Weight of the balance term (HDRF's lambda)."),
            ParamSpec::integer("batch", 0, 0, std::int64_t{1} << 20,
                               "0: one edge at a time, HDRF as published. Otherwise the stream in batches of about "
                               "this many edges (a block of ceil(batch / 64) from each of 64 stretches), each edge "
                               "placed from what the earlier batches and its own block left: the same partition in one "
                               "process and on any number of MPI ranks. Smaller is closer to one edge at a time and "
                               "takes more rounds.")};
}

Expected<PartitionResult> HdrfPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                   std::uint64_t seed, const FeedbackRange& range) const
{
    const auto batch = values.integer("batch");
    if (batch == 0)
        return runOnline(problem, id(), values, seed, range);
    const auto start = std::chrono::steady_clock::now();
    HdrfBlock block(values.real("lambda"));
    auto sites = placeInBatches(*problem.graph, problem.home, problem.sizes.apply, problem.siteCount(),
                                static_cast<std::uint64_t>(batch), block, range);
    if (!sites)
        return sites.error();
    PartitionResult r;
    r.streamingSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.partition.edgeSite = std::move(*sites);
    r.partition.masterSite = problem.home;
    r.notes.push_back(EdgeBatches(problem.graph->edgeCount(), static_cast<std::uint64_t>(batch)).note("HDRF"));
    return r;
}

std::vector<ParamSpec> GraphHPartitioner::parameters() const
{
    return {ParamSpec::real("imbalance", 0.1, 0.0, 10.0, "A site may hold at most (1 + imbalance) E / M edges.")};
}

Expected<PartitionResult> GraphHPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const int m = problem.siteCount();
    const auto cap = static_cast<std::uint64_t>((1.0 + values.real("imbalance"))
                                                * static_cast<double>(problem.graph->edgeCount()) / m)
        + 1;
    const auto& price = problem.network.usdPerByte;
    const auto& a = problem.sizes.apply;
    StreamState state(problem);
    return stream(problem, state, seed, range, [&](std::size_t, std::uint32_t u, std::uint32_t v) {
        int best = -1;
        double bestCost = 0.0;
        for (int r = 0; r < m; ++r) {
            if (state.load(r) >= cap)
                continue;
            double usd = price[r] * state.gatherIncrease(u, v, r);
            if (!(state.replicas(u) >> r & 1))
                usd += price[state.master(u)] * a[u];
            if (!(state.replicas(v) >> r & 1))
                usd += price[state.master(v)] * a[v];
            if (best < 0 || usd < bestCost || (usd == bestCost && state.load(r) < state.load(best))) {
                best = r;
                bestCost = usd;
            }
        }
        return best;
    });
}

std::vector<ParamSpec> GCutPartitioner::parameters() const
{
    return {ParamSpec::real("wan_budget_gb", 0.0, 0.0, 1e12,
                            "WAN usage budget per iteration in GB (10^9 bytes); 0 = none.")};
}

namespace {

/// G-Cut's streaming state: per-site gather and apply traffic so far, the stage times and the WAN bytes. Each
/// edge goes to the site that keeps the transfer time lowest (ties: fewer WAN bytes, then lighter load); over
/// the pro-rata WAN budget, to the site adding the fewest WAN bytes.
class GCutStream {
public:
    GCutStream(const PartitionProblem& problem, const StreamState& state, double budgetBytes, double budgetUsd = 0.0)
        : m_net(problem.network)
        , m_apply(problem.sizes.apply)
        , m_state(state)
        , m_m(problem.siteCount())
        , m_budgetBytes(budgetBytes)
        , m_budgetUsd(budgetUsd)
        , m_edges(static_cast<double>(problem.graph->edgeCount()))
        , m_gUp(m_m, 0.0)
        , m_gDown(m_m, 0.0)
        , m_aUp(m_m, 0.0)
        , m_aDown(m_m, 0.0)
    {
        for (int r = 0; r < m_m; ++r) {
            m_invUp.push_back(1.0 / m_net.upBytesPerSecond[r]);
            m_invDown.push_back(1.0 / m_net.downBytesPerSecond[r]);
        }
    }

    int place(std::uint32_t u, std::uint32_t v)
    {
        int choice = fastestSite(u, v);
        ++m_placed;
        if (m_budgetBytes > 0.0) {
            deltas(u, v, choice);
            if (m_wan + wanBytes() > m_budgetBytes * static_cast<double>(m_placed) / m_edges)
                choice = leastWanSite(u, v, choice);
        }
        if (m_budgetUsd > 0.0) {
            deltas(u, v, choice);
            if (m_usd + wanUsd() > m_budgetUsd * static_cast<double>(m_placed) / m_edges)
                choice = cheapestSite(u, v, choice);
        }
        deltas(u, v, choice);
        m_usd += wanUsd();
        for (const auto& [s, c] : m_change) {
            m_gUp[s] += c.gUp, m_gDown[s] += c.gDown, m_aUp[s] += c.aUp, m_aDown[s] += c.aDown;
            m_tGather = std::max({m_tGather, m_gUp[s] * m_invUp[s], m_gDown[s] * m_invDown[s]});
            m_tApply = std::max({m_tApply, m_aUp[s] * m_invUp[s], m_aDown[s] * m_invDown[s]});
            m_wan += c.gUp + c.aUp;
        }
        return choice;
    }

private:
    struct Change {
        double gUp = 0, gDown = 0, aUp = 0, aDown = 0;
    };

    /// The traffic a placement in r adds, touching at most r and the two masters, into m_change.
    void deltas(std::uint32_t u, std::uint32_t v, int r)
    {
        m_change.clear();
        const auto add = [&](int site, const Change& c) {
            for (auto& [s, d] : m_change)
                if (s == site) {
                    d.gUp += c.gUp, d.gDown += c.gDown, d.aUp += c.aUp, d.aDown += c.aDown;
                    return;
                }
            m_change.emplace_back(site, c);
        };
        for (std::uint32_t x : {u, v}) {
            if (!(m_state.replicas(x) >> r & 1)) {
                add(m_state.master(x), Change{0, 0, m_apply[x], 0});
                add(r, Change{0, 0, 0, m_apply[x]});
            }
        }
        const double g = m_state.gatherIncrease(u, v, r);
        if (g > 0.0) {
            add(r, Change{g, 0, 0, 0});
            add(m_state.master(v), Change{0, g, 0, 0});
        }
    }
    double wanBytes() const
    {
        double w = 0.0;
        for (const auto& [s, c] : m_change)
            w += c.gUp + c.aUp;
        return w;
    }
    /// The site keeping the transfer time lowest (ties: fewer WAN bytes, then lighter load). A placement in r
    /// changes at most r's gather upload and apply download and the two masters' gather download and apply upload
    /// (deltas() lists the same changes), so each candidate is costed from those few numbers.
    int fastestSite(std::uint32_t u, std::uint32_t v)
    {
        const int mu = m_state.master(u), mv = m_state.master(v);
        const std::uint64_t ru = m_state.replicas(u), rv = m_state.replicas(v);
        const double au = m_apply[u], av = m_apply[v];
        const auto& up = m_invUp;
        const auto& down = m_invDown;
        int best = -1;
        double bestT = 0.0, bestW = 0.0;
        for (int r = 0; r < m_m; ++r) {
            const double addU = (ru >> r & 1) ? 0.0 : au, addV = (rv >> r & 1) ? 0.0 : av;
            const double g = m_state.gatherIncrease(u, v, r);
            double tg = m_tGather, ta = m_tApply;
            if (g > 0.0)
                tg = std::max({tg, (m_gUp[r] + g) * up[r], (m_gDown[mv] + g) * down[mv]});
            if (mu == mv) {
                if (addU + addV > 0.0)
                    ta = std::max(ta, (m_aUp[mu] + (addU + addV)) * up[mu]);
            } else {
                if (addU > 0.0)
                    ta = std::max(ta, (m_aUp[mu] + addU) * up[mu]);
                if (addV > 0.0)
                    ta = std::max(ta, (m_aUp[mv] + addV) * up[mv]);
            }
            if (addU + addV > 0.0)
                ta = std::max(ta, (m_aDown[r] + (addU + addV)) * down[r]);
            const double t = tg + ta, w = g + addU + addV;
            if (best < 0 || t < bestT
                || (t == bestT && (w < bestW || (w == bestW && m_state.load(r) < m_state.load(best))))) {
                best = r;
                bestT = t;
                bestW = w;
            }
        }
        return best;
    }
    double wanUsd() const
    {
        double usd = 0.0;
        for (const auto& [s, c] : m_change)
            usd += (c.gUp + c.aUp) * m_net.usdPerByte[s];
        return usd;
    }
    /// The site adding the fewest WAN dollars (ties: the lighter load).
    int cheapestSite(std::uint32_t u, std::uint32_t v, int choice)
    {
        double least = std::numeric_limits<double>::infinity();
        for (int r = 0; r < m_m; ++r) {
            deltas(u, v, r);
            const double usd = wanUsd();
            if (usd < least || (usd == least && m_state.load(r) < m_state.load(choice))) {
                least = usd;
                choice = r;
            }
        }
        return choice;
    }
    int leastWanSite(std::uint32_t u, std::uint32_t v, int choice)
    {
        double least = std::numeric_limits<double>::infinity();
        for (int r = 0; r < m_m; ++r) {
            deltas(u, v, r);
            const double wr = wanBytes();
            if (wr < least || (wr == least && m_state.load(r) < m_state.load(choice))) {
                least = wr;
                choice = r;
            }
        }
        return choice;
    }

    const cost::GasNetwork& m_net;
    const std::vector<float>& m_apply;
    const StreamState& m_state;
    int m_m;
    double m_budgetBytes;
    double m_budgetUsd;
    double m_edges;
    std::vector<double> m_gUp, m_gDown, m_aUp, m_aDown;
    std::vector<double> m_invUp, m_invDown; ///< seconds per byte: the stream multiplies rather than divides
    double m_tGather = 0.0, m_tApply = 0.0, m_wan = 0.0, m_usd = 0.0;
    std::size_t m_placed = 0;
    std::vector<std::pair<int, Change>> m_change;
};

} // namespace

Expected<PartitionResult> bandwidthAwareStream(const PartitionProblem& problem, double budgetBytes, double budgetUsd,
                                               std::uint64_t seed, const FeedbackRange& range)
{
    StreamState state(problem);
    GCutStream gcut(problem, state, budgetBytes, budgetUsd);
    const auto& g = *problem.graph;
    const float* apply = problem.sizes.apply.data();
    return stream(problem, state, seed, range, [&](std::size_t e, std::uint32_t u, std::uint32_t v) {
        // The vertices' apply sizes are read at random like their stream state: load them ahead too.
        constexpr std::size_t kAhead = 16;
        if (e + kAhead < g.edgeCount()) {
            __builtin_prefetch(apply + g.src[e + kAhead]);
            __builtin_prefetch(apply + g.dst[e + kAhead]);
        }
        return gcut.place(u, v);
    });
}

Expected<PartitionResult> GCutPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                   std::uint64_t seed, const FeedbackRange& range) const
{
    return bandwidthAwareStream(problem, values.real("wan_budget_gb") * 1e9, 0.0, seed, range);
}

} // namespace meridian::partition
