#pragma once

#include "core/collectives/coll_tuned_rules.h"
#include "core/collectives/schedule.h"
#include "core/collectives/twister_model.h"
#include "core/common/expected.h"

#include <optional>
#include <string>
#include <vector>

namespace meridian::model {
class Network;
class Topology;
} // namespace meridian::model

namespace meridian::collectives {

enum class CostModel {
    Network, ///< the schedule evaluated step by step on the project's network (scheduleTime)
    Twister, ///< Twister's Eq. 1-3 for one uniform link (broadcast only)
};

const char* costModelId(CostModel model);
std::optional<CostModel> parseCostModel(std::string_view id);

/// What to plan: the operation, root and size, the algorithms to compare (empty: every one that implements the
/// operation; those that cannot run on this process count are then skipped with the reason), the chain's chunk
/// count (0: the best one), the cost model and a shuffle's options.
struct PlanRequest {
    Operation operation = Operation::Broadcast;
    int root = 0;
    double bytes = 0.0;
    std::vector<Algorithm> algorithms;
    int chunks = 0;
    CostModel model = CostModel::Network;
    ShuffleOptions shuffle;
};

/// Where the processes run and the network they use (complete: estimate missing entries first).
struct PlanContext {
    const Layout& layout;
    const model::Topology& topology;
    const model::Network& network;
};

struct AlgorithmTime {
    Algorithm algorithm = Algorithm::Flat;
    double seconds = 0.0;
    int chunks = 1;
    double bytes = 0.0;          ///< sent between nodes (network model; the schedule's total under twister)
    double crossSiteBytes = 0.0; ///< of which between sites (network model)
};

struct Skipped {
    Algorithm algorithm = Algorithm::Flat;
    std::string reason;
};

/// The algorithms fastest first (ties by the order of algorithmsFor), those skipped, and notes on the model.
struct Ranking {
    std::vector<AlgorithmTime> results;
    std::vector<Skipped> skipped;
    std::vector<std::string> notes;
};

/// Ranks the algorithms for one operation, size and placement. The chain's chunk count, when the request leaves it
/// at 0, is k_opt (Twister's Eq. 3 optimum for the slowest link the processes use) under the twister model, and under
/// the network model the best of k_opt, half and twice it, each evaluated on the network. Refused: a bad request
/// (see buildSchedule), an algorithm named that does not implement the operation or cannot run here, a chunk count
/// given with no chain among the algorithms, the twister model for another operation than broadcast, and nothing
/// left to rank.
Expected<Ranking> rankAlgorithms(const PlanRequest& request, const PlanContext& context);

/// The fastest algorithm over a range of message sizes.
struct SizeBand {
    double fromBytes = 0.0; ///< the first size swept in the band
    double toBytes = 0.0;   ///< the last size swept in the band
    Algorithm algorithm = Algorithm::Flat;
};

struct SizeSweep {
    std::vector<double> sizes; ///< powers of two from the first at or above the minimum, and the maximum
    std::vector<Ranking> rankings;
    std::vector<SizeBand> bands;
};

/// The ranking at every power of two between minBytes and maxBytes (both included); refused when the range is
/// empty, not positive or wider than 2^40 bytes. The request's size is ignored.
Expected<SizeSweep> sweepSizes(const PlanRequest& request, const PlanContext& context, double minBytes, double maxBytes);

/// The ranking for the first k processes of the layout (k = 2, 4, 8, ... and all of them), the root kept when it is
/// among them, else rank 0 (a note says so).
Expected<std::vector<std::pair<int, Ranking>>> sweepProcesses(const PlanRequest& request, const PlanContext& context);

/// Open MPI 4.1 coll_tuned's algorithm id for an algorithm, or nullopt where coll_tuned has none (hierarchical,
/// hypercube, the shuffle).
std::optional<int> openMpiAlgorithm(Operation op, Algorithm algorithm);
/// The coll_tuned operation of ours, or nullopt (shuffle).
std::optional<TunedOperation> tunedOperation(Operation op);

/// The coll_tuned rules a sweep gives for a communicator of `processes`: per swept size, the fastest algorithm
/// Open MPI has, a rule wherever it (or the chain's segment size) changes, the first from 0 bytes. `notes` gets
/// the sizes where a faster algorithm had no Open MPI equivalent. Refused for an operation Open MPI does not tune.
Expected<TunedCollective> tunedRules(Operation op, const SizeSweep& sweep, int processes,
                                     std::vector<std::string>& notes);

} // namespace meridian::collectives
