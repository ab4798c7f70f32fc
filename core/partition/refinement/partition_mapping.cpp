#include "core/partition/refinement/partition_mapping.h"

#include "core/cost/gas_cost.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>

namespace meridian::partition::refinement {

namespace {

/// Eq. 1 and 4 for a mapping of partitions to sites from aggregated tables (Algorithm 2's estimates).
struct MappingTables {
    int m = 0;
    std::vector<double> gather; // [p * m + h]: bytes partition p's mirrors gather to masters in h
    std::vector<double> apply;  // [p * m + h]: bytes masters in h send to partition p's mirrors

    struct Estimate {
        double seconds = 0.0, usd = 0.0;
    };

    /// A partition is everything stage 1 put on one site, its masters included: a mapping moves it whole, so
    /// the traffic between partitions stays and only the sites carrying it (bandwidths, prices) change.
    Estimate evaluate(const std::vector<int>& site, const cost::GasNetwork& net) const
    {
        std::vector<double> gUp(m, 0.0), gDown(m, 0.0), aUp(m, 0.0), aDown(m, 0.0);
        for (int p = 0; p < m; ++p) {
            const int r = site[p];
            for (int h = 0; h < m; ++h) {
                if (p == h)
                    continue;
                const int masters = site[h];
                const double g = gather[p * m + h], a = apply[p * m + h];
                gUp[r] += g;
                gDown[masters] += g;
                aUp[masters] += a;
                aDown[r] += a;
            }
        }
        double tg = 0.0, ta = 0.0;
        Estimate out;
        for (int r = 0; r < m; ++r) {
            tg = std::max({tg, gUp[r] / net.upBytesPerSecond[r], gDown[r] / net.downBytesPerSecond[r]});
            ta = std::max({ta, aUp[r] / net.upBytesPerSecond[r], aDown[r] / net.downBytesPerSecond[r]});
            out.usd += (gUp[r] + aUp[r]) * net.usdPerByte[r];
        }
        out.seconds = tg + ta;
        return out;
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

/// One step of Algorithm 1: the best of `d` sampled swaps that gains time within `budget`, or {-1, -1}.
struct Swap {
    int p = -1, q = -1;
    MappingTables::Estimate estimate;
};

Swap bestSampledSwap(const MappingTables& tables, const cost::GasNetwork& net, std::vector<int>& site, int d,
                     double seconds, double budget, Random& random)
{
    const int m = tables.m;
    Swap best;
    double bestGain = 0.0;
    for (int k = 0; k < d; ++k) {
        const int p = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m)));
        int q = static_cast<int>(random.uniformInt(static_cast<std::uint64_t>(m - 1)));
        q += q >= p ? 1 : 0;
        std::swap(site[p], site[q]);
        const MappingTables::Estimate e = tables.evaluate(site, net);
        std::swap(site[p], site[q]);
        if (seconds - e.seconds > bestGain && withinBudget(e.usd, budget)) {
            bestGain = seconds - e.seconds;
            best = Swap{p, q, e};
        }
    }
    return best;
}

} // namespace

bool mapPartitions(const PartitionProblem& problem, const model::Graph& graph, model::EdgePartition& partition,
                   const ParamValues& values, Random& random, double budgetUsd, const FeedbackRange& range,
                   std::vector<std::string>& notes, std::vector<int>* mapping, std::optional<cost::GasState>* unmoved)
{
    const int m = problem.siteCount();
    const auto& net = problem.network;
    cost::GasState state(graph, partition, problem.sizes, net, [&] { return range.isCanceled(); });
    if (!state.complete())
        return false;
    const double startUsd = state.wanUsd();
    const double budget = withinBudget(startUsd, budgetUsd) ? budgetUsd : startUsd; // over budget: never raise it
    const MappingTables tables = tablesOf(state);
    std::vector<int> site(m);
    std::iota(site.begin(), site.end(), 0);
    MappingTables::Estimate now = tables.evaluate(site, net);
    const double startSeconds = now.seconds;
    int swaps = 0;
    const char* how = "power of d choices";
    if (m > 1 && m <= values.integer("exhaustive_sites")) {
        // Few sites: every mapping is tried (M! of them, O(M^2) each), as the paper suggests for small M.
        how = "every mapping tried";
        std::vector<int> trial = site, best = site;
        std::int64_t tried = 0;
        while (std::next_permutation(trial.begin(), trial.end())) {
            if ((++tried & 4095) == 0 && range.isCanceled())
                return false;
            const MappingTables::Estimate e = tables.evaluate(trial, net);
            if (e.seconds < now.seconds && withinBudget(e.usd, budget)) {
                now = e;
                best = trial;
            }
        }
        for (int p = 0; p < m; ++p)
            swaps += best[p] != site[p] ? 1 : 0;
        site = best;
    } else {
        const int d = static_cast<int>(values.integer("d"));
        const auto maxIter = values.integer("max_iter");
        const int patience = values.integer("patience") > 0 ? static_cast<int>(values.integer("patience")) : m;
        int fruitless = 0;
        for (std::int64_t it = 0; it < maxIter && m > 1 && fruitless < patience; ++it) {
            if ((it & 63) == 0 && range.isCanceled())
                return false;
            const Swap swap = bestSampledSwap(tables, net, site, d, now.seconds, budget, random);
            if (swap.p < 0) {
                ++fruitless;
                continue;
            }
            fruitless = 0;
            ++swaps;
            std::swap(site[swap.p], site[swap.q]);
            now = swap.estimate;
        }
    }
    if (swaps == 0) {
        if (unmoved)
            unmoved->emplace(std::move(state));
    } else {
        for (auto& s : partition.edgeSite)
            s = static_cast<std::uint8_t>(site[s]);
        for (auto& s : partition.masterSite)
            s = static_cast<std::uint8_t>(site[s]);
    }
    if (mapping)
        *mapping = site;
    char text[160];
    std::snprintf(text, sizeof text, "partition mapping (%s): %d %s, transfer time %.6g s -> %.6g s", how, swaps,
                  std::strcmp(how, "power of d choices") == 0 ? "swap(s)" : "partition(s) moved", startSeconds,
                  now.seconds);
    notes.emplace_back(text);
    return true;
}

} // namespace meridian::partition::refinement
