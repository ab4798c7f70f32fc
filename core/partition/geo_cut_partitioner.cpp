#include "core/partition/geo_cut_partitioner.h"

#include "core/common/random.h"
#include "core/partition/stream_state.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace meridian::partition {

namespace {

/// Eq. 7-9 over any view exposing replicas(v), master(v), gatherIncrease(u, v, r) and a load per site.
template <typename View, typename Load>
int choose(const PartitionProblem& problem, const View& view, const Load& load, std::uint32_t u, std::uint32_t v)
{
    const int m = problem.siteCount();
    const auto& price = problem.network.usdPerByte;
    const auto& a = problem.sizes.apply;
    const std::uint64_t ru = view.replicas(u), rv = view.replicas(v);
    const std::uint64_t both = ru & rv;
    int best = -1;
    double bestCost = 0.0;
    const auto consider = [&](int r, double usd) {
        if (best < 0 || usd < bestCost || (usd == bestCost && load(r) < load(best))) {
            best = r;
            bestCost = usd;
        }
    };
    if (both) {
        // Rule 1 (eq. 8): inside the intersection only the gather cost changes.
        for (std::uint64_t rest = both; rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            consider(r, price[r] * view.gatherIncrease(u, v, r));
        }
        return best;
    }
    // Rule 2 (eq. 8 + 9): synchronising a new mirror costs its master's upload of a_x.
    for (int r = 0; r < m; ++r) {
        double sync = 0.0;
        if (!(ru >> r & 1))
            sync += price[view.master(u)] * a[u];
        if (!(rv >> r & 1))
            sync += price[view.master(v)] * a[v];
        consider(r, price[r] * view.gatherIncrease(u, v, r) + sync);
    }
    return best;
}

/// A GasState seen through the stream interface.
struct GasView {
    const cost::GasState& state;
    const cost::VertexSizes& sizes;
    std::uint64_t replicas(std::uint32_t v) const { return state.replicaMask(v); }
    int master(std::uint32_t v) const { return state.master(v); }
    double gatherIncrease(std::uint32_t u, std::uint32_t v, int r) const
    {
        if (r == state.master(v))
            return 0.0;
        if (sizes.binds)
            return sizes.apply[u];
        return state.inEdgesAt(v, r) ? 0.0 : sizes.gather;
    }
};

/// Eq. 1 and 4 for a mapping of partitions to sites from aggregated tables (Algorithm 2's estimates).
struct MappingTables {
    int m = 0;
    std::vector<double> gather; // [p * m + h]: bytes partition p's mirrors gather to masters in h
    std::vector<double> apply;  // [p * m + h]: bytes masters in h send to partition p's mirrors

    void evaluate(const std::vector<int>& site, const cost::GasNetwork& net, double& seconds, double& usd) const
    {
        std::vector<double> gUp(m, 0.0), gDown(m, 0.0), aUp(m, 0.0), aDown(m, 0.0);
        for (int p = 0; p < m; ++p) {
            const int r = site[p];
            for (int h = 0; h < m; ++h) {
                if (r == h)
                    continue;
                const double g = gather[p * m + h], a = apply[p * m + h];
                gUp[r] += g;
                gDown[h] += g;
                aUp[h] += a;
                aDown[r] += a;
            }
        }
        double tg = 0.0, ta = 0.0;
        usd = 0.0;
        for (int r = 0; r < m; ++r) {
            tg = std::max({tg, gUp[r] / net.upBytesPerSecond[r], gDown[r] / net.downBytesPerSecond[r]});
            ta = std::max({ta, aUp[r] / net.upBytesPerSecond[r], aDown[r] / net.downBytesPerSecond[r]});
            usd += (gUp[r] + aUp[r]) * net.usdPerByte[r];
        }
        seconds = tg + ta;
    }
};

MappingTables tablesOf(const cost::GasState& state)
{
    MappingTables t;
    t.m = state.siteCount();
    t.gather.assign(static_cast<std::size_t>(t.m) * t.m, 0.0);
    t.apply.assign(static_cast<std::size_t>(t.m) * t.m, 0.0);
    for (std::uint32_t v = 0; v < state.vertexCount(); ++v) {
        const int h = state.master(v);
        for (int p = 0; p < t.m; ++p) {
            if (!state.edgesAt(v, p))
                continue;
            t.apply[p * t.m + h] += state.applySize(v);
            t.gather[p * t.m + h] += state.gatherSize(v, p);
        }
    }
    return t;
}

} // namespace

int geoCutPlace(const PartitionProblem& problem, const StreamState& state, std::uint32_t u, std::uint32_t v)
{
    // The hot path of the stream: the same rules as choose(), with each endpoint read once.
    const auto& price = problem.network.usdPerByte;
    const std::uint64_t ru = state.replicas(u), rv = state.replicas(v), both = ru & rv;
    const int masterV = state.master(v);
    const std::uint64_t inV = state.inSites(v);
    const double dgBind = state.binds() ? state.apply(u) : 0.0;
    const auto gatherIncrease = [&](int r) {
        if (r == masterV)
            return 0.0;
        return state.binds() ? dgBind : ((inV >> r & 1) ? 0.0 : state.gather());
    };
    int best = -1;
    double bestCost = 0.0;
    const auto consider = [&](int r, double usd) {
        if (best < 0 || usd < bestCost || (usd == bestCost && state.load(r) < state.load(best))) {
            best = r;
            bestCost = usd;
        }
    };
    if (both) {
        for (std::uint64_t rest = both; rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            consider(r, price[r] * gatherIncrease(r));
        }
        return best;
    }
    const double syncU = price[state.master(u)] * state.apply(u);
    const double syncV = price[masterV] * state.apply(v);
    const int m = problem.siteCount();
    for (int r = 0; r < m; ++r)
        consider(r, price[r] * gatherIncrease(r) + ((ru >> r & 1) ? 0.0 : syncU) + ((rv >> r & 1) ? 0.0 : syncV));
    return best;
}

int geoCutPlace(const PartitionProblem& problem, const cost::GasState& state, const std::vector<std::uint64_t>& load,
                std::uint32_t u, std::uint32_t v)
{
    return choose(
        problem, GasView{state, problem.sizes}, [&](int r) { return load[r]; }, u, v);
}

std::vector<ParamSpec> GeoCutPartitioner::parameters() const
{
    return {
        ParamSpec::integer("d", 2, 1, 64, "Pairs of partitions sampled per mapping step (power of d choices)."),
        ParamSpec::integer("max_iter", 1000, 0, 1000000, "Upper bound on partition-mapping steps (0 skips stage 2a)."),
        ParamSpec::integer("patience", 0, 0, 100000,
                           "Fruitless samples in a row before mapping stops; 0 = the number of sites, 1 = the paper."),
        ParamSpec::real("lq_fraction", 0.05, 0.0, 1.0,
                        "L_Q: share of the bottleneck's queue examined for edge migration (0 skips stage 2b)."),
        ParamSpec::integer("groups", 4, 1, 1024, "C: edge groups per migrated vertex (edges of a group move together)."),
        ParamSpec::integer("max_rounds", 50, 0, 100000, "Upper bound on edge-migration rounds.")};
}

bool GeoCutPartitioner::refine(const PartitionProblem& problem, const model::Graph& graph,
                               model::EdgePartition& partition, const ParamValues& values, std::uint64_t seed,
                               const FeedbackRange& range, std::vector<std::string>& notes, double budgetUsd)
{
    const int m = problem.siteCount();
    const auto& net = problem.network;
    Random random(seed ^ 0x47454f435554ull);

    // The edges of a set of vertices, found by one scan of the edge list (keeps memory at O(E) bytes
    // instead of an 8-bytes-per-edge adjacency index).
    const auto edgesOf = [&](const std::vector<std::uint32_t>& vertices) {
        std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> out;
        std::vector<char> wanted(graph.vertexCount, 0);
        for (std::uint32_t v : vertices) {
            wanted[v] = 1;
            out[v];
        }
        for (std::size_t e = 0; e < graph.edgeCount(); ++e) {
            if (wanted[graph.src[e]])
                out[graph.src[e]].push_back(static_cast<std::uint32_t>(e));
            if (wanted[graph.dst[e]] && graph.dst[e] != graph.src[e])
                out[graph.dst[e]].push_back(static_cast<std::uint32_t>(e));
        }
        return out;
    };
    const int groups = static_cast<int>(values.integer("groups"));
    // Groups a vertex's edges (all, or those in `onlySite`) into at most C groups by the replica sites of
    // their other endpoints (distance |R(u) ∩ R(w)|, Section 4.2.2).
    const auto groupEdges = [&](const cost::GasState& state, std::uint32_t v,
                                const std::vector<std::uint32_t>& incident, int onlySite) {
        std::map<std::uint64_t, std::vector<std::uint32_t>> byMask;
        for (std::uint32_t e : incident) {
            if (onlySite >= 0 && partition.edgeSite[e] != onlySite)
                continue;
            const std::uint32_t other = graph.src[e] == v ? graph.dst[e] : graph.src[e];
            byMask[state.replicaMask(other)].push_back(e);
        }
        std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> keyed(byMask.begin(), byMask.end());
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
        std::vector<std::vector<std::uint32_t>> clusters;
        std::vector<std::uint64_t> clusterMask;
        for (auto& [mask, edges] : keyed) {
            if (static_cast<int>(clusters.size()) < groups) {
                clusters.push_back(std::move(edges));
                clusterMask.push_back(mask);
                continue;
            }
            std::size_t best = 0;
            for (std::size_t c = 1; c < clusters.size(); ++c)
                if (std::popcount(clusterMask[c] & mask) > std::popcount(clusterMask[best] & mask))
                    best = c;
            clusters[best].insert(clusters[best].end(), edges.begin(), edges.end());
        }
        return clusters;
    };

    // Budget repair (Meridian's addition): when the streaming result costs more than B, move edge groups of
    // the vertices that upload the most dollars to the sites that cut the cost most, until B holds.
    if (std::isfinite(budgetUsd)) {
        cost::GasState state(graph, partition, problem.sizes, net);
        const double startUsd = state.wanUsd();
        if (!withinBudget(startUsd, budgetUsd)) {
            std::vector<std::pair<double, std::uint32_t>> queue;
            for (std::uint32_t v = 0; v < state.vertexCount(); ++v) {
                const std::uint64_t mask = state.replicaMask(v);
                const int mirrors = std::popcount(mask) - 1;
                if (mirrors <= 0)
                    continue;
                double usd = net.usdPerByte[state.master(v)] * state.applySize(v) * mirrors;
                for (std::uint64_t rest = mask & ~(1ull << state.master(v)); rest; rest &= rest - 1) {
                    const int r = std::countr_zero(rest);
                    usd += net.usdPerByte[r] * state.gatherSize(v, r);
                }
                queue.emplace_back(usd, v);
            }
            std::sort(queue.begin(), queue.end(), [](const auto& a, const auto& b) {
                return a.first > b.first || (a.first == b.first && a.second < b.second);
            });
            int moves = 0;
            constexpr std::size_t kBatch = 1u << 16; // vertices per scan of the edge list
            for (std::size_t first = 0; first < queue.size() && !withinBudget(state.wanUsd(), budgetUsd);
                 first += kBatch) {
                std::vector<std::uint32_t> batch;
                for (std::size_t i = first; i < std::min(queue.size(), first + kBatch); ++i)
                    batch.push_back(queue[i].second);
                auto incident = edgesOf(batch);
                for (std::uint32_t v : batch) {
                    if (withinBudget(state.wanUsd(), budgetUsd) || range.isCanceled())
                        break;
                    for (const auto& group : groupEdges(state, v, incident[v], -1)) {
                        std::vector<std::uint8_t> from(group.size());
                        for (std::size_t i = 0; i < group.size(); ++i)
                            from[i] = partition.edgeSite[group[i]];
                        const double before = state.wanUsd();
                        int bestSite = -1;
                        double bestUsd = before, bestSeconds = 0.0;
                        for (int s = 0; s < m; ++s) {
                            for (std::uint32_t e : group)
                                state.moveEdge(e, s);
                            const double c = state.wanUsd();
                            const double t = state.transferSeconds();
                            if (c < bestUsd - 1e-12 * before || (bestSite >= 0 && c == bestUsd && t < bestSeconds)) {
                                bestUsd = c;
                                bestSeconds = t;
                                bestSite = s;
                            }
                            for (std::size_t i = 0; i < group.size(); ++i)
                                state.moveEdge(group[i], from[i]);
                        }
                        if (bestSite >= 0) {
                            for (std::uint32_t e : group)
                                state.moveEdge(e, bestSite);
                            ++moves;
                        }
                    }
                }
            }
            char text[200];
            std::snprintf(text, sizeof text,
                          "budget repair: %d edge group(s) moved, cost %.6g USD -> %.6g USD (budget %.6g USD)", moves,
                          startUsd, state.wanUsd(), budgetUsd);
            notes.emplace_back(text);
        }
    }

    // Stage 2a: partition mapping by the power of d choices.
    if (values.integer("max_iter") > 0) {
        cost::GasState state(graph, partition, problem.sizes, net);
        const double startUsd = state.wanUsd();
        const double budget = withinBudget(startUsd, budgetUsd) ? budgetUsd
                                                                : startUsd; // over budget: never raise the cost
        const MappingTables tables = tablesOf(state);
        std::vector<int> site(m);
        std::iota(site.begin(), site.end(), 0);
        double seconds, usd;
        tables.evaluate(site, net, seconds, usd);
        const double startSeconds = seconds;
        const int d = static_cast<int>(values.integer("d"));
        const auto maxIter = values.integer("max_iter");
        const int patience = values.integer("patience") > 0 ? static_cast<int>(values.integer("patience")) : m;
        int fruitless = 0, swaps = 0;
        for (std::int64_t it = 0; it < maxIter && m > 1 && fruitless < patience; ++it) {
            if ((it & 63) == 0 && range.isCanceled())
                return false;
            int bestP = -1, bestQ = -1;
            double bestGain = 0.0, bestSeconds = seconds, bestUsd = usd;
            for (int k = 0; k < d; ++k) {
                const int p = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m)));
                int q = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m - 1)));
                q += q >= p ? 1 : 0;
                std::swap(site[p], site[q]);
                double s2, u2;
                tables.evaluate(site, net, s2, u2);
                std::swap(site[p], site[q]);
                if (seconds - s2 > bestGain && withinBudget(u2, budget)) {
                    bestGain = seconds - s2;
                    bestP = p;
                    bestQ = q;
                    bestSeconds = s2;
                    bestUsd = u2;
                }
            }
            if (bestP < 0) {
                ++fruitless;
                continue;
            }
            fruitless = 0;
            ++swaps;
            std::swap(site[bestP], site[bestQ]);
            seconds = bestSeconds;
            usd = bestUsd;
        }
        for (auto& s : partition.edgeSite)
            s = static_cast<std::uint8_t>(site[s]);
        char text[160];
        std::snprintf(text, sizeof text, "partition mapping: %d swap(s), transfer time %.6g s -> %.6g s", swaps,
                      startSeconds, seconds);
        notes.emplace_back(text);
    }
    range.setProgress(0.3, "edge migration");

    // Stage 2b: edge migration out of the bottlenecked link.
    const double lq = values.real("lq_fraction");
    const auto maxRounds = values.integer("max_rounds");
    if (lq <= 0.0 || maxRounds == 0 || m < 2)
        return true;
    cost::GasState state(graph, partition, problem.sizes, net);
    const double budget = withinBudget(state.wanUsd(), budgetUsd) ? budgetUsd : state.wanUsd();
    const double startSeconds = state.transferSeconds();
    int moved = 0, masters = 0, rounds = 0;
    for (; rounds < maxRounds; ++rounds) {
        if (range.isCanceled())
            return false;
        const double roundSeconds = state.transferSeconds(), roundSum = state.siteSecondsSum();
        const cost::GasMetrics metrics = state.linkMetrics();
        // Which link: the gather or apply bottleneck, whichever stands further above the next-worst site.
        const auto gap = [&](bool gatherStage) {
            std::vector<double> times(m);
            for (int r = 0; r < m; ++r)
                times[r] = gatherStage ? std::max(metrics.gatherUp[r] / net.upBytesPerSecond[r],
                                                  metrics.gatherDown[r] / net.downBytesPerSecond[r])
                                       : std::max(metrics.applyUp[r] / net.upBytesPerSecond[r],
                                                  metrics.applyDown[r] / net.downBytesPerSecond[r]);
            std::sort(times.begin(), times.end(), std::greater<>());
            return times[0] - times[1];
        };
        const bool gatherStage = gap(true) >= gap(false);
        const int r = gatherStage ? metrics.gatherBottleneck : metrics.applyBottleneck;
        const bool uplink = gatherStage ? metrics.gatherBottleneckUplink : metrics.applyBottleneckUplink;
        if (r < 0 || (gatherStage ? metrics.gatherSeconds : metrics.applySeconds) <= 0.0)
            break;

        // Queue Q: the replicas in r that load this link, heaviest first.
        std::vector<std::pair<double, std::uint32_t>> queue;
        for (std::uint32_t v = 0; v < state.vertexCount(); ++v) {
            const bool isMaster = state.master(v) == r;
            if (!isMaster && !state.edgesAt(v, r))
                continue;
            double weight = 0.0;
            if (gatherStage && uplink && !isMaster)
                weight = state.gatherSize(v, r);
            else if (gatherStage && !uplink && isMaster) {
                for (int k = 0; k < m; ++k)
                    if (k != r)
                        weight += state.gatherSize(v, k);
            } else if (!gatherStage && uplink && isMaster)
                weight = state.applySize(v) * (std::popcount(state.replicaMask(v)) - 1);
            else if (!gatherStage && !uplink && !isMaster)
                weight = state.applySize(v);
            if (weight > 0.0)
                queue.emplace_back(weight, v);
        }
        std::sort(queue.begin(), queue.end(), [](const auto& a, const auto& b) {
            return a.first > b.first || (a.first == b.first && a.second < b.second);
        });
        const std::size_t limit = std::max<std::size_t>(1,
                                                        static_cast<std::size_t>(
                                                            std::ceil(lq * static_cast<double>(queue.size()))));
        queue.resize(std::min(queue.size(), limit));

        std::vector<std::uint32_t> candidates;
        for (const auto& entry : queue)
            candidates.push_back(entry.second);
        auto incident = edgesOf(candidates);
        bool improved = false;
        for (const auto& [weight, v] : queue) {
            if (range.isCanceled())
                return false;
            // Progress is a shorter transfer time, or the same time with less total site time (one of several
            // equally bottlenecked sites relieved), so tied bottlenecks do not stall the migration.
            struct Score {
                double seconds, sum;
            };
            const auto scoreOf = [&] { return Score{state.transferSeconds(), state.siteSecondsSum()}; };
            const auto better = [](const Score& a, const Score& b) {
                return a.seconds < b.seconds * (1 - 1e-12)
                    || (a.seconds <= b.seconds * (1 + 1e-12) && a.sum < b.sum * (1 - 1e-9));
            };
            Score now = scoreOf();
            // A gather-downlink bottleneck: the master may move to its replica with the most local edges.
            if (gatherStage && !uplink && state.master(v) == r) {
                int target = -1;
                for (int k = 0; k < m; ++k)
                    if (k != r && state.edgesAt(v, k) && (target < 0 || state.edgesAt(v, k) > state.edgesAt(v, target)))
                        target = k;
                if (target >= 0) {
                    state.setMaster(v, target);
                    if (better(scoreOf(), now) && withinBudget(state.wanUsd(), budget)) {
                        ++masters;
                        improved = true;
                        now = scoreOf();
                    } else {
                        state.setMaster(v, r);
                    }
                }
            }
            // The edges to migrate: a mirror's edges in r leave r; a master cannot leave, so every edge of
            // the vertex may move, each group to its best site (consolidating mirrors into fewer sites).
            const bool masterCase = (gatherStage && !uplink) || (!gatherStage && uplink);
            const auto clusters = groupEdges(state, v, incident[v], masterCase ? -1 : r);
            if (clusters.empty())
                continue;
            for (const auto& group : clusters) {
                int bestSite = -1;
                Score bestScore = now;
                std::vector<std::uint8_t> from(group.size());
                for (std::size_t i = 0; i < group.size(); ++i)
                    from[i] = partition.edgeSite[group[i]];
                for (int s = 0; s < m; ++s) {
                    if (s == r && !masterCase)
                        continue;
                    for (std::uint32_t e : group)
                        state.moveEdge(e, s);
                    const Score score = scoreOf();
                    if (better(score, bestScore) && withinBudget(state.wanUsd(), budget)) {
                        bestScore = score;
                        bestSite = s;
                    }
                    for (std::size_t i = 0; i < group.size(); ++i)
                        state.moveEdge(group[i], from[i]);
                }
                if (bestSite >= 0) {
                    for (std::uint32_t e : group)
                        moved += partition.edgeSite[e] != bestSite ? 1 : 0;
                    for (std::uint32_t e : group)
                        state.moveEdge(e, bestSite);
                    now = bestScore;
                    improved = true;
                }
            }
            const cost::GasMetrics after = state.linkMetrics();
            const int stillBottleneck = gatherStage ? after.gatherBottleneck : after.applyBottleneck;
            const bool sameLink = stillBottleneck == r
                && (gatherStage ? after.gatherBottleneckUplink : after.applyBottleneckUplink) == uplink;
            if (!sameLink)
                break; // the link is no longer the bottleneck: find the next one
        }
        range.setProgress(0.3 + 0.7 * static_cast<double>(rounds + 1) / static_cast<double>(maxRounds),
                          "edge migration");
        // Stop when a round gains less than 0.01% in both the transfer time and the total site time.
        const bool gained = state.transferSeconds() < roundSeconds * (1 - 1e-4)
            || state.siteSecondsSum() < roundSum * (1 - 1e-4);
        if (!improved || !gained) {
            ++rounds;
            break;
        }
    }
    char text[200];
    std::snprintf(text, sizeof text,
                  "edge migration: %d edge(s) moved, %d master(s) moved in %d round(s), transfer time %.6g s -> %.6g s",
                  moved, masters, rounds, startSeconds, state.transferSeconds());
    notes.emplace_back(text);
    return true;
}

Expected<PartitionResult> GeoCutPartitioner::runImpl(const PartitionProblem& problem, const ParamValues& values,
                                                     std::uint64_t seed, const FeedbackRange& range) const
{
    const auto& g = *problem.graph;
    StreamState stream(problem);
    std::size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    const bool finished = forEachEdgeInStreamOrder(
        g.edgeCount(), seed,
        [&](std::size_t e) {
            constexpr std::size_t kAhead = 16;
            if (e + kAhead < g.edgeCount()) {
                stream.prefetch(g.src[e + kAhead]);
                stream.prefetch(g.dst[e + kAhead]);
            }
            const std::uint32_t u = g.src[e], v = g.dst[e];
            stream.place(e, u, v, geoCutPlace(problem, stream, u, v));
            if ((++done & 0xFFFFF) == 0)
                range.setProgress(0.5 * static_cast<double>(done) / static_cast<double>(g.edgeCount()),
                                  "cost-aware streaming");
        },
        [&] { return range.isCanceled(); });
    if (!finished)
        return makeError(ErrorCode::Canceled, "canceled");
    PartitionResult result;
    result.streamingSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.partition = stream.take();
    const double budget = problem.budgetUsd.value_or(std::numeric_limits<double>::infinity());
    const bool refining = values.integer("max_iter") > 0
        || (values.real("lq_fraction") > 0.0 && values.integer("max_rounds") > 0);
    if (!problem.budgetUsd && !refining)
        return result; // streaming only: nothing needs the stage-1 cost
    const double stage1 = cost::evaluateGas(g, result.partition, problem.sizes, problem.network).wanUsd;
    char text[160];
    if (problem.budgetUsd && !withinBudget(stage1, budget))
        std::snprintf(text, sizeof text,
                      "stage 1 costs %.6g USD, over the budget of %.6g USD by %.6g USD: budget repair first", stage1,
                      budget, stage1 - budget);
    else
        std::snprintf(text, sizeof text, "stage 1 costs %.6g USD", stage1);
    result.notes.emplace_back(text);
    if (!refine(problem, g, result.partition, values, seed, range.sub(0.5, 1.0), result.notes, budget))
        return makeError(ErrorCode::Canceled, "canceled");
    return result;
}

} // namespace meridian::partition
