#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/partitioning/partition_files.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "core/io/sites_io.h"
#include "core/partition/builtin_partitioners.h"

#include <QCommandLineParser>
#include <QJsonObject>

#include <optional>

namespace meridian::cli {

namespace {

void addSiteOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {"project", "A project whose sites (with up/down bandwidth and prices) are used.", "file"},
        {"sites", "Sites as CSV or GeoJSON with up_MBps, down_MBps and egress_usd_per_GB.", "file"},
        {"profile", "Traffic profile: pagerank (default), sssp or subgraph-isomorphism.", "name", "pagerank"},
        {"active-fraction", "sssp: share of vertices active per iteration (default 0.1).", "share", "0.1"},
        {"budget", "WAN budget per iteration in USD (eq. 6).", "usd"},
        {"param", "Algorithm parameter key=value (repeatable).", "key=value"},
        {"seed", "Random seed (default 1).", "n", "1"},
    });
}

Expected<model::Topology> loadSites(const QCommandLineParser& parser)
{
    if (parser.isSet("project") == parser.isSet("sites"))
        return makeError(ErrorCode::InvalidInput, "name the sites with exactly one of --project or --sites");
    if (parser.isSet("project")) {
        auto project = document::ProjectFile::load(parser.value("project"));
        if (!project)
            return project.error();
        return project->topology;
    }
    return io::loadTopology(parser.value("sites").toStdString());
}

Expected<std::optional<double>> parseBudget(const QCommandLineParser& parser)
{
    if (!parser.isSet("budget"))
        return std::optional<double>();
    bool ok = false;
    const double b = parser.value("budget").toDouble(&ok);
    if (!ok || !(b >= 0.0))
        return makeError(ErrorCode::InvalidInput,
                         "--budget must be a non-negative number of USD, not '" + parser.value("budget").toStdString()
                             + "'");
    return std::optional<double>(b);
}

/// The sites, profile, budget, parameters and seed the options give.
Expected<ops::GasSettings> gasSettings(const QCommandLineParser& parser)
{
    ops::GasSettings settings;
    auto budget = parseBudget(parser);
    if (!budget)
        return budget.error();
    settings.budgetUsd = *budget;
    bool seedOk = false;
    settings.seed = parser.value("seed").toULongLong(&seedOk);
    if (!seedOk)
        return makeError(ErrorCode::InvalidInput, "--seed must be a non-negative integer");
    for (const auto& p : parser.values("param"))
        settings.params.push_back(p.toStdString());
    settings.profile = parser.value("profile").toStdString();
    bool activeOk = false;
    const double active = parser.value("active-fraction").toDouble(&activeOk);
    settings.activeFraction = activeOk ? active : -1.0;
    return settings;
}

/// The settings the options give, the partitioner `algorithm` checked against them before the sites are read.
Expected<ops::GasSettings> checkedSettings(const QCommandLineParser& parser, const std::string& algorithm,
                                           const Registry<partition::Partitioner>& registry)
{
    auto settings = gasSettings(parser);
    if (!settings)
        return settings.error();
    if (auto checked = ops::checkPartitioning(algorithm, *settings, registry); !checked)
        return checked.error();
    auto topology = loadSites(parser);
    if (!topology)
        return topology.error();
    settings->topology = std::move(*topology);
    return settings;
}

std::string optionalPath(const QCommandLineParser& parser, const QString& option)
{
    return parser.isSet(option) ? parser.value(option).toStdString() : std::string();
}

void addPartitionOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(
        "Partitions a graph's edges across geo-distributed sites (vertex-cut) and prints JSON: replication factor, "
        "inter-DC transfer time per GAS iteration (s), WAN cost (USD) and bytes, per-site upload, the bottleneck "
        "links, budget status, each phase's seconds, edges per second of the whole command and peak memory. Writes "
        "one 'src dst site' line per input edge (--out) and one 'vertex site' line per master (--masters), only on "
        "success. A binary edge cache makes a second load of the same file fast.");
    parser.addOption({"graph", "The graph file.", "file"});
    parser.addOption({"format", "snap (default), metis or mtx.", "format", "snap"});
    parser.addOption(
        {"algorithm", "Partitioner: hash, greedy, hdrf, graph-h, g-cut, geo-cut (default).", "id", "geo-cut"});
    parser.addOption(
        {"homes", "Home site of each vertex: 'vertex site' lines; vertices not listed get a random home.", "file"});
    parser.addOption({"out", "Write the edge partition (src dst site per line).", "file"});
    parser.addOption({"masters", "Write the master site of every vertex.", "file"});
    parser.addOption({"no-cache", "Do not read or write the binary edge cache."});
    addSiteOptions(parser);
}

} // namespace

int runPartition(const QStringList& arguments)
{
    QCommandLineParser parser;
    addPartitionOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("graph") || !parser.isSet("out"))
        return usageError("--graph and --out are required");
    if (int code = agreeToRun(outputsWritable(parser, {"out", "masters"})); code >= 0)
        return code;
    ops::PartitionFilesRequest request;
    auto format = io::graphFormatFromId(parser.value("format").toStdString());
    if (!format)
        return report(format.error());
    request.format = *format;
    Registry<partition::Partitioner> registry;
    partition::registerBuiltinPartitioners(registry);
    request.algorithm = parser.value("algorithm").toStdString();
    // Under a launcher a rank that cannot read the sites stops every rank (agreeToRun), not only itself.
    auto settings = checkedSettings(parser, request.algorithm, registry);
    if (int code = agreeToRun(statusOf(settings)); code >= 0)
        return code;
    request.settings = std::move(*settings);
    request.graphPath = parser.value("graph").toStdString();
    request.useCache = !parser.isSet("no-cache");
    request.homesPath = optionalPath(parser, "homes");
    request.edgesPath = parser.value("out").toStdString();
    request.mastersPath = optionalPath(parser, "masters");
    Feedback feedback;
    feedback.setRanks(commandRanks());
    auto result = ops::partitionFiles(request, registry, feedback);
    if (!result)
        return report(result.error());
    printJson(ops::partitionFilesJson(*result, request.settings.topology));
    return kExitOk;
}

int runUpdate(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Applies edge deletions and insertions to a partition written by 'partition' (Geo-Cut Section 5): inserted "
        "edges are placed by Geo-Cut's streaming rule, and Geo-Cut's refinement runs whenever the traffic a site has "
        "seen change passes --threshold of its traffic. Prints the metrics after the update (and, with --from-scratch, "
        "those of repartitioning the updated graph from nothing with --algorithm) as JSON; writes --out and "
        "--masters-out only on success.");
    parser.addOption({"partition", "The edge partition to update (src dst site lines).", "file"});
    parser.addOption({"masters", "Its masters (vertex site lines, from 'partition --masters').", "file"});
    parser.addOption({"homes", "Home sites, used as masters when --masters is not given.", "file"});
    parser.addOption({"insert", "Edges to insert (src dst lines).", "file"});
    parser.addOption({"delete", "Edges to delete (src dst lines).", "file"});
    parser.addOption(
        {"threshold", "Traffic change that triggers refinement, as a share (default 0.1).", "share", "0.1"});
    parser.addOption({"from-scratch", "Also repartition the updated graph from scratch, for comparison."});
    parser.addOption({"algorithm", "Partitioner for --from-scratch (default geo-cut).", "id", "geo-cut"});
    parser.addOption({"out", "Write the updated edge partition.", "file"});
    parser.addOption({"masters-out", "Write the updated masters.", "file"});
    addSiteOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("partition") || !parser.isSet("out"))
        return usageError("--partition and --out are required");
    if (int code = checkOutputs(parser, {"out", "masters-out"}); code >= 0)
        return code;
    if (!parser.isSet("masters") && !parser.isSet("homes"))
        return usageError("give --masters (written by 'partition --masters') or --homes");
    ops::UpdateFilesRequest request;
    bool ok = false;
    request.threshold = parser.value("threshold").toDouble(&ok);
    if (!ok || !(request.threshold > 0.0))
        return usageError("--threshold must be a positive share, e.g. 0.1");
    Registry<partition::Partitioner> registry;
    partition::registerBuiltinPartitioners(registry);
    request.scratchAlgorithm = parser.value("algorithm").toStdString();
    if (!registry.find(request.scratchAlgorithm))
        return usageError("unknown partitioner '" + parser.value("algorithm") + "'");
    auto settings = checkedSettings(parser, "geo-cut", registry);
    if (!settings)
        return report(settings.error());
    request.settings = std::move(*settings);
    request.partitionPath = parser.value("partition").toStdString();
    request.mastersPath = optionalPath(parser, "masters");
    request.homesPath = optionalPath(parser, "homes");
    request.insertPath = optionalPath(parser, "insert");
    request.deletePath = optionalPath(parser, "delete");
    request.fromScratch = parser.isSet("from-scratch");
    request.edgesOutPath = parser.value("out").toStdString();
    request.mastersOutPath = optionalPath(parser, "masters-out");
    auto result = ops::updateFiles(request, registry, Feedback());
    if (!result)
        return report(result.error());
    printJson(ops::updateFilesJson(*result, request.settings.topology));
    return kExitOk;
}

} // namespace meridian::cli
