#pragma once

#include "core/cost/alpha_beta_cost.h"
#include "core/cost/bottleneck_cost.h"

#include <memory>
#include <span>
#include <vector>

namespace meridian::mapping {

/// The value a local search minimises, with the parts it is made of (or the change of each by a step).
struct SearchState {
    double value = 0.0;      ///< secondsWeight x seconds + bottleneckWeight x bottleneck + dollarsWeight x dollars
    double seconds = 0.0;    ///< the alpha-beta cost
    double egressUsd = 0.0;  ///< bytes leaving each bin x its egress price
    double usdPerHour = 0.0; ///< the nodes in use x their price per node-hour
    double bottleneck = 0.0; ///< the busiest shared link's seconds (when the objective has that term)

    SearchState& operator+=(const SearchState& d)
    {
        value += d.value;
        seconds += d.seconds;
        egressUsd += d.egressUsd;
        usdPerHour += d.usdPerHour;
        bottleneck += d.bottleneck;
        return *this;
    }
};

/// The prices a dollar objective needs, per bin (site).
struct BinPrices {
    std::vector<double> egressUsdPerGB;     ///< per bin; 0 where bytes leave for free
    std::vector<double> instanceUsdPerHour; ///< per node of the bin
    std::vector<int> slotsPerNode;          ///< a bin with load L uses ceil(L / slots) nodes
};

/// What refine's searches minimise: the alpha-beta time alone,
///   secondsWeight x T + dollarsWeight x (E + H x T / 3600), or
///   secondsWeight x T + bottleneckWeight x B
/// with T the alpha-beta cost in seconds, E the egress dollars (bytes from bin k to bin l != k at k's price per
/// GB), H the dollars per hour of the nodes in use (bin b with load L uses ceil(L / slots_b) nodes) - the
/// dollars of cost::placementDollars for a site-level placement - and B the busiest shared link's seconds
/// (cost::BottleneckCost; the bins are sites).
///
/// T and E are sums over pairs, so their changes are O(degree); H changes only when a move changes a bin's node
/// count. The product H x T makes the value of a move depend on the current T and H, which the caller passes in
/// the state it keeps (a swap leaves every load, hence H, unchanged). B is a maximum over links: its changes
/// read the link loads of the current assignment (links()), which the caller keeps up to date with apply().
/// Cheap to copy; shares the evaluators.
class SearchCost {
public:
    /// Time alone: value = seconds. `time` must outlive this object.
    explicit SearchCost(const cost::AlphaBetaCost& time);
    /// The weighted time-and-dollars value. `time` must outlive this object.
    SearchCost(const cost::AlphaBetaCost& time, const model::CommMatrix& comm, BinPrices prices, double secondsWeight,
               double dollarsWeight);
    /// The weighted time-and-bottleneck value. `time` must outlive this object.
    SearchCost(const cost::AlphaBetaCost& time, std::shared_ptr<const cost::BottleneckCost> bottleneck,
               double secondsWeight, double bottleneckWeight);

    const cost::AlphaBetaCost& time() const { return *m_time; }
    int processCount() const { return m_time->processCount(); }
    /// The same time-and-dollars value with other weights, sharing the evaluators (a cost without dollars is
    /// returned unchanged).
    SearchCost withWeights(double secondsWeight, double dollarsWeight) const;

    /// The state of a whole assignment. O(nnz + bins).
    SearchState evaluate(std::span<const int> assignment) const;
    /// The link loads of an assignment that the deltas read; empty (and free) without a bottleneck term.
    cost::LinkLoads links(std::span<const int> assignment) const;
    /// Updates `links` for p moving to bin `to`: call before assignment[p] changes (a swap is two moves).
    void apply(cost::LinkLoads& links, std::span<const int> assignment, int p, int to) const;

    /// The change of moving p to bin `to`, from `at` with bin loads `load` and link loads `links`. O(degree)
    /// (plus O(k log L) for k touched links of L with a bottleneck term).
    SearchState moveDelta(std::span<const int> assignment, const SearchState& at, std::span<const int> load,
                          const cost::LinkLoads& links, int p, int to) const;
    /// The change of swapping the bins of p and q. O(degree(p) + degree(q)).
    SearchState swapDelta(std::span<const int> assignment, const SearchState& at, const cost::LinkLoads& links, int p,
                          int q) const;
    /// The value change of moving p to `to` if no bin's node count changed: its share of a swap, used to rank.
    double pairMoveDelta(std::span<const int> assignment, const SearchState& at, const cost::LinkLoads& links, int p,
                         int to) const;

private:
    double nodeUsdPerHour(int bin, int load) const;
    SearchState combine(double dSeconds, double dBottleneck, double dEgress, double dHourly,
                        const SearchState& at) const;

    const cost::AlphaBetaCost* m_time;
    std::shared_ptr<const cost::AlphaBetaCost> m_egress;      // usd per byte as "seconds per byte"; null = no dollars
    std::shared_ptr<const cost::BottleneckCost> m_bottleneck; // null = no bottleneck term
    BinPrices m_prices;
    double m_secondsWeight = 1.0;
    double m_dollarsWeight = 0.0;
    double m_bottleneckWeight = 0.0;
};

} // namespace meridian::mapping
