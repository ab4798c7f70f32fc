#pragma once

#include "core/common/expected.h"
#include "core/model/comm_matrix.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::synth {

/// The application communication patterns Meridian can generate. Stable ids: lu, bt, sp, cg, ft, mg,
/// kmeans, dnn.
enum class Pattern { LU, BT, SP, CG, FT, MG, KMeans, DNN };

std::string_view patternId(Pattern pattern);
std::optional<Pattern> patternFromId(std::string_view id);
std::vector<Pattern> allPatterns();
/// Returns what the pattern approximates and where its default sizes come from.
std::string describePattern(Pattern pattern);

/// How DNN training exchanges its model.
enum class DnnExchange { ParameterServer, RingAllreduce };

/// Parameters of a generated pattern. A negative size or count means "the pattern's default",
/// documented in describePattern. Sizes are bytes.
struct PatternOptions {
    int processes = 64;
    int iterations = -1;        ///< time steps; each adds its messages once more
    double messageBytes = -1;   ///< the main message size
    double secondaryBytes = -1; ///< LU, BT, SP: the boundary-exchange message size
    int clusters = 64;          ///< K-means: k
    int dimensions = 8;         ///< K-means: d
    int levels = 4;             ///< MG: multigrid levels
    DnnExchange dnnExchange = DnnExchange::ParameterServer;
};

/// Generates the communication matrix (bytes and messages) of a pattern. Returns an error when the
/// process count does not suit the pattern (BT and SP need a square, CG a power of two, all need >= 2
/// and at most 2^20, FT at most 4096 since it is all-to-all) or a parameter is out of range. Deterministic: no randomness.
Expected<model::CommMatrix> generatePattern(Pattern pattern, const PatternOptions& options);

/// Returns the factorisation rows x columns of n with rows <= columns and rows as large as possible.
std::pair<int, int> grid2d(int n);

} // namespace meridian::synth
