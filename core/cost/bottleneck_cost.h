#pragma once

#include "core/model/comm_matrix.h"
#include "core/model/network.h"
#include "core/model/topology.h"

#include <Eigen/Dense>

#include <span>
#include <utility>
#include <vector>

namespace meridian::cost {

/// The bandwidth of a site's uplink (`outgoing`) or downlink, MB/s: the site's up/down MB/s when given, else its
/// fastest site-pair bandwidth out of (into) it, so that one flow alone is never slowed by it (its intra-site
/// bandwidth for a site alone). `network` must be complete. The simulation's platform uses the same links.
double accessBandwidthMBps(const model::Topology& topology, const model::Network& network, int site, bool outgoing);

/// The busiest shared link of a placement under the contention model Geo-Cut uses for graphs: every link carries
/// its bytes at its full bandwidth, so the slowest link bounds the time. Links: each site's uplink (the bytes it
/// sends to other sites), its downlink (the bytes it receives from them) and each ordered site pair's link (the
/// bytes from one to the other at the pair's bandwidth). Intra-site traffic is taken as uncontended.
struct Bottleneck {
    enum class Link { None, Uplink, Downlink, SitePair };
    double seconds = 0.0; ///< the largest bytes / bandwidth
    Link link = Link::None;
    int from = -1; ///< the site of an uplink, the sender of a pair
    int to = -1;   ///< the site of a downlink, the receiver of a pair
};

/// S, the steps of the bulk-synchronous model of a run known by its matrices: the median message count of the
/// communicating pairs (each pair's messages spread evenly over S steps), at least 1; 1 without message counts.
double bulkSynchronousSteps(const model::CommMatrix& comm);

/// The bottleneck of site x site traffic (bytes, row = sender; the diagonal is ignored). O(sites^2).
Bottleneck bottleneck(const Eigen::MatrixXd& trafficBytes, const model::Topology& topology,
                      const model::Network& network);

/// The bytes and seconds on every shared link for one site-level assignment (see BottleneckCost), kept up to
/// date along a search by BottleneckCost::apply. Also holds the scratch space of the deltas, so a search
/// thread keeps its own. Empty (no links) when made by default.
class LinkLoads {
public:
    bool empty() const { return m_bytes.empty(); }

private:
    friend class BottleneckCost;
    std::vector<double> m_bytes; // per link: sites x sites pair links (row = sender), then uplinks, then downlinks
    std::vector<double> m_tree;  // max segment tree of the links' seconds; leaf l at m_leaves + l
    int m_leaves = 0;            // a power of two, at least the link count
    // With a latency term: per ordered site pair (a x sites + b, the diagonal too) the number of communicating
    // process pairs placed on it, and a max segment tree of their steps x latency (0 where the count is 0).
    std::vector<double> m_pairCount;
    std::vector<double> m_latencyTree;
    int m_latencyLeaves = 0;
    // Scratch of the deltas: (link, bytes change), merged per link.
    mutable std::vector<std::pair<int, double>> m_changes;
};

/// The bottleneck of a site-level assignment as a search objective: the seconds of the busiest link (as
/// cost::bottleneck), exact, with changes of a move or a swap in O(d log d + k log L) for d edges of the moved
/// processes, k links they touch and L = sites^2 + 2 sites links (a max segment tree over the links; the links a
/// step does not touch are read from it in the ranges between the touched ones).
///
/// With `latencySteps` S > 0 it is the step-time surrogate of a bulk-synchronous run of S steps (the traffic of
/// every pair spread evenly over them; each step lasts as long as its slowest message, which waits for its
/// route's latency and for the busiest link it crosses): the busiest link's seconds plus S x the largest latency
/// between two sites (or inside one) that holds a communicating pair of processes. Its changes are exact too, a
/// second max segment tree over the site pairs' latencies, each counted while some pair of processes uses it.
///
/// Copies what it needs at construction; read-only afterwards and shareable across threads (the LinkLoads are
/// per thread).
class BottleneckCost {
public:
    /// `network` must be complete and have the topology's sites; `comm`'s byte volume is the traffic.
    BottleneckCost(const model::Topology& topology, const model::Network& network, const model::CommMatrix& comm,
                   double latencySteps = 0.0);

    int siteCount() const { return m_siteCount; }
    /// S, the steps whose latencies the value adds (0: none).
    double latencySteps() const { return m_latencySteps; }
    /// The loads of an assignment (site per process). O(nnz + L).
    LinkLoads loads(std::span<const int> siteOf) const;
    /// The busiest link's seconds of `loads`, plus S x the largest latency in use with a latency term.
    static double seconds(const LinkLoads& loads)
    {
        return (loads.m_tree.empty() ? 0.0 : loads.m_tree[1])
            + (loads.m_latencyTree.empty() ? 0.0 : loads.m_latencyTree[1]);
    }
    /// The busiest link's seconds alone (without the latency term).
    static double busiestLinkSeconds(const LinkLoads& loads) { return loads.m_tree.empty() ? 0.0 : loads.m_tree[1]; }
    /// The value of an assignment: the busiest link's seconds (plus the latency term).
    double evaluate(std::span<const int> siteOf) const { return seconds(loads(siteOf)); }
    /// The change of the busiest link's seconds when p moves to `to`; `loads` are siteOf's.
    double moveDelta(const LinkLoads& loads, std::span<const int> siteOf, int p, int to) const;
    /// The change when p and q exchange their sites.
    double swapDelta(const LinkLoads& loads, std::span<const int> siteOf, int p, int q) const;
    /// Updates `loads` for p moving to `to`; call before siteOf[p] changes (a swap is two moves, in turn).
    void apply(LinkLoads& loads, std::span<const int> siteOf, int p, int to) const;

private:
    /// Collects into loads' scratch the merged byte change of every link touched when p goes to site `pTo`
    /// and q (-1: none) to site `qTo`, sorted by link; with a latency term, then the change of the site pairs'
    /// counts, at linkCount() + pair.
    void collect(const LinkLoads& loads, std::span<const int> siteOf, int p, int pTo, int q, int qTo) const;
    /// The value (busiest link, plus the latency term) if the scratch changes were applied. O(k log L).
    double secondsWithChanges(const LinkLoads& loads) const;
    int linkCount() const { return m_siteCount * m_siteCount + 2 * m_siteCount; }
    double pairLatencyValue(std::size_t pair, double count) const { return count > 0.5 ? m_stepLatency[pair] : 0.0; }

    int m_siteCount = 0;
    double m_latencySteps = 0.0;
    std::vector<double> m_stepLatency;    // per ordered site pair (a x sites + b): S x its latency in seconds
    std::vector<double> m_secondsPerByte; // per link; 0 on the diagonal pairs (intra-site traffic is free)
    std::vector<int> m_outPtr, m_outIdx, m_inPtr, m_inIdx;
    std::vector<double> m_outBytes, m_inBytes;
};

} // namespace meridian::cost
