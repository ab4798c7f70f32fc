#include "app/cli/cli_support.h"

#include "core/common/utc_date.h"
#include "core/io/journal.h"

#include "app/project/json_util.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>

namespace meridian::cli {

namespace {

volatile std::sig_atomic_t g_stopSignal = 0;

extern "C" void recordStopSignal(int signal) { g_stopSignal = signal; }

constexpr int kStopSignals[3] = {SIGINT, SIGTERM, SIGHUP};

} // namespace

struct StopSignals::Saved {
    struct sigaction old[3]{};
};

StopSignals::StopSignals()
    : m_saved(std::make_unique<Saved>())
{
    struct sigaction action {};
    action.sa_handler = recordStopSignal;
    sigemptyset(&action.sa_mask);
    for (int k = 0; k < 3; ++k)
        sigaction(kStopSignals[k], &action, &m_saved->old[k]);
}

StopSignals::~StopSignals()
{
    for (int k = 0; k < 3; ++k)
        sigaction(kStopSignals[k], &m_saved->old[k], nullptr);
}

int stopSignal() { return g_stopSignal; }

namespace {
const Ranks* g_ranks = &Ranks::single();
} // namespace

const Ranks& commandRanks() { return *g_ranks; }
void setCommandRanks(const Ranks& ranks) { g_ranks = &ranks; }

void addProgressOption(QCommandLineParser& parser)
{
    parser.addOption({"progress",
                      "Print the progress to standard error as it goes, one JSON object per line: "
                      "{\"progress\": 0.42, \"stage\": \"...\"} (0 to 1; rank 0 alone under a launcher)."});
}

Feedback::ProgressCallback progressPrinter(const QCommandLineParser& parser)
{
    if (!parser.isSet("progress") || !g_ranks->isRoot())
        return {};
    // The callback may come from several of the command's threads at once.
    struct Printer {
        std::mutex mutex;
        std::string stage;
        std::chrono::steady_clock::time_point last;
    };
    auto printer = std::make_shared<Printer>();
    return [printer](double fraction, std::string_view stage) {
        const auto now = std::chrono::steady_clock::now();
        const std::lock_guard lock(printer->mutex);
        const bool newStage = stage != printer->stage;
        if (!newStage && fraction < 1.0 && now - printer->last < std::chrono::milliseconds(100))
            return;
        printer->last = now;
        printer->stage.assign(stage);
        const QJsonObject line{{"progress", fraction}, {"stage", QString::fromStdString(std::string(stage))}};
        const QByteArray text = QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
        std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stderr);
        std::fflush(stderr);
    };
}

AddressSpace AddressSpace::now()
{
    AddressSpace space;
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly))
        return space;
    for (const QByteArray& line : status.readAll().split('\n')) {
        const auto kilobytes = [&line] { return line.mid(7).trimmed().split(' ').value(0).toDouble() * 1024.0; };
        if (line.startsWith("VmSize:"))
            space.size = kilobytes();
        else if (line.startsWith("VmPeak:"))
            space.peak = kilobytes();
    }
    return space;
}

std::string outOfMemoryMessage(const OutOfMemory& at)
{
    constexpr double kMegabyte = 1e6;
    // A rank of partition over ranks, as measured on one node (bench_distributed and meridian-cli's address space at
    // its start under mpirun: 271, 279, 290, 302, 323 and 348 MB at 1, 2, 4, 7, 12 and 18 ranks, 104 MB alone): its
    // start, growing by Open MPI's mappings for each more rank; a round's buffers; its share of the graph's records.
    constexpr double kLauncherStart = 167 * kMegabyte, kStartPerRank = 4.5 * kMegabyte;
    constexpr double kRoundBytes = 50 * kMegabyte;
    constexpr long long kMostRanks = 65535; // what partition over ranks takes
    const std::string plain = "out of memory: give the job more ranks, or each rank more memory";
    const double memory = at.limit > 0.0 ? at.limit : at.end.peak;
    const double start = at.start.size + (at.launched ? 0.0 : kLauncherStart);
    const auto whole = [](double x) { return std::to_string(static_cast<long long>(x)); };
    const auto mb = [&whole](double bytes) { return whole(bytes / kMegabyte) + " MB"; };
    // The fewest ranks above this job's whose rank fits `records` (bytes of the whole graph) in the memory, with
    // `each` (bytes every rank holds), or 0.
    const auto ranksFor = [&](double records, double each = 0.0) {
        for (long long r = at.ranks + 1; r <= kMostRanks; ++r) {
            const double rank = start + kStartPerRank * static_cast<double>(r - at.ranks) + kRoundBytes + each
                + records / static_cast<double>(r);
            if (rank <= memory)
                return r;
            if (kStartPerRank * static_cast<double>(r) > memory)
                break; // the start alone outgrows it from here on
        }
        return 0LL;
    };
    const std::string needs = "no number of ranks fits in " + mb(memory) + " each (a rank takes " + mb(start)
        + " before it reads, and " + QString::number(kStartPerRank / kMegabyte).toStdString()
        + " MB more for each more rank); give each rank more memory";
    if (at.held.fraction <= 0.0 || memory <= 0.0)
        return at.splits && at.limit > 0.0 && ranksFor(0.0) == 0 ? "out of memory: " + needs : plain;
    const std::string read = at.held.fraction < 0.01 ? "under 1%" : whole(at.held.fraction * 100.0) + "%";
    std::string said = "out of memory after reading " + read + " of " + (at.ranks > 1 ? "its share of " : "")
        + "the graph, at " + mb(at.end.peak) + " of address space"
        + (at.limit > 0.0 ? " (its limit, ulimit -v, is " + mb(at.limit) + ")" : "");
    if (!at.splits)
        return said
            + ": give the process more memory (only hash, HDRF in batches and Geo-Cut's stage 1 in batches split a "
              "graph over ranks)";
    const double edges = at.edgeBytes * at.held.edges / at.held.fraction;
    const double mostVertices = std::max(at.vertices, at.held.vertices);
    const long long fewest = ranksFor(at.vertexBytes * at.held.vertices + edges,
                                      at.vertexBytesEachRank * at.held.vertices);
    const long long most = ranksFor(at.vertexBytes * mostVertices + edges, at.vertexBytesEachRank * mostVertices);
    if (fewest == 0)
        return said + ": " + needs;
    const std::string count = fewest == most ? "about " + std::to_string(fewest)
        : most == 0                          ? "at least " + std::to_string(fewest)
                                             : std::to_string(fewest) + " to " + std::to_string(most);
    const std::string basis = "an estimate from its " + whole(at.held.vertices) + " vertices in the "
        + whole(at.held.edges) + " edges read"
        + (fewest == most  ? std::string()
               : most == 0 ? ": if these are nearly all its vertices; if new ones keep coming as they did, none"
                           : ": the fewest if these are nearly all its vertices, the most if new ones keep coming as "
                             "they did");
    return said + ": " + count + " ranks with as much memory each would hold the graph (" + basis
        + "), or give each rank more memory";
}

QJsonValue paramJson(const ParamValue& v)
{
    if (const auto* i = std::get_if<std::int64_t>(&v))
        return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&v))
        return *d;
    if (const auto* b = std::get_if<bool>(&v))
        return *b;
    return QString::fromStdString(std::get<std::string>(v));
}

QJsonObject paramsJson(const ParamValues& values)
{
    QJsonObject o;
    for (const auto& [name, value] : values.values())
        o[QString::fromStdString(name)] = paramJson(value);
    return o;
}

int refuseIfSplit(const QString& what)
{
    if (g_ranks->size() == 1)
        return -1;
    return usageError(
        what + " runs whole in one process, so " + QString::number(g_ranks->size())
        + " ranks would each do all of it: start it without mpirun (under a launcher, map --algorithm monte-carlo, "
          "map --algorithm scotch-bw or scotch-lat with --param parallel=true, compare, sweep, pareto and "
          "budget-sweep split their work over the ranks)");
}

int report(const Error& error)
{
    std::fprintf(stderr, "meridian-cli: error: %s\n", error.toString().c_str());
    return error.code == ErrorCode::Internal ? kExitInternal : kExitBadInput;
}

int usageError(const QString& message) { return report(makeError(ErrorCode::InvalidInput, message.toStdString())); }

// Parses the arguments; returns -1 to go on, or an exit code (help printed, or a usage error).
int parseArguments(QCommandLineParser& parser, const QStringList& arguments)
{
    const auto help = parser.addHelpOption();
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet(help)) {
        std::fputs(parser.helpText().toLocal8Bit().constData(), stdout);
        return kExitOk;
    }
    return -1;
}

Status outputsWritable(const QCommandLineParser& parser, const QStringList& outputs)
{
    for (const QString& option : outputs)
        if (parser.isSet(option))
            if (auto writable = io::checkWritable(parser.value(option).toStdString()); !writable)
                return writable.error();
    return {};
}

int checkOutputs(const QCommandLineParser& parser, const QStringList& outputs)
{
    if (auto writable = outputsWritable(parser, outputs); !writable)
        return report(writable.error());
    return -1;
}

int agreeToRun(const Status& prepared)
{
    if (auto agreed = agreeOn(*g_ranks, prepared); !agreed)
        return report(agreed.error());
    return -1;
}

void addCostBreakdown(QJsonObject& out, const cost::CostBreakdown& b, const model::Topology& topology)
{
    out["cost_s"] = b.total;
    out["latency_s"] = b.latencyPart;
    out["bandwidth_s"] = b.bandwidthPart;
    QJsonArray sites;
    for (int s = 0; s < topology.siteCount(); ++s)
        sites.append(QJsonObject{{"name", QString::fromStdString(topology.site(s).name)},
                                 {"load", b.load[s]},
                                 {"capacity", topology.capacity(s)}});
    out["sites"] = sites;
    out["traffic_bytes"] = matrixToJson(b.trafficBytes);
    out["time_s"] = matrixToJson(b.timeSeconds);
}

QJsonObject dollarsJson(const cost::Dollars& d)
{
    const auto value = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(); };
    return QJsonObject{{"egress_usd", value(d.egressUsd)},
                       {"instance_usd_per_hour", value(d.instanceUsdPerHour)},
                       {"instance_usd", value(d.instanceUsd)},
                       // What the instances are paid for: this command does not predict the run time (predict
                       // does, and the workbench charges a predicted run for it), so the traffic cost stands in.
                       {"instance_time", QStringLiteral("cost_s")},
                       {"total_usd", value(d.totalUsd)}};
}

} // namespace meridian::cli
