#include "core/partition/edge_batches.h"

namespace meridian::partition {

void BlockPlacer::start(const SiteLoads& batch, std::size_t edges)
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

BlockPlacer::Entry& BlockPlacer::entry(std::uint32_t key, const BatchVertex& vertex)
{
    const std::size_t mask = m_table.size() - 1;
    for (std::size_t at = (key * 0x9E3779B1u) >> m_shift;; at = (at + 1) & mask) {
        Entry& e = m_table[at];
        if (e.stamp != m_stamp) {
            e = Entry{key, m_stamp, vertex};
            return e;
        }
        if (e.key == key)
            return e;
    }
}

int BlockPlacer::place(std::uint32_t u, const BatchVertex& a, std::uint32_t v, const BatchVertex& b)
{
    BatchVertex& x = entry(u, a).vertex;
    BatchVertex& y = entry(v, b).vertex; // u != v: the table has room for both, and x stays where it is
    ++x.degree;
    ++y.degree;
    const int site = choose(x, y, m_loads);
    const std::uint64_t bit = 1ull << site;
    x.replicas |= bit;
    y.replicas |= bit;
    y.inSites |= bit;
    auto& load = m_loads.load;
    const std::uint64_t before = load[static_cast<std::size_t>(site)]++;
    m_loads.maxLoad = std::max(m_loads.maxLoad, before + 1);
    if (before == m_loads.minLoad && --m_atMin == 0) {
        m_loads.minLoad = *std::min_element(load.begin(), load.end());
        m_atMin = static_cast<int>(std::count(load.begin(), load.end(), m_loads.minLoad));
    }
    return site;
}

std::unique_ptr<BlockPlacer> makeBlockPlacer(const std::string& algorithm, const ParamValues& values,
                                             const cost::GasNetwork& network, const cost::VertexSizes& sizes)
{
    if (algorithm == "hdrf")
        return std::make_unique<HdrfBlock>(values.real("lambda"));
    if (algorithm == "geo-cut")
        return std::make_unique<GeoCutBlock>(network.usdPerByte, sizes.gather, sizes.binds);
    return nullptr;
}

namespace {

/// What a vertex had when the batch started, for HDRF's rule: its replica sites and degree (16 bytes).
struct HdrfRecord {
    std::uint64_t replicas;
    std::uint32_t degree;

    HdrfRecord(std::uint8_t home, float)
        : replicas(1ull << home)
        , degree(0)
    {}
    BatchVertex start() const { return {replicas, 0, degree, 0, 0.0}; }
    /// Learns an edge (u, v) at the site `bit`, this record being u's (`target` false) or v's.
    void learn(std::uint64_t bit, bool)
    {
        replicas |= bit;
        ++degree;
    }
};

/// ... and for Geo-Cut's: its replica and in-edge sites, home and apply size (24 bytes).
struct GeoCutRecord {
    std::uint64_t replicas;
    std::uint64_t inSites;
    float apply;
    std::uint8_t home;

    GeoCutRecord(std::uint8_t h, float a)
        : replicas(1ull << h)
        , inSites(0)
        , apply(a)
        , home(h)
    {}
    BatchVertex start() const { return {replicas, inSites, 0, home, apply}; }
    void learn(std::uint64_t bit, bool target)
    {
        replicas |= bit;
        if (target)
            inSites |= bit;
    }
};

/// placeInBatches with each vertex's state in a Record (the vertices are random: what a rule reads of one lies
/// together).
template <typename Record>
Expected<std::vector<std::uint8_t>> placeWith(const model::Graph& graph, const std::vector<std::uint8_t>& home,
                                              const std::vector<float>& apply, int sites, std::uint64_t batch,
                                              BlockPlacer& block, const FeedbackRange& range)
{
    const std::uint64_t edges = graph.edgeCount();
    std::vector<Record> vertex;
    vertex.reserve(graph.vertexCount);
    for (std::uint32_t v = 0; v < graph.vertexCount; ++v)
        vertex.emplace_back(home[v], apply[v]);
    std::vector<std::uint8_t> site(edges, 0);
    SiteLoads loads(sites);
    std::vector<std::uint64_t> placed(static_cast<std::size_t>(sites));
    const EdgeBatches schedule(edges, batch);
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
                site[e] = static_cast<std::uint8_t>(block.place(u, vertex[u].start(), v, vertex[v].start()));
            }
        });
        // ... which then learns the batch's sites.
        std::fill(placed.begin(), placed.end(), 0);
        schedule.forEachRun(k, 0, edges, [&](std::uint64_t begin, std::uint64_t end, std::uint64_t) {
            for (std::uint64_t e = begin; e < end; ++e) {
                prefetch(e, end);
                const std::uint64_t bit = 1ull << site[e];
                vertex[graph.src[e]].learn(bit, false);
                vertex[graph.dst[e]].learn(bit, true);
                ++placed[site[e]];
            }
        });
        loads.add(placed);
        range.setProgress(static_cast<double>(k + 1) / static_cast<double>(batches), "placing edges in batches");
    }
    return site;
}

} // namespace

Expected<std::vector<std::uint8_t>> placeInBatches(const model::Graph& graph, const std::vector<std::uint8_t>& home,
                                                   const std::vector<float>& apply, int sites, std::uint64_t batch,
                                                   BlockPlacer& block, const FeedbackRange& range)
{
    if (block.needs() == BatchNeeds::Degrees)
        return placeWith<HdrfRecord>(graph, home, apply, sites, batch, block, range);
    return placeWith<GeoCutRecord>(graph, home, apply, sites, batch, block, range);
}

} // namespace meridian::partition
