#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

/// Where partitioning over ranks keeps each vertex's record (partition/snap_stream_ranks.h): the owner rank of each
/// vertex id and the owner's table of its vertices.
namespace meridian::partition::detail {

/// Who owns each vertex id, and its number among the owner's ids. Ids go to the ranks in runs of N (the number of
/// ranks): the ids k N ... k N + N - 1 have one owner each, in a rotation that a hash of their block of 64 runs
/// picks, so every stride of ids spreads over the owners. An owner numbers its ids k, which is dense when the file's
/// ids are, so its records sit in direct tables.
class Owners {
public:
    explicit Owners(int ranks)
        : m_n(static_cast<std::uint32_t>(ranks))
        , m_inverse(m_n > 1 ? ~0ull / m_n + 1 : 0)
    {}
    /// The owner of an id (ids beyond 32 bits, which no graph read here has, belong to rank 0).
    int of(std::uint64_t id) const
    {
        if (id > 0xFFFFFFFFull)
            return 0;
        const auto small = static_cast<std::uint32_t>(id);
        const std::uint32_t run = quotient(small);
        const std::uint32_t owner = small - run * m_n + rotation(run);
        return static_cast<int>(owner >= m_n ? owner - m_n : owner);
    }
    std::uint32_t indexOf(std::uint32_t id) const { return quotient(id); }
    std::uint64_t idOf(std::uint32_t index, int owner) const
    {
        const auto o = static_cast<std::uint32_t>(owner);
        const std::uint32_t r = rotation(index);
        return std::uint64_t{index} * m_n + (o >= r ? o - r : o + m_n - r);
    }

private:
    /// x / N without a division instruction (Lemire, Kaser and Kurz's fastdiv, exact for 32-bit x): the passes
    /// find owners a few times per edge.
    std::uint32_t quotient(std::uint32_t x) const
    {
        if (m_n == 1)
            return x;
        // The high 64 bits of m_inverse * x, from two 32 x 32-bit products.
        const std::uint64_t low = (m_inverse & 0xFFFFFFFFu) * x, high = (m_inverse >> 32) * x;
        return static_cast<std::uint32_t>((high + (low >> 32)) >> 32);
    }
    /// The rotation of the run's block of 64 runs.
    std::uint32_t rotation(std::uint32_t run) const
    {
        const auto h = static_cast<std::uint32_t>((std::uint64_t{run >> 6} * 0x9E3779B97F4A7C15ull) >> 32);
        return h - quotient(h) * m_n;
    }
    std::uint32_t m_n;
    std::uint64_t m_inverse;
};

/// Maps keys (an owner's indices, when the file's ids are not dense: OwnedSlots) to slots 0, 1, 2, ... in order of
/// insertion: open addressing, kept at most half full, 8-byte keys so that every 32-bit key can be told from an
/// empty entry.
class IdSlots {
public:
    static constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;
    /// The id's slot, or kAbsent.
    std::uint32_t find(std::uint32_t id) const
    {
        if (m_keys.empty())
            return kAbsent;
        for (std::size_t i = start(id);; i = (i + 1) & m_mask) {
            if (m_keys[i] == kEmpty)
                return kAbsent;
            if (m_keys[i] == id)
                return m_slots[i];
        }
    }
    /// The id's slot, a new one (size() - 1 after the call) if it had none.
    std::uint32_t insert(std::uint32_t id)
    {
        if (2 * (std::size_t{m_size} + 1) > m_keys.size())
            grow();
        std::size_t i = start(id);
        for (; m_keys[i] != kEmpty; i = (i + 1) & m_mask)
            if (m_keys[i] == id)
                return m_slots[i];
        m_keys[i] = id;
        m_slots[i] = m_size;
        m_ids.push_back(id);
        return m_size++;
    }
    std::uint32_t size() const { return m_size; }
    /// Starts loading the table's entry for `id` into the cache, for a find or insert a few ids later.
    void prefetch(std::uint32_t id) const
    {
        if (!m_keys.empty())
            __builtin_prefetch(m_keys.data() + start(id));
    }
    /// The id of each slot.
    const std::vector<std::uint32_t>& ids() const { return m_ids; }

private:
    static constexpr std::uint64_t kEmpty = ~0ull;
    /// A full mix of the id: ids that share an owner differ in a few bits only.
    std::size_t start(std::uint32_t id) const
    {
        std::uint64_t x = id;
        x ^= x >> 16;
        x *= 0x7feb352dull;
        x ^= x >> 15;
        x *= 0x846ca68bull;
        x ^= x >> 16;
        return static_cast<std::size_t>(x) & m_mask;
    }
    void grow()
    {
        const std::size_t capacity = std::max<std::size_t>(1024, 2 * m_keys.size());
        m_keys.assign(capacity, kEmpty);
        m_slots.assign(capacity, 0);
        m_mask = capacity - 1;
        for (std::uint32_t slot = 0; slot < m_size; ++slot) {
            std::size_t i = start(m_ids[slot]);
            while (m_keys[i] != kEmpty)
                i = (i + 1) & m_mask;
            m_keys[i] = m_ids[slot];
            m_slots[i] = slot;
        }
    }
    std::vector<std::uint64_t> m_keys; ///< an id, or kEmpty
    std::vector<std::uint32_t> m_slots, m_ids;
    std::size_t m_mask = 0;
    std::uint32_t m_size = 0;
};

/// The slots (0, 1, 2, ... in order of arrival) of the vertices a rank owns, by their index (Owners::indexOf): a
/// direct table while the indices are dense, an IdSlots once they are not (ids spread over 32 bits).
class OwnedSlots {
public:
    static constexpr std::uint32_t kAbsent = IdSlots::kAbsent;
    /// Readies the table for `count` more indices, the largest `largest`.
    void expect(std::uint32_t largest, std::size_t count)
    {
        if (m_hashed || largest < m_direct.size())
            return;
        const std::uint64_t dense = 16 * (std::uint64_t{m_keys.size()} + count) + (1u << 20);
        if (largest < dense) {
            m_direct.resize(std::max<std::size_t>(std::size_t{largest} + 1, m_direct.size() + m_direct.size() / 2),
                            kAbsent);
            return;
        }
        m_hashed = true;
        std::vector<std::uint32_t>().swap(m_direct);
        for (const std::uint32_t key : m_keys)
            m_hash.insert(key);
        std::vector<std::uint32_t>().swap(m_keys);
    }
    std::uint32_t find(std::uint32_t index) const
    {
        if (m_hashed)
            return m_hash.find(index);
        return index < m_direct.size() ? m_direct[index] : kAbsent;
    }
    /// The index's slot, a new one (size() - 1 after the call) if it had none.
    std::uint32_t insert(std::uint32_t index)
    {
        expect(index, 1);
        if (m_hashed)
            return m_hash.insert(index);
        std::uint32_t& slot = m_direct[index];
        if (slot == kAbsent) {
            slot = static_cast<std::uint32_t>(m_keys.size());
            m_keys.push_back(index);
        }
        return slot;
    }
    std::uint32_t size() const { return m_hashed ? m_hash.size() : static_cast<std::uint32_t>(m_keys.size()); }
    std::uint32_t index(std::uint32_t slot) const { return m_hashed ? m_hash.ids()[slot] : m_keys[slot]; }
    void prefetch(std::uint32_t index) const
    {
        if (m_hashed)
            m_hash.prefetch(index);
        else // branch-free: GCC drops a prefetch inside a condition
            __builtin_prefetch(m_direct.data() + (index < m_direct.size() ? index : 0));
    }

private:
    bool m_hashed = false;
    std::vector<std::uint32_t> m_direct; ///< per index, its slot or kAbsent
    std::vector<std::uint32_t> m_keys;   ///< per slot, its index (direct table)
    IdSlots m_hash;
};

} // namespace meridian::partition::detail
