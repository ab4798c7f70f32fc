#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/mapping/mapping_problem.h"
#include "core/model/placement.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace meridian::mapping {

/// What a mapper returns: a complete placement (every process on a host and slot, every capacity and
/// pin respected) and what else the algorithm learnt on the way.
struct MappingResult {
    model::Placement placement;
    /// Monte Carlo only: the cost (s) of every sampled placement kept for the CDF, in sampling order.
    std::vector<double> costSamples;
    /// Monte Carlo only: (samples drawn, best cost so far) at log-spaced sample counts.
    std::vector<std::pair<std::int64_t, double>> bestCurve;
    /// Anytime searches (refine): (seconds since the search began, best cost so far) at each improvement.
    std::vector<std::pair<double, double>> searchCurve;
    /// Remarks worth showing to the user (repairs, skipped stages, chosen orders).
    std::vector<std::string> notes;
};

/// A process mapper: the interface every algorithm implements.
///
/// map() validates the parameters, runs mapImpl(), completes a site-level result to host and slot, and
/// checks the result: a placement that breaks a capacity or pin, or whose cost is not a finite number, is
/// reported as an internal error, never returned. The same seed gives the same placement on any machine and
/// thread count. A canceled run returns an Error with ErrorCode::Canceled. Mappers are stateless: one instance
/// may run on several threads at once.
class Mapper {
public:
    virtual ~Mapper() = default;

    /// Returns the stable id used on the command line and in project files.
    virtual std::string_view id() const = 0;
    /// Returns a one-line description with the paper it comes from.
    virtual std::string_view description() const = 0;
    /// Returns the typed parameters with their defaults and ranges.
    virtual std::vector<ParamSpec> parameters() const { return {}; }

    Expected<MappingResult> map(const MappingProblem& problem, const ParamValues& values, std::uint64_t seed,
                                const Feedback& feedback) const;
    /// Runs with default parameters.
    Expected<MappingResult> map(const MappingProblem& problem, std::uint64_t seed, const Feedback& feedback) const;

private:
    /// Returns a placement whose sites (at least) are set; hosts and slots may be left at -1, in which
    /// case map() completes them with completeHosts().
    virtual Expected<MappingResult> mapImpl(const MappingProblem& problem, const ParamValues& values,
                                            std::uint64_t seed, const FeedbackRange& range) const = 0;
};

} // namespace meridian::mapping
