#pragma once

#include "app/document/project.h"
#include "app/document/run.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/registry.h"
#include "core/mapping/mapper.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace meridian::jobs {

/// Everything one mapping run needs, captured on the main thread so the job never touches the document.
struct MappingRequest {
    std::shared_ptr<const document::Project> project;
    model::Network completeNetwork;
    std::string application;
    std::string algorithm;
    ParamValues params;
    std::uint64_t seed = 1;
    /// The fingerprint of the inputs at submission (ProjectDocument::fingerprint).
    std::uint64_t fingerprint = 0;
    /// A placement to start from (for `refine` with start=input).
    std::optional<model::Placement> start;
};

/// Runs one mapper and measures the result: the alpha-beta cost with its latency and bandwidth parts,
/// CloudMap's instance metrics, the bytes and egress dollars crossing sites, the slowest site pair and
/// the runtime. Thread-safe (reads only the request and the registry). Errors name the application.
Expected<document::Run> runMapping(const MappingRequest& request, const Registry<mapping::Mapper>& mappers,
                                   const Feedback& feedback);

/// A Pareto sweep: `refine` with objective=weighted at each weight (0 = time alone ... 1 = dollars alone), other
/// parameters from `request.params` (refine's), one run per weight in the order given. Cancellable between and
/// inside the runs; an error names the weight. The project's sites need instance prices (refine says which lacks
/// one).
Expected<std::vector<document::Run>> runParetoSweep(const MappingRequest& request, const std::vector<double>& weights,
                                                    const Registry<mapping::Mapper>& mappers, const Feedback& feedback);

/// Computes the metrics and site x site matrices of a placement of an application (used for runs and
/// for placements imported from a mapping CSV): with prices, cost::placementDollars.
Status measurePlacement(document::Run& run, const document::Project& project, const model::Network& completeNetwork);

} // namespace meridian::jobs
