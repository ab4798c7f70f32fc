#pragma once

#include "core/common/expected.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Collective operations as schedules of messages. operations.cpp implements the ids, which algorithm implements which
// operation and the checks every request shares; schedule.cpp builds each algorithm's schedule from a few one-to-all
// and exchange patterns over groups of ranks, a reduce or gather being its broadcast or scatter reversed. A schedule
// is timed on the project's network by network_model.h and can be simulated by SimGrid (sim::scheduleTransfers).

namespace meridian::model {
class Network;
}

namespace meridian::collectives {

/// The collective operations. `bytes` means, as Open MPI's coll_tuned rules count it:
/// - Broadcast, Reduce, Allreduce: the buffer every process holds;
/// - Scatter, Gather, Allgather: the whole buffer, p blocks of bytes / p;
/// - Alltoall: each process's send buffer, bytes / p to every process;
/// - Shuffle (Twister's): one map task's output; every process runs `mapTasks` tasks and sends each reducer (every
///   process) its share, of all its tasks' outputs, or, with local reduction, of their merge.
enum class Operation { Broadcast, Scatter, Gather, Reduce, Allreduce, Allgather, Alltoall, Shuffle };

enum class Algorithm {
    Flat,              ///< sequential from (to) the root; the pairwise exchange for all-to-all
    Mst,               ///< binomial tree (Twister's minimum spanning tree)
    Bucket,            ///< scatter then ring allgather (Twister's bucket broadcast)
    Chain,             ///< pipelined chain in chunks, in rank order from the root
    TopologyChain,     ///< the chain with processes grouped by node and site, sites along the fastest links
    Ring,              ///< ring: allgather, or reduce-scatter then allgather for allreduce
    RecursiveDoubling, ///< pairwise exchanges with partners 1, 2, 4, ... apart
    Rabenseifner,      ///< reduce-scatter by recursive halving, then allgather by recursive doubling
    Hierarchical,      ///< within each site to a leader, across the leaders, then within sites (Fan et al.)
    Hypercube,         ///< all-to-all by dimension exchange: log2 p steps of half the buffer
};

const char* operationId(Operation op);
std::optional<Operation> parseOperation(std::string_view id);
const std::vector<Operation>& allOperations();
const char* algorithmId(Algorithm algorithm);
std::optional<Algorithm> parseAlgorithm(std::string_view id);
/// The algorithms that implement an operation, in the order the planner lists them.
const std::vector<Algorithm>& algorithmsFor(Operation op);
/// The ids of algorithmsFor(op), comma separated, for error messages.
std::string algorithmList(Operation op);
/// Chain and topology-chain cut the message into chunks; no other algorithm takes a chunk count.
bool takesChunks(Algorithm algorithm);

/// One message of a schedule: `from` sends `bytes` to `to` once every message in `needs` has arrived (the data it
/// forwards or combines) and its own previous send has arrived: a process sends one message at a time, in the
/// order of the schedule. `needs` holds indices of earlier messages.
struct Message {
    int from = 0;
    int to = 0;
    double bytes = 0.0;
    std::vector<int> needs;
};

struct Schedule {
    int processes = 0;
    std::vector<Message> messages;

    double totalBytes() const;
};

/// Where a communicator's processes run: rank r at `site[r]` on `node[r]` (a host: processes of one node share its
/// network interface; a process without a host is a node of its own).
struct Layout {
    std::vector<int> site;
    std::vector<int> node;

    int processes() const { return static_cast<int>(site.size()); }
};

/// Twister's shuffle: map tasks per process, and with local reduction the bytes a process's merged output keeps
/// (0: one task's output, as when every task emits the same keys, like K-means' centroids).
struct ShuffleOptions {
    int mapTasks = 1;
    bool localReduction = false;
    double reducedBytes = 0.0;
};

struct CollectiveSpec {
    Operation operation = Operation::Broadcast;
    Algorithm algorithm = Algorithm::Mst;
    int root = 0;
    double bytes = 0.0;
    int chunks = 1;
    ShuffleOptions shuffle;
};

/// The most messages a schedule may have (a flat all-to-all has p (p - 1), a chain p k); larger ones are refused
/// with their count, so that no request can exhaust memory.
constexpr double kMaxScheduleMessages = 4e6;

/// Refuses an empty communicator, a root outside it and a size that is not a positive, finite number of bytes.
Status checkRootAndSize(int root, double bytes, int processes);

/// Refuses what buildSchedule refuses before it builds anything (see there).
Status checkCollective(const CollectiveSpec& spec, const Layout& layout);

/// The bytes a shuffle's process sends in all (its send buffer): mapTasks x bytes, or the merged output with local
/// reduction.
double shuffleBufferBytes(const CollectiveSpec& spec);

/// The schedule of a collective among the layout's processes (ranks 0..p-1). The network orders the topology-aware
/// chain's sites (the next site is the one the current reaches with the highest bandwidth, then lowest latency) and
/// may be null for other algorithms. Refused, with the reason: no process, a root outside the communicator, bytes
/// not positive and finite, chunks below 1, more chunks than bytes, chunks for an algorithm without them, an
/// algorithm that does not implement the operation (naming those that do), a power-of-two algorithm on another
/// process count, a shuffle without map tasks, and a schedule above kMaxScheduleMessages.
Expected<Schedule> buildSchedule(const CollectiveSpec& spec, const Layout& layout, const model::Network* network);

/// The schedule run backwards: every message from its receiver to its sender, each waiting for the messages that
/// waited for it. A broadcast becomes a reduce (the partial results combined on the way), a scatter a gather.
Schedule reversed(const Schedule& schedule);

/// The order the topology-aware chain visits the processes: the root, its node's and its site's processes first
/// (node by node), then site by site, each next site the one with the fastest link from the previous.
std::vector<int> topologyChainOrder(const Layout& layout, int root, const model::Network& network);

} // namespace meridian::collectives
