#include "core/partition/rank_batches.h"

#include "core/partition/rank_messages.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace meridian::partition::detail {

namespace {

/// An owner's answer about a vertex: its replica sites (8 bytes), then its degree (4) for HDRF, or its in-edge sites
/// (8) and home (1) for Geo-Cut.
std::size_t answerBytes(BatchNeeds needs) { return needs == BatchNeeds::Degrees ? 12 : 17; }

} // namespace

void RankBatches::place(const EdgeBatches& schedule, std::uint64_t k, const PartPairs& pairs, BlockPlacer& block,
                        SiteLoads& loads)
{
    const int size = m_ranks.size();
    const std::uint64_t first = before(m_edgeCounts, m_ranks.rank());
    std::vector<Block> blocks;
    std::vector<Tail> sent;
    Outbox tails(size);
    schedule.forEachRun(k, first, first + m_edgeCounts[static_cast<std::size_t>(m_ranks.rank())],
                        [&](std::uint64_t begin, std::uint64_t end, std::uint64_t at) {
                            const std::size_t place = begin - first, count = end - begin;
                            if (begin == at) {
                                Block& b = blocks.emplace_back();
                                b.begin = at;
                                b.pairs.reserve(2 * count);
                                pairs.forEach(place, count, [&](std::uint32_t u, std::uint32_t v) {
                                    b.pairs.push_back(u);
                                    b.pairs.push_back(v);
                                });
                                b.own = count;
                                b.place = place;
                                return;
                            }
                            const std::size_t owner = rankOfEdge(at);
                            sent.push_back({owner, 0, place, count});
                            tails.put(owner, at);
                            tails.put(owner, std::uint64_t{count});
                            pairs.forEach(place, count, [&](std::uint32_t u, std::uint32_t v) {
                                tails.put(owner, u);
                                tails.put(owner, v);
                            });
                        });
    // The tails arrive in rank order, which is stream order.
    std::vector<Tail> received;
    const auto arrived = tails.exchange(m_ranks);
    for (std::size_t from = 0; from < arrived.size(); ++from) {
        Unpacker in(arrived[from]);
        for (std::size_t read = 0; read < arrived[from].size();) {
            const auto at = in.get<std::uint64_t>();
            const auto count = in.get<std::uint64_t>();
            const auto it = std::lower_bound(blocks.begin(), blocks.end(), at,
                                             [](const Block& b, std::uint64_t x) { return b.begin < x; });
            if (it == blocks.end() || it->begin != at)
                throw std::runtime_error("a rank sent the tail of a block this rank does not start");
            received.push_back({from, static_cast<std::size_t>(it - blocks.begin()), it->pairs.size() / 2, count});
            for (std::uint64_t i = 0; i < 2 * count; ++i)
                it->pairs.push_back(in.get<std::uint32_t>());
            read += 16 + 8 * count;
        }
    }
    placeBlocks(blocks, block, loads);
    // Each tail's sites go back to the rank that holds its edges.
    Outbox back(size);
    for (const Tail& t : received)
        for (std::size_t i = 0; i < t.count; ++i)
            back.put(t.rank, blocks[t.block].sites[t.at + i]);
    const auto sites = back.exchange(m_ranks);
    std::vector<std::size_t> next(static_cast<std::size_t>(size), 0);
    for (const Tail& t : sent) {
        if (next[t.rank] + t.count > sites[t.rank].size())
            throw std::runtime_error("a rank sent fewer sites than its tails had edges");
        std::memcpy(m_sites.data() + t.at, sites[t.rank].data() + next[t.rank], t.count);
        next[t.rank] += t.count;
    }
}

std::size_t RankBatches::rankOfEdge(std::uint64_t e) const
{
    std::uint64_t end = 0;
    for (std::size_t r = 0; r < m_edgeCounts.size(); ++r) {
        end += m_edgeCounts[r];
        if (e < end)
            return r;
    }
    throw std::runtime_error("an edge beyond the stream's end");
}

void RankBatches::answer(std::vector<std::string>& asked, BatchNeeds needs)
{
    // The owners answer with each vertex's replica sites and what the rule reads (no sites: a vertex pass 1 did not
    // see).
    const std::size_t answerSize = answerBytes(needs);
    const bool degrees = needs == BatchNeeds::Degrees;
    m_askedSlots.resize(asked.size());
    for (std::size_t from = 0; from < asked.size(); ++from) {
        std::string& bytes = asked[from];
        const Values<std::uint32_t> ids(bytes);
        std::string answer(answerSize * ids.size(), '\0');
        auto& slots = m_askedSlots[from];
        slots.resize(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) {
            if (k + kAhead < ids.size())
                m_owned.prefetch(m_owners.indexOf(ids[k + kAhead]));
            slots[k] = m_owned.find(m_owners.indexOf(ids[k]));
        }
        // The records are loaded ahead once their slots are known.
        for (std::size_t k = 0; k < ids.size(); ++k) {
            if (k + kAhead < ids.size() && slots[k + kAhead] != OwnedSlots::kAbsent) {
                const std::uint32_t ahead = slots[k + kAhead];
                __builtin_prefetch(&m_replicas[ahead]);
                if (degrees) {
                    __builtin_prefetch(&m_degree[ahead]);
                } else {
                    __builtin_prefetch(&m_inSites[ahead]);
                    __builtin_prefetch(&m_home[ahead]);
                }
            }
            const std::uint32_t slot = slots[k];
            const bool known = slot != OwnedSlots::kAbsent;
            const std::uint64_t replicas = known ? m_replicas[slot] : 0;
            char* at = answer.data() + answerSize * k;
            std::memcpy(at, &replicas, 8);
            if (degrees) {
                const std::uint32_t degree = known ? m_degree[slot] : 0;
                std::memcpy(at + 8, &degree, 4);
            } else {
                const std::uint64_t inSites = known ? m_inSites[slot] : 0;
                std::memcpy(at + 8, &inSites, 8);
                at[16] = static_cast<char>(known ? m_home[slot] : 0);
            }
        }
        bytes = std::move(answer);
    }
}

void RankBatches::learn(const std::vector<std::string>& codes)
{
    for (std::size_t from = 0; from < codes.size(); ++from) {
        const auto& slots = m_askedSlots[from];
        if (codes[from].size() != slots.size())
            throw std::runtime_error("a rank sent the sites of other vertices than it asked about");
        for (std::size_t k = 0; k < slots.size(); ++k) {
            const auto code = static_cast<std::uint8_t>(codes[from][k]);
            if (code == kNoHome)
                continue;
            const std::uint32_t slot = slots[k];
            if (k + kAhead < slots.size() && slots[k + kAhead] != OwnedSlots::kAbsent) {
                __builtin_prefetch(&m_replicas[slots[k + kAhead]], 1);
                __builtin_prefetch(&m_degree[slots[k + kAhead]], 1);
            }
            const std::uint64_t bit = 1ull << (code & ~kInEdge);
            m_replicas[slot] |= bit;
            if (code & kInEdge)
                m_inSites[slot] |= bit;
            ++m_degree[slot];
        }
    }
}

void RankBatches::placeBlocks(std::vector<Block>& blocks, BlockPlacer& block, SiteLoads& loads)
{
    const int size = m_ranks.size();
    Outbox questions(size);
    m_endOwners.clear();
    for (const Block& b : blocks)
        for (const std::uint32_t id : b.pairs) {
            const auto owner = static_cast<std::uint16_t>(m_owners.of(id));
            m_endOwners.push_back(owner);
            questions.put(owner, id);
        }
    const BatchNeeds needs = block.needs();
    const std::size_t answerSize = answerBytes(needs);
    auto asked = questions.exchange(m_ranks);
    answer(asked, needs);
    const auto answers = m_ranks.exchange(asked);
    std::vector<std::size_t> next(static_cast<std::size_t>(size), 0);
    const auto stateOf = [&](std::uint16_t owner) {
        if (next[owner] + answerSize > answers[owner].size())
            throw std::runtime_error("an owner answered fewer vertices than asked");
        const char* at = answers[owner].data() + next[owner];
        next[owner] += answerSize;
        BatchVertex x;
        std::memcpy(&x.replicas, at, 8);
        if (needs == BatchNeeds::Degrees) {
            std::memcpy(&x.degree, at + 8, 4);
        } else {
            std::memcpy(&x.inSites, at + 8, 8);
            x.home = static_cast<std::uint8_t>(at[16]);
            x.apply = m_apply;
        }
        return x;
    };
    Outbox gained(size);
    std::vector<std::uint64_t> placed(loads.load.size(), 0);
    std::size_t end = 0;
    for (Block& b : blocks) {
        const std::size_t edges = b.pairs.size() / 2;
        block.start(loads, edges);
        b.sites.assign(edges, 0);
        for (std::size_t i = 0; i < edges; ++i) {
            const std::uint32_t u = b.pairs[2 * i], v = b.pairs[2 * i + 1];
            const std::uint16_t ownerU = m_endOwners[end++], ownerV = m_endOwners[end++];
            const BatchVertex x = stateOf(ownerU), y = stateOf(ownerV);
            if (x.replicas == 0 || y.replicas == 0) {
                m_unknownAsked = true;
                gained.put(ownerU, kNoHome);
                gained.put(ownerV, kNoHome);
                continue;
            }
            const auto site = static_cast<std::uint8_t>(block.place(u, x, v, y));
            b.sites[i] = site;
            ++placed[site];
            // A site gained for each vertex asked, in the order asked: the owner knows the slots.
            gained.put(ownerU, site);
            gained.put(ownerV, static_cast<std::uint8_t>(site | kInEdge));
        }
        std::memcpy(m_sites.data() + b.place, b.sites.data(), b.own);
    }
    learn(gained.exchange(m_ranks));
    loads.add(sumOnEveryRank(m_ranks, placed));
}

} // namespace meridian::partition::detail
