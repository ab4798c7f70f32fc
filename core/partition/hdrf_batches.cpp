#include "core/partition/hdrf_batches.h"

namespace meridian::partition {

Expected<std::vector<std::uint8_t>> placeHdrfInBatches(const model::Graph& graph, const std::vector<std::uint8_t>& home,
                                                       int sites, double lambda, std::uint64_t batch,
                                                       const FeedbackRange& range)
{
    const std::uint64_t edges = graph.edgeCount();
    std::vector<std::uint64_t> replicas(graph.vertexCount, 0);
    std::vector<std::uint32_t> degree(graph.vertexCount, 0);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        replicas[v] = 1ull << home[v];
    std::vector<std::uint8_t> site(edges, 0);
    HdrfLoads loads(sites);
    std::vector<std::uint64_t> placed(static_cast<std::size_t>(sites));
    const HdrfBatches schedule(edges, batch);
    const std::uint64_t batches = schedule.batches();
    for (std::uint64_t k = 0; k < batches; ++k) {
        if (range.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        // Every edge of the batch is placed from the state the earlier ones left, ...
        schedule.forEachRun(k, 0, edges, [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t e = begin; e < end; ++e) {
                const std::uint32_t u = graph.src[e], v = graph.dst[e];
                site[e] = static_cast<std::uint8_t>(hdrfChoice(lambda, degree[u] + 1.0, degree[v] + 1.0, replicas[u],
                                                               replicas[v], loads.load, loads.maxLoad, loads.minLoad));
            }
        });
        // ... which then learns the batch's sites.
        std::fill(placed.begin(), placed.end(), 0);
        schedule.forEachRun(k, 0, edges, [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t e = begin; e < end; ++e) {
                const std::uint32_t u = graph.src[e], v = graph.dst[e];
                const std::uint64_t bit = 1ull << site[e];
                replicas[u] |= bit;
                replicas[v] |= bit;
                ++degree[u];
                ++degree[v];
                ++placed[site[e]];
            }
        });
        loads.add(placed);
        range.setProgress(static_cast<double>(k + 1) / static_cast<double>(batches), "placing edges in batches");
    }
    return site;
}

} // namespace meridian::partition
