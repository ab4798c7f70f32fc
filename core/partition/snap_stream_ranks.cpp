#include "core/partition/snap_stream_ranks.h"

#include "core/common/held_share.h"
#include "core/common/ranks.h"
#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"
#include "core/io/text_file.h"
#include "core/partition/dense_hash_ranks.h"
#include "core/partition/edge_batches.h"
#include "core/partition/online_placers.h"
#include "core/partition/rank_batches.h"
#include "core/partition/rank_files.h"
#include "core/partition/rank_messages.h"
#include "core/partition/stream_homes.h"
#include "core/partition/vertex_owners.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <optional>

namespace meridian::partition {

namespace {

using namespace detail;

using Clock = std::chrono::steady_clock;

constexpr std::size_t kFlush = 8u << 20; ///< how much text a rank writes at once

/// One rank's part of the work. The rank reads its chunks of the file three times (first appearances, placing,
/// writing) and keeps 1 byte per edge of them (its site); for a stream in batches once, keeping its edges (PartPairs)
/// from the first pass to place and write them. Each vertex has one record, at its owner (Owners): where
/// the vertex first appears, its home, the sites holding it. A part of a shuffled file touches nearly every vertex
/// of the graph, so a part's vertices ask their owners, in rounds of one chunk per rank, and every record is held
/// once among the ranks.
class RankPart {
public:
    /// `keepPairs`: pass 1 keeps the part's edges for a stream in batches (HDRF's, Geo-Cut's stage 1).
    RankPart(const SnapStreamRequest& request, const io::detail::SnapChunks& chunks, const Ranks& ranks,
             const Feedback& feedback, bool keepPairs)
        : m_request(request)
        , m_chunks(chunks)
        , m_ranks(ranks)
        , m_feedback(feedback)
        , m_owners(ranks.size())
        , m_share(shareOf(static_cast<std::int64_t>(chunks.count()), ranks.rank(), ranks.size()))
        , m_keepPairs(keepPairs)
        , m_endings(io::siteLineEndings(*request.topology))
    {
        for (int r = 0; r < ranks.size(); ++r) {
            const Share s = shareOf(static_cast<std::int64_t>(chunks.count()), r, ranks.size());
            m_rounds = std::max<std::uint64_t>(m_rounds, static_cast<std::uint64_t>(s.end - s.begin));
        }
    }

    /// Pass 1: counts the part's edges, self-loops and id digits, and sends the owners every vertex occurrence
    /// (sendFirsts); an owner keeps the earliest, by rank (the parts are in file order) and then round and place.
    /// A bad line's error is located in the whole file (every rank tells the others how many lines its part has).
    Status findFirstAppearances()
    {
        std::int64_t lines = 0;
        std::uint64_t round = 0;
        std::optional<Error> bad;
        auto read = forEachChunk(m_chunks, m_share, m_feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            ++round;
            if (chunk.error) {
                bad = io::detail::SnapChunks::located(chunk, lines);
                sendFirsts(nullptr, 0, round);
                return makeError(ErrorCode::InvalidInput, "bad line");
            }
            lines += chunk.lines;
            const auto& pairs = chunk.pairs;
            m_digest = digestOf(m_digest, pairs);
            for (std::size_t i = 0; i < pairs.size(); i += 2) {
                if (pairs[i] == pairs[i + 1]) {
                    ++m_selfLoops;
                    continue;
                }
                ++m_edges;
                m_idBytes += decimalDigits(pairs[i]) + decimalDigits(pairs[i + 1]) + 1;
            }
            if (m_keepPairs)
                m_pairs.add(pairs);
            sendFirsts(pairs.data(), pairs.size() / 2, round);
            return m_canceled ? Status(makeError(ErrorCode::Canceled, "canceled")) : Status{};
        });
        // A rank that stopped early still takes part in every round, numbered alike, unless the ranks stop.
        while (round < m_rounds && !m_canceled)
            sendFirsts(nullptr, 0, ++round);
        if (read && m_canceled)
            read = makeError(ErrorCode::Canceled, "canceled");
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

    /// Checks the lines of the homes file this rank holds (those of the vertices it owns) as readHomes does; the
    /// earliest bad line in the file wins.
    Status checkHomeLines(const std::vector<io::HomeLine>& lines)
    {
        m_fileHome.assign(m_owned.size(), -1);
        const auto slotOf = [&](std::uint64_t id) -> std::int64_t {
            if (id > 0xFFFFFFFFull) // the graph's ids have 32 bits
                return -1;
            const std::uint32_t slot = m_owned.find(m_owners.indexOf(static_cast<std::uint32_t>(id)));
            return slot == OwnedSlots::kAbsent ? -1 : std::int64_t{slot};
        };
        return firstLineInFile(m_ranks, io::assignHomeLines(m_request.homesPath, lines, slotOf, m_fileHome));
    }

    /// Orders the graph's vertices by first appearance, split over the ranks. The vertices that first appear in one
    /// rank's chunk of one round (a bucket) go together to one holder: the buckets, in file order, to ranks 0, 1,
    /// ... by equal shares of the vertices. Each holder sorts its vertices by where they appear; it then draws their
    /// homes, writes their masters lines and folds their metrics, so no rank keeps a record per vertex of the graph.
    /// Each vertex's site in the homes file comes with it.
    void orderVertices()
    {
        const int size = m_ranks.size();
        const std::uint64_t buckets = static_cast<std::uint64_t>(size) * m_rounds;
        const auto bucketOf = [&](std::uint32_t slot) {
            return std::uint64_t{m_rankOf[slot]} * m_rounds + (m_firstAt[slot] >> 32) - 1; // rounds count from 1
        };
        std::vector<std::uint64_t> counts(buckets, 0);
        for (std::uint32_t slot = 0; slot < m_owned.size(); ++slot)
            ++counts[bucketOf(slot)];
        counts = sumOnEveryRank(m_ranks, counts);
        const std::uint64_t vertices = std::max<std::uint64_t>(1, total(counts));
        std::vector<std::uint16_t> holder(buckets);
        std::uint64_t earlier = 0;
        for (std::uint64_t b = 0; b < buckets; ++b) {
            holder[b] = static_cast<std::uint16_t>(
                std::min<std::uint64_t>(static_cast<std::uint64_t>(size) - 1, earlier * size / vertices));
            earlier += counts[b];
        }
        const int me = m_ranks.rank();
        struct Held {
            std::uint64_t order; ///< bucket, then place in the bucket's chunk
            std::uint32_t id;
            std::int8_t fileHome;
        };
        std::vector<Held> mine;
        exchangeItems(
            m_ranks, m_owned.size(),
            [&](std::size_t slot, Outbox& out) {
                const std::uint64_t bucket = bucketOf(static_cast<std::uint32_t>(slot));
                const std::uint16_t h = holder[bucket];
                out.put(h, bucket << 32 | (m_firstAt[slot] & 0xFFFFFFFFu));
                out.put(h,
                        static_cast<std::uint32_t>(m_owners.idOf(m_owned.index(static_cast<std::uint32_t>(slot)), me)));
                out.put(h, static_cast<std::int8_t>(m_fileHome.empty() ? -1 : m_fileHome[slot]));
            },
            [&](std::size_t, const std::string& bytes) {
                for (std::size_t at = 0; at + 13 <= bytes.size(); at += 13) {
                    Held v{};
                    std::memcpy(&v.order, bytes.data() + at, 8);
                    std::memcpy(&v.id, bytes.data() + at + 8, 4);
                    std::memcpy(&v.fileHome, bytes.data() + at + 12, 1);
                    mine.push_back(v);
                }
            });
        for (std::uint32_t slot = 0; slot < m_owned.size(); ++slot)
            m_rankOf[slot] = holder[bucketOf(slot)];
        std::vector<std::uint64_t>().swap(m_firstAt);
        std::vector<int>().swap(m_fileHome);
        std::sort(mine.begin(), mine.end(), [](const Held& a, const Held& b) { return a.order < b.order; });
        m_held.reserve(mine.size());
        m_heldHome.reserve(mine.size());
        for (const auto& v : mine) {
            m_held.push_back(v.id);
            m_heldHome.push_back(static_cast<std::uint8_t>(v.fileHome)); // a file site, or kNoHome until drawn
        }
        m_heldCounts = valueOfEveryRank(m_ranks, m_held.size());
    }

    /// Gives the held vertices their homes (the k-th vertex of the file takes the k-th draw) and tells the owners
    /// each one's home and place among its holder's vertices.
    void giveHomes(StreamHomes& homes)
    {
        homes.skip(before(m_heldCounts, m_ranks.rank()));
        for (std::size_t k = 0; k < m_held.size(); ++k) {
            const int fileSite = m_heldHome[k] == kNoHome ? -1 : int{m_heldHome[k]};
            m_heldHome[k] = homes.nextWithFileSite(fileSite);
            m_mastersBytes += decimalDigits(m_held[k]) + m_endings[m_heldHome[k]].size();
        }
        m_home.assign(m_owned.size(), kNoHome);
        m_place.assign(m_owned.size(), 0);
        exchangeItems(
            m_ranks, m_held.size(),
            [&](std::size_t k, Outbox& out) {
                const auto owner = static_cast<std::size_t>(m_owners.of(m_held[k]));
                out.put(owner, m_held[k]);
                out.put(owner, static_cast<std::uint32_t>(k));
                out.put(owner, m_heldHome[k]);
            },
            [&](std::size_t, const std::string& bytes) {
                for (std::size_t at = 0; at + 9 <= bytes.size(); at += 9) {
                    std::uint32_t id = 0, place = 0;
                    std::memcpy(&id, bytes.data() + at, 4);
                    std::memcpy(&place, bytes.data() + at + 4, 4);
                    const std::uint32_t slot = ownedSlot(id, "the home");
                    m_place[slot] = place;
                    m_home[slot] = static_cast<std::uint8_t>(bytes[at + 8]);
                }
            });
    }

    /// Pass 2, one chunk per round: asks the owners the homes of the chunk's vertices, places its edges by the hash
    /// rule (hashSite) at their positions in the whole file, and sends the owners the sites each vertex gained.
    Status placeEdges()
    {
        m_replicas.assign(m_owned.size(), 0);
        m_inSites.assign(m_owned.size(), 0);
        for (std::uint32_t slot = 0; slot < m_owned.size(); ++slot)
            m_replicas[slot] = 1ull << m_home[slot];
        m_sites.resize(m_edges);
        std::uint64_t edge = before(m_edgeCounts, m_ranks.rank()), round = 0;
        std::size_t placed = 0;
        std::uint64_t digest = 0;
        auto read = forEachChunk(m_chunks, m_share, m_feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            ++round;
            digest = digestOf(digest, chunk.pairs);
            std::size_t edges = 0;
            for (std::size_t i = 0; i < chunk.pairs.size(); i += 2)
                edges += chunk.pairs[i] != chunk.pairs[i + 1] ? 1 : 0;
            if (chunk.error || placed + edges > m_sites.size()) {
                placeRound(nullptr, 0, edge, placed);
                return fileChanged(m_request.graphPath);
            }
            placeRound(chunk.pairs.data(), chunk.pairs.size() / 2, edge, placed);
            return m_canceled ? Status(makeError(ErrorCode::Canceled, "canceled")) : Status{};
        });
        for (; round < m_rounds && !m_canceled; ++round)
            placeRound(nullptr, 0, edge, placed);
        if (read && m_canceled)
            read = makeError(ErrorCode::Canceled, "canceled");
        if (read && (placed != m_sites.size() || digest != m_digest || m_unknownAsked))
            read = fileChanged(m_request.graphPath);
        if (auto agreed = agreeOnFileError(m_ranks, read); !agreed)
            return agreed;
        countEdgeBytes();
        return {};
    }

    /// Pass 2 of a stream in batches (EdgeBatches: HDRF's, Geo-Cut's stage 1): the part's edges, which pass 1 kept
    /// (8 bytes each), are placed batch by batch, every rank taking part in every batch. A batch's endpoints ask
    /// their owners for what `block`'s rule reads (replica sites, degrees, in-edge sites, homes), the edges are placed
    /// from those and from the sites' loads (which every rank keeps alike), and the owners learn the sites and
    /// degrees gained: what placeInBatches does in one process. `apply` is every vertex's apply size.
    Status placeEdgesInBatches(BlockPlacer& block, std::uint64_t batch, double apply)
    {
        if (m_pairs.edges() != m_edges)
            throw std::logic_error("a stream in batches places the pairs pass 1 kept");
        m_replicas.assign(m_owned.size(), 0);
        m_inSites.assign(m_owned.size(), 0);
        for (std::uint32_t slot = 0; slot < m_owned.size(); ++slot)
            m_replicas[slot] = 1ull << m_home[slot];
        m_sites.assign(m_edges, 0);
        const EdgeBatches schedule(total(m_edgeCounts), batch);
        SiteLoads loads(static_cast<int>(m_endings.size()));
        RankBatches batches({m_ranks, m_owners, m_owned, m_replicas, m_inSites, m_home, apply}, m_edgeCounts, m_sites);
        const std::uint64_t count = schedule.batches();
        for (std::uint64_t k = 0; k < count && nextRound(); ++k) {
            m_feedback.setProgress(0.3 + 0.3 * static_cast<double>(k) / static_cast<double>(count),
                                   "placing edges in batches");
            batches.place(schedule, k, m_pairs, block, loads);
        }
        if (m_canceled)
            return makeError(ErrorCode::Canceled, "canceled");
        if (auto agreed = agreeOnFileError(m_ranks,
                                           batches.unknownAsked() ? Status(fileChanged(m_request.graphPath)) : Status{});
            !agreed)
            return agreed;
        countEdgeBytes();
        return {};
    }

    /// Pass 3: writes the part's lines at its offset of the edge partition, and the held vertices' lines at its
    /// offset of the masters.
    Status write(io::StreamedFile& edges, io::StreamedFile* masters)
    {
        const auto edgeBytes = valueOfEveryRank(m_ranks, m_edgeBytes);
        const auto masterBytes = valueOfEveryRank(m_ranks, m_mastersBytes);
        std::uint64_t at = before(edgeBytes, m_ranks.rank());
        const std::uint64_t end = at + m_edgeBytes;
        std::size_t e = 0;
        std::string text;
        std::uint64_t digest = 0;
        const auto flush = [&]() -> Status {
            auto s = edges.writeAt(at, text);
            at += text.size();
            text.clear();
            return s;
        };
        if (m_keepPairs) { // a stream in batches kept its edges from pass 1: the file is not read again
            Status written;
            m_pairs.forEach(0, m_edges, [&](std::uint32_t u, std::uint32_t v) {
                io::appendEdgeLine(text, u, v, m_endings[m_sites[e++]]);
                if (text.size() >= kFlush && written) {
                    written = m_feedback.isCanceled() ? Status(makeError(ErrorCode::Canceled, "canceled")) : flush();
                }
            });
            if (written && !text.empty())
                written = flush();
            if (written && (e != m_sites.size() || at != end))
                throw std::logic_error("the kept edges' lines are not the bytes counted for them");
            m_pairs.clear();
            std::vector<std::uint8_t>().swap(m_sites);
            if (!written)
                return written;
            return writeMasters(masters, masterBytes);
        }
        Status written = forEachChunk(m_chunks, m_share, m_feedback, [&](io::detail::SnapChunk& chunk) -> Status {
            if (chunk.error)
                return fileChanged(m_request.graphPath);
            digest = digestOf(digest, chunk.pairs);
            if (!appendChunkLines(text, chunk.pairs, m_sites, e, m_endings))
                return fileChanged(m_request.graphPath);
            return text.size() < kFlush ? Status{} : flush();
        });
        if (written && !text.empty())
            written = flush();
        if (written && (e != m_sites.size() || at != end || digest != m_digest))
            written = fileChanged(m_request.graphPath);
        std::vector<std::uint8_t>().swap(m_sites);
        if (!written)
            return written;
        return writeMasters(masters, masterBytes);
    }

    /// Writes the held vertices' lines at this rank's offset of the masters (`masterBytes`: every rank's bytes).
    Status writeMasters(io::StreamedFile* masters, const std::vector<std::uint64_t>& masterBytes)
    {
        if (!masters || m_held.empty())
            return {};
        Status written;
        std::string text;
        std::uint64_t at = before(masterBytes, m_ranks.rank());
        for (std::size_t k = 0; k < m_held.size() && written; ++k) {
            io::appendVertexLine(text, m_held[k], m_endings[m_heldHome[k]]);
            if (text.size() >= kFlush || k + 1 == m_held.size()) {
                written = masters->writeAt(at, text);
                at += text.size();
                text.clear();
            }
        }
        return written;
    }

    /// Hands each owned vertex's sites to its holder, which lays them out in the order of its vertices, and folds
    /// eq. 1-4 through the ranks in order (rank 0's held vertices, then rank 1's, ...): one process's sums, in one
    /// process's order. Rank 0 gets the metrics.
    cost::GasMetrics measure(const cost::GasNetwork& network, const cost::TrafficProfile& profile)
    {
        const int size = m_ranks.size();
        std::vector<std::uint64_t> replicas(m_held.size(), 0), inSites(m_held.size(), 0);
        exchangeItems(
            m_ranks, m_owned.size(),
            [&](std::size_t slot, Outbox& out) {
                out.put(m_rankOf[slot], m_place[slot]);
                out.put(m_rankOf[slot], m_replicas[slot]);
                out.put(m_rankOf[slot], m_inSites[slot]);
            },
            [&](std::size_t, const std::string& bytes) {
                for (std::size_t at = 0; at + 20 <= bytes.size(); at += 20) {
                    std::uint32_t place = 0;
                    std::memcpy(&place, bytes.data() + at, 4);
                    if (place >= m_held.size())
                        throw std::runtime_error("an owner sent the sites of a vertex the rank does not hold");
                    std::memcpy(&replicas[place], bytes.data() + at + 4, 8);
                    std::memcpy(&inSites[place], bytes.data() + at + 12, 8);
                }
            });
        // The owned records are not needed after this.
        std::vector<std::uint64_t>().swap(m_replicas);
        std::vector<std::uint64_t>().swap(m_inSites);
        std::vector<std::uint32_t>().swap(m_place);
        std::vector<std::uint8_t>().swap(m_home);
        std::vector<std::uint16_t>().swap(m_rankOf);
        m_owned = OwnedSlots();
        const auto sizes = cost::combiningSizes(static_cast<std::uint32_t>(m_held.size()), profile);
        const int me = m_ranks.rank();
        auto fold = me == 0 ? cost::GasSitesFold(network.siteCount())
                            : cost::GasSitesFold::unpack(m_ranks.receive(me - 1));
        fold.add(replicas.data(), inSites.data(), m_heldHome.data(), sizes.apply.data(), m_held.size(), sizes.gather);
        if (size > 1)
            m_ranks.send((me + 1) % size, fold.pack());
        if (me == 0 && size > 1)
            fold = cost::GasSitesFold::unpack(m_ranks.receive(size - 1));
        return fold.metrics(network);
    }

    std::uint64_t selfLoops() const { return m_selfLoops; }
    std::uint64_t edges() const { return total(m_edgeCounts); }
    std::uint64_t vertices() const { return total(m_heldCounts); }

private:
    /// The slot of an owned vertex that a rank asks about (`what`); every such vertex reached its owner in pass 1.
    std::uint32_t ownedSlot(std::uint32_t id, const char* what) const
    {
        const std::uint32_t slot = m_owned.find(m_owners.indexOf(id));
        if (slot == OwnedSlots::kAbsent)
            throw std::runtime_error(std::string("a rank sent ") + what + " of a vertex its owner does not know");
        return slot;
    }

    /// Whether the ranks go on with another round of a pass: false on every rank at the same round once any rank
    /// was canceled, so that a cancel takes effect within a round (a collective call before each round's exchanges).
    bool nextRound()
    {
        if (!m_canceled)
            m_canceled = !m_ranks.all(!m_feedback.isCanceled());
        return !m_canceled;
    }

    /// A round of pass 1: every vertex occurrence of the chunk goes to the vertex's owner with its number (the
    /// round's, then its place in the chunk), source before target, self-loops once. `pairs` is null on a rank with
    /// no chunk left.
    void sendFirsts(const std::uint32_t* pairs, std::size_t count, std::uint64_t round)
    {
        if (!nextRound())
            return;
        const double done = static_cast<double>(round) / static_cast<double>(std::max<std::uint64_t>(m_rounds, 1));
        m_feedback.setProgress(0.3 * done, "first pass over the graph's parts");
        const int size = m_ranks.size();
        if (2 * count >= (1ull << 32))
            throw std::runtime_error("a chunk holds more than 2^32 vertex occurrences");
        Outbox out(size);
        std::uint32_t occurrence = 0;
        const auto seen = [&](std::uint32_t id) {
            const auto owner = static_cast<std::size_t>(m_owners.of(id));
            out.put(owner, id);
            out.put(owner, occurrence++);
        };
        for (std::size_t i = 0; i < count; ++i) {
            seen(pairs[2 * i]);
            if (pairs[2 * i] != pairs[2 * i + 1])
                seen(pairs[2 * i + 1]);
        }
        const auto received = out.exchange(m_ranks);
        for (std::size_t from = 0; from < received.size(); ++from) {
            const Values<std::uint32_t> words(received[from]);
            std::uint32_t largest = 0;
            for (std::size_t k = 0; k + 1 < words.size(); k += 2)
                largest = std::max(largest, m_owners.indexOf(words[k]));
            m_owned.expect(largest, words.size() / 2);
            for (std::size_t k = 0; k + 1 < words.size(); k += 2) {
                if (k + 2 * kAhead < words.size())
                    m_owned.prefetch(m_owners.indexOf(words[k + 2 * kAhead]));
                const std::uint32_t slot = m_owned.insert(m_owners.indexOf(words[k]));
                // Rounds and places grow within a rank's part, and the parts are in file order: the first
                // occurrence is the first seen from the lowest rank.
                if (slot == m_rankOf.size()) {
                    m_rankOf.push_back(static_cast<std::uint16_t>(from));
                    m_firstAt.push_back(round << 32 | words[k + 1]);
                } else if (from < m_rankOf[slot]) {
                    m_rankOf[slot] = static_cast<std::uint16_t>(from);
                    m_firstAt[slot] = round << 32 | words[k + 1];
                }
            }
        }
        // The owners' records grow with the rounds of this pass: what the ranks hold after this one, as this rank
        // sees it (its records and edges times the ranks).
        const auto ranks = static_cast<double>(size);
        held_share::set({done, static_cast<double>(m_owned.size()) * ranks, static_cast<double>(m_edges) * ranks});
    }

    /// A round of pass 2 (see placeEdges); `pairs` is null on a rank with no chunk left.
    void placeRound(const std::uint32_t* pairs, std::size_t count, std::uint64_t& edge, std::size_t& placed)
    {
        if (!nextRound())
            return;
        const int size = m_ranks.size();
        // The edges' endpoints are asked of their owners, ...
        Outbox questions(size);
        m_endOwners.clear();
        for (std::size_t i = 0; i < count; ++i)
            for (int end = 0; end < 2 && pairs[2 * i] != pairs[2 * i + 1]; ++end) {
                const std::uint32_t id = pairs[2 * i + static_cast<std::size_t>(end)];
                const auto owner = static_cast<std::uint16_t>(m_owners.of(id));
                m_endOwners.push_back(owner);
                questions.put(owner, id);
            }
        auto asked = questions.exchange(m_ranks);
        // ... who answer with their homes, in the order asked, ...
        for (auto& bytes : asked) {
            const Values<std::uint32_t> ids(bytes);
            std::string answer(ids.size(), '\0');
            for (std::size_t k = 0; k < ids.size(); ++k) {
                if (k + kAhead < ids.size())
                    m_owned.prefetch(m_owners.indexOf(ids[k + kAhead]));
                // A vertex pass 1 did not see: the file changed, which placeEdges reports.
                const std::uint32_t slot = m_owned.find(m_owners.indexOf(ids[k]));
                answer[k] = static_cast<char>(slot == OwnedSlots::kAbsent ? kNoHome : m_home[slot]);
            }
            bytes = std::move(answer);
        }
        const auto answers = m_ranks.exchange(asked);
        // ... each edge goes where the hash rule puts it at its position in the file (hashSite, as in one
        // process), and the owners learn the sites their vertices gained: the source the edge's site when it is not
        // its home, the target the site as an in-edge site.
        std::vector<std::size_t> next(static_cast<std::size_t>(size), 0);
        const auto homeOf = [&](std::uint16_t owner) {
            if (next[owner] >= answers[owner].size())
                throw std::runtime_error("an owner answered fewer homes than asked");
            return static_cast<std::uint8_t>(answers[owner][next[owner]++]);
        };
        Outbox gained(size);
        std::size_t end = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const std::uint32_t a = pairs[2 * i], b = pairs[2 * i + 1];
            if (a == b)
                continue;
            const std::uint16_t ownerA = m_endOwners[end++], ownerB = m_endOwners[end++];
            const std::uint8_t homeA = homeOf(ownerA), homeB = homeOf(ownerB);
            if (homeA == kNoHome || homeB == kNoHome) {
                m_unknownAsked = true;
                m_sites[placed++] = 0;
                ++edge;
                continue;
            }
            const auto site = static_cast<std::uint8_t>(hashSite(m_request.seed, homeA, homeB, edge++));
            m_sites[placed++] = site;
            if (site != homeA) {
                gained.put(ownerA, a);
                gained.put(ownerA, site);
            }
            gained.put(ownerB, b);
            gained.put(ownerB, static_cast<std::uint8_t>(site | kInEdge));
        }
        for (const auto& bytes : gained.exchange(m_ranks))
            for (std::size_t at = 0; at + 5 <= bytes.size(); at += 5) {
                if (at + 5 * kAhead + 4 <= bytes.size())
                    m_owned.prefetch(indexAt(bytes, at + 5 * kAhead));
                std::uint32_t id = 0;
                std::memcpy(&id, bytes.data() + at, 4);
                const auto code = static_cast<std::uint8_t>(bytes[at + 4]);
                const std::uint64_t bit = 1ull << (code & ~kInEdge);
                const std::uint32_t slot = ownedSlot(id, "the sites");
                m_replicas[slot] |= bit;
                if (code & kInEdge)
                    m_inSites[slot] |= bit;
            }
    }

    /// The bytes of the part's lines of the edge partition, once its edges are placed.
    void countEdgeBytes()
    {
        std::vector<std::uint64_t> perSite(m_endings.size(), 0);
        for (const std::uint8_t site : m_sites)
            ++perSite[site];
        m_edgeBytes = m_idBytes;
        for (std::size_t s = 0; s < perSite.size(); ++s)
            m_edgeBytes += perSite[s] * m_endings[s].size();
    }

    /// The owned index of the id at byte `at` of a message.
    std::uint32_t indexAt(const std::string& bytes, std::size_t at) const
    {
        std::uint32_t id = 0;
        std::memcpy(&id, bytes.data() + at, 4);
        return m_owners.indexOf(id);
    }

    const SnapStreamRequest& m_request;
    const io::detail::SnapChunks& m_chunks;
    const Ranks& m_ranks;
    const Feedback& m_feedback;
    Owners m_owners;
    Share m_share;
    std::uint64_t m_rounds = 0; ///< rounds of each pass with exchanges: the most chunks any rank has
    // The owned vertices' records, by slot.
    OwnedSlots m_owned;
    std::vector<std::uint16_t> m_rankOf;  ///< the rank of its first appearance, then (orderVertices) its holder
    std::vector<std::uint64_t> m_firstAt; ///< the first occurrence's number in that rank's part
    std::vector<int> m_fileHome;          ///< its site in the homes file, or -1
    std::vector<std::uint32_t> m_place;   ///< its place among its holder's vertices
    std::vector<std::uint8_t> m_home;
    std::vector<std::uint64_t> m_replicas, m_inSites;
    bool m_keepPairs = false; ///< a stream in batches: pass 1 keeps the part's edges ...
    PartPairs m_pairs;        ///< ... here
    // The vertices this rank holds (orderVertices), in order of first appearance, and their homes.
    std::vector<std::uint32_t> m_held;
    std::vector<std::uint8_t> m_heldHome;
    std::vector<std::uint8_t> m_sites;      ///< the site of each edge of the part, in order
    std::vector<std::uint16_t> m_endOwners; ///< a round's edges' endpoints' owners, in order
    std::vector<std::uint64_t> m_edgeCounts, m_heldCounts;
    std::vector<std::string> m_endings;
    std::uint64_t m_edges = 0, m_selfLoops = 0, m_idBytes = 0, m_edgeBytes = 0, m_mastersBytes = 0;
    std::uint64_t m_digest = 0;  ///< digestOf the part as pass 1 read it
    bool m_unknownAsked = false; ///< an owner knew none of a vertex asked in pass 2 (the file changed)
    bool m_canceled = false;     ///< the ranks agreed to stop (nextRound)
};

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

/// The owners' passes (RankPart) on the opened inputs and outputs, up to the files written and synced on every rank.
Expected<SnapStreamResult> overOwners(const SnapStreamRequest& request, const DenseHashJob& job,
                                      std::vector<io::HomeLine>& homeLines, Clock::time_point start)
{
    const Ranks& ranks = job.feedback.ranks();
    // A stream in batches keeps its part's edges from pass 1.
    const bool batched = request.algorithm != "hash";
    RankPart part(request, job.chunks, ranks, job.feedback, batched);
    if (auto s = part.findFirstAppearances(); !s)
        return s.error();
    const double readSeconds = since(start);
    job.feedback.setProgress(0.3, "reading the graph's parts");
    if (auto s = part.checkHomeLines(homeLines); !s)
        return s.error();
    std::vector<io::HomeLine>().swap(homeLines);
    part.orderVertices();
    StreamHomes homes({}, request.topology->siteCount(), request.homesSeed);
    part.giveHomes(homes);
    const cost::VertexSizes sizes = cost::combiningSizes(1, request.profile); // every vertex's
    const auto block = makeBlockPlacer(request.algorithm, request.values, job.network, sizes);
    const Status placed = block
        ? part.placeEdgesInBatches(*block, static_cast<std::uint64_t>(request.values.integer("batch")), sizes.apply[0])
        : part.placeEdges();
    if (!placed)
        return placed.error();
    const double placedSeconds = since(start);
    job.feedback.setProgress(0.6, "partitioning the graph's parts");
    if (auto finished = finishRankOutputs(ranks, part.write(job.edges, job.masters), job.edges, job.masters); !finished)
        return finished.error();

    SnapStreamResult result;
    result.metrics = part.measure(job.network, request.profile);
    result.vertices = static_cast<std::uint32_t>(part.vertices());
    result.edges = part.edges();
    result.selfLoopsDropped = total(valueOfEveryRank(ranks, part.selfLoops()));
    result.homesFromFile = total(valueOfEveryRank(ranks, homes.fromFile));
    result.homesDrawn = total(valueOfEveryRank(ranks, homes.drawn));
    result.readSeconds = readSeconds;
    result.placedSeconds = placedSeconds;
    return result;
}

} // namespace

Expected<SnapStreamResult> partitionSnapOverRanks(const SnapStreamRequest& request, const Feedback& feedback)
{
    const auto start = Clock::now();
    const Ranks& ranks = feedback.ranks();
    auto network = cost::GasNetwork::fromTopology(*request.topology);
    if (!network) // every rank has the same sites
        return network.error();
    std::vector<io::HomeLine> homeLines;
    std::optional<io::detail::SnapChunks> chunks;
    if (auto s = openRankInputs(request, ranks, homeLines, chunks); !s)
        return s.error();
    std::optional<io::StreamedFile> edges, masters;
    if (auto s = openRankOutputs(request, ranks, edges, masters); !s)
        return s.error();
    const DenseHashJob job{request, *chunks, homeLines, *edges, masters ? &*masters : nullptr, *network, feedback};
    // Hash on a graph of dense ids sends no message per edge.
    Expected<std::optional<SnapStreamResult>> dense = std::optional<SnapStreamResult>();
    if (request.algorithm == "hash")
        dense = partitionHashDense(job);
    if (!dense)
        return dense.error();
    if (request.algorithm == "hash" && !*dense)
        held_share::begin(true); // the owners' records: 75 bytes per vertex and 1 per edge, split over the ranks
    auto result = *dense ? Expected<SnapStreamResult>(**dense) : overOwners(request, job, homeLines, start);
    if (!result)
        return result;
    if (auto committed = commitRankOutputs(ranks, feedback, *edges, masters ? &*masters : nullptr); !committed)
        return committed.error();
    result->wholeSeconds = since(start);
    return result;
}

} // namespace meridian::partition
