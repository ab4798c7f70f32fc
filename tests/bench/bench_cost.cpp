// Benchmark of the alpha-beta cost model: full evaluation of an 8192-process LU placement on the
// ec2-4-regions network shape, and 10^6 random move and swap deltas. Prints RESULT lines.
#include "core/common/random.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/model/network.h"
#include "core/synth/patterns.h"

#include <chrono>
#include <cstdio>
#include <vector>

using namespace meridian;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

model::Network fourSites()
{
    // The measured part of ec2-4-regions (SC17 Tables 1-2) with the rest filled by hand.
    const double lat[4][4] = {{0.09, 0.16, 0.35, 0.17},
                              {0.16, 0.09, 0.3, 0.2},
                              {0.35, 0.3, 0.09, 0.3},
                              {0.17, 0.2, 0.3, 0.09}};
    const double bw[4][4] = {{148, 21, 6.6, 19}, {21, 176, 7.5, 12}, {6.6, 7.5, 204, 9}, {19, 12, 9, 176}};
    model::Network n(4);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            n.set(model::NetworkQuantity::Latency, i, j, lat[i][j]);
            n.set(model::NetworkQuantity::Bandwidth, i, j, bw[i][j]);
        }
    return n;
}

} // namespace

int main()
{
    const int n = 8192;
    const auto comm = *synth::generatePattern(synth::Pattern::LU, {.processes = n});
    const cost::AlphaBetaCost cost(fourSites(), comm);
    Random rng(1);
    std::vector<int> sites(n);
    for (auto& s : sites)
        s = static_cast<int>(rng.uniformInt(4));

    const int evaluations = 200;
    double sink = 0;
    auto t0 = Clock::now();
    for (int k = 0; k < evaluations; ++k) {
        sites[k] = (sites[k] + 1) % 4; // keep the compiler from hoisting the evaluation
        sink += cost.evaluate(sites);
    }
    auto t1 = Clock::now();
    std::printf("RESULT case=full_evaluation processes=%d nonzeros=%d repetitions=%d seconds_per_evaluation=%.3e "
                "evaluations_per_second=%.1f\n",
                n, comm.nonZeros(), evaluations, seconds(t0, t1) / evaluations, evaluations / seconds(t0, t1));

    const int deltas = 1000000;
    std::vector<std::pair<int, int>> moves(deltas);
    for (auto& m : moves)
        m = {static_cast<int>(rng.uniformInt(n)), static_cast<int>(rng.uniformInt(4))};
    t0 = Clock::now();
    for (const auto& [p, to] : moves)
        sink += cost.moveDelta(sites, p, to);
    t1 = Clock::now();
    std::printf(
        "RESULT case=move_deltas processes=%d deltas=%d seconds=%.4f deltas_per_second=%.3e ns_per_delta=%.1f\n", n,
        deltas, seconds(t0, t1), deltas / seconds(t0, t1), 1e9 * seconds(t0, t1) / deltas);

    std::vector<std::pair<int, int>> swaps(deltas);
    for (auto& s : swaps)
        s = {static_cast<int>(rng.uniformInt(n)), static_cast<int>(rng.uniformInt(n))};
    t0 = Clock::now();
    for (const auto& [p, q] : swaps)
        sink += cost.swapDelta(sites, p, q);
    t1 = Clock::now();
    std::printf(
        "RESULT case=swap_deltas processes=%d deltas=%d seconds=%.4f deltas_per_second=%.3e ns_per_delta=%.1f\n", n,
        deltas, seconds(t0, t1), deltas / seconds(t0, t1), 1e9 * seconds(t0, t1) / deltas);

    // Check a sample of the deltas against full re-evaluation so the figures are of correct code.
    double worst = 0;
    for (int k = 0; k < 200; ++k) {
        const auto [p, to] = moves[k];
        const double before = cost.evaluate(sites);
        const double delta = cost.moveDelta(sites, p, to);
        const int old = sites[p];
        sites[p] = to;
        worst = std::max(worst, std::abs(cost.evaluate(sites) - before - delta) / before);
        sites[p] = old;
    }
    std::printf("RESULT case=delta_check samples=200 max_relative_error=%.2e checksum=%.6e\n", worst, sink);
    return worst < 1e-9 ? 0 : 1;
}
