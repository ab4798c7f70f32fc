#include "core/mapping/search_cost.h"

#include <utility>

namespace meridian::mapping {

namespace {

/// Egress dollars in the form of an alpha-beta table: no per-message part, a sending bin's price per byte to
/// every other bin.
std::shared_ptr<const cost::AlphaBetaCost> egressEvaluator(const model::CommMatrix& comm, const BinPrices& prices)
{
    const auto m = static_cast<Eigen::Index>(prices.egressUsdPerGB.size());
    Eigen::MatrixXd perByte = Eigen::MatrixXd::Zero(m, m);
    for (Eigen::Index k = 0; k < m; ++k)
        for (Eigen::Index l = 0; l < m; ++l)
            if (k != l)
                perByte(k, l) = prices.egressUsdPerGB[static_cast<std::size_t>(k)] / 1e9;
    return std::make_shared<const cost::AlphaBetaCost>(Eigen::MatrixXd::Zero(m, m), perByte, comm);
}

} // namespace

SearchCost::SearchCost(const cost::AlphaBetaCost& time)
    : m_time(&time)
{}

SearchCost::SearchCost(const cost::AlphaBetaCost& time, const model::CommMatrix& comm, BinPrices prices,
                       double secondsWeight, double dollarsWeight)
    : m_time(&time)
    , m_egress(egressEvaluator(comm, prices))
    , m_prices(std::move(prices))
    , m_secondsWeight(secondsWeight)
    , m_dollarsWeight(dollarsWeight)
{}

SearchCost::SearchCost(const cost::AlphaBetaCost& time, std::shared_ptr<const cost::BottleneckCost> bottleneck,
                       double secondsWeight, double bottleneckWeight)
    : m_time(&time)
    , m_bottleneck(std::move(bottleneck))
    , m_secondsWeight(secondsWeight)
    , m_bottleneckWeight(bottleneckWeight)
{}

SearchCost SearchCost::withWeights(double secondsWeight, double dollarsWeight) const
{
    SearchCost weighted = *this;
    if (m_egress) {
        weighted.m_secondsWeight = secondsWeight;
        weighted.m_dollarsWeight = dollarsWeight;
    }
    return weighted;
}

double SearchCost::nodeUsdPerHour(int bin, int load) const
{
    const auto b = static_cast<std::size_t>(bin);
    const int slots = m_prices.slotsPerNode[b];
    const int nodes = load <= 0 ? 0 : (load + slots - 1) / slots; // ceil(load / slots), whole nodes
    return m_prices.instanceUsdPerHour[b] * nodes;
}

SearchState SearchCost::combine(double dSeconds, double dBottleneck, double dEgress, double dHourly,
                                const SearchState& at) const
{
    SearchState d;
    d.seconds = dSeconds;
    d.egressUsd = dEgress;
    d.usdPerHour = dHourly;
    d.bottleneck = dBottleneck;
    d.value = m_secondsWeight * dSeconds + m_bottleneckWeight * dBottleneck;
    if (m_egress) {
        const double before = at.egressUsd + at.usdPerHour * at.seconds / 3600.0;
        const double after = (at.egressUsd + dEgress) + (at.usdPerHour + dHourly) * (at.seconds + dSeconds) / 3600.0;
        d.value += m_dollarsWeight * (after - before);
    }
    return d;
}

cost::LinkLoads SearchCost::links(std::span<const int> assignment) const
{
    return m_bottleneck ? m_bottleneck->loads(assignment) : cost::LinkLoads();
}

void SearchCost::apply(cost::LinkLoads& links, std::span<const int> assignment, int p, int to) const
{
    if (m_bottleneck)
        m_bottleneck->apply(links, assignment, p, to);
}

SearchState SearchCost::evaluate(std::span<const int> assignment) const
{
    SearchState s;
    s.seconds = m_time->evaluate(assignment);
    if (m_bottleneck) {
        s.bottleneck = m_bottleneck->evaluate(assignment);
        s.value = m_secondsWeight * s.seconds + m_bottleneckWeight * s.bottleneck;
        return s;
    }
    if (!m_egress) {
        s.value = s.seconds;
        return s;
    }
    s.egressUsd = m_egress->evaluate(assignment);
    std::vector<int> load(m_prices.slotsPerNode.size(), 0);
    for (int b : assignment)
        ++load[static_cast<std::size_t>(b)];
    for (int b = 0; b < static_cast<int>(load.size()); ++b)
        s.usdPerHour += nodeUsdPerHour(b, load[static_cast<std::size_t>(b)]);
    s.value = m_secondsWeight * s.seconds + m_dollarsWeight * (s.egressUsd + s.usdPerHour * s.seconds / 3600.0);
    return s;
}

SearchState SearchCost::moveDelta(std::span<const int> assignment, const SearchState& at, std::span<const int> load,
                                  const cost::LinkLoads& links, int p, int to) const
{
    const double dSeconds = m_time->moveDelta(assignment, p, to);
    if (m_bottleneck)
        return combine(dSeconds, m_bottleneck->moveDelta(links, assignment, p, to), 0.0, 0.0, at);
    if (!m_egress)
        return {dSeconds, dSeconds, 0.0, 0.0};
    const int from = assignment[p];
    const int lf = load[static_cast<std::size_t>(from)];
    const int lt = load[static_cast<std::size_t>(to)];
    const double dHourly = nodeUsdPerHour(from, lf - 1) - nodeUsdPerHour(from, lf) + nodeUsdPerHour(to, lt + 1)
        - nodeUsdPerHour(to, lt);
    return combine(dSeconds, 0.0, m_egress->moveDelta(assignment, p, to), dHourly, at);
}

SearchState SearchCost::swapDelta(std::span<const int> assignment, const SearchState& at, const cost::LinkLoads& links,
                                  int p, int q) const
{
    const double dSeconds = m_time->swapDelta(assignment, p, q);
    if (m_bottleneck)
        return combine(dSeconds, m_bottleneck->swapDelta(links, assignment, p, q), 0.0, 0.0, at);
    if (!m_egress)
        return {dSeconds, dSeconds, 0.0, 0.0};
    return combine(dSeconds, 0.0, m_egress->swapDelta(assignment, p, q), 0.0, at);
}

double SearchCost::pairMoveDelta(std::span<const int> assignment, const SearchState& at, const cost::LinkLoads& links,
                                 int p, int to) const
{
    const double dSeconds = m_time->moveDelta(assignment, p, to);
    if (m_bottleneck)
        return combine(dSeconds, m_bottleneck->moveDelta(links, assignment, p, to), 0.0, 0.0, at).value;
    if (!m_egress)
        return dSeconds;
    return combine(dSeconds, 0.0, m_egress->moveDelta(assignment, p, to), 0.0, at).value;
}

} // namespace meridian::mapping
