#include "core/partition/cost_bound.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace meridian::partition {

namespace {

/// A float no larger than x: residuals are kept rounded down, so what the mirrors still hold is never overstated and
/// every charge stays within a mirror's cost, as the bound's validity needs.
float below(double x)
{
    float f = static_cast<float>(std::max(0.0, x));
    if (static_cast<double>(f) > x)
        f = std::nextafter(f, 0.0f);
    return f;
}

/// What the mirrors can still pay: per (vertex, site), the part of a mirror's cost an edge may charge when the
/// vertex is its source (`presence`: the master's upload of a_x) and in all (`total`: with the gather upload, which
/// only an in-edge may charge). Floats rounded down: 8 V M bytes.
class Residuals {
public:
    Residuals(const PartitionProblem& problem)
        : m_sites(problem.siteCount())
        , m_presence(static_cast<std::size_t>(problem.graph->vertexCount) * m_sites)
        , m_total(m_presence.size())
    {
        const auto& price = problem.network.usdPerByte;
        const auto& sizes = problem.sizes;
        for (std::uint32_t x = 0; x < problem.graph->vertexCount; ++x) {
            const double presence = sizes.apply[x] * price[problem.home[x]];
            for (int r = 0; r < m_sites; ++r) {
                const std::size_t i = index(x, r);
                m_presence[i] = below(presence);
                // A combining profile's gather is one g per mirror; a binding one's is paid per edge instead.
                m_total[i] = below(presence + (sizes.binds ? 0.0 : sizes.gather * price[r]));
            }
        }
    }

    double asSource(std::uint32_t x, int r) const { return std::min(m_presence[index(x, r)], m_total[index(x, r)]); }
    double asTarget(std::uint32_t x, int r) const { return m_total[index(x, r)]; }
    void chargeSource(std::uint32_t x, int r, double usd)
    {
        const std::size_t i = index(x, r);
        m_presence[i] = below(static_cast<double>(m_presence[i]) - usd);
        m_total[i] = below(static_cast<double>(m_total[i]) - usd);
    }
    void chargeTarget(std::uint32_t x, int r, double usd)
    {
        const std::size_t i = index(x, r);
        m_total[i] = below(static_cast<double>(m_total[i]) - usd);
    }

private:
    std::size_t index(std::uint32_t x, int r) const { return static_cast<std::size_t>(x) * m_sites + r; }
    int m_sites;
    std::vector<float> m_presence, m_total;
};

/// The edges between two homes, those whose endpoints have the fewest edges first (a counting sort on the degree
/// sum, capped), ties in edge order.
std::vector<std::uint32_t> raisingOrder(const PartitionProblem& problem, const std::vector<std::uint32_t>& degree)
{
    const auto& g = *problem.graph;
    constexpr std::uint32_t kCap = 1u << 12;
    const auto key = [&](std::size_t e) { return std::min(degree[g.src[e]] + degree[g.dst[e]], kCap); };
    std::vector<std::uint32_t> start(kCap + 2, 0);
    for (std::size_t e = 0; e < g.edgeCount(); ++e)
        if (problem.home[g.src[e]] != problem.home[g.dst[e]])
            ++start[key(e) + 1];
    for (std::size_t k = 1; k < start.size(); ++k)
        start[k] += start[k - 1];
    std::vector<std::uint32_t> order(start.back());
    for (std::size_t e = 0; e < g.edgeCount(); ++e)
        if (problem.home[g.src[e]] != problem.home[g.dst[e]])
            order[start[key(e)]++] = static_cast<std::uint32_t>(e);
    return order;
}

} // namespace

Expected<double> costLowerBound(const PartitionProblem& problem, const FeedbackRange& range)
{
    const auto& g = *problem.graph;
    const int m = problem.siteCount();
    if (g.edgeCount() >= (std::size_t(1) << 32))
        return makeError(ErrorCode::InvalidInput, "the cost bound handles fewer than 2^32 edges");
    std::vector<std::uint32_t> degree(g.vertexCount, 0);
    for (std::size_t e = 0; e < g.edgeCount(); ++e) {
        ++degree[g.src[e]];
        ++degree[g.dst[e]];
    }
    const std::vector<std::uint32_t> order = raisingOrder(problem, degree);
    Residuals left(problem);
    const auto& price = problem.network.usdPerByte;
    const bool binds = problem.sizes.binds;
    double bound = 0.0;
    std::vector<double> own(m, 0.0), payable(m, 0.0);
    for (std::size_t k = 0; k < order.size(); ++k) {
        if ((k & 0xFFFF) == 0) {
            if (range.isCanceled())
                return makeError(ErrorCode::Canceled, "canceled");
            range.setProgress(static_cast<double>(k) / static_cast<double>(order.size()), "bounding the cost");
        }
        const std::uint32_t e = order[k], u = g.src[e], v = g.dst[e];
        const int hu = problem.home[u], hv = problem.home[v];
        // What placing e at r would cost by itself (a binding profile's gather of a_u at a mirror of v), and what
        // the mirrors it needs there can still pay.
        double lambda = std::numeric_limits<double>::infinity();
        for (int r = 0; r < m; ++r) {
            own[r] = binds && r != hv ? problem.sizes.apply[u] * price[r] : 0.0;
            double mirrors = 0.0;
            if (r != hu)
                mirrors += left.asSource(u, r);
            if (r != hv)
                mirrors += left.asTarget(v, r);
            payable[r] = own[r] + std::max(0.0, mirrors);
            lambda = std::min(lambda, payable[r]);
        }
        if (!(lambda > 0.0))
            continue;
        bound += lambda;
        // Every site's option pays lambda: its own cost first, then its mirrors, the lower-degree endpoint's first
        // (a hub's mirrors are shared by many edges).
        for (int r = 0; r < m; ++r) {
            double need = lambda - own[r];
            if (need <= 0.0)
                continue;
            const bool sourceFirst = degree[u] <= degree[v];
            for (int side = 0; side < 2 && need > 0.0; ++side) {
                const bool source = (side == 0) == sourceFirst;
                if (source && r != hu) {
                    const double paid = std::min(need, std::max(0.0, left.asSource(u, r)));
                    left.chargeSource(u, r, paid);
                    need -= paid;
                } else if (!source && r != hv) {
                    const double paid = std::min(need, std::max(0.0, left.asTarget(v, r)));
                    left.chargeTarget(v, r, paid);
                    need -= paid;
                }
            }
        }
    }
    // The sum of up to 2^32 positive terms rounds by at most a relative 2^32 x 2^-53 < 1e-6.
    return bound * (1.0 - 1e-6);
}

Status checkBudgetReachable(double budgetUsd, double boundUsd)
{
    if (budgetUsd >= boundUsd)
        return {};
    char text[400];
    std::snprintf(
        text, sizeof text,
        "the budget of %.6g USD per iteration cannot be met: no partition of this graph over these sites costs "
        "less than %.6g USD (a lower bound from the linear relaxation of eq. 4, every master at its vertex's "
        "home); give a budget of at least %.6g USD",
        budgetUsd, boundUsd, boundUsd);
    return makeError(ErrorCode::InvalidInput, text);
}

} // namespace meridian::partition
