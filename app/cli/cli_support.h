#pragma once

#include "app/cli/commands.h"
#include "app/project/json_util.h"
#include "app/project/project.h"
#include "core/common/error.h"
#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/common/held_share.h"
#include "core/common/param.h"
#include "core/common/ranks.h"
#include "core/common/registry.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/cost/dollars.h"
#include "core/cost/instance_metrics.h"
#include "core/model/network.h"
#include "core/model/network_estimator.h"
#include "core/model/topology.h"
#include "core/synth/patterns.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace meridian::cli {

using document::distanceModelJson;
using document::instanceJson;
using document::matrixToJson;
using document::printJson;

/// The ranks an MPI launcher started meridian-cli as (Ranks::single() without one); main() sets them. The
/// commands that split their work (map with monte-carlo, compare, sweep, pareto) hand them to their operation's Feedback; rank 0
/// alone writes files and prints, the other ranks' standard output and error go to /dev/null.
const Ranks& commandRanks();
void setCommandRanks(const Ranks& ranks);
/// Refuses, under a launcher of more than one process, a command or algorithm that runs whole on one process;
/// returns -1 to go on, or the exit code of the refusal.
int refuseIfSplit(const QString& what);

/// Adds --progress: rank 0 prints the command's progress to standard error as it goes, one JSON object per line,
/// {"progress": 0.42, "stage": "sampling"} (progress from 0 to 1), at most ten lines a second but every change of
/// stage: what the workbench reads from a run it sent to a launcher.
void addProgressOption(QCommandLineParser& parser);
/// The progress callback of a command's Feedback: prints as --progress says when the option is set, else none.
Feedback::ProgressCallback progressPrinter(const QCommandLineParser& parser);

/// A process's address space, in bytes, as /proc/self/status gives it.
struct AddressSpace {
    double size = 0.0; ///< VmSize
    double peak = 0.0; ///< VmPeak
    static AddressSpace now();
};

/// Where an allocation failed, for outOfMemoryMessage.
struct OutOfMemory {
    int ranks = 1;
    bool launched = false;     ///< whether an MPI launcher started the process (its address space includes Open MPI's)
    bool splits = false;       ///< whether the command can run over more ranks (held_share::splits)
    double edgeBytes = 1.0;    ///< what its ranks hold per edge of the graph, together (held_share::edgeBytes)
    double vertexBytes = 75.0; ///< and per vertex
    double vertexBytesEachRank = 0.0; ///< what each rank holds per vertex, whatever their number
    HeldPoint held;                   ///< what it had read (held_share::last; fraction 0: it does not say)
    double vertices = 0.0;            ///< the graph's vertices projected to the whole (held_share::projectedVertices)
    AddressSpace start;               ///< the process's address space when the command started
    AddressSpace end;                 ///< and now
    double limit = 0.0; ///< the limit on it (`ulimit -v`), 0 for none: then the peak is the memory a rank has
};

/// What meridian-cli says when an allocation fails. When the command reported what it read and can run over more
/// ranks, the message says how many ranks would each hold their share within as much memory: the fewest, from as
/// many vertices as were read, and the most, from the projected ones, by what a rank of `partition` over ranks takes
/// as measured on one node (the address space it starts with under a launcher, 4.5 MB more for each more rank,
/// 50 MB of a round's buffers, and the command's bytes per vertex and per edge of the graph over the ranks: 75
/// and 1 for hash, 79 and 9 for a stream in batches: HDRF's, Geo-Cut's stage 1). When no number of
/// ranks would fit, it says what a rank takes before it reads. A command that runs whole in one process is told to
/// get more memory.
std::string outOfMemoryMessage(const OutOfMemory& at);

/// Prints an error to standard error and returns the exit code for it (1 internal, 2 otherwise).
int report(const Error& error);
/// Reports a usage error (bad or missing options) and returns kExitBadInput.
int usageError(const QString& message);
/// Adds --help and parses `arguments`; returns -1 to go on, or an exit code (help printed, or a usage error).
int parseArguments(QCommandLineParser& parser, const QStringList& arguments);
/// Under several ranks, tells every rank whether each one read and checked the command's inputs (`prepared`): a
/// project only some nodes can see, or a file that changed between their reads, stops every rank at once, with
/// rank 0 printing the first failure; alone, just reports `prepared`'s error. Returns -1 to go on, or the exit
/// code. A split command calls it after its last check and before its operation; every rank calls it.
int agreeToRun(const Status& prepared);
/// An Expected's outcome without its value, for agreeToRun.
template <typename T>
Status statusOf(const Expected<T>& e)
{
    if (e)
        return {};
    return e.error();
}
/// The check of checkOutputs, as a value (rank 0 alone writes, so only rank 0 checks).
Status outputsWritable(const QCommandLineParser& parser, const QStringList& outputs);
/// Checks that the files the options `outputs` name can be written (io::checkWritable), before a command computes
/// anything; returns -1 to go on, or the exit code of the refusal.
int checkOutputs(const QCommandLineParser& parser, const QStringList& outputs);
/// While one exists, SIGINT, SIGTERM and SIGHUP do not end meridian-cli at once: they set stopSignal(), which a
/// long command's Feedback polls to cancel its child processes (a capture's command, an SMPI replay in a process
/// group of its own that the terminal's Ctrl-C does not reach) and clean up; the destructor restores the
/// default handlers.
class StopSignals {
public:
    StopSignals();
    ~StopSignals();
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

private:
    struct Saved;
    std::unique_ptr<Saved> m_saved;
};

/// The signal that asked the command to stop, 0 while none did.
int stopSignal();

/// Adds a cost breakdown to `out`: cost_s, latency_s, bandwidth_s, per-site load and capacity, and the
/// site x site traffic_bytes and time_s matrices.
void addCostBreakdown(QJsonObject& out, const cost::CostBreakdown& breakdown, const model::Topology& topology);
/// Returns the summary `meridian-cli info` prints: sites, total slots, the completed network and how it was
/// estimated, and the applications (processes, nonzeros, bytes, messages, pins).
QJsonObject projectInfoJson(const document::Project& project);
/// Adds the options of a generated communication pattern (--processes, --iterations, ...).
void addPatternOptions(QCommandLineParser& parser);
/// Reads the pattern options; a malformed number is an InvalidInput error naming the options.
Expected<synth::PatternOptions> patternOptions(const QCommandLineParser& parser);

/// A parameter's value as JSON: a number, a boolean or a string as it is.
QJsonValue paramJson(const ParamValue& value);
/// An algorithm's parameter values as JSON, by name.
QJsonObject paramsJson(const ParamValues& values);

/// An id no algorithm of `registry` has, as an error naming the ones it has.
template <typename Algorithm>
Error unknownAlgorithm(const std::string& id, const Registry<Algorithm>& registry)
{
    std::string known;
    for (const auto& k : registry.ids())
        known += (known.empty() ? "" : ", ") + k;
    return makeError(ErrorCode::InvalidInput, "unknown algorithm '" + id + "' (known: " + known + ")");
}

/// The algorithms `ids` names, in that order, each with the parameters the repeatable --param id:key=value gives it.
/// An unknown id, a malformed or unknown parameter and a --param for an algorithm not named are errors.
template <typename Algorithm>
Expected<std::vector<std::pair<std::string, ParamValues>>> algorithmsWithParams(const QCommandLineParser& parser,
                                                                                const Registry<Algorithm>& registry,
                                                                                const std::vector<std::string>& ids)
{
    std::map<std::string, std::vector<std::string>> assignments;
    for (const auto& p : parser.values("param")) {
        const auto colon = p.indexOf(':');
        if (colon <= 0)
            return makeError(ErrorCode::InvalidInput, "--param must be id:key=value, not '" + p.toStdString() + "'");
        assignments[p.left(colon).toStdString()].push_back(p.mid(colon + 1).toStdString());
    }
    std::vector<std::pair<std::string, ParamValues>> chosen;
    for (const auto& id : ids) {
        const Algorithm* algorithm = registry.find(id);
        if (!algorithm)
            return unknownAlgorithm(id, registry);
        auto v = ParamValues::parse(algorithm->parameters(), assignments[id]);
        if (!v)
            return makeError(v.error().code, id + ": " + v.error().message);
        chosen.emplace_back(id, std::move(*v));
    }
    for (const auto& [id, list] : assignments)
        if (std::find(ids.begin(), ids.end(), id) == ids.end())
            return makeError(ErrorCode::InvalidInput,
                             "--param names '" + id + "', which is not among the algorithms run");
    return chosen;
}

/// The dollars of a placement; a part without prices is null.
QJsonObject dollarsJson(const cost::Dollars& dollars);

} // namespace meridian::cli
