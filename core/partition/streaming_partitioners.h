#pragma once

#include "core/partition/partitioner.h"

// The streaming partitioners: `greedy`, `graph-h` and `g-cut` share one driver in the .cpp (streamEdges: the stream
// order, the endpoints of the edge 16 ahead prefetched, progress, a cancel check per 4096-edge block); `hash` and
// `hdrf` place edges in input order through online placers (online_placers.h), which the file stream shares. Their
// rules are bound by memory latency on random vertices, hence small per-vertex records and the prefetching.

namespace meridian::partition {

/// `hash`: Geo-Cut's Baseline: random hashing sends an edge to the site holding its source or its target, a seeded
/// hash of the edge's position choosing which (hashSite). Edges are placed in input order (an online placer, shared
/// with the file stream); the rule needs only the two homes, so ranks partition a file's parts alone.
class HashPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "hash"; }
    std::string_view description() const override
    {
        return "Random hash to the home of the source or the target (Geo-Cut's Baseline)";
    }

private:
    Expected<PartitionResult> runImpl(const PartitionProblem&, const ParamValues&, std::uint64_t,
                                      const FeedbackRange&) const override;
};

/// `greedy`: PowerGraph's oblivious greedy placement: the least-loaded site holding both endpoints; else
/// the least-loaded site of the endpoint with more edges still to come.
class GreedyPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "greedy"; }
    std::string_view description() const override
    {
        return "PowerGraph's greedy vertex-cut (minimise replicas, then load)";
    }

private:
    Expected<PartitionResult> runImpl(const PartitionProblem&, const ParamValues&, std::uint64_t,
                                      const FeedbackRange&) const override;
};

/// `hdrf`: Petroni et al.'s High-Degree Replicated First: maximise C_REP + lambda C_BAL, where C_REP
/// rewards sites holding an endpoint, more for the lower-degree one (partial degrees), and C_BAL rewards
/// lightly loaded sites. Edges are placed in input order, as HDRF streams (an online placer, shared with the file
/// stream).
class HdrfPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "hdrf"; }
    std::string_view description() const override
    {
        return "HDRF: replicate high-degree vertices first, with a balance term (lambda)";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<PartitionResult> runImpl(const PartitionProblem&, const ParamValues&, std::uint64_t,
                                      const FeedbackRange&) const override;
};

/// `graph-h`: GrapH-like price-aware streaming (Mayer et al.): the site with the smallest increase of WAN
/// dollars (eq. 8 and 9 summed over all sites, no preference for shared replicas) among sites under a load
/// cap of (1 + imbalance) E / M edges.
class GraphHPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "graph-h"; }
    std::string_view description() const override
    {
        return "GrapH-like: cheapest WAN dollars per edge under a load cap";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<PartitionResult> runImpl(const PartitionProblem&, const ParamValues&, std::uint64_t,
                                      const FeedbackRange&) const override;
};

/// `g-cut`: bandwidth-aware streaming (Zhou et al.'s G-Cut, the preliminary version of Geo-Cut): the site
/// that least increases the estimated inter-DC transfer time (eq. 1-3, up/down links), as long as the WAN
/// bytes stay within the usage budget pro rata of the edges placed; beyond it, the site adding the fewest
/// WAN bytes. Prices are ignored.
class GCutPartitioner final : public Partitioner {
public:
    std::string_view id() const override { return "g-cut"; }
    std::string_view description() const override
    {
        return "G-Cut: bandwidth-aware streaming under a WAN-usage budget (bytes)";
    }
    std::vector<ParamSpec> parameters() const override;

private:
    Expected<PartitionResult> runImpl(const PartitionProblem&, const ParamValues&, std::uint64_t,
                                      const FeedbackRange&) const override;
};

/// G-Cut's bandwidth-aware streaming: each edge to the site keeping the transfer time lowest; over the pro-rata
/// usage budget in bytes (0 = none), to the site adding the fewest WAN bytes; over the pro-rata budget in USD (0 =
/// none; Meridian's addition for Geo-Cut's alternative start), to the site adding the fewest dollars.
Expected<PartitionResult> bandwidthAwareStream(const PartitionProblem& problem, double budgetBytes, double budgetUsd,
                                               std::uint64_t seed, const FeedbackRange& range);

} // namespace meridian::partition
