#pragma once

#include "core/io/edge_partition_io.h"
#include "core/partition/partitioner.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace meridian::partition {

/// Each vertex's home as it first appears in a stream: from the homes file (looked up by original id) or drawn from
/// the same HomeDraws as assignRandomHomes. Every vertex takes a draw, whether the file gives its home or not, so the
/// k-th vertex to appear takes the k-th draw: a rank whose first vertex (in file order) is the k-th skips k draws.
class StreamHomes {
public:
    StreamHomes(std::vector<io::HomeLine> lines, int sites, std::uint64_t seed)
        : m_byId(std::move(lines))
        , m_draws(sites, seed)
    {
        std::stable_sort(m_byId.begin(), m_byId.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    }
    std::uint8_t next(std::uint64_t originalId)
    {
        const auto it = std::lower_bound(m_byId.begin(), m_byId.end(), originalId,
                                         [](const io::HomeLine& l, std::uint64_t id) { return l.id < id; });
        return nextWithFileSite(it != m_byId.end() && it->id == originalId ? it->site : -1);
    }
    /// The next vertex's home when its file site is known already (-1: the file gives none).
    std::uint8_t nextWithFileSite(int fileSite)
    {
        const int draw = m_draws.next();
        if (fileSite >= 0) {
            ++fromFile;
            return static_cast<std::uint8_t>(fileSite);
        }
        ++drawn;
        return static_cast<std::uint8_t>(draw);
    }
    /// Passes over the draws of `count` vertices that appeared before.
    void skip(std::uint64_t count)
    {
        for (std::uint64_t k = 0; k < count; ++k)
            m_draws.next();
    }
    std::size_t fromFile = 0, drawn = 0;

private:
    std::vector<io::HomeLine> m_byId;
    HomeDraws m_draws;
};

} // namespace meridian::partition
