#pragma once

#include "core/common/param.h"
#include "core/model/placement.h"

#include <Eigen/Dense>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace meridian::document {

/// One number a run reports, with a stable id ("cost_s"), a label for charts and tables and a unit.
struct RunMetric {
    std::string id;
    std::string label;
    std::string unit;
    double value = 0.0;
};

/// A finished run of one mapper on one application of a project: what was asked (algorithm,
/// parameters, seed), what came back (placement, Monte Carlo samples, notes) and what it is worth
/// (metrics, site x site traffic and time). Immutable once it lands in the document's run list.
struct Run {
    int id = 0;              ///< unique within a document, never reused
    std::string algorithm;   ///< mapper id
    std::string application; ///< application name in the project
    ParamValues params;
    std::uint64_t seed = 1;
    model::Placement placement;
    std::vector<double> costSamples;                        ///< Monte Carlo only
    std::vector<std::pair<std::int64_t, double>> bestCurve; ///< Monte Carlo only
    std::vector<std::string> notes;
    /// cost_s first, then the parts of the cost, CloudMap's instance metrics, WAN dollars and runtime.
    std::vector<RunMetric> metrics;
    Eigen::MatrixXd trafficBytes; ///< site x site bytes sent between sites (row = sender)
    Eigen::MatrixXd timeSeconds;  ///< site x site share of the cost (s)
    double runtimeSeconds = 0.0;
    /// Fingerprint of the inputs the run was computed from (ProjectDocument::inputFingerprint).
    std::uint64_t inputFingerprint = 0;

    /// Returns the value of a metric, or nullopt when the run does not report it.
    std::optional<double> metric(const std::string& id) const;
    /// Returns "#3 geo on lu", the name used in lists, legends and reports.
    std::string label() const;
};

} // namespace meridian::document
