#pragma once

#include "core/common/executor.h"
#include "core/common/expected.h"
#include "core/cost/site_counts.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::cost {

/// What one GAS iteration sends, per vertex (Geo-Cut Section 3.2). All sizes in bytes.
///
/// - `pagerank`: every vertex is active; the master sends a_v = 8 bytes (one double) to each mirror in the
///   apply stage; a mirror of v in site r sends g_v^r = 8 bytes in the gather stage when r holds at least
///   one in-edge of v (partial sums are combined locally, so Sum(g, a_u) = g and eq. 7 adds 8 bytes only
///   for the first in-edge of v in r).
/// - `sssp`: the same sizes, scaled by the fraction of vertices active in the iteration (an expected value:
///   activity is assumed independent of placement, as Geo-Cut's Fig. 3 supports).
/// - `subgraph-isomorphism`: partial matches grow with degree. The master of v sends
///   a_v = 8 (1 + indeg(v)) bytes, and gathering binds messages instead of combining them, so a mirror
///   sends g_v^r = sum of a_u over the in-edges (u, v) it holds (eq. 7 with Sum = concatenation).
struct TrafficProfile {
    enum class Kind { PageRank, Sssp, SubgraphIsomorphism };
    Kind kind = Kind::PageRank;
    double activeFraction = 1.0; ///< sssp only, in (0, 1]

    /// Parses "pagerank", "sssp" or "subgraph-isomorphism".
    static Expected<TrafficProfile> fromId(std::string_view id, double activeFraction = 0.1);
    std::string_view id() const;
    /// Returns the formulas above in one paragraph, for reports and --help.
    std::string describe() const;
    /// True when gathered data is bound (grows per in-edge) rather than combined.
    bool binds() const { return kind == Kind::SubgraphIsomorphism; }
};

/// The per-site WAN parameters of the GAS model: uplink U_r and downlink D_r in bytes/s and the upload price
/// P_r in USD per byte (converted from MB/s and USD/GB).
struct GasNetwork {
    std::vector<double> upBytesPerSecond;
    std::vector<double> downBytesPerSecond;
    std::vector<double> usdPerByte;

    /// Reads them from the sites; a site without uplink, downlink or price is an error naming it.
    static Expected<GasNetwork> fromTopology(const model::Topology& topology);
    /// What the sites lack for the GAS cost model, all of it in one sentence ("tokyo and osaka have no uplink
    /// bandwidth (up_MBps); ..."), or empty when fromTopology can build the network.
    static std::string missingInputs(const model::Topology& topology);
    int siteCount() const { return static_cast<int>(usdPerByte.size()); }
};

/// The metrics of one GAS iteration under eq. 1-4.
struct GasMetrics {
    double transferSeconds = 0.0;                                 ///< T = T_G + T_A (eq. 1)
    double gatherSeconds = 0.0;                                   ///< max_r T_G^r (eq. 2)
    double applySeconds = 0.0;                                    ///< max_r T_A^r (eq. 3)
    double wanUsd = 0.0;                                          ///< eq. 4
    double wanBytes = 0.0;                                        ///< bytes uploaded to the WAN, both stages
    double replicationFactor = 0.0;                               ///< mean |R_v| over vertices
    std::vector<double> gatherUp, gatherDown, applyUp, applyDown; ///< bytes per site
    std::vector<double> uploadShare;                              ///< each site's share of wanBytes
    int gatherBottleneck = -1;                                    ///< site that sets T_G
    bool gatherBottleneckUplink = false;
    int applyBottleneck = -1; ///< site that sets T_A
    bool applyBottleneckUplink = false;

    /// Returns "SITE uplink" style text for a bottleneck.
    static std::string linkName(const model::Topology& topology, int site, bool uplink);
};

/// Per-vertex sizes under a profile: a_v for every vertex (bytes) and, for pagerank/sssp, the fixed g.
struct VertexSizes {
    std::vector<float> apply; ///< a_v
    double gather = 0.0;      ///< g for combining profiles; unused when the profile binds
    bool binds = false;
};
VertexSizes vertexSizes(const model::Graph& graph, const TrafficProfile& profile);
/// The same for a combining profile (pagerank, sssp), whose sizes do not depend on the graph's edges.
VertexSizes combiningSizes(std::uint32_t vertices, const TrafficProfile& profile);

/// The replica and traffic state of an edge partition, kept up to date edge by edge so that refinement
/// can try a move and read the new T and cost in O(M) (plus the degree of the two endpoints for the
/// move itself). Holds per (vertex, site) edge counts: 4 bytes x V x M (8 with a binding profile), plus 13 bytes x V.
/// A vertex's replicas are the sites holding its edges and its master's site, even without edges there (the
/// master starts at the home, which holds the vertex's input data).
class GasState {
public:
    /// Keeps pointers to `graph` and `partition` (both must outlive the state); moveEdge and setMaster
    /// write through to `partition`. Counting the edges is O(E); `canceled`, when given, is polled every 2^16
    /// edges, and once it returns true the counting stops: the state is then incomplete (complete() is false)
    /// and must not be used.
    /// With an `executor`, its workers count at once, each the edges of a part of the vertices.
    GasState(const model::Graph& graph, model::EdgePartition& partition, const VertexSizes& sizes,
             const GasNetwork& network, const std::function<bool()>& canceled = {}, Executor* executor = nullptr);
    /// False when construction was canceled.
    bool complete() const { return m_complete; }

    /// Moves edge e to `site` and updates every total.
    void moveEdge(std::size_t e, int site) { moveEdge(e, m_graph->src[e], m_graph->dst[e], site); }
    /// The same when the caller knows e's endpoints (u = source, v = target): saves reading them again.
    void moveEdge(std::size_t e, std::uint32_t u, std::uint32_t v, int site);
    /// Makes `site` the master of v; it must be a replica of v.
    void setMaster(std::uint32_t v, int site);
    /// Counts an edge (u, v) newly held at `site` (dynamic graphs; the caller appends it to the graph and
    /// the partition). Vertex ids must exist here.
    void addEdge(std::uint32_t u, std::uint32_t v, int site);
    /// Uncounts one edge (u, v) held at `site` (the caller removes it from the graph and the partition).
    void removeEdge(std::uint32_t u, std::uint32_t v, int site);
    /// Adds a vertex (dynamic graphs): `home` becomes its master; also appended to partition.masterSite.
    void addVertex(int home, float applySize);
    /// Changes a vertex's apply size (its in-degree changed under a binding profile).
    void setApplySize(std::uint32_t v, float applySize);

    double transferSeconds() const;
    /// Returns the sum over sites of each site's gather and apply time (eq. 2 and 3 before the max): a
    /// tie-breaker that rewards relieving one of several equally bottlenecked sites.
    double siteSecondsSum() const;
    double wanUsd() const;

    /// T, its two stages, the WAN cost and the sum of every link's squared time (gather and apply, up and down, over
    /// all sites): what a local search compares after each trial move. The sum of squares falls when traffic leaves
    /// a busy link for an idle one or leaves the WAN, so it orders moves that leave the maximum (T) unchanged. The
    /// sums are kept up to date with every change (resync() recomputes them, against rounding drift); the stage
    /// maxima are a scan of the 4 M link times, without allocating.
    struct Summary {
        double gatherSeconds = 0.0;
        double applySeconds = 0.0;
        double squares = 0.0;
        double usd = 0.0;
        double transferSeconds() const { return gatherSeconds + applySeconds; }
    };
    Summary summary() const;
    /// Recomputes the kept sums from the link loads.
    void resync();
    /// True when the profile combines gathered data (pagerank, sssp): then a move's effect can be read off
    /// without making it (predictMove).
    bool combines() const { return !m_binds; }
    /// What the summary would be after moving edge e to `site`, without moving it, in O(1): exact in the sum of
    /// squares and the cost; the stage maxima only rise when a changed link exceeds them (a fall of the busiest
    /// link is not seen). Combining profiles only (combines()).
    Summary predictMove(std::size_t e, std::uint32_t u, std::uint32_t v, int site, const Summary& now) const;
    GasMetrics metrics() const;
    /// The work done by moves and predictions so far, in steps: a prediction or a combining profile's move is one,
    /// a binding profile's move (which recounts its endpoints' replicas at every site) one per site. Local searches
    /// charge it to their SearchBudget.
    std::uint64_t steps() const { return m_steps; }
    /// Returns the metrics without the replication factor (left at 0), in O(M): for loops that only need
    /// times, costs and bottlenecks.
    GasMetrics linkMetrics() const;

    int siteCount() const { return m_sites; }
    std::uint32_t vertexCount() const { return static_cast<std::uint32_t>(m_apply.size()); }
    int master(std::uint32_t v) const { return m_partition->masterSite[v]; }
    /// Returns the number of edges of v held in site r.
    std::uint32_t edgesAt(std::uint32_t v, int r) const { return m_counts.all(v, r); }
    /// Returns the number of in-edges of v held in site r.
    std::uint32_t inEdgesAt(std::uint32_t v, int r) const { return m_counts.in(v, r); }
    /// Loads what a move of one of v's edges reads and writes into the caches ahead of use.
    void prefetch(std::uint32_t v) const
    {
        m_counts.prefetch(v, true);
        __builtin_prefetch(m_edgeSites.data() + v, 1);
        __builtin_prefetch(m_partition->masterSite.data() + v);
        __builtin_prefetch(m_apply.data() + v);
    }
    std::uint64_t replicaMask(std::uint32_t v) const { return m_edgeSites[v] | 1ull << m_partition->masterSite[v]; }
    /// Returns g_v^r, the bytes the replica of v in r gathers (0 without in-edges there).
    double gatherSize(std::uint32_t v, int r) const
    {
        if (!m_counts.in(v, r))
            return 0.0;
        return m_binds ? std::max(0.0f, m_gatherSum[static_cast<std::size_t>(v) * m_sites + r]) : m_gather;
    }
    double applySize(std::uint32_t v) const { return m_apply[v]; }
    /// Returns each site's total traffic (all four directions) in bytes.
    double siteTraffic(int r) const { return m_gUp[r] + m_gDown[r] + m_aUp[r] + m_aDown[r]; }

private:
    /// Gives the vertices that may pass 2^16 edges at a site wide rows before counting starts.
    void widenHubs();
    /// Counts the edges of the vertices in [lo, hi) (one worker's part); false when canceled.
    bool countPart(std::uint32_t lo, std::uint32_t hi, const std::function<bool()>& canceled);
    /// Adds the traffic of the vertices in [lo, hi) to the link totals, under `merge`.
    void addPartTraffic(std::uint32_t lo, std::uint32_t hi, std::mutex& merge);
    void contribute(std::uint32_t v, double sign);
    void count(std::uint32_t u, std::uint32_t v, int site, int delta);
    /// Adds to x's counts at `site` and keeps its edge sites (no traffic).
    void countOne(std::uint32_t x, int site, int all, int in)
    {
        const auto before = m_counts.change(x, site, all, in);
        const std::uint64_t bit = 1ull << site;
        m_edgeSites[x] = before.all + static_cast<std::uint32_t>(all) ? m_edgeSites[x] | bit : m_edgeSites[x] & ~bit;
    }
    /// Changes x's edge and in-edge counts at r by `all` and `in`, and the traffic where x's replica or gathering
    /// site at r appears or disappears (combining profiles).
    void recount(std::uint32_t x, int r, int all, int in);
    /// Adds bytes to a link's load (link 0 gather up, 1 gather down, 2 apply up, 3 apply down) and keeps its time,
    /// the sum of squares and the cost with it.
    void addLoad(int link, int r, double bytes);
    /// The link loads a count change at (x, r) would change: appends (link, bytes) pairs, where link is
    /// 4 r + {0 gather up, 1 gather down, 2 apply up, 3 apply down}.
    void countEffect(std::uint32_t x, int r, int all, int in, std::pair<int, double>* out, int& n) const;

    const model::Graph* m_graph;
    model::EdgePartition* m_partition;
    const GasNetwork& m_network;
    int m_sites;
    bool m_binds;
    double m_gather;
    std::vector<float> m_apply;
    SiteCounts m_counts;
    std::vector<std::uint64_t> m_edgeSites; ///< per vertex: the sites holding at least one of its edges
    std::vector<float> m_gatherSum;         // binding profiles: sum of a_u over in-edges (u, v) per (v, r)
    std::vector<double> m_gUp, m_gDown, m_aUp, m_aDown;
    std::vector<double> m_invUp, m_invDown; ///< seconds per byte of each site's links
    std::vector<double> m_seconds;          ///< each link's time: [link * M + r], link as in addLoad
    double m_squares = 0.0, m_usd = 0.0;    ///< kept with every load change (see summary)
    mutable std::uint64_t m_steps = 0;      ///< see steps()
    struct StageMax {
        double seconds = 0.0;
        int link = -1;      ///< index into m_seconds
        bool stale = false; ///< the busiest link fell: scan the stage again
    };
    mutable StageMax m_stageMax[2]; ///< gather, apply
    /// Finds a stage's busiest link again.
    void rescan(int stage) const;
    bool m_complete = true;
};

/// Evaluates eq. 1-4 for a finished partition in O(E + V M) time and O(V) memory (O(V M) for a binding
/// profile), without building a GasState.
GasMetrics evaluateGas(const model::Graph& graph, const model::EdgePartition& partition, const VertexSizes& sizes,
                       const GasNetwork& network);

/// Eq. 1-4 from each vertex's replica sites (its master's included) and the sites holding one of its in-edges, for a
/// combining profile (a site's gathered bytes do not depend on which in-edges it holds): what a stream partitioner
/// keeps per vertex, without the edge list. O(V M). Equal to evaluateGas on the same partition.
GasMetrics evaluateGasFromSites(const std::vector<std::uint64_t>& replicas, const std::vector<std::uint64_t>& inSites,
                                const std::vector<std::uint8_t>& masters, const VertexSizes& sizes,
                                const GasNetwork& network);

/// evaluateGasFromSites in pieces: the vertices added in order, over as many calls as wanted, give the metrics of one
/// call over them all, bit for bit (the sums are made in the same order). Ranks that each hold a block of the vertices
/// hand the fold on from one to the next (pack, unpack).
class GasSitesFold {
public:
    explicit GasSitesFold(int sites);
    /// Adds `count` vertices: their replica sites, in-edge sites, masters and apply sizes; `gather` as VertexSizes.
    void add(const std::uint64_t* replicas, const std::uint64_t* inSites, const std::uint8_t* masters,
             const float* apply, std::size_t count, double gather);
    std::string pack() const;
    /// The fold pack() gave; throws std::runtime_error on bytes it did not write (as Unpacker).
    static GasSitesFold unpack(std::string_view bytes);
    GasMetrics metrics(const GasNetwork& network) const;

private:
    std::vector<double> m_gUp, m_gDown, m_aUp, m_aDown;
    double m_replicaSum = 0.0;
    std::uint64_t m_vertices = 0;
};

/// The bytes one GAS iteration sends from each site to each other site (row = sender, `sites` x `sites`, row
/// major): apply data from a master to each of its mirrors, gathered data from each mirror to its master. Row
/// sums are the sites' uploads of evaluateGas. O(E + V M).
std::vector<double> gasTrafficMatrix(const model::Graph& graph, const model::EdgePartition& partition,
                                     const VertexSizes& sizes, int sites);

} // namespace meridian::cost
