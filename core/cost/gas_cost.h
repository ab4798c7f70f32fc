#pragma once

#include "core/common/expected.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <cstdint>
#include <functional>
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

/// The replica and traffic state of an edge partition, kept up to date edge by edge so that refinement
/// can try a move and read the new T and cost in O(M) (plus the degree of the two endpoints for the
/// move itself). Holds per (vertex, site) edge counts: 8 bytes x V x M (12 with a binding profile), plus 8 bytes x V.
/// A vertex's replicas are the sites holding its edges and its master's site, even without edges there (the
/// master starts at the home, which holds the vertex's input data).
class GasState {
public:
    /// Keeps pointers to `graph` and `partition` (both must outlive the state); moveEdge and setMaster
    /// write through to `partition`. Counting the edges is O(E); `canceled`, when given, is polled every 2^16
    /// edges, and once it returns true the counting stops: the state is then incomplete (complete() is false)
    /// and must not be used.
    GasState(const model::Graph& graph, model::EdgePartition& partition, const VertexSizes& sizes,
             const GasNetwork& network, const std::function<bool()>& canceled = {});
    /// False when construction was canceled.
    bool complete() const { return m_complete; }

    /// Moves edge e to `site` and updates every total.
    void moveEdge(std::size_t e, int site);
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
    /// Returns every metric; O(V M) for the replication factor.
    GasMetrics metrics() const;
    /// Returns the metrics without the replication factor (left at 0), in O(M): for loops that only need
    /// times, costs and bottlenecks.
    GasMetrics linkMetrics() const;

    int siteCount() const { return m_sites; }
    std::uint32_t vertexCount() const { return static_cast<std::uint32_t>(m_apply.size()); }
    int master(std::uint32_t v) const { return m_partition->masterSite[v]; }
    /// Returns the number of edges of v held in site r.
    std::uint32_t edgesAt(std::uint32_t v, int r) const { return m_all[static_cast<std::size_t>(v) * m_sites + r]; }
    /// Returns the number of in-edges of v held in site r.
    std::uint32_t inEdgesAt(std::uint32_t v, int r) const { return m_in[static_cast<std::size_t>(v) * m_sites + r]; }
    std::uint64_t replicaMask(std::uint32_t v) const;
    /// Returns g_v^r, the bytes the replica of v in r gathers (0 without in-edges there).
    double gatherSize(std::uint32_t v, int r) const;
    double applySize(std::uint32_t v) const { return m_apply[v]; }
    /// Returns each site's total traffic (all four directions) in bytes.
    double siteTraffic(int r) const { return m_gUp[r] + m_gDown[r] + m_aUp[r] + m_aDown[r]; }

private:
    void contribute(std::uint32_t v, double sign);
    void count(std::uint32_t u, std::uint32_t v, int site, int delta);

    const model::Graph* m_graph;
    model::EdgePartition* m_partition;
    const GasNetwork& m_network;
    int m_sites;
    bool m_binds;
    double m_gather;
    std::vector<float> m_apply;
    std::vector<std::uint32_t> m_all;
    std::vector<std::uint64_t> m_edgeSites; ///< per vertex: the sites where m_all is non-zero
    std::vector<std::uint32_t> m_in;
    std::vector<float> m_gatherSum; // binding profiles: sum of a_u over in-edges (u, v) per (v, r)
    std::vector<double> m_gUp, m_gDown, m_aUp, m_aDown;
    bool m_complete = true;
};

/// Evaluates eq. 1-4 for a finished partition in O(E + V M) time and O(V) memory (O(V M) for a binding
/// profile), without building a GasState.
GasMetrics evaluateGas(const model::Graph& graph, const model::EdgePartition& partition, const VertexSizes& sizes,
                       const GasNetwork& network);

/// The bytes one GAS iteration sends from each site to each other site (row = sender, `sites` x `sites`, row
/// major): apply data from a master to each of its mirrors, gathered data from each mirror to its master. Row
/// sums are the sites' uploads of evaluateGas. O(E + V M).
std::vector<double> gasTrafficMatrix(const model::Graph& graph, const model::EdgePartition& partition,
                                     const VertexSizes& sizes, int sites);

} // namespace meridian::cost
