#pragma once

#include "core/common/random.h"
#include "core/mapping/mapper.h"

namespace meridian::mapping {

/// Draws uniformly random feasible site-level assignments: pinned processes stay, free processes take a
/// uniformly random subset of the free slots (partial Fisher-Yates over one token per free slot).
/// O(free processes) per draw. Not thread-safe; one per thread.
class RandomSiteSampler {
public:
    explicit RandomSiteSampler(const MappingProblem& problem);
    /// Overwrites the free processes' entries of `assignment` (which must hold the pins).
    void draw(std::vector<int>& assignment, Random& random);

private:
    std::vector<int> m_tokens;
    std::vector<int> m_free;
};

/// `random`: the SC17 Baseline. Every free process goes to a uniformly random free slot (host and slot
/// drawn together); pinned processes to a random free slot of their site.
class RandomMapper final : public Mapper {
public:
    std::string_view id() const override { return "random"; }
    std::string_view description() const override
    {
        return "Uniformly random feasible placement (SC17 Baseline; CloudMap's Random)";
    }

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t seed,
                                    const FeedbackRange&) const override;
};

/// `round-robin`: CloudMap's RoundRobin, packed: ranks fill the first host's slots, then the next host,
/// in the project's host order. Pinned processes take the first free slots of their site first.
class RoundRobinMapper final : public Mapper {
public:
    std::string_view id() const override { return "round-robin"; }
    std::string_view description() const override
    {
        return "Packed: consecutive ranks fill host after host (CloudMap's RoundRobin, mpirun --map-by slot)";
    }

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t,
                                    const FeedbackRange&) const override;
};

/// `interleave`: the MPI launcher's by-node order (CloudMap's Baseline): rank 0 on the first host, rank
/// 1 on the second, ... cycling over the hosts that still have a free slot.
class InterleaveMapper final : public Mapper {
public:
    std::string_view id() const override { return "interleave"; }
    std::string_view description() const override
    {
        return "By-node order: rank i on host i mod H, skipping full hosts (CloudMap's Baseline, mpirun --map-by node)";
    }

private:
    Expected<MappingResult> mapImpl(const MappingProblem&, const ParamValues&, std::uint64_t,
                                    const FeedbackRange&) const override;
};

} // namespace meridian::mapping
