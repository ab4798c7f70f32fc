#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/param.h"
#include "core/common/registry.h"
#include "core/mapping/mapper.h"
#include "core/model/network.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

// Several mappers over several seeds on one application, as the SC17 paper's figures compare them: each mapper's
// cost per seed and its runtime, normalised to random's mean (meridian-cli compare).

namespace meridian::ops {

struct CompareRequest {
    std::shared_ptr<const document::Project> project;
    model::Network completeNetwork;
    std::string application;
    /// The mappers in the order compared, each with its parameters; random is the baseline and must be among them.
    std::vector<std::pair<std::string, ParamValues>> mappers;
    int seeds = 5; ///< seeds 1..seeds for every mapper
};

/// One mapper's results, a cost (SC17 eq. 3, s) and a runtime per seed.
struct CompareRow {
    std::string algorithm;
    ParamValues params;
    std::vector<double> costs;
    std::vector<double> runtimes;
};

struct CompareResult {
    int processes = 0;
    std::vector<CompareRow> rows;
    double baselineMeanCost = 0.0; ///< random's mean cost
};

/// Runs every mapper of the request with every seed on one mapping problem (the replay as refine's judge, as
/// mapAndMeasure does). Errors name the mapper and the seed. Over several ranks (the Feedback's), each takes a block
/// of the (mapper, seed) runs and every rank returns the whole result, the same as one process computes (only the
/// runtimes are each run's own).
Expected<CompareResult> compareMappers(const CompareRequest& request, const Registry<mapping::Mapper>& mappers,
                                       const Feedback& feedback);

/// The mean of a row's values.
double mean(const std::vector<double>& values);

} // namespace meridian::ops
