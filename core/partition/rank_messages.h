#pragma once

// What the ranks of partitionSnapOverRanks send each other and how they read their parts: the messages of an
// exchange, written and read as plain values, and the checks every rank agrees on.

#include "core/common/feedback.h"
#include "core/common/ranks.h"
#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace meridian::partition::detail {

constexpr std::uint8_t kNoHome = 0xFF; ///< no site: a home not drawn yet, a vertex no owner knows
constexpr std::uint8_t kInEdge = 0x80; ///< in a message of sites gained: the site holds one of the vertex's in-edges
constexpr std::size_t kAhead = 32;     ///< how far ahead (in ids) the passes over a message load vertex records

// Parses the chunks [begin, end) in windows, as many at once as the executor has workers, and hands them to
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
Status agreeOnFileError(const Ranks& ranks, const Status& local);

/// Returns on every rank the error of the earliest line in a file among the ranks' errors (each rank checked the
/// lines it owns), or success.
Status firstLineInFile(const Ranks& ranks, const Status& local);

/// The messages to every rank of an exchange, built by appending plain values (no copy of them on the side).
class Outbox {
public:
    explicit Outbox(int ranks)
        : m_bytes(static_cast<std::size_t>(ranks))
        , m_used(static_cast<std::size_t>(ranks), 0)
    {}
    /// Appends a value to the message to `rank` (inlined: a pass puts a few values per edge).
    template <typename T>
    void put(std::size_t rank, T value)
    {
        std::string& bytes = m_bytes[rank];
        std::size_t& used = m_used[rank];
        if (used + sizeof(T) > bytes.size())
            bytes.resize(std::max<std::size_t>(4096, 2 * bytes.size()));
        std::memcpy(bytes.data() + used, &value, sizeof(T));
        used += sizeof(T);
    }
    /// Sends every message (Ranks::exchange) and frees them; returns what each rank sent this one.
    std::vector<std::string> exchange(const Ranks& ranks)
    {
        for (std::size_t r = 0; r < m_bytes.size(); ++r)
            m_bytes[r].resize(m_used[r]);
        auto received = ranks.exchange(m_bytes);
        std::vector<std::string>().swap(m_bytes);
        return received;
    }

private:
    std::vector<std::string> m_bytes;
    std::vector<std::size_t> m_used;
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

/// Sends `count` items, a record per vertex, to their ranks in exchanges of at most 2^18 items from each rank (as
/// many exchanges on every rank), so that no rank holds more than a batch of them in messages: `put(item, out)` adds
/// an item to its rank's message, `take(from, bytes)` reads a message a rank sent.
template <typename Put, typename Take>
void exchangeItems(const Ranks& ranks, std::size_t count, const Put& put, const Take& take)
{
    constexpr std::size_t kItems = 1u << 18;
    std::uint64_t exchanges = 0;
    for (const std::uint64_t n : valueOfEveryRank(ranks, (count + kItems - 1) / kItems))
        exchanges = std::max(exchanges, n);
    for (std::uint64_t x = 0; x < exchanges; ++x) {
        Outbox out(ranks.size());
        const std::size_t first = std::min<std::size_t>(count, x * kItems);
        const std::size_t last = std::min(count, first + kItems);
        for (std::size_t item = first; item < last; ++item)
            put(item, out);
        auto received = out.exchange(ranks);
        for (std::size_t from = 0; from < received.size(); ++from) {
            take(from, received[from]);
            std::string().swap(received[from]);
        }
    }
}

/// Appends the `src dst site` lines of a chunk's edges (self-loops dropped), each edge's site the next of `sites`
/// from `next`; false when the chunk holds more edges than sites are left (the file changed since they were placed).
inline bool appendChunkLines(std::string& text, const std::vector<std::uint32_t>& pairs,
                             const std::vector<std::uint8_t>& sites, std::size_t& next,
                             const std::vector<std::string>& endings)
{
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        if (pairs[i] == pairs[i + 1])
            continue;
        if (next == sites.size())
            return false;
        io::appendEdgeLine(text, pairs[i], pairs[i + 1], endings[sites[next++]]);
    }
    return true;
}

/// The decimal digits of an id, as appendEdgeLine writes it.
inline std::uint64_t decimalDigits(std::uint64_t id)
{
    std::uint64_t n = 1;
    for (; id >= 10; id /= 10)
        ++n;
    return n;
}

/// The sum of the values of the ranks before this one.
std::uint64_t before(const std::vector<std::uint64_t>& values, int rank);

std::uint64_t total(const std::vector<std::uint64_t>& values);

/// The error of a file that changed between two passes over it.
Error fileChanged(const std::string& path);

/// A running digest of a part's id pairs, by which the passes after the first see that the file changed.
std::uint64_t digestOf(std::uint64_t digest, const std::vector<std::uint32_t>& pairs);

} // namespace meridian::partition::detail
