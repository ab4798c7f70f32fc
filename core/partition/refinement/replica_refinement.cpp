#include "core/partition/refinement/replica_refinement.h"

#include "core/common/random.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>

namespace meridian::partition::refinement {

Incidence::Incidence(const model::Graph& graph, Executor* executor)
    : offsets(static_cast<std::size_t>(graph.vertexCount) + 1, 0)
    , ids(2 * graph.edgeCount())
{
    // Cut into parts by vertex: each part scans every edge and writes only its own vertices' counts and lists, so
    // the executor's workers build it at once (the parts come from a shared counter, as shareWork asks).
    const int parts = executor ? std::max(1, executor->concurrency()) : 1;
    const auto forParts = [&](const std::function<void(std::uint32_t lo, std::uint32_t hi)>& part) {
        std::atomic<int> next{0};
        const auto work = [&](int) {
            for (int k = next++; k < parts; k = next++)
                part(static_cast<std::uint32_t>(std::uint64_t{graph.vertexCount} * k / parts),
                     static_cast<std::uint32_t>(std::uint64_t{graph.vertexCount} * (k + 1) / parts));
        };
        if (parts > 1)
            executor->shareWork(parts, work);
        else
            work(0);
    };
    forParts([&](std::uint32_t lo, std::uint32_t hi) {
        for (std::size_t e = 0; e < graph.edgeCount(); ++e) {
            const std::uint32_t u = graph.src[e], v = graph.dst[e];
            if (u >= lo && u < hi)
                ++offsets[u + 1];
            if (v >= lo && v < hi)
                ++offsets[v + 1];
        }
    });
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
    forParts([&](std::uint32_t lo, std::uint32_t hi) {
        for (std::size_t e = 0; e < graph.edgeCount(); ++e) {
            const std::uint32_t u = graph.src[e], v = graph.dst[e];
            const auto id = static_cast<std::uint32_t>(e);
            if (u >= lo && u < hi)
                ids[next[u]++] = id;
            if (v >= lo && v < hi)
                ids[next[v]++] = id | kTarget;
        }
    });
}

namespace {

using Summary = cost::GasState::Summary;

/// Which order summaries are compared in (see refineReplicas).
class Objective {
public:
    explicit Objective(double budgetUsd)
        : m_budget(budgetUsd)
    {}

    bool within(const Summary& s) const { return withinBudget(s.usd, m_budget); }
    /// Takes `usd` as the budget from now on.
    void capAt(double usd) { m_budget = usd; }
    /// True when `a` is strictly better than `b`.
    bool better(const Summary& a, const Summary& b) const
    {
        const bool inA = within(a), inB = within(b);
        if (inA != inB)
            return inA;
        if (!inA)
            return lower(a.usd, b.usd) || (same(a.usd, b.usd) && lower(a.transferSeconds(), b.transferSeconds()));
        return lower(a.transferSeconds(), b.transferSeconds())
            || (same(a.transferSeconds(), b.transferSeconds()) && lower(a.squares, b.squares));
    }
    /// The share by which `after` improves on `before` in the quantity that leads the comparison.
    double gain(const Summary& before, const Summary& after) const
    {
        if (!within(before))
            return before.usd > 0.0 ? (before.usd - after.usd) / before.usd : 0.0;
        const double t = before.transferSeconds();
        const double timeGain = t > 0.0 ? (t - after.transferSeconds()) / t : 0.0;
        const double squareGain = before.squares > 0.0 ? (before.squares - after.squares) / before.squares : 0.0;
        return std::max(timeGain, squareGain);
    }

private:
    static bool lower(double a, double b) { return a < b - 1e-12 * std::abs(b); }
    static bool same(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }
    double m_budget;
};

/// One of x's edges as a search works on it: its id (with Incidence::kTarget when x is its target) and its other
/// endpoint.
struct Entry {
    std::uint32_t id;
    std::uint32_t other;
    std::uint32_t edge() const { return id & ~Incidence::kTarget; }
    bool xIsTarget() const { return id & Incidence::kTarget; }
};

/// The local search of one refinement: the incidence, x's edges sorted by site, and the loads ahead. Its memory
/// accesses are random in the graph, so each vertex's records are requested a few vertices before it is tried
/// (the sites of its edges first, then its neighbours' counts), and a mirror's neighbours one mirror ahead.
class Search {
public:
    Search(const model::Graph& graph, model::EdgePartition& partition, cost::GasState& state,
           const Objective& objective, const Incidence& incidence)
        : m_graph(graph)
        , m_partition(partition)
        , m_state(state)
        , m_objective(objective)
        , m_incidence(incidence)
    {}

    std::uint32_t degree(std::uint32_t x) const { return m_incidence.offsets[x + 1] - m_incidence.offsets[x]; }

    /// Loads the sites and endpoints of x's first edges.
    void prefetchEdges(std::uint32_t x) const
    {
        const std::uint32_t* first = m_incidence.ids.data() + m_incidence.offsets[x];
        const std::uint32_t* last = first + std::min(degree(x), kAheadEdges);
        for (const std::uint32_t* i = first; i != last; ++i) {
            const std::uint32_t e = *i & ~Incidence::kTarget;
            __builtin_prefetch(m_partition.edgeSite.data() + e);
            __builtin_prefetch((*i & Incidence::kTarget ? m_graph.src.data() : m_graph.dst.data()) + e);
        }
    }
    /// Loads the counts of x's neighbours across its first edges, once prefetchEdges(x) has landed.
    void prefetchNeighbours(std::uint32_t x) const
    {
        const std::uint32_t* first = m_incidence.ids.data() + m_incidence.offsets[x];
        const std::uint32_t* last = first + std::min(degree(x), kAheadEdges);
        for (const std::uint32_t* i = first; i != last; ++i)
            m_state.prefetch(entryOf(*i).other);
    }

    /// Sorts x's edges into buckets by their site.
    void collect(std::uint32_t x)
    {
        std::fill(m_start.begin(), m_start.end(), 0u);
        const std::uint32_t* first = m_incidence.ids.data() + m_incidence.offsets[x];
        const std::uint32_t* last = first + degree(x);
        for (const std::uint32_t* i = first; i != last; ++i)
            ++m_start[m_partition.edgeSite[*i & ~Incidence::kTarget] + 1];
        std::partial_sum(m_start.begin(), m_start.end(), m_start.begin());
        m_bySite.resize(degree(x));
        std::copy(m_start.begin(), m_start.end() - 1, m_next.begin());
        for (const std::uint32_t* i = first; i != last; ++i)
            m_bySite[m_next[m_partition.edgeSite[*i & ~Incidence::kTarget]]++] = entryOf(*i);
    }
    /// The number of x's edges on s as collect(x) found them.
    std::size_t collectedAt(int s) const { return m_start[s + 1] - m_start[s]; }
    /// Loads the counts of the neighbours across x's edges on s (collect(x) first).
    void prefetchMirror(int s) const
    {
        const Entry* first = m_bySite.data() + m_start[s];
        const Entry* last = first + std::min<std::size_t>(collectedAt(s), kAheadEdges);
        for (const Entry* i = first; i != last; ++i)
            m_state.prefetch(i->other);
    }

    /// Tries to remove x's mirror at s (collect(x) first): moves its edges one by one to their best sites and keeps
    /// the whole move when it improves the objective, else undoes it. Returns whether it was kept.
    bool tryMirror(std::uint32_t x, int s)
    {
        const Entry* first = m_bySite.data() + m_start[s];
        const Entry* last = m_bySite.data() + m_start[s + 1];
        if (first == last)
            return false;
        const Summary before = m_state.summary();
        for (const Entry* i = first; i != last; ++i) {
            if (last - i > static_cast<std::ptrdiff_t>(kAheadInVertex))
                m_state.prefetch(i[kAheadInVertex].other);
            moveToBestSite(*i, x, s);
        }
        if (m_objective.better(m_state.summary(), before))
            return true;
        for (const Entry* i = first; i != last; ++i)
            move(*i, x, s);
        return false;
    }

    /// Tries, for each site s other than x's master's, to move x's edges whose other endpoint lives at s (and that
    /// run elsewhere) to s: x gains a mirror there, and the mirrors those edges needed elsewhere may go. The
    /// counterpart of tryMirror, which removes one of x's mirrors. collect(x) first; returns the moves kept.
    int tryAbsorb(std::uint32_t x)
    {
        const int master = m_state.master(x);
        std::uint64_t homes = 0, freeing = 0;
        for (std::size_t k = 0; k < m_bySite.size(); ++k) {
            if (k + kAheadInVertex < m_bySite.size())
                m_state.prefetch(m_bySite[k + kAheadInVertex].other); // a vertex with many edges: load ahead
            const Entry& i = m_bySite[k];
            const int h = m_state.master(i.other), from = m_partition.edgeSite[i.edge()];
            if (h == master || from == h)
                continue;
            homes |= 1ull << h;
            if (leavesMirror(i.other, from, !i.xIsTarget()))
                freeing |= 1ull << h;
        }
        int kept = 0;
        for (; homes; homes &= homes - 1) {
            const int s = std::countr_zero(homes);
            m_group.clear();
            std::fill(m_groupAt.begin(), m_groupAt.end(), GroupCount{});
            for (const Entry& i : m_bySite)
                if (m_state.master(i.other) == s && m_partition.edgeSite[i.edge()] != s) {
                    const int from = m_partition.edgeSite[i.edge()];
                    m_group.push_back({i, from});
                    ++m_groupAt[from].all;
                    m_groupAt[from].in += i.xIsTarget() ? 1 : 0;
                }
            // A move that empties no mirror of x or of a neighbour, and stops no gathering, only adds traffic: the
            // objective cannot improve, so it is not tried.
            if (!(freeing >> s & 1) && !emptiesX(x, master))
                continue;
            const Summary before = m_state.summary();
            for (const auto& [i, from] : m_group)
                move(i, x, s);
            if (m_objective.better(m_state.summary(), before)) {
                ++kept;
                continue;
            }
            for (const auto& [i, from] : m_group)
                move(i, x, from);
        }
        return kept;
    }

private:
    static constexpr std::uint32_t kAheadEdges = 64; ///< per vertex ahead: more of a hub's would flood the caches

    Entry entryOf(std::uint32_t id) const
    {
        const std::uint32_t e = id & ~Incidence::kTarget;
        return Entry{id, id & Incidence::kTarget ? m_graph.src[e] : m_graph.dst[e]};
    }
    static constexpr std::size_t kAheadInVertex = 8; ///< edges ahead within one vertex's

    /// True when moving one edge of v off `from` (an in-edge of v when `target`) empties v's mirror there or stops
    /// its gathering there.
    bool leavesMirror(std::uint32_t v, int from, bool target) const
    {
        if (from == m_state.master(v))
            return false;
        return m_state.edgesAt(v, from) == 1 || (target && m_state.inEdgesAt(v, from) == 1);
    }
    /// True when the group (m_groupAt) holds all of x's edges, or all of its in-edges, on a site other than its
    /// master's.
    bool emptiesX(std::uint32_t x, int master) const
    {
        for (int f = 0; f < static_cast<int>(m_groupAt.size()); ++f) {
            const GroupCount& c = m_groupAt[f];
            if (c.all == 0 || f == master)
                continue;
            if (m_state.edgesAt(x, f) == c.all || (c.in > 0 && m_state.inEdgesAt(x, f) == c.in))
                return true;
        }
        return false;
    }

    void move(const Entry& i, std::uint32_t x, int site)
    {
        if (i.xIsTarget())
            m_state.moveEdge(i.edge(), i.other, x, site);
        else
            m_state.moveEdge(i.edge(), x, i.other, site);
    }
    /// True when v has a replica at t that would not change by taking one more of its edges (an in-edge when
    /// `target`): t is its master's site, or it already holds such edges there.
    bool holds(std::uint32_t v, int t, bool target) const
    {
        return t == m_state.master(v) || (target ? m_state.inEdgesAt(v, t) > 0 : m_state.edgesAt(v, t) > 0);
    }

    /// Moves edge i of x, now on s, to the candidate site (one holding both endpoints, or either's master) with
    /// the best summary: predicted without moving for a combining profile, tried for a binding one.
    void moveToBestSite(const Entry& i, std::uint32_t x, int s)
    {
        const std::uint32_t y = i.other;
        std::uint64_t candidates = (m_state.replicaMask(x) & m_state.replicaMask(y)) | 1ull << m_state.master(x)
            | 1ull << m_state.master(y);
        candidates &= ~(1ull << s);
        const bool predict = m_state.combines();
        if (predict) {
            // Where both endpoints already hold a replica (and gather, for the edge's target), the edge adds no
            // traffic there, and nowhere can it add less: take the first such site.
            for (std::uint64_t rest = candidates; rest; rest &= rest - 1) {
                const int t = std::countr_zero(rest);
                if (holds(x, t, i.xIsTarget()) && holds(y, t, !i.xIsTarget())) {
                    move(i, x, t);
                    return;
                }
            }
        }
        const std::uint32_t u = i.xIsTarget() ? y : x, v = i.xIsTarget() ? x : y;
        const Summary now = predict ? m_state.summary() : Summary{};
        int best = -1;
        Summary bestSummary;
        for (; candidates; candidates &= candidates - 1) {
            const int t = std::countr_zero(candidates);
            Summary next;
            if (predict) {
                next = m_state.predictMove(i.edge(), u, v, t, now);
            } else {
                m_state.moveEdge(i.edge(), u, v, t);
                next = m_state.summary();
            }
            if (best < 0 || m_objective.better(next, bestSummary)) {
                best = t;
                bestSummary = next;
            }
        }
        move(i, x, best);
    }

    const model::Graph& m_graph;
    model::EdgePartition& m_partition;
    cost::GasState& m_state;
    const Objective& m_objective;
    const Incidence& m_incidence;
    std::vector<std::uint32_t> m_start = std::vector<std::uint32_t>(65, 0); ///< bucket starts by site
    std::vector<std::uint32_t> m_next = std::vector<std::uint32_t>(64, 0);
    std::vector<Entry> m_bySite;
    std::vector<std::pair<Entry, int>> m_group;
    struct GroupCount {
        std::uint32_t all = 0, in = 0;
    };
    std::vector<GroupCount> m_groupAt = std::vector<GroupCount>(64);
};

/// Vertices in blocks of consecutive ids, the blocks in a seeded random order, keeping only those with edges: a
/// vertex's own records are then read in sequence on a large graph.
std::vector<std::uint32_t> visitingOrder(const cost::GasState& gas, const Search& local, Random& random)
{
    // At least 4096 blocks, so that a small graph's order is a full shuffle; at most 4096 vertices a block.
    const std::uint32_t n = gas.vertexCount();
    const std::uint32_t kBlock = std::clamp<std::uint32_t>(n / 4096, 1, 4096);
    std::vector<std::uint32_t> blocks((n + kBlock - 1) / kBlock);
    std::iota(blocks.begin(), blocks.end(), 0u);
    random.shuffle(blocks);
    std::vector<std::uint32_t> order;
    for (std::uint32_t b : blocks)
        for (std::uint32_t x = b * kBlock; x < std::min(n, (b + 1) * kBlock); ++x)
            if (local.degree(x) > 0)
                order.push_back(x);
    return order;
}

/// One pass over `order`; false when canceled. Sets `outOfBudget` when the search budget stopped it.
bool runPass(Search& local, cost::GasState& gas, const std::vector<std::uint32_t>& order, const ReplicaSearch& search,
             const std::function<void(double)>& progress, ReplicaReport& report, bool& outOfBudget,
             const FeedbackRange& range)
{
    constexpr std::size_t kSitesAhead = 16, kNeighboursAhead = 8;
    // Work is charged every 1024 vertices: the edges collected and the state's steps since the last charge.
    std::uint64_t collected = 0, steps = gas.steps();
    const auto charge = [&] {
        if (search.budget)
            search.budget->spend(collected + (gas.steps() - steps));
        collected = 0;
        steps = gas.steps();
    };
    for (std::size_t k = 0; k < order.size(); ++k) {
        if ((k & 0x3FF) == 0) {
            if (range.isCanceled())
                return false;
            charge();
            if (search.budget && search.budget->exhausted()) {
                outOfBudget = true;
                return true;
            }
            progress(static_cast<double>(k) / static_cast<double>(order.size()));
        }
        if (k + kSitesAhead < order.size())
            local.prefetchEdges(order[k + kSitesAhead]);
        if (k + kNeighboursAhead < order.size())
            local.prefetchNeighbours(order[k + kNeighboursAhead]);
        const std::uint32_t x = order[k];
        const int master = gas.master(x);
        // The mirrors small enough to try, read off x's counts (one row) before any of its edges.
        std::uint64_t small = 0;
        for (std::uint64_t rest = gas.replicaMask(x) & ~(1ull << master); rest; rest &= rest - 1) {
            const int s = std::countr_zero(rest);
            if (gas.edgesAt(x, s) <= search.maxSlotEdges)
                small |= 1ull << s;
        }
        // A hub's few small mirrors would each cost a scan of all its edges: they stay.
        if (local.degree(x) > search.maxScannedDegree)
            continue;
        collected += local.degree(x);
        local.collect(x);
        report.mirrorsAdded += local.tryAbsorb(x);
        local.collect(x);
        for (; small; small &= small - 1) {
            const int s = std::countr_zero(small);
            if (const std::uint64_t rest = small & (small - 1))
                local.prefetchMirror(std::countr_zero(rest));
            if (local.collectedAt(s) != gas.edgesAt(x, s))
                local.collect(x); // a kept move brought edges of x to s
            ++report.mirrorsTried;
            if (local.tryMirror(x, s))
                ++report.mirrorsRemoved;
        }
    }
    charge();
    return true;
}

} // namespace

bool refineReplicas(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                    const ReplicaSearch& search, double budgetUsd, std::uint64_t seed, const FeedbackRange& range,
                    ReplicaReport& report, std::optional<cost::GasState>* state, const Incidence* incidence)
{
    if (search.maxPasses <= 0 || problem.siteCount() < 2 || graph.edgeCount() >= Incidence::kMaxEdges)
        return true;
    std::optional<cost::GasState> own;
    std::optional<cost::GasState>& held = state ? *state : own;
    if (!held)
        held.emplace(graph, partition, problem.sizes, problem.network, [&range] { return range.isCanceled(); });
    cost::GasState& gas = *held;
    if (!gas.complete())
        return false;
    Objective objective(budgetUsd);
    report.before = gas.summary();
    report.after = report.before;
    report.metBudget = objective.within(report.before);
    std::optional<Incidence> ownIncidence;
    if (!incidence)
        incidence = &ownIncidence.emplace(graph, &range.executor());
    Search local(graph, partition, gas, objective, *incidence);
    Random random(seed ^ 0x5245504cull);
    for (int pass = 0; pass < search.maxPasses; ++pass) {
        gas.resync();
        const Summary passStart = gas.summary();
        const std::vector<std::uint32_t> order = visitingOrder(gas, local, random);
        bool outOfBudget = false;
        const std::function<void(double)> progress = [&](double done) {
            range.setProgress((pass + done) / search.maxPasses, "replica refinement");
        };
        if (!runPass(local, gas, order, search, progress, report, outOfBudget, range))
            return false;
        ++report.passes;
        report.outOfBudget = outOfBudget;
        if (outOfBudget)
            break;
        if (objective.gain(passStart, gas.summary()) < search.minPassGain) {
            // Over the budget with the cost no longer falling: the budget cannot be reached from here, so the time is
            // shortened without raising the cost any further.
            if (objective.within(gas.summary()))
                break;
            objective.capAt(gas.summary().usd);
            report.capped = true;
        }
    }
    report.after = gas.summary();
    report.metBudget = withinBudget(report.after.usd, budgetUsd);
    return true;
}

} // namespace meridian::partition::refinement
