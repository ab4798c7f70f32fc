#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/registry.h"
#include "core/mapping/mapper.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::ops {

/// What a sweep varies (SC17 Fig. 7 and 8).
enum class SweepKind {
    ConstraintRatio, ///< pins drawn at each ratio for one application of the project
    ProcessCount     ///< a generated pattern at each process count, sites scaled to fit
};

struct SweepRequest {
    SweepKind kind = SweepKind::ConstraintRatio;
    std::shared_ptr<const document::Project> project;
    model::Network completeNetwork;
    std::string application;      ///< ConstraintRatio: the application whose pins are redrawn
    std::string pattern = "lu";   ///< ProcessCount: the synth pattern id
    double constraintRatio = 0.2; ///< ProcessCount: the pin ratio at every count
    std::vector<double> points;   ///< ratios in [0, 1], or process counts
    /// The mappers and their parameters; `random` is always run too, as the baseline.
    std::vector<std::pair<std::string, ParamValues>> mappers;
    int seeds = 5;
};

/// The mean over seeds, at each point, of every mapper's cost normalised to random's and its runtime.
struct SweepResult {
    SweepKind kind = SweepKind::ConstraintRatio;
    std::string subject; ///< the application or pattern swept
    std::vector<double> points;
    std::vector<std::string> mappers;
    std::vector<std::vector<double>> normalisedCost; ///< [mapper][point], mean cost / random's cost
    std::vector<std::vector<double>> runtimeSeconds; ///< [mapper][point], mean runtime
    int seeds = 0;
};

/// Runs a sweep. Every mapper at every point and seed runs on the same pins; the random baseline uses the
/// same seed. Cancellable between and inside mapper runs; errors name the point that failed. Over several ranks
/// (the Feedback's), each takes a block of the (point, seed) units and every rank returns the whole result, the
/// same as one process computes (only the runtimes are each run's own).
Expected<SweepResult> runSweep(const SweepRequest& request, const Registry<mapping::Mapper>& mappers,
                               const Feedback& feedback);

/// The points of a sweep typed as a comma-separated list: ratios in [0, 1], or whole process counts of at least
/// 2. An error quotes the first value that is not one.
Expected<std::vector<double>> parseSweepPoints(SweepKind kind, std::string_view text);

} // namespace meridian::ops
