#pragma once

#include <functional>
#include <vector>

namespace meridian::cluster {

/// An undirected weighted graph as adjacency lists (each edge stored in both directions, no self-loops).
using WeightedGraph = std::vector<std::vector<std::pair<int, double>>>;

/// The outcome of multi-scale modularity clustering.
struct ModularityResult {
    std::vector<int> label; ///< Cluster of each node, 0..clusters-1, numbered by first appearance.
    int clusters = 0;
    int levels = 0; ///< Merge rounds (dendrogram height).
    double modularity = 0.0;
    bool canceled = false; ///< The cancel predicate fired; the other fields are then meaningless.
};

/// Fan et al.'s multi-scale graph clustering (their Algorithm 1), which discovers an application's
/// logical topology without being told the number of clusters.
///
/// Coarsening: per round, cluster pairs joined by an edge are sorted by weight density
/// f(C,D) / (deg(C) deg(D)) (eq. 2) and merged in that order while the density exceeds
/// f(V,V) / deg(V)^2 (equivalently while the merge raises modularity, eq. 4), each cluster at most once
/// per round; rounds repeat until nothing merges. Refinement: from the coarsest level down to single
/// nodes, nodes of that level move to the neighbouring cluster with the largest modularity gain (eq. 5)
/// until no move gains; moves are applied node by node in passes, which reaches the same stopping
/// condition as the paper's one-best-move loop at a fraction of its cost. Levels with fewer than 25% more
/// nodes than the last refined one are skipped (a star merges one pair per round and so has n levels;
/// the finest level is always refined). Ties go to the lower index,
/// so the result is deterministic. Roughly O(levels x (n + m) log m).
/// `canceled` is polled once per coarsening round and refinement pass.
ModularityResult modularityClustering(const WeightedGraph& graph, const std::function<bool()>& canceled = {});

/// Returns Newman's modularity of a clustering (eq. 3): sum over clusters of f(C,C)/f(V,V) - (deg(C)/deg(V))^2.
double modularity(const WeightedGraph& graph, const std::vector<int>& label);

/// Merges clusters pairwise, always the pair whose merge raises modularity most (eq. 4, possibly a
/// negative gain), until `target` clusters remain. Returns labels renumbered 0..target-1.
std::vector<int> mergeClusters(const WeightedGraph& graph, std::vector<int> label, int target);

} // namespace meridian::cluster
