#pragma once

#include "core/common/feedback.h"
#include "core/common/random.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/mapping/search_cost.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace meridian::mapping {

/// Options of the move/swap local search.
struct LocalSearchOptions {
    int restarts = 8;             ///< Perturb-and-descend rounds after the first descent (0 = plain descent).
    bool annealing = false;       ///< Run simulated annealing before the final descent.
    std::int64_t annealSteps = 0; ///< Annealing steps; 0 = 200 per movable process.
    /// Upper bound on the descent passes of the whole run, all rounds together (each pass tries every move and
    /// swap): rounds stop when it is spent. Callers bound the work of very large instances with it.
    int maxPasses = 1000000;
    /// Called by run() with the cost each time its best improves (after annealing and after a round).
    std::function<void(double cost)> onBest;
};

/// Local search on the exact alpha-beta cost (or a SearchCost with dollars or the busiest link) with O(degree)
/// deltas: moves of one process into a bin (site or host) with a free slot, and swaps of two processes in different
/// bins. Fixed processes never move and bin loads never exceed their capacities. The result is never worse than the
/// start.
///
/// Swaps are searched exhaustively (every pair, best per process) up to 256 movable processes; above
/// that, over at most 64 bins, per pair of bins, candidates are ranked by their move deltas and the best-ranked
/// pairs are checked exactly: the first pass of a descent costs O(n M deg), a later one O(n M) plus the rows of the
/// processes that changed bin and their neighbours (and the sort of the candidates that can still pair). The stale
/// rows are recomputed by the Feedback's executor's workers, except with a busiest-link term, whose deltas share
/// the link loads' scratch space. Over more bins (hosts), partners are sought only in the bins of a process's
/// neighbours. refine bounds a run's passes (maxPasses) from a work budget with passesWithin().
///
/// Deterministic for a given Random state. Not thread-safe (one instance per thread).
class LocalSearch {
public:
    /// Minimises the alpha-beta time of `cost`, which must outlive the search.
    LocalSearch(const cost::AlphaBetaCost& cost, std::vector<int> capacity, std::vector<bool> movable);
    /// Minimises `cost`'s value (whose evaluators must outlive the search).
    LocalSearch(SearchCost cost, std::vector<int> capacity, std::vector<bool> movable);

    /// Improves `assignment` in place and returns its value. Stops early (keeping the best so far)
    /// when the feedback is canceled; `range` receives progress.
    double run(std::vector<int>& assignment, const LocalSearchOptions& options, Random& random,
               const FeedbackRange& range) const;

    /// The passes a run may take within `work` cost-table lookups (maxPasses), at least 1: a pass costs up to
    /// movable x bins x (1 + mean degree) to rank every process towards every bin, and the cross product of the
    /// best-ranked candidates of every pair of bins as much again per bin pair.
    static int passesWithin(double work, double movable, int bins, double meanDegree);

    /// Runs plain descent (moves and swaps until no improvement, at most `passes` passes, decremented by the passes
    /// run) and returns the new state.
    SearchState descend(std::vector<int>& assignment, const FeedbackRange& range, int& passes) const;

private:
    /// What a descent keeps between its passes: the ranking values of swapsBetweenBinPairs (the value change of
    /// each process into each bin) and which rows are stale because the process or a neighbour changed bin since
    /// they were taken. Rows depend on nothing else but the hourly price of the nodes in use and the busiest link,
    /// which are kept too. Also the link loads of the assignment (for a bottleneck term).
    struct PassState {
        std::vector<int> load;
        cost::LinkLoads links;
        std::vector<double> rank;    // n x bins
        std::vector<char> stale;     // per process
        double rankUsdPerHour = 0.0; // empty rank: not taken yet
        double rankBottleneck = 0.0;
    };

    /// Marks the rows of p and its neighbours stale after p changed bin.
    void changed(int p, PassState& state) const;
    bool improveByMoves(std::vector<int>& assignment, PassState& state, SearchState& cost) const;
    bool improveBySwapsExhaustive(std::vector<int>& assignment, cost::LinkLoads& links, SearchState& cost,
                                  const FeedbackRange& range) const;
    bool improveBySwapsRanked(std::vector<int>& assignment, PassState& state, SearchState& cost,
                              const FeedbackRange& range) const;
    /// For every ordered pair of bins (a, b), index a x bins + b: the processes of bin a that may gain by swapping
    /// with one of bin b, best first by their value towards b (`rank`), at least the few best of a.
    std::vector<std::vector<int>> rankedCandidates(const std::vector<double>& rank,
                                                   const std::vector<std::vector<int>>& members) const;
    /// Few bins: for every pair of bins, swaps along both bins' rankings by moveDelta into the other bin.
    bool swapsBetweenBinPairs(std::vector<int>& assignment, PassState& state, SearchState& cost,
                              const std::vector<std::vector<int>>& members, const FeedbackRange& range) const;
    /// Many bins (hosts): partners are sought only in the bins of a process's neighbours.
    bool swapsWithNeighbourBins(std::vector<int>& assignment, cost::LinkLoads& links, SearchState& cost,
                                std::vector<std::vector<int>>& members, const FeedbackRange& range) const;
    /// Moves p to bin `to`, keeping `links` up to date.
    void move(std::vector<int>& assignment, cost::LinkLoads& links, int p, int to) const;
    /// Exchanges the bins of p and q, keeping `links` up to date.
    void swap(std::vector<int>& assignment, cost::LinkLoads& links, int p, int q) const;
    void perturb(std::vector<int>& assignment, Random& random, int swaps) const;
    double anneal(std::vector<int>& assignment, SearchState cost, std::int64_t steps, Random& random,
                  const FeedbackRange& range) const;

    SearchCost m_cost;
    std::vector<int> m_capacity;
    std::vector<int> m_movable; // indices of processes allowed to move
    int m_binCount = 0;
};

} // namespace meridian::mapping
