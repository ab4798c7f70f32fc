#include "core/partition/hdrf_batches.h"

namespace meridian::partition {

void HdrfBlock::start(const HdrfLoads& batch, std::size_t edges)
{
    m_loads = batch;
    m_atMin = static_cast<int>(std::count(batch.load.begin(), batch.load.end(), batch.minLoad));
    std::size_t size = 16;
    while (size < 4 * edges)
        size *= 2;
    if (size > m_table.size()) {
        m_table.assign(size, Entry{});
        m_stamp = 0;
        m_shift = 32 - std::countr_zero(size);
    }
    if (++m_stamp == 0) { // after 2^32 blocks every entry looks current: clear them
        std::fill(m_table.begin(), m_table.end(), Entry{});
        m_stamp = 1;
    }
}

HdrfBlock::Entry& HdrfBlock::entry(std::uint32_t key, std::uint64_t replicas, std::uint32_t degree)
{
    const std::size_t mask = m_table.size() - 1;
    for (std::size_t at = (key * 0x9E3779B1u) >> m_shift;; at = (at + 1) & mask) {
        Entry& e = m_table[at];
        if (e.stamp != m_stamp) {
            e = Entry{key, m_stamp, replicas, degree};
            return e;
        }
        if (e.key == key)
            return e;
    }
}

int HdrfBlock::place(std::uint32_t u, std::uint64_t ru, std::uint32_t du, std::uint32_t v, std::uint64_t rv,
                     std::uint32_t dv)
{
    Entry& a = entry(u, ru, du);
    Entry& b = entry(v, rv, dv); // u != v: the table has room for both, and a stays where it is
    ++a.degree;
    ++b.degree;
    const int site = hdrfChoice(m_lambda, a.degree, b.degree, a.replicas, b.replicas, m_loads.load, m_loads.maxLoad,
                                m_loads.minLoad);
    const std::uint64_t bit = 1ull << site;
    a.replicas |= bit;
    b.replicas |= bit;
    auto& load = m_loads.load;
    const std::uint64_t before = load[static_cast<std::size_t>(site)]++;
    m_loads.maxLoad = std::max(m_loads.maxLoad, before + 1);
    if (before == m_loads.minLoad && --m_atMin == 0) {
        m_loads.minLoad = *std::min_element(load.begin(), load.end());
        m_atMin = static_cast<int>(std::count(load.begin(), load.end(), m_loads.minLoad));
    }
    return site;
}

Expected<std::vector<std::uint8_t>> placeHdrfInBatches(const model::Graph& graph, const std::vector<std::uint8_t>& home,
                                                       int sites, double lambda, std::uint64_t batch,
                                                       const FeedbackRange& range)
{
    // What a vertex had when the batch started, together (one cache line: the vertices are random).
    struct Vertex {
        std::uint64_t replicas;
        std::uint32_t degree;
    };
    const std::uint64_t edges = graph.edgeCount();
    std::vector<Vertex> vertex(graph.vertexCount);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        vertex[v] = {1ull << home[v], 0};
    std::vector<std::uint8_t> site(edges, 0);
    HdrfLoads loads(sites);
    HdrfBlock block(lambda);
    std::vector<std::uint64_t> placed(static_cast<std::size_t>(sites));
    const HdrfBatches schedule(edges, batch);
    const std::uint64_t batches = schedule.batches();
    constexpr std::uint64_t kAhead = 16; // how far ahead the vertices' records are loaded
    const auto prefetch = [&](std::uint64_t e, std::uint64_t end) {
        if (e + kAhead < end) {
            __builtin_prefetch(&vertex[graph.src[e + kAhead]], 1);
            __builtin_prefetch(&vertex[graph.dst[e + kAhead]], 1);
        }
    };
    for (std::uint64_t k = 0; k < batches; ++k) {
        if (range.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        // Every block of the batch is placed from the state the earlier batches left, ...
        schedule.forEachRun(k, 0, edges, [&](std::uint64_t begin, std::uint64_t end, std::uint64_t) {
            block.start(loads, end - begin);
            for (std::uint64_t e = begin; e < end; ++e) {
                prefetch(e, end);
                const std::uint32_t u = graph.src[e], v = graph.dst[e];
                const Vertex a = vertex[u], b = vertex[v];
                site[e] = static_cast<std::uint8_t>(block.place(u, a.replicas, a.degree, v, b.replicas, b.degree));
            }
        });
        // ... which then learns the batch's sites.
        std::fill(placed.begin(), placed.end(), 0);
        schedule.forEachRun(k, 0, edges, [&](std::uint64_t begin, std::uint64_t end, std::uint64_t) {
            for (std::uint64_t e = begin; e < end; ++e) {
                prefetch(e, end);
                Vertex& a = vertex[graph.src[e]];
                Vertex& b = vertex[graph.dst[e]];
                const std::uint64_t bit = 1ull << site[e];
                a.replicas |= bit;
                b.replicas |= bit;
                ++a.degree;
                ++b.degree;
                ++placed[site[e]];
            }
        });
        loads.add(placed);
        range.setProgress(static_cast<double>(k + 1) / static_cast<double>(batches), "placing edges in batches");
    }
    return site;
}

} // namespace meridian::partition
