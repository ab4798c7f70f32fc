#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/partitioning/budget_sweep.h"
#include "app/partitioning/partition_files.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "core/io/sites_io.h"
#include "core/io/text_file.h"
#include "core/partition/builtin_partitioners.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
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
    parser.addOption({"homes-seed", "Seed of the random homes (default: --seed).", "n"});
    parser.addOption({"out", "Write the edge partition (src dst site per line).", "file"});
    parser.addOption({"masters", "Write the master site of every vertex.", "file"});
    parser.addOption({"no-cache", "Do not read or write the binary edge cache."});
    parser.addOption({"json-out", "Also write the JSON it prints to this file.", "file"});
    addSiteOptions(parser);
    addProgressOption(parser);
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
    if (int code = agreeToRun(outputsWritable(parser, {"out", "masters", "json-out"})); code >= 0)
        return code;
    ops::PartitionFilesRequest request;
    auto format = io::graphFormatFromId(parser.value("format").toStdString());
    if (!format)
        return report(format.error());
    request.format = *format;
    if (parser.isSet("homes-seed")) {
        bool ok = false;
        request.homesSeed = parser.value("homes-seed").toULongLong(&ok);
        if (!ok)
            return usageError("--homes-seed must be a non-negative integer");
    }
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
    Feedback feedback(progressPrinter(parser));
    feedback.setRanks(commandRanks());
    auto result = ops::partitionFiles(request, registry, feedback);
    if (!result)
        return report(result.error());
    const QJsonObject json = ops::partitionFilesJson(*result, request.settings.topology);
    if (parser.isSet("json-out") && commandRanks().rank() == 0) {
        const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Indented);
        if (auto written = io::writeTextFileAtomically(parser.value("json-out").toStdString(), text.toStdString());
            !written)
            return report(written.error());
    }
    printJson(json);
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

namespace {

/// A budget sweep's JSON: B and where it came from, the bound, the fractions skipped and a row per point.
QJsonObject budgetSweepJson(const ops::BudgetSweepResult& r, const ops::BudgetSweepRequest& request)
{
    QJsonArray skipped, points;
    for (const double f : r.skipped)
        skipped.append(f);
    for (const auto& p : r.points)
        points.append(QJsonObject{{"fraction", p.fraction},
                                  {"budget_usd", p.budgetUsd},
                                  {"algorithm", QString::fromStdString(p.algorithm)},
                                  {"transfer_time_s", p.transferSeconds},
                                  {"gather_time_s", p.gatherSeconds},
                                  {"apply_time_s", p.applySeconds},
                                  {"wan_usd", p.wanUsd},
                                  {"wan_bytes", p.wanBytes},
                                  {"replication_factor", p.replicationFactor},
                                  {"within_budget", p.overBudgetUsd == 0.0},
                                  {"over_budget_usd", p.overBudgetUsd},
                                  {"runtime_s", p.runtimeSeconds}});
    QJsonObject parameters;
    for (const auto& [id, values] : request.partitioners)
        parameters[QString::fromStdString(id)] = paramsJson(values);
    return QJsonObject{{"graph", QString::fromStdString(request.graph)},
                       {"profile", QString::fromStdString(request.profile)},
                       {"seed", static_cast<double>(request.seed)},
                       {"budget_usd", r.budgetUsd},
                       {"budget_from", r.budgetFromGraphH ? "graph-h" : "given"},
                       {"cost_bound_usd", r.costBoundUsd},
                       {"parameters", parameters},
                       {"skipped_fractions", skipped},
                       {"points", points}};
}

void printBudgetSweepCsv(const ops::BudgetSweepResult& r)
{
    std::printf("fraction,budget_usd,algorithm,transfer_time_s,wan_usd,replication_factor,over_budget_usd,runtime_s\n");
    for (const auto& p : r.points)
        std::printf("%.9g,%.9g,%s,%.9g,%.9g,%.9g,%.9g,%.6g\n", p.fraction, p.budgetUsd, p.algorithm.c_str(),
                    p.transferSeconds, p.wanUsd, p.replicationFactor, p.overBudgetUsd, p.runtimeSeconds);
}

} // namespace

int runBudgetSweep(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Sweeps the WAN budget of a project's graph (Geo-Cut Figs. 19-20): each partitioner runs at each fraction of "
        "a budget B, by default GrapH's WAN cost, and its transfer time, WAN cost and whether it met the budget are "
        "printed. Fractions whose budget is below the lowest cost any partition can reach are skipped and named. "
        "Under mpirun the (fraction, partitioner) points are split over the ranks, with the same result.");
    parser.addOptions({
        {"project", "The project with the graph and its sites.", "file"},
        {"graph", "The graph's name in the project (default: its first graph).", "name"},
        {"algorithms", "Comma-separated partitioner ids (default geo-cut,g-cut).", "ids", "geo-cut,g-cut"},
        {"budget", "B in USD per iteration (default: GrapH's WAN cost, Geo-Cut's setting).", "usd"},
        {"fractions", "Comma-separated fractions of B (default 1,0.9,0.8,0.7,0.6).", "list", "1,0.9,0.8,0.7,0.6"},
        {"profile", "Traffic profile: pagerank (default), sssp or subgraph-isomorphism.", "name", "pagerank"},
        {"active-fraction", "sssp: share of vertices active per iteration (default 0.1).", "share", "0.1"},
        {"param", "Parameter for one partitioner: id:key=value (repeatable).", "id:key=value"},
        {"seed", "Random seed (default 1).", "n", "1"},
        {"format", "json (default) or csv.", "format", "json"},
    });
    addProgressOption(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("project"))
        return usageError("--project is required: the sweep partitions a graph of a project (add one with "
                          "'meridian-cli project import-graph')");
    const QString format = parser.value("format");
    if (format != "json" && format != "csv")
        return usageError("--format must be json or csv, not '" + format + "'");
    ops::BudgetSweepRequest request;
    auto budget = parseBudget(parser);
    if (!budget)
        return report(budget.error());
    if (*budget && **budget <= 0.0)
        return usageError("--budget must be above 0 USD: a sweep takes fractions of it");
    request.budgetUsd = *budget;
    auto fractions = ops::parseBudgetFractions(parser.value("fractions").toStdString());
    if (!fractions)
        return report(prefixedBy("--fractions")(fractions.error()));
    request.fractions = std::move(*fractions);
    bool ok = false;
    request.seed = parser.value("seed").toULongLong(&ok);
    if (!ok)
        return usageError("--seed must be a non-negative integer");
    request.profile = parser.value("profile").toStdString();
    request.activeFraction = parser.value("active-fraction").toDouble(&ok);
    if (!ok)
        return usageError("--active-fraction must be a number, not '" + parser.value("active-fraction") + "'");
    if (auto profile = cost::TrafficProfile::fromId(request.profile, request.activeFraction); !profile)
        return report(profile.error());
    Registry<partition::Partitioner> registry;
    partition::registerBuiltinPartitioners(registry);
    std::vector<std::string> ids;
    for (const auto& part : parser.value("algorithms").split(',', Qt::SkipEmptyParts))
        ids.push_back(part.trimmed().toStdString());
    auto chosen = algorithmsWithParams(parser, registry, ids);
    if (!chosen)
        return report(chosen.error());
    if (chosen->empty())
        return usageError("--algorithms names no partitioner");
    request.partitioners = std::move(*chosen);
    auto project = document::ProjectFile::load(parser.value("project"));
    if (project && parser.isSet("graph") && project->graphIndex(parser.value("graph").toStdString()) < 0)
        project = makeError(ErrorCode::InvalidInput,
                            "the project has no graph '" + parser.value("graph").toStdString() + "'",
                            {parser.value("project").toStdString()});
    if (project && project->graphs.empty())
        project = makeError(ErrorCode::InvalidInput,
                            "the project has no graph to sweep; add one with 'meridian-cli project import-graph'",
                            {parser.value("project").toStdString()});
    // Every rank read the project: all go on, or all stop with the first failure.
    if (int code = agreeToRun(statusOf(project)); code >= 0)
        return code;
    request.graph = parser.isSet("graph") ? parser.value("graph").toStdString() : project->graphs.front().name;
    request.project = std::make_shared<const document::Project>(std::move(*project));
    Feedback feedback(progressPrinter(parser));
    feedback.setRanks(commandRanks());
    auto swept = ops::runBudgetSweep(request, registry, feedback);
    if (!swept)
        return report(swept.error());
    if (format == "csv") {
        printBudgetSweepCsv(*swept);
        // The table has no place for what was not run: say it beside it.
        if (!swept->skipped.empty() && commandRanks().isRoot()) {
            std::string fractions;
            for (const double f : swept->skipped)
                fractions += (fractions.empty() ? "" : ", ") + QString::number(f).toStdString() + " B";
            std::fprintf(stderr,
                         "meridian-cli: not run, below the lowest cost any partition can reach (%.6g USD): %s\n",
                         swept->costBoundUsd, fractions.c_str());
        }
    } else
        printJson(budgetSweepJson(*swept, request));
    return kExitOk;
}

} // namespace meridian::cli
