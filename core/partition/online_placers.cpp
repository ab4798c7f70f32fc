#include "core/partition/online_placers.h"

#include "core/partition/edge_batches.h"

#include <algorithm>
#include <bit>

namespace meridian::partition {

namespace {

/// What every online rule keeps of a vertex: the sites holding it and those holding one of its in-edges.
struct Sites {
    std::uint64_t replicas = 0;
    std::uint64_t inSites = 0;
};

/// A placer over records of type R (which start with Sites) and a rule `choose(a, b, edge) -> site`; both endpoints
/// then gain the site, the target as an in-edge site too.
template <typename R, typename Rule>
class RecordPlacer final : public OnlinePlacer {
public:
    explicit RecordPlacer(Rule rule)
        : m_rule(std::move(rule))
    {}

    void addVertices(const std::uint8_t* homes, std::size_t count) override
    {
        const std::size_t first = m_records.size();
        m_records.resize(first + count);
        for (std::size_t k = 0; k < count; ++k) {
            m_records[first + k].sites.replicas = 1ull << homes[k];
            if constexpr (requires(R r) { r.home; })
                m_records[first + k].home = homes[k];
        }
    }
    void place(const std::uint32_t* src, const std::uint32_t* dst, std::size_t count, std::uint64_t firstEdge,
               std::uint8_t* sites) override
    {
        R* records = m_records.data();
        constexpr std::size_t kAhead = 16; // the vertices are random: their records are loaded ahead
        for (std::size_t i = 0; i < count; ++i) {
            if (i + kAhead < count) {
                __builtin_prefetch(records + src[i + kAhead], 1);
                __builtin_prefetch(records + dst[i + kAhead], 1);
            }
            R& a = records[src[i]];
            R& b = records[dst[i]];
            const int site = m_rule(a, b, firstEdge + i);
            const std::uint64_t bit = 1ull << site;
            a.sites.replicas |= bit;
            b.sites.replicas |= bit;
            b.sites.inSites |= bit;
            sites[i] = static_cast<std::uint8_t>(site);
        }
    }
    std::uint32_t vertexCount() const override { return static_cast<std::uint32_t>(m_records.size()); }
    void sites(std::vector<std::uint64_t>& replicas, std::vector<std::uint64_t>& inSites) const override
    {
        replicas.resize(m_records.size());
        inSites.resize(m_records.size());
        for (std::size_t v = 0; v < m_records.size(); ++v) {
            replicas[v] = m_records[v].sites.replicas;
            inSites[v] = m_records[v].sites.inSites;
        }
    }

private:
    Rule m_rule;
    std::vector<R> m_records;
};

template <typename R, typename Rule>
std::unique_ptr<OnlinePlacer> placerOf(Rule rule)
{
    return std::make_unique<RecordPlacer<R, Rule>>(std::move(rule));
}

struct HashRecord {
    Sites sites;
    std::uint8_t home = 0;
};

struct HashRule {
    std::uint64_t seed;
    int operator()(const HashRecord& a, const HashRecord& b, std::uint64_t e) const
    {
        return hashSite(seed, a.home, b.home, e);
    }
};

struct HdrfRecord {
    Sites sites;
    std::uint32_t degree = 0; ///< partial: the edges seen so far
};

/// HDRF (Petroni et al.), one edge at a time: hdrfChoice from every edge placed before. The sites' loads are kept
/// with the least load and how many sites share it, so that an edge costs O(the endpoints' replica sites), not O(M).
class HdrfRule {
public:
    HdrfRule(double lambda, int sites)
        : m_lambda(lambda)
        , m_load(sites, 0)
        , m_atMin(sites)
    {}

    int operator()(HdrfRecord& a, HdrfRecord& b, std::uint64_t)
    {
        ++a.degree;
        ++b.degree;
        const int best = hdrfChoice(m_lambda, a.degree, b.degree, a.sites.replicas, b.sites.replicas, m_load, m_maxLoad,
                                    m_minLoad);
        addLoad(best);
        return best;
    }

private:
    void addLoad(int r)
    {
        const std::uint64_t before = m_load[r]++;
        m_maxLoad = std::max(m_maxLoad, m_load[r]);
        if (before == m_minLoad && --m_atMin == 0) {
            m_minLoad = *std::min_element(m_load.begin(), m_load.end());
            m_atMin = static_cast<int>(std::count(m_load.begin(), m_load.end(), m_minLoad));
        }
    }

    double m_lambda;
    std::vector<std::uint64_t> m_load;
    std::uint64_t m_maxLoad = 0, m_minLoad = 0;
    int m_atMin;
};

} // namespace

bool hasOnlinePlacer(std::string_view algorithm) { return algorithm == "hash" || algorithm == "hdrf"; }

std::unique_ptr<OnlinePlacer> makeOnlinePlacer(std::string_view algorithm, const ParamValues& values,
                                               std::uint64_t seed, int sites)
{
    if (algorithm == "hash")
        return placerOf<HashRecord>(HashRule{seed});
    if (algorithm == "hdrf")
        return placerOf<HdrfRecord>(HdrfRule(values.real("lambda"), sites));
    return nullptr;
}

} // namespace meridian::partition
