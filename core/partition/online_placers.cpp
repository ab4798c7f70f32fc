#include "core/partition/online_placers.h"

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

/// HDRF (Petroni et al.): the site maximising C_REP + lambda C_BAL. The sites' loads are kept with the least load
/// and how many sites share it, so that an edge costs O(the endpoints' replica sites), not O(M).
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
        const double du = a.degree, dv = b.degree;
        const double thetaU = du / (du + dv), thetaV = 1.0 - thetaU;
        const std::uint64_t ru = a.sites.replicas, rv = b.sites.replicas;
        std::uint64_t candidates = ru | rv;
        // Outside the endpoints' replicas only the balance term counts, below lambda; inside, C_REP alone is above
        // 1 (every vertex holds its home), so with lambda <= 1 an outside site never wins. Otherwise only the least
        // loaded outside site (lowest index on ties) can.
        if (m_lambda > 1.0)
            candidates |= leastLoadedOutside(candidates);
        const double scale = m_lambda / (1.0 + static_cast<double>(m_maxLoad - m_minLoad));
        int best = 0;
        double bestScore = -1.0;
        for (; candidates; candidates &= candidates - 1) {
            const int r = std::countr_zero(candidates);
            double score = static_cast<double>(m_maxLoad - m_load[r]) * scale;
            if (ru >> r & 1)
                score += 2.0 - thetaU;
            if (rv >> r & 1)
                score += 2.0 - thetaV;
            if (score > bestScore) {
                bestScore = score;
                best = r;
            }
        }
        addLoad(best);
        return best;
    }

private:
    std::uint64_t leastLoadedOutside(std::uint64_t inside) const
    {
        int least = -1;
        for (int r = 0; r < static_cast<int>(m_load.size()); ++r)
            if (!(inside >> r & 1) && (least < 0 || m_load[r] < m_load[least]))
                least = r;
        return least < 0 ? 0 : 1ull << least;
    }
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
