#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace meridian {

/// A small, fast, seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
/// Unlike the standard distributions, every draw here is specified exactly, so the same seed gives
/// the same sequence with any compiler and standard library. Not thread-safe: one per thread.
class Random {
public:
    explicit Random(std::uint64_t seed);

    /// Returns the next 64 random bits.
    std::uint64_t next();
    /// Returns an integer uniformly drawn from [0, bound); bound must be positive. Unbiased (Lemire).
    std::uint64_t uniformInt(std::uint64_t bound);
    /// Returns a double uniformly drawn from [0, 1) with 53 random bits.
    double uniform01();

    /// Shuffles a range uniformly (Fisher-Yates).
    template <typename T>
    void shuffle(std::vector<T>& values)
    {
        for (std::size_t i = values.size(); i > 1; --i)
            std::swap(values[i - 1], values[uniformInt(i)]);
    }

private:
    std::uint64_t m_state[4];
};

} // namespace meridian
