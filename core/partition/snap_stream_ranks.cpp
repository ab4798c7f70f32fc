#include "core/partition/snap_stream_ranks.h"

#include "core/common/ranks.h"
#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"
#include "core/io/text_file.h"
#include "core/partition/online_placers.h"
#include "core/partition/stream_homes.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>

namespace meridian::partition {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint8_t kNoHome = 0xFF;
constexpr std::size_t kAhead = 32; ///< how far ahead (in ids) the passes over a part's edges load vertex records

/// The rank that owns a vertex id: it decides where the vertex first appears, holds its home for the others and
/// merges its sites.
int ownerOf(std::uint64_t id, int ranks)
{
    return static_cast<int>(((id * 0x9E3779B97F4A7C15ull) >> 32) % static_cast<std::uint64_t>(ranks));
}

/// Decimal digits of an id, as appendEdgeLine writes it.
std::uint64_t digits(std::uint64_t id)
{
    std::uint64_t n = 1;
    for (; id >= 10; id /= 10)
        ++n;
    return n;
}

/// Parses the chunks [begin, end) in windows, as many at once as the executor has workers, and hands them to
/// `onChunk` in file order; stops at the first I/O error, cancel or error `onChunk` returns.
template <typename OnChunk>
Status forEachChunk(const io::detail::SnapChunks& chunks, Share share, const Feedback& feedback, const OnChunk& onChunk)
{
    const auto width = static_cast<std::size_t>(std::max(1, feedback.executor().concurrency()));
    std::vector<io::detail::SnapChunk> window(width);
    std::vector<std::optional<Error>> failed(width);
    for (auto first = static_cast<std::size_t>(share.begin); first < static_cast<std::size_t>(share.end);
         first += width) {
        if (feedback.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        const std::size_t count = std::min(width, static_cast<std::size_t>(share.end) - first);
        std::atomic<std::size_t> next{0};
        FirstException thrown; // an allocation that fails in a worker reaches the caller
        feedback.executor().shareWork(static_cast<int>(count), [&](int) {
            thrown.run([&] {
                for (std::size_t k = next++; k < count; k = next++) {
                    failed[k].reset();
                    if (auto s = chunks.parse(first + k, window[k]); !s)
                        failed[k] = s.error();
                }
            });
        });
        thrown.rethrow();
        for (std::size_t k = 0; k < count; ++k) {
            if (failed[k])
                return *failed[k];
            if (auto s = onChunk(window[k]); !s)
                return s;
        }
    }
    return {};
}

/// agreeOn for failures that name their file and line (a bad line, a file that cannot be read or written): which
/// rank read it says nothing to the user, so the message is one process's.
Status agreeOnFileError(const Ranks& ranks, const Status& local)
{
    auto agreed = agreeOn(ranks, local);
    if (agreed || agreed.error().where.file.empty())
        return agreed;
    Error e = agreed.error();
    const std::string tag = " of " + std::to_string(ranks.size()) + ": ";
    if (e.message.rfind("rank ", 0) == 0)
        if (const auto end = e.message.find(tag); end != std::string::npos)
            e.message.erase(0, end + tag.size());
    return e;
}

/// Returns on every rank the error of the earliest line in a file among the ranks' errors (each rank checked the
/// lines it owns), or success.
Status firstLineInFile(const Ranks& ranks, const Status& local)
{
    if (ranks.all(static_cast<bool>(local)))
        return {};
    Packer mine;
    mine.put<std::int64_t>(local ? -1 : local.error().where.line);
    std::string lines;
    for (const auto& bytes : ranks.gather(mine.bytes()))
        lines += bytes;
    ranks.broadcast(lines);
    Unpacker in(lines);
    int first = -1;
    std::int64_t firstLine = 0;
    for (int r = 0; r < ranks.size(); ++r) {
        const auto line = in.get<std::int64_t>();
        if (line >= 0 && (first < 0 || line < firstLine)) {
            first = r;
            firstLine = line;
        }
    }
    // The earliest keeps its error, which agreeOn then gives every rank.
    return agreeOnFileError(ranks, ranks.rank() == first ? local : Status{});
}

/// The messages to every rank of an exchange, built by appending plain values (no copy of them on the side).
class Outbox {
public:
    explicit Outbox(int ranks)
        : m_bytes(static_cast<std::size_t>(ranks))
    {}
    template <typename T>
    void put(std::size_t rank, T value)
    {
        m_bytes[rank].append(reinterpret_cast<const char*>(&value), sizeof(T));
    }
    /// Sends every message (Ranks::exchange) and frees them; returns what each rank sent this one.
    std::vector<std::string> exchange(const Ranks& ranks)
    {
        auto received = ranks.exchange(m_bytes);
        std::vector<std::string>().swap(m_bytes);
        return received;
    }

private:
    std::vector<std::string> m_bytes;
};

/// A received message read as plain values of type T, in place.
template <typename T>
class Values {
public:
    explicit Values(const std::string& bytes)
        : m_bytes(bytes)
    {
        if (bytes.size() % sizeof(T) != 0)
            throw std::runtime_error("a rank's message is not a whole number of values");
    }
    std::size_t size() const { return m_bytes.size() / sizeof(T); }
    T operator[](std::size_t k) const
    {
        T value;
        std::memcpy(&value, m_bytes.data() + k * sizeof(T), sizeof(T));
        return value;
    }

private:
    const std::string& m_bytes;
};

/// The sum of the values of the ranks before this one.
std::uint64_t before(const std::vector<std::uint64_t>& values, int rank)
{
    std::uint64_t sum = 0;
    for (int r = 0; r < rank; ++r)
        sum += values[static_cast<std::size_t>(r)];
    return sum;
}

std::uint64_t total(const std::vector<std::uint64_t>& values)
{
    return before(values, static_cast<int>(values.size()));
}

/// One rank's part of the work: its chunks of the file, the vertices that appear in them (local ids in order of
/// first appearance within them), and what it learns of those vertices from their owners.
class RankPart {
public:
    RankPart(const SnapStreamRequest& request, const io::detail::SnapChunks& chunks, const Ranks& ranks,
             const Feedback& feedback)
        : m_request(request)
        , m_chunks(chunks)
        , m_ranks(ranks)
        , m_feedback(feedback)
        , m_share(shareOf(static_cast<std::int64_t>(chunks.count()), ranks.rank(), ranks.size()))
        , m_ids(m_local, chunks.fileBytes())
        , m_owned(m_ownedIds, chunks.fileBytes())
        , m_endings(io::siteLineEndings(*request.topology))
    {}

    /// Pass 1: numbers the part's vertices and counts its edges, self-loops and id digits. A bad line's error is
    /// located in the whole file (every rank tells the others how many lines its part has).
    Status readIds()
    {
        std::int64_t lines = 0;
        std::optional<Error> bad;
        auto read = forEachChunk(m_chunks, m_share, m_feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            if (chunk.error) {
                bad = io::detail::SnapChunks::located(chunk, lines);
                return makeError(ErrorCode::InvalidInput, "bad line");
            }
            lines += chunk.lines;
            // The chunk's pairs become its edges' local ids, in place, self-loops dropped; kept for the passes after.
            auto& pairs = chunk.pairs;
            std::size_t kept = 0;
            for (std::size_t i = 0; i < pairs.size(); i += 2) {
                if (i + 2 * kAhead < pairs.size()) { // the id map is larger than the caches
                    m_ids.prefetch(pairs[i + 2 * kAhead]);
                    m_ids.prefetch(pairs[i + 2 * kAhead + 1]);
                }
                const std::uint32_t a = pairs[i], b = pairs[i + 1];
                const std::uint32_t u = m_ids.get(a);
                if (a == b) {
                    ++m_selfLoops;
                    continue;
                }
                m_idBytes += digits(a) + digits(b) + 1;
                pairs[kept++] = u;
                pairs[kept++] = m_ids.get(b);
            }
            pairs.resize(kept);
            m_edges += kept / 2;
            m_pairs.push_back(std::move(pairs));
            return {};
        });
        const auto linesOf = valueOfEveryRank(m_ranks, static_cast<std::uint64_t>(lines));
        if (bad) {
            Error e = *bad;
            e.where.line += static_cast<int>(before(linesOf, m_ranks.rank()));
            read = e;
        }
        if (auto agreed = agreeOnFileError(m_ranks, read); !agreed)
            return agreed;
        m_edgeCounts = valueOfEveryRank(m_ranks, m_edges);
        if (total(m_edgeCounts) == 0)
            return makeError(ErrorCode::InvalidInput, "the graph has no edges (self-loops are dropped)",
                             SourceLocation{m_request.graphPath, 0, 0});
        return {};
    }

    /// Sends every vertex of the part to its owner; the owner tells each rank which of them appear first in its
    /// part (the lowest rank holding a vertex holds its first appearance: the parts are in file order).
    void findFirstAppearances()
    {
        const int size = m_ranks.size();
        m_sent.assign(static_cast<std::size_t>(size), {});
        Outbox ids(size);
        for (std::uint32_t v = 0; v < m_local.vertexCount; ++v) {
            const auto owner = static_cast<std::size_t>(ownerOf(m_local.originalId[v], size));
            m_sent[owner].push_back(v);
            ids.put(owner, static_cast<std::uint32_t>(m_local.originalId[v]));
        }
        auto received = ids.exchange(m_ranks);
        m_slots.assign(static_cast<std::size_t>(size), {});
        Outbox first(size);
        for (std::size_t s = 0; s < received.size(); ++s) {
            const Values<std::uint32_t> idsOfRank(received[s]);
            m_slots[s].reserve(idsOfRank.size());
            for (std::size_t k = 0; k < idsOfRank.size(); ++k) {
                const std::uint32_t known = m_ownedIds.vertexCount;
                const std::uint32_t slot = m_owned.get(idsOfRank[k]);
                if (slot == known)
                    m_firstRank.push_back(static_cast<int>(s));
                m_slots[s].push_back(slot);
                first.put<std::uint8_t>(s, m_firstRank[slot] == static_cast<int>(s) ? 1 : 0);
            }
            std::string().swap(received[s]);
        }
        const auto replies = first.exchange(m_ranks);
        m_isNew.assign(m_local.vertexCount, 0);
        for (std::size_t o = 0; o < replies.size(); ++o) {
            const Values<std::uint8_t> flags(replies[o]);
            for (std::size_t k = 0; k < flags.size() && k < m_sent[o].size(); ++k)
                m_isNew[m_sent[o][k]] = flags[k];
        }
        for (std::uint32_t v = 0; v < m_local.vertexCount; ++v)
            if (m_isNew[v])
                m_new.push_back(v);
        m_newCounts = valueOfEveryRank(m_ranks, m_new.size());
    }

    /// Checks the homes file's lines against the graph as readHomes does: each owner checks the lines of its
    /// vertices, and the earliest bad line in the file wins.
    Status checkHomeLines(const std::vector<io::HomeLine>& lines)
    {
        std::vector<io::HomeLine> mine;
        for (const auto& line : lines)
            if (ownerOf(line.id, m_ranks.size()) == m_ranks.rank())
                mine.push_back(line);
        Status checked;
        if (auto homes = io::homesOf(m_request.homesPath, mine, m_ownedIds.originalId); !homes)
            checked = homes.error();
        return firstLineInFile(m_ranks, checked);
    }

    /// Gives the part's new vertices their homes (the k-th vertex of the file takes the k-th draw), and every other
    /// vertex of the part its home from its owner.
    void giveHomes(StreamHomes& homes)
    {
        homes.skip(before(m_newCounts, m_ranks.rank()));
        m_home.assign(m_local.vertexCount, kNoHome);
        for (const std::uint32_t v : m_new)
            m_home[v] = homes.next(m_local.originalId[v]);
        const int size = m_ranks.size();
        Outbox toOwner(size);
        for (std::size_t o = 0; o < m_sent.size(); ++o)
            for (const std::uint32_t v : m_sent[o])
                toOwner.put(o, m_home[v]);
        const auto received = toOwner.exchange(m_ranks);
        std::vector<std::uint8_t> ownedHome(m_ownedIds.vertexCount, kNoHome);
        for (std::size_t s = 0; s < received.size(); ++s) {
            const Values<std::uint8_t> homesOfRank(received[s]);
            for (std::size_t k = 0; k < homesOfRank.size() && k < m_slots[s].size(); ++k)
                if (homesOfRank[k] != kNoHome)
                    ownedHome[m_slots[s][k]] = homesOfRank[k];
        }
        Outbox replies(size);
        for (std::size_t s = 0; s < m_slots.size(); ++s)
            for (const std::uint32_t slot : m_slots[s])
                replies.put(s, ownedHome[slot]);
        const auto answers = replies.exchange(m_ranks);
        for (std::size_t o = 0; o < answers.size(); ++o) {
            const Values<std::uint8_t> homesOfVertices(answers[o]);
            for (std::size_t k = 0; k < homesOfVertices.size() && k < m_sent[o].size(); ++k)
                m_home[m_sent[o][k]] = homesOfVertices[k];
        }
    }

    /// Pass 2: each edge's site by the hash rule at its position in the whole file, the sites holding each vertex,
    /// and the bytes of the part's lines.
    Status placeEdges()
    {
        // The one-process stream's placer, over the part's vertices (their homes known) and edges in order: the
        // same rule and bookkeeping, with each edge's position in the whole file.
        auto placer = makeOnlinePlacer(m_request.algorithm, m_request.values, m_request.seed,
                                       m_request.topology->siteCount());
        placer->addVertices(m_home.data(), m_home.size());
        std::uint64_t edge = before(m_edgeCounts, m_ranks.rank());
        m_sites.resize(m_edges);
        std::size_t placed = 0;
        std::vector<std::uint32_t> src, dst;
        for (const auto& pairs : m_pairs) {
            if (m_feedback.isCanceled())
                return makeError(ErrorCode::Canceled, "canceled");
            src.resize(pairs.size() / 2);
            dst.resize(pairs.size() / 2);
            for (std::size_t i = 0; i < src.size(); ++i) {
                src[i] = pairs[2 * i];
                dst[i] = pairs[2 * i + 1];
            }
            placer->place(src.data(), dst.data(), src.size(), edge, m_sites.data() + placed);
            edge += src.size();
            placed += src.size();
        }
        placer->sites(m_replicas, m_inSites);
        std::vector<std::uint64_t> perSite(m_endings.size(), 0);
        for (const std::uint8_t site : m_sites)
            ++perSite[site];
        m_edgeBytes = m_idBytes;
        for (std::size_t s = 0; s < perSite.size(); ++s)
            m_edgeBytes += perSite[s] * m_endings[s].size();
        if (!m_request.mastersPath.empty())
            for (const std::uint32_t v : m_new)
                io::appendVertexLine(m_mastersText, m_local.originalId[v], m_endings[m_home[v]]);
        return {};
    }

    /// Pass 3: writes the part's lines at its offset of the edge partition, and its new vertices' lines at its
    /// offset of the masters.
    Status write(io::StreamedFile& edges, io::StreamedFile* masters)
    {
        const auto edgeBytes = valueOfEveryRank(m_ranks, m_edgeBytes);
        const auto masterBytes = valueOfEveryRank(m_ranks, m_mastersText.size());
        std::uint64_t at = before(edgeBytes, m_ranks.rank());
        const std::uint64_t end = at + m_edgeBytes;
        const auto& ids = m_local.originalId;
        std::size_t e = 0;
        std::string text;
        constexpr std::size_t kFlush = 8u << 20;
        Status written;
        for (auto& pairs : m_pairs) {
            if (m_feedback.isCanceled())
                return makeError(ErrorCode::Canceled, "canceled");
            for (std::size_t i = 0; i < pairs.size(); i += 2) {
                if (i + kAhead < pairs.size()) { // the original ids are random: loaded ahead
                    __builtin_prefetch(ids.data() + pairs[i + kAhead]);
                    __builtin_prefetch(ids.data() + pairs[i + kAhead + 1]);
                }
                io::appendEdgeLine(text, ids[pairs[i]], ids[pairs[i + 1]], m_endings[m_sites[e++]]);
            }
            std::vector<std::uint32_t>().swap(pairs);
            if (text.size() < kFlush)
                continue;
            written = edges.writeAt(at, text);
            if (!written)
                break;
            at += text.size();
            text.clear();
        }
        if (written && !text.empty()) {
            written = edges.writeAt(at, text);
            at += text.size();
        }
        if (written && at != end)
            written = makeError(ErrorCode::Internal,
                                "the part of rank " + std::to_string(m_ranks.rank())
                                    + " came out at another size than counted");
        if (written && masters && !m_mastersText.empty())
            written = masters->writeAt(before(masterBytes, m_ranks.rank()), m_mastersText);
        return written;
    }

    /// Merges each vertex's sites at its owner, hands the merged sites of the part's new vertices back to it, and
    /// folds eq. 1-4 through the ranks in order (rank 0's new vertices, then rank 1's, ...): one process's sums,
    /// in one process's order. Rank 0 gets the metrics.
    cost::GasMetrics measure(const cost::GasNetwork& network, const cost::TrafficProfile& profile)
    {
        const int size = m_ranks.size();
        Outbox toOwner(size);
        for (std::size_t o = 0; o < m_sent.size(); ++o)
            for (const std::uint32_t v : m_sent[o]) {
                toOwner.put(o, m_replicas[v]);
                toOwner.put(o, m_inSites[v]);
            }
        auto received = toOwner.exchange(m_ranks);
        std::vector<std::uint64_t> merged(2 * static_cast<std::size_t>(m_ownedIds.vertexCount), 0);
        for (std::size_t s = 0; s < received.size(); ++s) {
            const Values<std::uint64_t> sites(received[s]);
            for (std::size_t k = 0; 2 * k + 1 < sites.size() && k < m_slots[s].size(); ++k) {
                const std::size_t at = 2 * std::size_t{m_slots[s][k]};
                merged[at] |= sites[2 * k];
                merged[at + 1] |= sites[2 * k + 1];
            }
            std::string().swap(received[s]);
        }
        Outbox toFirst(size);
        for (std::size_t s = 0; s < m_slots.size(); ++s)
            for (const std::uint32_t slot : m_slots[s])
                if (m_firstRank[slot] == static_cast<int>(s)) {
                    toFirst.put(s, merged[2 * std::size_t{slot}]);
                    toFirst.put(s, merged[2 * std::size_t{slot} + 1]);
                }
        std::vector<std::uint64_t>().swap(merged);
        const auto answers = toFirst.exchange(m_ranks);
        for (std::size_t o = 0; o < answers.size(); ++o) {
            const Values<std::uint64_t> sites(answers[o]);
            std::size_t k = 0;
            for (const std::uint32_t v : m_sent[o])
                if (m_isNew[v] && 2 * k + 1 < sites.size()) {
                    m_replicas[v] = sites[2 * k];
                    m_inSites[v] = sites[2 * k + 1];
                    ++k;
                }
        }
        std::vector<std::uint64_t> replicas, inSites;
        std::vector<std::uint8_t> masters;
        for (const std::uint32_t v : m_new) {
            replicas.push_back(m_replicas[v]);
            inSites.push_back(m_inSites[v]);
            masters.push_back(m_home[v]);
        }
        const auto sizes = cost::combiningSizes(static_cast<std::uint32_t>(m_new.size()), profile);
        const int me = m_ranks.rank();
        auto fold = me == 0 ? cost::GasSitesFold(network.siteCount())
                            : cost::GasSitesFold::unpack(m_ranks.receive(me - 1));
        fold.add(replicas.data(), inSites.data(), masters.data(), sizes.apply.data(), m_new.size(), sizes.gather);
        if (size > 1)
            m_ranks.send((me + 1) % size, fold.pack());
        if (me == 0 && size > 1)
            fold = cost::GasSitesFold::unpack(m_ranks.receive(size - 1));
        return fold.metrics(network);
    }

    std::uint64_t selfLoops() const { return m_selfLoops; }
    std::uint64_t edges() const { return total(m_edgeCounts); }
    std::uint64_t vertices() const { return total(m_newCounts); }

private:
    const SnapStreamRequest& m_request;
    const io::detail::SnapChunks& m_chunks;
    const Ranks& m_ranks;
    const Feedback& m_feedback;
    Share m_share;
    model::Graph m_local; ///< the original id of each local vertex (no edges)
    io::detail::DenseIdMap m_ids;
    model::Graph m_ownedIds; ///< the ids this rank owns, in the order they reached it
    io::detail::DenseIdMap m_owned;
    std::vector<int> m_firstRank;                    ///< per owned id: the rank holding its first appearance
    std::vector<std::vector<std::uint32_t>> m_sent;  ///< per owner: the local vertices sent to it, in order
    std::vector<std::vector<std::uint32_t>> m_slots; ///< per rank: the owned slot of each id it sent, in order
    std::vector<std::uint8_t> m_isNew, m_home;
    std::vector<std::uint8_t> m_sites;               ///< the site of each edge of the part, in order
    std::vector<std::vector<std::uint32_t>> m_pairs; ///< per chunk, its edges' local ids (self-loops dropped)
    std::vector<std::uint32_t> m_new;                ///< the local vertices that first appear in this part, in order
    std::vector<std::uint64_t> m_replicas, m_inSites, m_edgeCounts, m_newCounts;
    std::vector<std::string> m_endings;
    std::string m_mastersText;
    std::uint64_t m_edges = 0, m_selfLoops = 0, m_idBytes = 0, m_edgeBytes = 0;
};

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// Every rank reads the homes file's lines and opens the graph; the ranks agree on the first failure.
Status openInputs(const SnapStreamRequest& request, const Ranks& ranks, std::vector<io::HomeLine>& homeLines,
                  std::optional<io::detail::SnapChunks>& chunks)
{
    const auto open = [&]() -> Status {
        if (request.algorithm != "hash")
            return makeError(ErrorCode::InvalidInput,
                             "under an MPI launcher only hash splits a graph over the ranks ('" + request.algorithm
                                 + "' places each edge from those placed before it): start it without mpirun");
        if (!request.homesPath.empty()) {
            auto lines = io::readHomeLines(request.homesPath, *request.topology);
            if (!lines)
                return lines.error();
            homeLines = std::move(*lines);
        }
        auto opened = io::detail::SnapChunks::open(request.graphPath, request.chunkBytes);
        if (!opened)
            return opened.error();
        // Every rank needs chunks to read: a file of few chunks is cut finer (at least 4 per rank, of 64 KiB or
        // more). How a file is cut changes nothing in the result.
        const std::uint64_t bytes = opened->fileBytes();
        const auto wanted = 4 * static_cast<std::size_t>(ranks.size());
        if (opened->count() >= wanted || bytes <= (64u << 10)) {
            chunks.emplace(std::move(*opened));
            return {};
        }
        const auto finer = std::max<std::uint64_t>(64u << 10, bytes / wanted);
        auto reopened = io::detail::SnapChunks::open(request.graphPath, static_cast<std::size_t>(finer));
        if (!reopened)
            return reopened.error();
        chunks.emplace(std::move(*reopened));
        return {};
    };
    if (auto agreed = agreeOnFileError(ranks, open()); !agreed)
        return agreed;
    // The ranks cut the file alike only if they see it alike (a copy still under way, a stale network file system).
    const auto sizes = valueOfEveryRank(ranks, chunks->fileBytes());
    for (std::size_t r = 1; r < sizes.size(); ++r)
        if (sizes[r] != sizes[0])
            return makeError(ErrorCode::Io,
                             "rank 0 sees " + std::to_string(sizes[0]) + " bytes and rank " + std::to_string(r)
                                 + " sees " + std::to_string(sizes[r]) + ": every rank must read the same file",
                             SourceLocation{request.graphPath, 0, 0});
    return {};
}

/// Rank 0 creates the outputs' temporaries; the others open them to write their parts.
Status openOutputs(const SnapStreamRequest& request, const Ranks& ranks, std::optional<io::StreamedFile>& edges,
                   std::optional<io::StreamedFile>& masters)
{
    Status opened;
    if (ranks.isRoot()) {
        auto created = io::StreamedFile::create(request.edgesPath);
        if (created) {
            edges.emplace(std::move(*created));
            if (!request.mastersPath.empty()) {
                auto more = io::StreamedFile::create(request.mastersPath);
                if (more)
                    masters.emplace(std::move(*more));
                else
                    opened = more.error();
            }
        } else {
            opened = created.error();
        }
    }
    if (auto agreed = agreeOn(ranks, opened); !agreed)
        return agreed;
    std::string names = ranks.isRoot() ? edges->temporary() + '\n' + (masters ? masters->temporary() : "") : "";
    ranks.broadcast(names);
    if (!ranks.isRoot()) {
        const auto cut = names.find('\n');
        auto piece = io::StreamedFile::openPiece(request.edgesPath, names.substr(0, cut));
        if (piece) {
            edges.emplace(std::move(*piece));
            if (!request.mastersPath.empty()) {
                auto more = io::StreamedFile::openPiece(request.mastersPath, names.substr(cut + 1));
                if (more)
                    masters.emplace(std::move(*more));
                else
                    opened = more.error();
            }
        } else {
            opened = piece.error();
        }
    }
    return agreeOn(ranks, opened);
}

} // namespace

Expected<SnapStreamResult> partitionSnapOverRanks(const SnapStreamRequest& request, const Feedback& feedback)
{
    const auto start = Clock::now();
    const Ranks& ranks = feedback.ranks();
    const auto& topology = *request.topology;
    auto network = cost::GasNetwork::fromTopology(topology);
    if (!network) // every rank has the same sites
        return network.error();
    std::vector<io::HomeLine> homeLines;
    std::optional<io::detail::SnapChunks> chunks;
    if (auto s = openInputs(request, ranks, homeLines, chunks); !s)
        return s.error();
    std::optional<io::StreamedFile> edges, masters;
    if (auto s = openOutputs(request, ranks, edges, masters); !s)
        return s.error();

    RankPart part(request, *chunks, ranks, feedback);
    if (auto s = part.readIds(); !s)
        return s.error();
    const double readSeconds = since(start);
    feedback.setProgress(0.3, "reading the graph's parts");
    part.findFirstAppearances();
    if (!request.homesPath.empty())
        if (auto s = part.checkHomeLines(homeLines); !s)
            return s.error();
    StreamHomes homes(homeLines, topology.siteCount(), request.seed);
    part.giveHomes(homes);
    if (auto agreed = agreeOn(ranks, part.placeEdges()); !agreed) // a cancel
        return agreed.error();
    const double placedSeconds = since(start);
    feedback.setProgress(0.6, "partitioning the graph's parts");
    Status written = part.write(*edges, masters ? &*masters : nullptr);
    if (written)
        written = edges->finish();
    if (written && masters)
        written = masters->finish();
    if (auto agreed = agreeOn(ranks, written); !agreed)
        return agreed.error();
    const auto metrics = part.measure(*network, request.profile);
    // A cancel seen on any rank stops all of them before the rename.
    Status committed = feedback.isCanceled() ? Status(makeError(ErrorCode::Canceled, "canceled")) : Status{};
    if (ranks.isRoot() && committed) {
        std::vector<io::StreamedFile*> files{&*edges};
        if (masters)
            files.push_back(&*masters);
        committed = io::commitTogether(files);
    }
    if (auto agreed = agreeOn(ranks, committed); !agreed)
        return agreed.error();

    SnapStreamResult result;
    result.metrics = metrics;
    result.vertices = static_cast<std::uint32_t>(part.vertices());
    result.edges = part.edges();
    result.selfLoopsDropped = total(valueOfEveryRank(ranks, part.selfLoops()));
    result.homesFromFile = total(valueOfEveryRank(ranks, homes.fromFile));
    result.homesDrawn = total(valueOfEveryRank(ranks, homes.drawn));
    result.readSeconds = readSeconds;
    result.placedSeconds = placedSeconds;
    result.wholeSeconds = since(start);
    return result;
}

} // namespace meridian::partition
