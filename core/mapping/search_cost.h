#pragma once

#include "core/cost/alpha_beta_cost.h"

#include <memory>
#include <span>
#include <vector>

namespace meridian::mapping {

/// The value a local search minimises, with the parts it is made of (or the change of each by a step).
struct SearchState {
    double value = 0.0;      ///< secondsWeight x seconds + dollarsWeight x dollars
    double seconds = 0.0;    ///< the alpha-beta cost
    double egressUsd = 0.0;  ///< bytes leaving each bin x its egress price
    double usdPerHour = 0.0; ///< the nodes in use x their price per node-hour

    SearchState& operator+=(const SearchState& d)
    {
        value += d.value;
        seconds += d.seconds;
        egressUsd += d.egressUsd;
        usdPerHour += d.usdPerHour;
        return *this;
    }
};

/// The prices a dollar objective needs, per bin (site).
struct BinPrices {
    std::vector<double> egressUsdPerGB;     ///< per bin; 0 where bytes leave for free
    std::vector<double> instanceUsdPerHour; ///< per node of the bin
    std::vector<int> slotsPerNode;          ///< a bin with load L uses ceil(L / slots) nodes
};

/// What refine's searches minimise: the alpha-beta time alone, or
///   secondsWeight x T + dollarsWeight x (E + H x T / 3600)
/// with T the alpha-beta cost in seconds, E the egress dollars (bytes from bin k to bin l != k at k's price per
/// GB) and H the dollars per hour of the nodes in use (bin b with load L uses ceil(L / slots_b) nodes) - the
/// dollars of cost::placementDollars for a site-level placement.
///
/// T and E are sums over pairs, so their changes are O(degree); H changes only when a move changes a bin's node
/// count. The product H x T makes the value of a move depend on the current T and H, which the caller passes in
/// the state it keeps (a swap leaves every load, hence H, unchanged). Cheap to copy; shares the evaluators.
class SearchCost {
public:
    /// Time alone: value = seconds. `time` must outlive this object.
    explicit SearchCost(const cost::AlphaBetaCost& time);
    /// The weighted time-and-dollars value. `time` must outlive this object.
    SearchCost(const cost::AlphaBetaCost& time, const model::CommMatrix& comm, BinPrices prices, double secondsWeight,
               double dollarsWeight);

    const cost::AlphaBetaCost& time() const { return *m_time; }
    int processCount() const { return m_time->processCount(); }
    /// The same time-and-dollars value with other weights, sharing the evaluators (the time-alone cost is
    /// returned unchanged).
    SearchCost withWeights(double secondsWeight, double dollarsWeight) const;

    /// The state of a whole assignment. O(nnz + bins).
    SearchState evaluate(std::span<const int> assignment) const;
    /// The change of moving p to bin `to`, from `at` with bin loads `load`. O(degree).
    SearchState moveDelta(std::span<const int> assignment, const SearchState& at, std::span<const int> load, int p,
                          int to) const;
    /// The change of swapping the bins of p and q. O(degree(p) + degree(q)).
    SearchState swapDelta(std::span<const int> assignment, const SearchState& at, int p, int q) const;
    /// The value change of moving p to `to` if no bin's node count changed: its share of a swap, used to rank.
    double pairMoveDelta(std::span<const int> assignment, const SearchState& at, int p, int to) const;

private:
    double nodeUsdPerHour(int bin, int load) const;
    SearchState combine(double dSeconds, double dEgress, double dHourly, const SearchState& at) const;

    const cost::AlphaBetaCost* m_time;
    std::shared_ptr<const cost::AlphaBetaCost> m_egress; // usd per byte as "seconds per byte"; null = time alone
    BinPrices m_prices;
    double m_secondsWeight = 1.0;
    double m_dollarsWeight = 0.0;
};

} // namespace meridian::mapping
