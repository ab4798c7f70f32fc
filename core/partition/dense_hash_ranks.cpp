#include "core/partition/dense_hash_ranks.h"

#include "core/common/held_share.h"
#include "core/common/ranks.h"
#include "core/partition/online_placers.h"
#include "core/partition/rank_files.h"
#include "core/partition/rank_messages.h"
#include "core/partition/stream_homes.h"
#include "core/partition/vertex_owners.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace meridian::partition::detail {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kFlush = 8u << 20; ///< how much text a rank writes at once

bool bitOf(const std::string& bits, std::uint64_t k)
{
    return (static_cast<unsigned char>(bits[k >> 3]) >> (k & 7)) & 1u;
}
void setBit(std::string& bits, std::uint64_t k) { bits[k >> 3] = static_cast<char>(bits[k >> 3] | (1 << (k & 7))); }

/// One rank's part of the dense hash (partitionHashDense), `Mask` holding a vertex's sites as bits (8, 16, 32 or 64
/// of them).
template <typename Mask>
class DensePart {
public:
    explicit DensePart(const DenseHashJob& job)
        : m_job(job)
        , m_ranks(job.feedback.ranks())
        , m_owners(m_ranks.size())
        , m_share(shareOf(static_cast<std::int64_t>(job.chunks.count()), m_ranks.rank(), m_ranks.size()))
        , m_limit(denseIdLimit(job.chunks.fileBytes(), job.request.topology->siteCount()))
        , m_endings(io::siteLineEndings(*job.request.topology))
    {
        for (int r = 0; r < m_ranks.size(); ++r) {
            const Share s = shareOf(static_cast<std::int64_t>(job.chunks.count()), r, m_ranks.size());
            m_rounds = std::max<std::uint64_t>(m_rounds, static_cast<std::uint64_t>(s.end - s.begin));
        }
    }

    /// Pass 1: keeps the part's edges and its ids in order of first appearance; false when an id is beyond the
    /// dense tables (on every rank).
    Expected<bool> read()
    {
        std::int64_t lines = 0;
        std::uint64_t round = 0;
        std::optional<Error> bad;
        auto status = forEachChunk(m_job.chunks, m_share, m_job.feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            ++round;
            if (chunk.error) {
                bad = io::detail::SnapChunks::located(chunk, lines);
                nextRound(); // the others read on: the line is counted from all the lines before it
                return makeError(ErrorCode::InvalidInput, "bad line");
            }
            lines += chunk.lines;
            const auto& pairs = chunk.pairs;
            for (std::size_t i = 0; i < pairs.size() && !m_sparse; i += 2) {
                see(pairs[i]);
                if (pairs[i] == pairs[i + 1]) {
                    ++m_selfLoops;
                    continue;
                }
                see(pairs[i + 1]);
                ++m_edges;
                m_idBytes += decimalDigits(pairs[i]) + decimalDigits(pairs[i + 1]) + 1;
            }
            m_digest = digestOf(m_digest, pairs);
            held_share::set({static_cast<double>(round) / static_cast<double>(std::max<std::uint64_t>(m_rounds, 1)),
                             static_cast<double>(m_firsts.size()), static_cast<double>(m_edges) * m_ranks.size()});
            return nextRound() ? Status{} : makeError(ErrorCode::Canceled, "stopped");
        });
        while (round < m_rounds && nextRound())
            ++round;
        if (m_canceled)
            status = makeError(ErrorCode::Canceled, "canceled");
        else if (!status && status.error().code == ErrorCode::Canceled)
            status = {}; // another rank met an id beyond the tables
        const auto linesOf = valueOfEveryRank(m_ranks, static_cast<std::uint64_t>(lines));
        if (bad) {
            Error e = *bad;
            e.where.line += static_cast<int>(before(linesOf, m_ranks.rank()));
            status = e;
        }
        if (m_canceled) // alike on every rank
            return makeError(ErrorCode::Canceled, "canceled");
        if (!m_ranks.all(!m_sparse))
            return false; // the owners' passes read the file again, and find its errors
        if (auto agreed = agreeOnFileError(m_ranks, status); !agreed)
            return agreed.error();
        m_edgeCounts = valueOfEveryRank(m_ranks, m_edges);
        if (total(m_edgeCounts) == 0)
            return makeError(ErrorCode::InvalidInput, "the graph has no edges (self-loops are dropped)",
                             SourceLocation{m_job.request.graphPath, 0, 0});
        std::uint64_t largest = 0;
        for (const std::uint64_t ids : valueOfEveryRank(m_ranks, m_largestId + 1))
            largest = std::max(largest, ids);
        m_ids = largest; // every id is below it
        m_indices = m_ids / static_cast<std::uint64_t>(m_ranks.size()) + 1;
        return true;
    }

    /// Step 2: the owners find the rank each id first appears in; the rank keeps its firsts of the file, in order.
    Status orderVertices()
    {
        const int size = m_ranks.size();
        // Each owner gets, from every rank, a bit per owned index: the rank holds the id.
        std::vector<std::string> held(static_cast<std::size_t>(size), std::string((m_indices + 7) / 8, '\0'));
        for (std::uint64_t id = 0; id < m_seenBits; ++id)
            if ((m_seen[id >> 6] >> (id & 63)) & 1u)
                setBit(held[static_cast<std::size_t>(m_owners.of(id))],
                       m_owners.indexOf(static_cast<std::uint32_t>(id)));
        std::vector<std::uint64_t>().swap(m_seen);
        held = m_ranks.exchange(held);
        m_firstRank.assign(m_indices, kNone);
        for (std::uint64_t k = 0; k < m_indices; ++k)
            for (int r = 0; r < size; ++r)
                if (bitOf(held[static_cast<std::size_t>(r)], k)) {
                    m_firstRank[k] = static_cast<std::uint16_t>(r);
                    break;
                }
        // Each rank learns which of its ids first appear in its part.
        for (auto& bits : held)
            std::fill(bits.begin(), bits.end(), '\0');
        for (std::uint64_t k = 0; k < m_indices; ++k)
            if (m_firstRank[k] != kNone)
                setBit(held[m_firstRank[k]], k);
        held = m_ranks.exchange(held);
        std::size_t kept = 0;
        for (const std::uint32_t id : m_firsts)
            if (bitOf(held[static_cast<std::size_t>(m_owners.of(id))], m_owners.indexOf(id)))
                m_firsts[kept++] = id;
        m_firsts.resize(kept);
        m_firsts.shrink_to_fit();
        m_vertexCounts = valueOfEveryRank(m_ranks, m_firsts.size());
        return checkHomeLines();
    }

    /// Step 2, the homes: each rank asks the owners its vertices' sites in the homes file, draws their homes in
    /// file order, and every rank gets every home (by id).
    void giveHomes(StreamHomes& homes)
    {
        std::vector<std::uint8_t> fileSite(m_firsts.size(), kNoHome);
        askOwners(
            1,
            [&](std::uint32_t k, char* out) {
                *out = static_cast<char>(m_fileHome.empty() || m_fileHome[k] < 0 ? kNoHome : m_fileHome[k]);
            },
            [&](std::size_t place, const char* in) { fileSite[place] = static_cast<std::uint8_t>(*in); });
        std::vector<int>().swap(m_fileHome);
        homes.skip(before(m_vertexCounts, m_ranks.rank()));
        m_homes.resize(m_firsts.size());
        for (std::size_t k = 0; k < m_firsts.size(); ++k) {
            m_homes[k] = homes.nextWithFileSite(fileSite[k] == kNoHome ? -1 : int{fileSite[k]});
            m_mastersBytes += decimalDigits(m_firsts[k]) + m_endings[m_homes[k]].size();
        }
        // The owners gather the homes of their ids, then every rank gets all of them.
        std::vector<std::string> toOwners(static_cast<std::size_t>(m_ranks.size()));
        for (std::size_t k = 0; k < m_firsts.size(); ++k)
            toOwners[static_cast<std::size_t>(m_owners.of(m_firsts[k]))].push_back(static_cast<char>(m_homes[k]));
        const auto received = m_ranks.exchange(toOwners);
        std::string owned(m_indices, static_cast<char>(kNoHome));
        for (std::size_t r = 0; r < received.size(); ++r)
            for (std::size_t j = 0; j < received[r].size(); ++j)
                owned[m_asked[r][j]] = received[r][j];
        const auto all = m_ranks.exchange(std::vector<std::string>(static_cast<std::size_t>(m_ranks.size()), owned));
        m_homeById.assign(m_ids, kNoHome);
        for (std::size_t q = 0; q < all.size(); ++q)
            for (std::uint64_t k = 0; k < m_indices; ++k) {
                const std::uint64_t id = m_owners.idOf(static_cast<std::uint32_t>(k), static_cast<int>(q));
                if (id < m_ids)
                    m_homeById[id] = static_cast<std::uint8_t>(all[q][k]);
            }
    }

    /// Step 3: places the part's edges at their positions in the file, ORing their sites into the tables by id.
    Status place()
    {
        m_sites.assign(m_edges, 0);
        std::vector<Mask>(m_ids, 0).swap(m_replicas);
        std::vector<Mask>(m_ids, 0).swap(m_inSites);
        std::vector<std::uint64_t> perSite(m_endings.size(), 0);
        std::uint64_t edge = before(m_edgeCounts, m_ranks.rank()), digest = 0, round = 0;
        std::size_t placed = 0;
        const auto seed = m_job.request.seed;
        auto read = forEachChunk(m_job.chunks, m_share, m_job.feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            ++round;
            m_job.feedback.setProgress(0.3 + 0.3 * static_cast<double>(round) / static_cast<double>(m_rounds),
                                       "partitioning the graph's parts");
            const auto& pairs = chunk.pairs;
            digest = digestOf(digest, pairs);
            const bool go = nextRound();
            if (chunk.error)
                return fileChanged(m_job.request.graphPath);
            if (!go)
                return makeError(ErrorCode::Canceled, "stopped");
            // The tables by id are larger than the caches: the entries of the edge kAhead on are loaded ahead.
            for (std::size_t i = 0; i < pairs.size(); i += 2) {
                if (i + 2 * kAhead < pairs.size()) {
                    // Within the tables even when the file changed (branch-free).
                    const std::uint64_t u = std::min<std::uint64_t>(pairs[i + 2 * kAhead], m_ids - 1),
                                        v = std::min<std::uint64_t>(pairs[i + 2 * kAhead + 1], m_ids - 1);
                    __builtin_prefetch(m_homeById.data() + u);
                    __builtin_prefetch(m_homeById.data() + v);
                    __builtin_prefetch(m_replicas.data() + u, 1);
                    __builtin_prefetch(m_replicas.data() + v, 1);
                    __builtin_prefetch(m_inSites.data() + v, 1);
                }
                const std::uint32_t u = pairs[i], v = pairs[i + 1];
                if (u == v)
                    continue;
                // More edges, or an id, than pass 1 saw: the file changed.
                if (placed == m_sites.size() || u >= m_ids || v >= m_ids || m_homeById[u] == kNoHome
                    || m_homeById[v] == kNoHome)
                    return fileChanged(m_job.request.graphPath);
                const int site = hashSite(seed, m_homeById[u], m_homeById[v], edge++);
                m_sites[placed++] = static_cast<std::uint8_t>(site);
                ++perSite[static_cast<std::size_t>(site)];
                const Mask bit = Mask(1) << site;
                m_replicas[u] |= bit;
                m_replicas[v] |= bit;
                m_inSites[v] |= bit;
            }
            return Status{};
        });
        while (round < m_rounds && nextRound())
            ++round;
        if (m_canceled)
            read = makeError(ErrorCode::Canceled, "canceled");
        else if (!read && read.error().code == ErrorCode::Canceled)
            read = {}; // another rank found the file changed: its error is agreed below
        if (read && (placed != m_sites.size() || digest != m_digest))
            read = fileChanged(m_job.request.graphPath);
        if (auto agreed = agreeOnFileError(m_ranks, read); !agreed)
            return agreed;
        std::vector<std::uint8_t>().swap(m_homeById); // every edge is placed
        m_edgeBytes = m_idBytes;
        for (std::size_t s = 0; s < perSite.size(); ++s)
            m_edgeBytes += perSite[s] * m_endings[s].size();
        return {};
    }

    /// Writes the part's lines at its offset of the edge partition (reading the part a third time), and its
    /// vertices' lines at its offset of the masters.
    Status write()
    {
        const auto edgeBytes = valueOfEveryRank(m_ranks, m_edgeBytes);
        const auto masterBytes = valueOfEveryRank(m_ranks, m_mastersBytes);
        std::uint64_t at = before(edgeBytes, m_ranks.rank());
        const std::uint64_t end = at + m_edgeBytes;
        std::string text;
        Status written;
        std::size_t e = 0;
        std::uint64_t digest = 0;
        const auto flush = [&](io::StreamedFile& file) {
            if (text.empty())
                return;
            if (written)
                written = file.writeAt(at, text);
            at += text.size();
            text.clear();
        };
        auto read = forEachChunk(m_job.chunks, m_share, m_job.feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            if (chunk.error)
                return fileChanged(m_job.request.graphPath);
            digest = digestOf(digest, chunk.pairs);
            if (!appendChunkLines(text, chunk.pairs, m_sites, e, m_endings))
                return fileChanged(m_job.request.graphPath);
            if (text.size() >= kFlush)
                flush(m_job.edges);
            return written;
        });
        flush(m_job.edges);
        if (read && written && (e != m_sites.size() || at != end || digest != m_digest))
            read = fileChanged(m_job.request.graphPath);
        std::vector<std::uint8_t>().swap(m_sites);
        if (!read)
            return read;
        if (!written || !m_job.masters)
            return written;
        at = before(masterBytes, m_ranks.rank());
        for (std::size_t k = 0; k < m_firsts.size(); ++k) {
            io::appendVertexLine(text, m_firsts[k], m_endings[m_homes[k]]);
            if (text.size() >= kFlush)
                flush(*m_job.masters);
        }
        flush(*m_job.masters);
        return written;
    }

    /// Step 3, the sites: the owners OR every rank's tables and hand each rank its vertices' sites; the metrics are
    /// folded through the ranks in vertex order. Rank 0 gets them.
    cost::GasMetrics measure()
    {
        const int size = m_ranks.size();
        std::vector<std::string> toOwners(static_cast<std::size_t>(size),
                                          std::string(2 * sizeof(Mask) * m_indices, '\0'));
        for (std::uint64_t id = 0; id < m_ids; ++id) {
            char* out = toOwners[static_cast<std::size_t>(m_owners.of(id))].data()
                + 2 * sizeof(Mask) * m_owners.indexOf(static_cast<std::uint32_t>(id));
            std::memcpy(out, &m_replicas[id], sizeof(Mask));
            std::memcpy(out + sizeof(Mask), &m_inSites[id], sizeof(Mask));
        }
        std::vector<Mask>().swap(m_replicas);
        std::vector<Mask>().swap(m_inSites);
        const auto tables = m_ranks.exchange(toOwners);
        std::vector<std::string>().swap(toOwners);
        // The rank's vertices' sites, compact; widened a block at a time for the fold (the first ranks hold most
        // vertices: a shuffled file's vertices mostly appear early).
        std::vector<Mask> replicaBits(m_firsts.size(), 0), inBits(m_firsts.size(), 0);
        askOwners(
            2 * sizeof(Mask),
            [&](std::uint32_t k, char* out) {
                Mask r = 0, in = 0;
                for (const auto& table : tables) {
                    Mask x = 0;
                    std::memcpy(&x, table.data() + 2 * sizeof(Mask) * k, sizeof(Mask));
                    r |= x;
                    std::memcpy(&x, table.data() + 2 * sizeof(Mask) * k + sizeof(Mask), sizeof(Mask));
                    in |= x;
                }
                std::memcpy(out, &r, sizeof(Mask));
                std::memcpy(out + sizeof(Mask), &in, sizeof(Mask));
            },
            [&](std::size_t place, const char* in) {
                std::memcpy(&replicaBits[place], in, sizeof(Mask));
                std::memcpy(&inBits[place], in + sizeof(Mask), sizeof(Mask));
            });
        constexpr std::size_t kBlock = 1u << 16;
        const auto sizes = cost::combiningSizes(kBlock, m_job.request.profile); // every vertex's are alike
        const int me = m_ranks.rank();
        auto fold = me == 0 ? cost::GasSitesFold(m_job.network.siteCount())
                            : cost::GasSitesFold::unpack(m_ranks.receive(me - 1));
        std::vector<std::uint64_t> replicas(kBlock), inSites(kBlock);
        for (std::size_t first = 0; first < m_firsts.size(); first += kBlock) {
            const std::size_t count = std::min(kBlock, m_firsts.size() - first);
            for (std::size_t k = 0; k < count; ++k) {
                replicas[k] = std::uint64_t{replicaBits[first + k]} | (std::uint64_t{1} << m_homes[first + k]);
                inSites[k] = inBits[first + k];
            }
            fold.add(replicas.data(), inSites.data(), m_homes.data() + first, sizes.apply.data(), count, sizes.gather);
        }
        if (size > 1)
            m_ranks.send((me + 1) % size, fold.pack());
        if (me == 0 && size > 1)
            fold = cost::GasSitesFold::unpack(m_ranks.receive(size - 1));
        return fold.metrics(m_job.network);
    }

    std::uint64_t selfLoops() const { return m_selfLoops; }
    std::uint64_t edges() const { return total(m_edgeCounts); }
    std::uint64_t vertices() const { return total(m_vertexCounts); }

private:
    static constexpr std::uint16_t kNone = 0xFFFF;

    /// Marks an id as held by the part, noting its first appearance; an id beyond the dense tables stops the pass.
    void see(std::uint32_t id)
    {
        if (id >= m_seenBits) {
            if (id >= m_limit) {
                m_sparse = true;
                return;
            }
            m_seenBits = std::min(m_limit, std::max<std::uint64_t>(std::uint64_t{id} + 1, m_seenBits + m_seenBits / 2));
            m_seen.resize((m_seenBits + 63) / 64, 0);
        }
        m_largestId = std::max(m_largestId, id);
        std::uint64_t& word = m_seen[id >> 6];
        const std::uint64_t bit = std::uint64_t{1} << (id & 63);
        if (!(word & bit)) {
            word |= bit;
            m_firsts.push_back(id);
        }
    }

    /// Whether the ranks go on with another round: false on every rank at the same round once any rank was
    /// canceled or met an id beyond the tables.
    bool nextRound()
    {
        if (m_canceled || m_stopped)
            return false;
        if (m_ranks.all(!m_sparse && !m_job.feedback.isCanceled()))
            return true;
        m_stopped = true;
        m_canceled = !m_ranks.all(!m_job.feedback.isCanceled());
        return false;
    }

    /// Checks the homes file's lines this rank holds (its owned ids') as readHomes does; the earliest bad line in
    /// the file wins.
    Status checkHomeLines()
    {
        if (m_job.homeLines.empty())
            return firstLineInFile(m_ranks, Status{});
        m_fileHome.assign(m_indices, -1);
        const auto slotOf = [&](std::uint64_t id) -> std::int64_t {
            if (id >= m_ids)
                return -1;
            const std::uint32_t k = m_owners.indexOf(static_cast<std::uint32_t>(id));
            return m_firstRank[k] == kNone ? -1 : std::int64_t{k};
        };
        return firstLineInFile(m_ranks,
                               io::assignHomeLines(m_job.request.homesPath, m_job.homeLines, slotOf, m_fileHome));
    }

    /// Each of the rank's vertices, in order, asks its owner, who answers `bytes` from its index (`answer`); the
    /// answers come back in the rank's order (`take(place, bytes)`). The first call records, at each owner, the
    /// order in which each rank asked (the homes gathered later come in the same order).
    template <typename Answer, typename Take>
    void askOwners(std::size_t bytes, const Answer& answer, const Take& take)
    {
        const auto size = static_cast<std::size_t>(m_ranks.size());
        if (m_asked.empty()) {
            Outbox questions(m_ranks.size());
            for (const std::uint32_t id : m_firsts)
                questions.put(static_cast<std::size_t>(m_owners.of(id)), m_owners.indexOf(id));
            const auto received = questions.exchange(m_ranks);
            m_asked.resize(size);
            for (std::size_t r = 0; r < size; ++r) {
                const Values<std::uint32_t> indices(received[r]);
                m_asked[r].resize(indices.size());
                for (std::size_t j = 0; j < indices.size(); ++j)
                    m_asked[r][j] = indices[j];
            }
        }
        std::vector<std::string> answers(size);
        for (std::size_t r = 0; r < size; ++r) {
            answers[r].resize(bytes * m_asked[r].size());
            for (std::size_t j = 0; j < m_asked[r].size(); ++j)
                answer(m_asked[r][j], answers[r].data() + bytes * j);
        }
        answers = m_ranks.exchange(answers);
        std::vector<std::size_t> next(size, 0);
        for (std::size_t place = 0; place < m_firsts.size(); ++place) {
            const auto owner = static_cast<std::size_t>(m_owners.of(m_firsts[place]));
            if (bytes * (next[owner] + 1) > answers[owner].size())
                throw std::runtime_error("an owner answered fewer vertices than asked");
            take(place, answers[owner].data() + bytes * next[owner]++);
        }
    }

    const DenseHashJob& m_job;
    const Ranks& m_ranks;
    Owners m_owners;
    Share m_share;
    std::uint64_t m_limit;
    std::vector<std::string> m_endings;
    std::uint64_t m_rounds = 0;
    // Pass 1.
    std::vector<std::uint64_t> m_seen; ///< a bit per id below m_seenBits: the part holds it
    std::uint64_t m_seenBits = 0;
    std::uint32_t m_largestId = 0;       ///< of the part
    std::vector<std::uint32_t> m_firsts; ///< the part's ids in order of first appearance, then (orderVertices)
                                         ///< those that first appear in the file here: the rank's vertices
    std::uint64_t m_digest = 0;          ///< digestOf the part as pass 1 read it
    std::uint64_t m_edges = 0, m_selfLoops = 0, m_idBytes = 0;
    bool m_sparse = false, m_canceled = false, m_stopped = false;
    std::uint64_t m_ids = 0;     ///< every id is below it
    std::uint64_t m_indices = 0; ///< the indices an owner numbers its ids with (Owners::indexOf)
    std::vector<std::uint64_t> m_edgeCounts, m_vertexCounts;
    // The owner's records, by index.
    std::vector<std::uint16_t> m_firstRank;          ///< the rank the id first appears in, or kNone
    std::vector<int> m_fileHome;                     ///< its site in the homes file, or -1
    std::vector<std::vector<std::uint32_t>> m_asked; ///< per rank, the indices it asked about, in its order
    // The rank's vertices (m_firsts) and the tables by id.
    std::vector<std::uint8_t> m_homes, m_homeById, m_sites;
    std::vector<Mask> m_replicas, m_inSites;
    std::uint64_t m_edgeBytes = 0, m_mastersBytes = 0;
};

template <typename Mask>
Expected<std::optional<SnapStreamResult>> runDense(const DenseHashJob& job)
{
    const auto start = Clock::now();
    const auto since = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    const Ranks& ranks = job.feedback.ranks();
    DensePart<Mask> part(job);
    auto dense = part.read();
    if (!dense)
        return dense.error();
    if (!*dense)
        return std::optional<SnapStreamResult>();
    SnapStreamResult result;
    result.readSeconds = since();
    job.feedback.setProgress(0.3, "reading the graph's parts");
    if (auto s = part.orderVertices(); !s)
        return s.error();
    StreamHomes homes({}, job.request.topology->siteCount(), job.request.homesSeed);
    part.giveHomes(homes);
    if (auto s = part.place(); !s)
        return s.error();
    result.placedSeconds = since();
    job.feedback.setProgress(0.6, "partitioning the graph's parts");
    if (auto finished = finishRankOutputs(ranks, part.write(), job.edges, job.masters); !finished)
        return finished.error();
    result.metrics = part.measure();
    result.vertices = static_cast<std::uint32_t>(part.vertices());
    result.edges = part.edges();
    result.selfLoopsDropped = total(valueOfEveryRank(ranks, part.selfLoops()));
    result.homesFromFile = total(valueOfEveryRank(ranks, homes.fromFile));
    result.homesDrawn = total(valueOfEveryRank(ranks, homes.drawn));
    return std::optional<SnapStreamResult>(result);
}

} // namespace

std::uint64_t denseIdLimit(std::uint64_t fileBytes, int sites)
{
    const std::uint64_t wide = maskBytes(sites); // the tables take about 1 + 4 wide bytes per id, with the exchanges'
    return std::min<std::uint64_t>(std::max<std::uint64_t>(std::uint64_t{1} << 26, fileBytes / 16) / wide,
                                   std::uint64_t{1} << 32);
}

std::uint64_t maskBytes(int sites) { return sites <= 8 ? 1 : sites <= 16 ? 2 : sites <= 32 ? 4 : 8; }

double denseVertexBytesEachRank(int sites) { return 8.0 + 4.0 * static_cast<double>(maskBytes(sites)); }

Expected<std::optional<SnapStreamResult>> partitionHashDense(const DenseHashJob& job)
{
    const int sites = job.request.topology->siteCount();
    if (sites <= 8)
        return runDense<std::uint8_t>(job);
    if (sites <= 16)
        return runDense<std::uint16_t>(job);
    if (sites <= 32)
        return runDense<std::uint32_t>(job);
    return runDense<std::uint64_t>(job);
}

} // namespace meridian::partition::detail
