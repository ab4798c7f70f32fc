#include "core/collectives/coll_tuned_rules.h"

#include <set>

namespace meridian::collectives {

namespace {

/// Open MPI 4.1's names and algorithm counts (`ompi_info --param coll tuned --level 9`).
struct OperationInfo {
    TunedOperation operation;
    const char* name;
    int algorithms;
};

constexpr OperationInfo kOperations[] = {
    {TunedOperation::Allgather, "allgather", 6}, // linear, bruck, recursive_doubling, ring, neighbor, two_proc
    {TunedOperation::Allreduce, "allreduce", 6}, // basic_linear, nonoverlapping, recursive_doubling, ring,
                                                 // segmented_ring, rabenseifner
    {TunedOperation::Alltoall, "alltoall", 5},   // linear, pairwise, modified_bruck, linear_sync, two_proc
    {TunedOperation::Bcast, "bcast", 9},         // basic_linear, chain, pipeline, split_binary_tree, binary_tree,
                                                 // binomial, knomial, scatter_allgather, scatter_allgather_ring
    {TunedOperation::Gather, "gather", 3},       // basic_linear, binomial, linear_sync
    {TunedOperation::Reduce, "reduce", 7},       // linear, chain, pipeline, binary, binomial, in-order_binary,
                                                 // rabenseifner
    {TunedOperation::Scatter, "scatter", 3},     // basic_linear, binomial, linear_nb
};

const OperationInfo* infoOf(TunedOperation op)
{
    for (const OperationInfo& info : kOperations)
        if (info.operation == op)
            return &info;
    return nullptr;
}

} // namespace

const char* tunedOperationName(TunedOperation op)
{
    const OperationInfo* info = infoOf(op);
    return info ? info->name : "?";
}

int tunedAlgorithmCount(TunedOperation op)
{
    const OperationInfo* info = infoOf(op);
    return info ? info->algorithms : 0;
}

namespace {

Error refused(const std::string& what) { return makeError(ErrorCode::InvalidInput, "coll_tuned rules: " + what); }

Status checkCommunicator(const TunedCollective& c, const TunedCommunicator& comm)
{
    const std::string where = std::string(tunedOperationName(c.operation)) + " on "
        + std::to_string(comm.communicatorSize) + " processes";
    if (comm.rules.empty())
        return refused(where + " has no rule");
    const int count = tunedAlgorithmCount(c.operation);
    for (std::size_t r = 0; r < comm.rules.size(); ++r) {
        const TunedRule& rule = comm.rules[r];
        const std::string at = where + ", rule " + std::to_string(r + 1);
        if (r == 0 && rule.fromBytes != 0)
            return refused(at + " starts at " + std::to_string(rule.fromBytes)
                           + " bytes; the first rule must start at 0 so that every message size has one");
        if (r > 0 && rule.fromBytes <= comm.rules[r - 1].fromBytes)
            return refused(at + " starts at " + std::to_string(rule.fromBytes) + " bytes, not above the rule before ("
                           + std::to_string(comm.rules[r - 1].fromBytes) + ")");
        if (rule.algorithm < 0 || rule.algorithm > count)
            return refused(at + " names algorithm " + std::to_string(rule.algorithm) + "; "
                           + tunedOperationName(c.operation) + " has algorithms 1.." + std::to_string(count)
                           + " (0 leaves the choice to Open MPI)");
        if (rule.fanInOut < 0 || rule.segmentBytes < 0)
            return refused(at + " has a negative fan-in/out or segment size");
    }
    return {};
}

} // namespace

Expected<std::string> collTunedRulesText(const std::vector<TunedCollective>& collectives)
{
    if (collectives.empty())
        return refused("no collective to write");
    std::set<TunedOperation> seen;
    std::string out = std::to_string(collectives.size()) + "\n";
    for (const TunedCollective& c : collectives) {
        const std::string name = tunedOperationName(c.operation);
        if (!seen.insert(c.operation).second)
            return refused(name + " is listed twice");
        if (c.communicators.empty())
            return refused(name + " has no communicator size");
        out += std::to_string(static_cast<int>(c.operation)) + "\n" + std::to_string(c.communicators.size()) + "\n";
        for (std::size_t k = 0; k < c.communicators.size(); ++k) {
            const TunedCommunicator& comm = c.communicators[k];
            if (comm.communicatorSize < 1 || (k > 0 && comm.communicatorSize <= c.communicators[k - 1].communicatorSize))
                return refused(name + ": communicator sizes must be 1 or more and increase; found "
                               + std::to_string(comm.communicatorSize)
                               + (k > 0 ? " after " + std::to_string(c.communicators[k - 1].communicatorSize) : ""));
            if (auto ok = checkCommunicator(c, comm); !ok)
                return ok.error();
            out += std::to_string(comm.communicatorSize) + "\n" + std::to_string(comm.rules.size()) + "\n";
            for (const TunedRule& rule : comm.rules)
                out += std::to_string(rule.fromBytes) + " " + std::to_string(rule.algorithm) + " "
                    + std::to_string(rule.fanInOut) + " " + std::to_string(rule.segmentBytes) + "\n";
        }
    }
    return out;
}

} // namespace meridian::collectives
