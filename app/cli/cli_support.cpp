#include "app/cli/cli_support.h"

#include "core/common/utc_date.h"
#include "core/io/journal.h"

#include "app/project/json_util.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <chrono>
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

int refuseIfSplit(const QString& what)
{
    if (g_ranks->size() == 1)
        return -1;
    return usageError(what + " runs whole in one process, so " + QString::number(g_ranks->size())
                      + " ranks would each do all of it: start it without mpirun (under a launcher, map "
                        "--algorithm monte-carlo, compare, sweep and pareto split their work over the ranks)");
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
