#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace meridian::partition {

/// What Geo-Cut's stage 1 reads of an edge's endpoint: its replica sites, the sites holding one of its in-edges, its
/// master's site and its apply size a_x.
struct GeoCutEnd {
    std::uint64_t replicas = 0;
    std::uint64_t inSites = 0;
    int master = 0;
    double apply = 0.0;
};

/// Geo-Cut's cost-aware streaming rule for an edge (u, v) (Section 4.1, eq. 7-9), given the sites' prices per byte,
/// the gather size g (or, with a binding profile, u's apply size as the gather increase) and a load per site for
/// ties (the least loaded wins, then the lower site):
/// - rule 1 (eq. 8): when R_u and R_v meet, the site of the intersection with the smallest gather cost
///   P_r dg, where dg is 0 at v's master and at a site already holding an in-edge of v;
/// - rule 2 (eq. 8 + 9): otherwise the site with the smallest gather cost plus the synchronisation of each new
///   mirror, its master's upload of a_x.
/// The stream one edge at a time (geoCutPlace over a StreamState) and in batches (GeoCutBlock) both call it. The
/// dynamic insertions' choice (geoCutPlace over a GasState) applies the same equations through its own view, which
/// adds the two synchronisations before the gather cost: a different rounding, kept so that updates place as before.
template <typename Load>
int geoCutChoice(const std::vector<double>& price, double gather, bool binds, const GeoCutEnd& u, const GeoCutEnd& v,
                 const Load& load)
{
    const std::uint64_t both = u.replicas & v.replicas;
    const auto gatherIncrease = [&](int r) {
        if (r == v.master)
            return 0.0;
        return binds ? u.apply : ((v.inSites >> r & 1) ? 0.0 : gather);
    };
    int best = -1;
    double bestCost = 0.0;
    const auto consider = [&](int r, double usd) {
        if (best < 0 || usd < bestCost || (usd == bestCost && load(r) < load(best))) {
            best = r;
            bestCost = usd;
        }
    };
    if (both) {
        for (std::uint64_t rest = both; rest; rest &= rest - 1) {
            const int r = std::countr_zero(rest);
            consider(r, price[static_cast<std::size_t>(r)] * gatherIncrease(r));
        }
        return best;
    }
    const double syncU = price[static_cast<std::size_t>(u.master)] * u.apply;
    const double syncV = price[static_cast<std::size_t>(v.master)] * v.apply;
    const int m = static_cast<int>(price.size());
    for (int r = 0; r < m; ++r)
        consider(r,
                 price[static_cast<std::size_t>(r)] * gatherIncrease(r) + ((u.replicas >> r & 1) ? 0.0 : syncU)
                     + ((v.replicas >> r & 1) ? 0.0 : syncV));
    return best;
}

} // namespace meridian::partition
