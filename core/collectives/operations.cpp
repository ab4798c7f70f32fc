#include "core/collectives/schedule.h"

#include <algorithm>
#include <cmath>
#include <string>

// The operations' and algorithms' ids, which algorithms implement which operation, and the checks every
// collective request shares; the schedules themselves are in schedule.cpp.

namespace meridian::collectives {

namespace {

struct AlgorithmInfo {
    Algorithm algorithm;
    const char* id;
};

constexpr AlgorithmInfo kAlgorithms[] = {
    {Algorithm::Flat, "flat"},
    {Algorithm::Mst, "mst"},
    {Algorithm::Bucket, "bucket"},
    {Algorithm::Chain, "chain"},
    {Algorithm::TopologyChain, "topology-chain"},
    {Algorithm::Ring, "ring"},
    {Algorithm::RecursiveDoubling, "recursive-doubling"},
    {Algorithm::Rabenseifner, "rabenseifner"},
    {Algorithm::Hierarchical, "hierarchical"},
    {Algorithm::Hypercube, "hypercube"},
};

struct OperationInfo {
    Operation operation;
    const char* id;
};

constexpr OperationInfo kOperations[] = {
    {Operation::Broadcast, "broadcast"}, {Operation::Scatter, "scatter"},     {Operation::Gather, "gather"},
    {Operation::Reduce, "reduce"},       {Operation::Allreduce, "allreduce"}, {Operation::Allgather, "allgather"},
    {Operation::Alltoall, "alltoall"},   {Operation::Shuffle, "shuffle"},
};

bool isPowerOfTwo(int p) { return p > 0 && (p & (p - 1)) == 0; }

double expectedMessages(const CollectiveSpec& spec, int p)
{
    const double q = p;
    switch (spec.operation) {
    case Operation::Alltoall:
    case Operation::Shuffle:
        return q * q;
    case Operation::Allreduce:
        return spec.algorithm == Algorithm::Ring ? 2.0 * q * q : 2.0 * q * std::log2(q + 1.0) + 4.0 * q;
    case Operation::Allgather:
        return spec.algorithm == Algorithm::Ring || spec.algorithm == Algorithm::Hierarchical
            ? q * q
            : 4.0 * q * std::log2(q + 1.0);
    default:
        return takesChunks(spec.algorithm) ? q * spec.chunks
                                           : 2.0 * q * (spec.algorithm == Algorithm::Bucket ? q : 1.0);
    }
}

} // namespace

Status checkCollective(const CollectiveSpec& spec, const Layout& layout)
{
    const int p = layout.processes();
    if (auto ok = checkRootAndSize(spec.root, spec.bytes, p); !ok)
        return ok;
    if (layout.node.size() != layout.site.size())
        return makeError(ErrorCode::InvalidInput, "every process needs a node");
    const auto& supported = algorithmsFor(spec.operation);
    if (std::find(supported.begin(), supported.end(), spec.algorithm) == supported.end())
        return makeError(ErrorCode::InvalidInput,
                         std::string(algorithmId(spec.algorithm)) + " does not implement " + operationId(spec.operation)
                             + "; these do: " + algorithmList(spec.operation));
    if (spec.chunks < 1)
        return makeError(ErrorCode::InvalidInput,
                         "the chunk count must be at least 1, not " + std::to_string(spec.chunks));
    if (spec.chunks > 1 && !takesChunks(spec.algorithm))
        return makeError(ErrorCode::InvalidInput,
                         std::string("only chain and topology-chain cut the message into "
                                     "chunks, not ")
                             + algorithmId(spec.algorithm));
    if (static_cast<double>(spec.chunks) > spec.bytes)
        return makeError(ErrorCode::InvalidInput,
                         std::to_string(spec.chunks) + " chunks of a "
                             + std::to_string(static_cast<long long>(spec.bytes))
                             + "-byte message leave chunks without a byte");
    const bool needsPowerOfTwo = spec.algorithm == Algorithm::Hypercube
        || (spec.algorithm == Algorithm::RecursiveDoubling && spec.operation == Operation::Allgather);
    if (needsPowerOfTwo && !isPowerOfTwo(p))
        return makeError(ErrorCode::InvalidInput,
                         std::string(algorithmId(spec.algorithm)) + " " + operationId(spec.operation)
                             + " needs a power-of-two process count, not " + std::to_string(p));
    if (spec.operation == Operation::Shuffle
        && (spec.shuffle.mapTasks < 1 || !std::isfinite(spec.shuffle.reducedBytes) || spec.shuffle.reducedBytes < 0.0))
        return makeError(ErrorCode::InvalidInput,
                         "a shuffle needs at least one map task per process and non-negative reduced bytes");
    if (const double n = expectedMessages(spec, p); n > kMaxScheduleMessages)
        return makeError(ErrorCode::InvalidInput,
                         std::string(algorithmId(spec.algorithm)) + " " + operationId(spec.operation) + " of "
                             + std::to_string(p) + " processes would have about "
                             + std::to_string(static_cast<long long>(n)) + " messages; at most "
                             + std::to_string(static_cast<long long>(kMaxScheduleMessages)) + " are evaluated");
    return {};
}

Status checkRootAndSize(int root, double bytes, int processes)
{
    if (processes < 1)
        return makeError(ErrorCode::InvalidInput, "a collective needs at least one process");
    if (root < 0 || root >= processes)
        return makeError(ErrorCode::InvalidInput,
                         "the root " + std::to_string(root) + " is not in the communicator: its ranks are 0 to "
                             + std::to_string(processes - 1));
    if (!std::isfinite(bytes) || bytes <= 0.0)
        return makeError(ErrorCode::InvalidInput,
                         "the message size must be a positive number of bytes, not " + std::to_string(bytes));
    return {};
}

const char* operationId(Operation op)
{
    for (const auto& info : kOperations)
        if (info.operation == op)
            return info.id;
    return "?";
}

std::optional<Operation> parseOperation(std::string_view id)
{
    for (const auto& info : kOperations)
        if (id == info.id)
            return info.operation;
    if (id == "bcast")
        return Operation::Broadcast;
    return std::nullopt;
}

const std::vector<Operation>& allOperations()
{
    static const std::vector<Operation> all = [] {
        std::vector<Operation> out;
        for (const auto& info : kOperations)
            out.push_back(info.operation);
        return out;
    }();
    return all;
}

const char* algorithmId(Algorithm algorithm)
{
    for (const auto& info : kAlgorithms)
        if (info.algorithm == algorithm)
            return info.id;
    return "?";
}

std::optional<Algorithm> parseAlgorithm(std::string_view id)
{
    for (const auto& info : kAlgorithms)
        if (id == info.id)
            return info.algorithm;
    return std::nullopt;
}

const std::vector<Algorithm>& algorithmsFor(Operation op)
{
    using A = Algorithm;
    static const std::vector<A> broadcast{A::Flat, A::Mst, A::Bucket, A::Chain, A::TopologyChain, A::Hierarchical};
    static const std::vector<A> scatter{A::Flat, A::Mst, A::Hierarchical};
    static const std::vector<A> reduce{A::Flat, A::Mst, A::Chain, A::TopologyChain, A::Hierarchical};
    static const std::vector<A> allreduce{A::Flat,         A::Mst,         A::Ring, A::RecursiveDoubling,
                                          A::Rabenseifner, A::Hierarchical};
    static const std::vector<A> allgather{A::Flat, A::Ring, A::RecursiveDoubling, A::Hierarchical};
    static const std::vector<A> alltoall{A::Flat, A::Hypercube, A::Hierarchical};
    switch (op) {
    case Operation::Broadcast:
        return broadcast;
    case Operation::Scatter:
    case Operation::Gather:
        return scatter;
    case Operation::Reduce:
        return reduce;
    case Operation::Allreduce:
        return allreduce;
    case Operation::Allgather:
        return allgather;
    case Operation::Alltoall:
    case Operation::Shuffle:
        return alltoall;
    }
    return broadcast;
}

std::string algorithmList(Operation op)
{
    std::string out;
    for (Algorithm a : algorithmsFor(op))
        out += (out.empty() ? "" : ", ") + std::string(algorithmId(a));
    return out;
}

bool takesChunks(Algorithm algorithm) { return algorithm == Algorithm::Chain || algorithm == Algorithm::TopologyChain; }

} // namespace meridian::collectives
