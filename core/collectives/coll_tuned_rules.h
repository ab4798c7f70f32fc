#pragma once

#include "core/common/expected.h"

#include <string>
#include <vector>

namespace meridian::collectives {

/// The collectives a coll_tuned dynamic rules file can choose for, by Open MPI's COLLTYPE id.
enum class TunedOperation {
    Allgather = 0,
    Allreduce = 2,
    Alltoall = 3,
    Bcast = 7,
    Gather = 9,
    Reduce = 11,
    Scatter = 15
};

/// Open MPI's name of the operation ("bcast", ...).
const char* tunedOperationName(TunedOperation op);
/// How many algorithms coll_tuned offers for the operation (ids 1..count; 0 leaves the choice to Open MPI), as
/// `ompi_info --param coll tuned --level 9` lists them for Open MPI 4.1 (Debian 12).
int tunedAlgorithmCount(TunedOperation op);

/// From `fromBytes` on (up to the next rule's size), the algorithm, its fan-in/out (0 = its default) and its
/// segment size in bytes (0 = not segmented).
struct TunedRule {
    long long fromBytes = 0;
    int algorithm = 0;
    int fanInOut = 0;
    long long segmentBytes = 0;
};

/// The rules for communicators of `communicatorSize` processes (and larger, up to the next size listed).
struct TunedCommunicator {
    int communicatorSize = 1;
    std::vector<TunedRule> rules;
};

struct TunedCollective {
    TunedOperation operation = TunedOperation::Bcast;
    std::vector<TunedCommunicator> communicators;
};

/// The text of a coll_tuned dynamic rules file (read by `mpirun --mca coll_tuned_use_dynamic_rules 1 --mca
/// coll_tuned_dynamic_rules_filename F`): the collective count; per collective its id and communicator count; per
/// communicator its size and rule count; per rule "bytes algorithm fan_in_out segment". One line per item, with
/// a comment-free layout, because Open MPI ignores a file it cannot parse without a word.
///
/// Refused, with what is wrong and where: no collective, an operation listed twice, a collective without
/// communicators or a communicator without rules, communicator sizes not increasing from 1 or more, rules whose
/// sizes do not start at 0 and increase, an algorithm id outside 0..tunedAlgorithmCount, or a negative fan-in/out
/// or segment size.
Expected<std::string> collTunedRulesText(const std::vector<TunedCollective>& collectives);

} // namespace meridian::collectives
