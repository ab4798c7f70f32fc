#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/cli/problem_loader.h"
#include "app/mapping/compare_operation.h"
#include "app/mapping/launched_mapping.h"
#include "app/mapping/map_operation.h"
#include "app/mapping/sweep_operation.h"
#include "app/project/json_util.h"
#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "app/project/run_file.h"
#include "core/cost/instance_metrics.h"
#include "core/cost/pareto_front.h"
#include "core/io/launcher_files.h"
#include "core/io/placement_io.h"
#include "core/io/text_file.h"
#include "core/mapping/builtin_mappers.h"
#include "core/sim/replay.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace meridian::cli {

namespace {

using mapping::Mapper;
using mapping::MappingProblem;
using mapping::MappingResult;

QJsonArray stringsJson(const std::vector<std::string>& list)
{
    QJsonArray a;
    for (const auto& s : list)
        a.append(QString::fromStdString(s));
    return a;
}

double quantile(std::vector<double> sorted, double q)
{
    if (sorted.empty())
        return std::nan("");
    const auto i = static_cast<std::size_t>(std::clamp(q, 0.0, 1.0) * static_cast<double>(sorted.size() - 1));
    return sorted[i];
}

} // namespace

int runListAlgorithms(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("Lists the process mappers as JSON: id, description, and each parameter's type, "
                                     "default, range or choices, and help. Use the ids with 'map --algorithm' and the "
                                     "parameters with '--param key=value'.");
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    Registry<Mapper> registry;
    mapping::registerBuiltinMappers(registry);
    QJsonArray list;
    for (const Mapper* m : registry.all()) {
        QJsonArray params;
        for (const auto& spec : m->parameters()) {
            QJsonObject p{{"name", QString::fromStdString(spec.name)},
                          {"type", QString::fromStdString(std::string(paramTypeId(spec.type)))},
                          {"default", paramJson(spec.defaultValue)},
                          {"help", QString::fromStdString(spec.help)}};
            if (spec.type == ParamType::Int || spec.type == ParamType::Double) {
                p["minimum"] = spec.minimum;
                p["maximum"] = spec.maximum;
            }
            if (spec.type == ParamType::Choice)
                p["choices"] = stringsJson(spec.choices);
            params.append(p);
        }
        list.append(QJsonObject{{"id", QString::fromStdString(std::string(m->id()))},
                                {"description", QString::fromStdString(std::string(m->description()))},
                                {"parameters", params}});
    }
    printJson(QJsonObject{{"algorithms", list}});
    return kExitOk;
}

namespace {

/// How to launch each launcher file written (by option), also printed on stderr with a warning when the file
/// names placeholder hosts.
QJsonObject launchAdvice(const QCommandLineParser& parser, const model::Placement& placement,
                         const model::Topology& topology)
{
    const std::pair<const char*, io::LauncherFormat> launchers[] = {{"rankfile", io::LauncherFormat::OpenMpiRankfile},
                                                                    {"hostfile", io::LauncherFormat::MpichMachinefile},
                                                                    {"slurm-hostfile",
                                                                     io::LauncherFormat::SlurmHostfile}};
    QJsonObject launch;
    for (const auto& [option, format] : launchers) {
        if (!parser.isSet(option))
            continue;
        const auto advice = io::launchAdvice(format, placement, topology, parser.value(option).toStdString());
        QJsonArray placeholders;
        for (const auto& [site, host] : advice.placeholders)
            placeholders.append(QString::fromStdString(site));
        launch[option] = QJsonObject{{"command", QString::fromStdString(advice.command)},
                                     {"slots", QString::fromStdString(advice.slots)},
                                     {"placeholder_sites", placeholders}};
        std::fprintf(stderr, "meridian-cli map: launch the %s with: %s\n  (%s)\n", option, advice.command.c_str(),
                     advice.slots.c_str());
        if (const std::string warning = advice.placeholderWarning(); !warning.empty())
            std::fprintf(stderr, "meridian-cli map: warning: %s%s\n", warning.c_str(),
                         parser.isSet("project") ? " (meridian-cli project set-hosts P --hosts FILE)"
                                                 : " (in a project: meridian-cli project create P ... --hosts FILE)");
    }
    return launch;
}

/// Writes --out, the launcher files and --run-out (`runText`, the run as a runs file of one run) of a placement, all
/// or none: every text is prepared first, and the files are written and synced together before any replaces an older
/// one. Returns what was written, by option.
Expected<QJsonObject> writeMapOutputs(const QCommandLineParser& parser, const model::Placement& placement,
                                      const model::Topology& topology, const std::string& runText)
{
    struct Output {
        const char* option;
        io::LauncherFormat format;
    };
    const Output launchers[] = {{"rankfile", io::LauncherFormat::OpenMpiRankfile},
                                {"hostfile", io::LauncherFormat::MpichMachinefile},
                                {"slurm-hostfile", io::LauncherFormat::SlurmHostfile}};
    QJsonObject written;
    std::vector<std::string> texts;
    std::vector<std::string> paths;
    if (parser.isSet("out")) {
        texts.push_back(io::mappingCsvText(placement, topology));
        paths.push_back(parser.value("out").toStdString());
        written["mapping"] = parser.value("out");
    }
    for (const auto& o : launchers) {
        if (!parser.isSet(o.option))
            continue;
        auto text = io::launcherFileText(o.format, placement, topology);
        if (!text)
            return inFile(text.error(), parser.value(o.option).toStdString());
        texts.push_back(std::move(*text));
        paths.push_back(parser.value(o.option).toStdString());
        written[o.option] = parser.value(o.option);
    }
    if (parser.isSet("run-out")) {
        texts.push_back(runText);
        paths.push_back(parser.value("run-out").toStdString());
        written["run"] = parser.value("run-out");
    }
    std::vector<io::PendingFile> files;
    for (std::size_t k = 0; k < texts.size(); ++k)
        files.push_back({paths[k], [&texts, k](std::ostream& s) {
                             s.write(texts[k].data(), static_cast<std::streamsize>(texts[k].size()));
                         }});
    if (auto ok = io::writeFilesTogether(files); !ok)
        return ok.error();
    return written;
}

/// A Monte Carlo run's sampled costs (summary statistics) and best-of-K curve.
void addSamples(QJsonObject& out, const std::vector<double>& costSamples,
                const std::vector<std::pair<std::int64_t, double>>& bestCurve)
{
    if (costSamples.empty())
        return;
    std::vector<double> sorted = costSamples;
    std::sort(sorted.begin(), sorted.end());
    const double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    out["samples"] = QJsonObject{{"kept", static_cast<double>(sorted.size())},
                                 {"mean_s", mean},
                                 {"min_s", sorted.front()},
                                 {"p01_s", quantile(sorted, 0.01)},
                                 {"median_s", quantile(sorted, 0.5)},
                                 {"max_s", sorted.back()}};
    QJsonArray curve;
    for (const auto& [k, best] : bestCurve)
        curve.append(QJsonArray{static_cast<double>(k), best});
    out["best_curve"] = curve;
}

/// What meridian-cli map prints: the run and what its placement measures, the files written and how to launch
/// them, and how the network was completed.
QJsonObject mapJson(const ops::MappedRun& mapped, const document::Project& project, const document::Application& app,
                    const QCommandLineParser& parser, const QJsonObject& written, const QJsonObject& network)
{
    const document::Run& run = mapped.run;
    QJsonObject out;
    out["algorithm"] = QString::fromStdString(run.algorithm);
    out["parameters"] = paramsJson(run.params);
    out["seed"] = static_cast<double>(run.seed);
    out["application"] = QString::fromStdString(app.name);
    out["processes"] = app.comm.processCount();
    out["pinned"] = static_cast<qint64>(app.pins.size());
    out["runtime_s"] = run.runtimeSeconds;
    addCostBreakdown(out, mapped.measures.breakdown, project.topology);
    if (mapped.measures.instance)
        out["instance"] = instanceJson(*mapped.measures.instance);
    out["dollars"] = dollarsJson(mapped.measures.dollars);
    out["notes"] = stringsJson(run.notes);
    addSamples(out, run.costSamples, run.bestCurve);
    out["written"] = written;
    if (const QJsonObject launch = launchAdvice(parser, run.placement, project.topology); !launch.isEmpty())
        out["launch"] = launch;
    out["network"] = network;
    return out;
}

/// meridian-cli compare --format csv: a line per mapper.
void printCompareCsv(const ops::CompareResult& compared, int seeds)
{
    std::printf("algorithm,seeds,mean_cost_s,min_cost_s,max_cost_s,normalized_to_random,mean_runtime_s\n");
    for (const auto& r : compared.rows)
        std::printf("%s,%d,%.9g,%.9g,%.9g,%.6f,%.6g\n", r.algorithm.c_str(), seeds, ops::mean(r.costs),
                    *std::min_element(r.costs.begin(), r.costs.end()),
                    *std::max_element(r.costs.begin(), r.costs.end()),
                    compared.baselineMeanCost > 0.0 ? ops::mean(r.costs) / compared.baselineMeanCost : std::nan(""),
                    ops::mean(r.runtimes));
}

/// meridian-cli compare's JSON: a row per mapper.
QJsonObject compareJson(const ops::CompareResult& compared, const std::string& application, int seeds)
{
    const double baseline = compared.baselineMeanCost;
    QJsonArray table;
    for (const auto& r : compared.rows)
        table.append(QJsonObject{{"algorithm", QString::fromStdString(r.algorithm)},
                                 {"parameters", paramsJson(r.params)},
                                 {"mean_cost_s", ops::mean(r.costs)},
                                 {"min_cost_s", *std::min_element(r.costs.begin(), r.costs.end())},
                                 {"max_cost_s", *std::max_element(r.costs.begin(), r.costs.end())},
                                 {"normalized_to_random",
                                  baseline > 0.0 ? QJsonValue(ops::mean(r.costs) / baseline) : QJsonValue()},
                                 {"mean_runtime_s", ops::mean(r.runtimes)}});
    return QJsonObject{{"application", QString::fromStdString(application)},
                       {"processes", compared.processes},
                       {"seeds", seeds},
                       {"baseline", "random"},
                       {"results", table}};
}

/// The mappers --algorithms names (default: every registered one but monte-carlo), each with the parameters
/// --param id:key=value gives it; random first when `withRandom` and it is not named.
Expected<std::vector<std::pair<std::string, ParamValues>>> mapperList(const QCommandLineParser& parser,
                                                                      const Registry<Mapper>& registry, bool withRandom)
{
    std::vector<std::string> ids;
    if (parser.isSet("algorithms")) {
        for (const auto& part : parser.value("algorithms").split(',', Qt::SkipEmptyParts))
            ids.push_back(part.trimmed().toStdString());
    } else {
        for (const auto& id : registry.ids())
            if (id != "monte-carlo" && (withRandom || id != "random"))
                ids.push_back(id);
    }
    if (withRandom && std::find(ids.begin(), ids.end(), "random") == ids.end())
        ids.insert(ids.begin(), "random");
    return algorithmsWithParams(parser, registry, ids);
}

/// The project a sweep reads (--project, or --sites with the network files), with the application a sweep of
/// the constraint ratio redraws the pins of.
Expected<document::Project> sweepProject(const QCommandLineParser& parser, bool byRatio)
{
    if (parser.isSet("project"))
        if (auto raw = refuseRawWithProject(parser, {"sites", "latency", "bandwidth"}); !raw)
            return raw.error();
    auto project = parser.isSet("project") ? document::ProjectFile::load(parser.value("project"))
                                           : loadSitesAndNetwork(parser);
    if (!project || !byRatio)
        return project;
    const std::string file = parser.value("project").toStdString();
    if (project->applications.empty())
        return makeError(ErrorCode::InvalidInput,
                         "the project has no application whose pins a sweep of the constraint ratio could redraw",
                         {file});
    if (parser.isSet("application") && project->applicationIndex(parser.value("application").toStdString()) < 0) {
        std::string names;
        for (const auto& a : project->applications)
            names += (names.empty() ? "'" : ", '") + a.name + "'";
        return makeError(ErrorCode::InvalidInput,
                         "no application named '" + parser.value("application").toStdString() + "'; the project has "
                             + names,
                         {file});
    }
    return project;
}

/// Prints a sweep's result as JSON or CSV.
void printSweep(const ops::SweepResult& swept, const QString& kind, bool csv)
{
    const int seeds = swept.seeds;
    if (csv) {
        std::printf("point,algorithm,seeds,normalized_to_random,mean_runtime_s\n");
        for (std::size_t p = 0; p < swept.points.size(); ++p)
            for (std::size_t k = 0; k < swept.mappers.size(); ++k)
                std::printf("%.9g,%s,%d,%.9g,%.6g\n", swept.points[p], swept.mappers[k].c_str(), seeds,
                            swept.normalisedCost[k][p], swept.runtimeSeconds[k][p]);
        return;
    }
    QJsonArray rows;
    for (std::size_t k = 0; k < swept.mappers.size(); ++k) {
        QJsonArray cost, runtime;
        for (std::size_t p = 0; p < swept.points.size(); ++p) {
            cost.append(swept.normalisedCost[k][p]);
            runtime.append(swept.runtimeSeconds[k][p]);
        }
        rows.append(QJsonObject{{"algorithm", QString::fromStdString(swept.mappers[k])},
                                {"normalized_to_random", cost},
                                {"mean_runtime_s", runtime}});
    }
    QJsonArray pointList;
    for (double x : swept.points)
        pointList.append(x);
    printJson(QJsonObject{{"kind", kind},
                          {kind == "ratio" ? "application" : "pattern", QString::fromStdString(swept.subject)},
                          {"points", pointList},
                          {"seeds", seeds},
                          {"baseline", "random"},
                          {"results", rows}});
}

} // namespace

int runMap(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Maps an application's processes onto sites, hosts and slots with one algorithm and prints JSON: the "
        "alpha-beta cost (s) with its latency and bandwidth parts, per-site load, CloudMap's instance metrics, the "
        "runtime, the parameters used and the algorithm's notes. Every capacity and pin is respected. Output files "
        "are written only when the run succeeds.");
    addProblemOptions(parser);
    parser.addOption({"algorithm", "Mapper id (see list-algorithms); default geo.", "id", "geo"});
    parser.addOption({"param", "Algorithm parameter key=value (repeatable).", "key=value"});
    parser.addOption({"seed", "Random seed (default 1); the same seed gives the same placement.", "n", "1"});
    parser.addOption({"start", "A mapping CSV to start from (for refine with start=input).", "file"});
    parser.addOption({"trace",
                      "The application's time-independent trace (PREFIX.ti from capture --trace): refine's default "
                      "objective replays it to choose between its last candidates (else the trace the project keeps "
                      "with the application; else its matrices, as a bulk-synchronous program).",
                      "PREFIX.ti"});
    parser.addOption({"out", "Write the mapping CSV (process,site,host,slot).", "file"});
    parser.addOption({"rankfile", "Write an Open MPI rankfile.", "file"});
    parser.addOption({"hostfile", "Write an MPICH/Intel MPI machinefile (one host:1 line per rank).", "file"});
    parser.addOption({"slurm-hostfile", "Write a Slurm hostfile for srun --distribution=arbitrary.", "file"});
    parser.addOption({"run-out",
                      "Write the run as the workbench keeps it (a runs file of one run, with the fingerprint of the "
                      "inputs it was computed from): how a run sent from the workbench to a launcher comes back.",
                      "file"});
    addProgressOption(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    // Rank 0 alone writes; every rank learns whether it can.
    if (int code = agreeToRun(commandRanks().isRoot()
                                  ? outputsWritable(parser, {"out", "rankfile", "hostfile", "slurm-hostfile", "run-out"})
                                  : Status{});
        code >= 0)
        return code;
    bool seedOk = false;
    const qulonglong seed = parser.value("seed").toULongLong(&seedOk);
    if (!seedOk)
        return usageError("--seed must be a non-negative integer, not '" + parser.value("seed") + "'");

    Registry<Mapper> registry;
    mapping::registerBuiltinMappers(registry);
    const std::string id = parser.value("algorithm").toStdString();
    const Mapper* mapper = registry.find(id);
    if (!mapper)
        return report(unknownAlgorithm(id, registry));
    std::vector<std::string> assignments;
    for (const auto& p : parser.values("param"))
        assignments.push_back(p.toStdString());
    auto values = ParamValues::parse(mapper->parameters(), assignments);
    if (!values)
        return report(values.error());
    if (!ops::splitsOverRanks(id, *values))
        if (const int code = refuseIfSplit("map --algorithm " + parser.value("algorithm")); code >= 0)
            return code;

    auto loaded = loadProblem(parser);
    if (int code = agreeToRun(statusOf(loaded)); code >= 0)
        return code;
    const int application = loaded->application;
    auto project = std::make_shared<const document::Project>(std::move(loaded->project));
    const auto& app = project->applications[application];
    ops::MappingRequest request;
    model::DistanceModel dm;
    request.completeNetwork = project->completeNetwork(&dm);
    request.project = project;
    request.application = app.name;
    request.algorithm = id;
    request.params = *values;
    request.seed = seed;
    request.simulateSmallRuns = false;
    if (parser.isSet("run-out"))
        request.fingerprint = document::inputFingerprint(*project, app.name);
    if (parser.isSet("start")) {
        request.startFile = parser.value("start").toStdString();
        auto start = io::readMappingCsv(request.startFile, project->topology, app.comm.processCount());
        if (int code = agreeToRun(statusOf(start)); code >= 0)
            return code;
        request.start = std::move(*start);
    }
    Feedback feedback(progressPrinter(parser));
    feedback.setRanks(commandRanks());
    auto mapped = ops::mapAndMeasure(request, registry, feedback);
    if (!mapped)
        return report(mapped.error());
    if (!commandRanks().isRoot())
        return kExitOk; // rank 0 writes the files and prints
    const model::Placement& placement = mapped->run.placement;

    std::string runText;
    if (parser.isSet("run-out")) {
        auto run = std::make_shared<document::Run>(mapped->run);
        run->id = 1; // the workbench numbers the runs it adds
        runText = document::RunFile::text({run});
    }
    auto written = writeMapOutputs(parser, placement, project->topology, runText);
    if (!written)
        return report(written.error());
    printJson(mapJson(*mapped, *project, app, parser, *written, distanceModelJson(dm, project->network)));
    return kExitOk;
}

int runCompare(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Runs several mappers over several seeds on one problem and prints a table: mean, minimum and maximum "
        "cost (s), the mean cost normalised to random's mean (the SC17 figures' baseline), and mean runtime. "
        "Parameters for one algorithm are given as --param id:key=value.");
    addProblemOptions(parser);
    parser.addOption({"algorithms", "Comma-separated mapper ids (default: all but monte-carlo).", "ids"});
    parser.addOption({"seeds", "Number of seeds per algorithm (seeds 1..N; default 5).", "n", "5"});
    parser.addOption({"param", "Parameter for one algorithm: id:key=value (repeatable).", "id:key=value"});
    parser.addOption({"format", "json (default) or csv.", "format", "json"});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    bool ok = false;
    const int seeds = parser.value("seeds").toInt(&ok);
    if (!ok || seeds < 1 || seeds > 100000)
        return usageError("--seeds must be an integer from 1 to 100000, not '" + parser.value("seeds") + "'");
    const QString format = parser.value("format");
    if (format != "json" && format != "csv")
        return usageError("--format must be json or csv, not '" + format + "'");

    Registry<Mapper> registry;
    mapping::registerBuiltinMappers(registry);
    auto chosen = mapperList(parser, registry, true);
    if (!chosen)
        return report(chosen.error());

    auto loaded = loadProblem(parser);
    if (int code = agreeToRun(statusOf(loaded)); code >= 0)
        return code;
    ops::CompareRequest request;
    request.completeNetwork = loaded->project.completeNetwork();
    request.application = loaded->project.applications[loaded->application].name;
    request.project = std::make_shared<const document::Project>(std::move(loaded->project));
    request.mappers = std::move(*chosen);
    request.seeds = seeds;
    Feedback feedback;
    feedback.setRanks(commandRanks());
    auto compared = ops::compareMappers(request, registry, feedback);
    if (!compared)
        return report(compared.error());
    if (format == "csv")
        printCompareCsv(*compared, seeds);
    else
        printJson(compareJson(*compared, request.application, seeds));
    return kExitOk;
}

int runPareto(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "A Pareto sweep between time and dollars: refine with objective=weighted at each of --points weights from 0 "
        "(time alone) to 1 (dollars alone), the workbench's Compare > Skyline > Pareto Sweep as a command. Prints "
        "each run's weight, metrics and notes, and which runs are on the front of mapping cost against dollars "
        "(usd). The sites need instance prices. Under mpirun the weights are split over the ranks, with the same "
        "result.");
    addProblemOptions(parser);
    parser.addOption({"points", "How many weights, evenly from 0 to 1 (default 5).", "n", "5"});
    parser.addOption(
        {"param", "A parameter of refine besides objective and weight, key=value (repeatable).", "key=value"});
    parser.addOption({"seed", "Random seed (default 1).", "n", "1"});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    bool ok = false;
    const int points = parser.value("points").toInt(&ok);
    if (!ok || points < 1 || points > 1000)
        return usageError("--points must be an integer from 1 to 1000, not '" + parser.value("points") + "'");
    const qulonglong seed = parser.value("seed").toULongLong(&ok);
    if (!ok)
        return usageError("--seed must be a non-negative integer, not '" + parser.value("seed") + "'");
    Registry<Mapper> registry;
    mapping::registerBuiltinMappers(registry);
    const Mapper* refine = registry.find("refine");
    std::vector<std::string> assignments;
    for (const auto& p : parser.values("param")) {
        if (p.startsWith("objective=") || p.startsWith("weight="))
            return usageError("--param " + p + ": the sweep sets refine's objective and weight itself");
        assignments.push_back(p.toStdString());
    }
    auto values = ParamValues::parse(refine->parameters(), assignments);
    if (!values)
        return report(values.error());
    auto loaded = loadProblem(parser);
    if (int code = agreeToRun(statusOf(loaded)); code >= 0)
        return code;
    auto project = std::make_shared<const document::Project>(std::move(loaded->project));
    ops::MappingRequest request;
    request.completeNetwork = project->completeNetwork();
    request.application = project->applications[loaded->application].name;
    request.project = project;
    request.params = *values;
    request.seed = seed;
    request.simulateSmallRuns = false;
    const auto weights = ops::paretoWeights(points);
    Feedback feedback;
    feedback.setRanks(commandRanks());
    auto runs = ops::runParetoSweep(request, weights, registry, feedback);
    if (!runs)
        return report(runs.error());
    std::vector<std::pair<double, double>> plane;
    bool priced = true;
    for (const auto& run : *runs) {
        const auto cost = run.metric("cost_s"), usd = run.metric("usd");
        priced = priced && usd;
        plane.emplace_back(cost.value_or(0.0), usd.value_or(0.0));
    }
    std::vector<bool> onFront(runs->size(), false);
    if (priced)
        for (std::size_t k : cost::paretoFront(plane))
            onFront[k] = true;
    QJsonArray list;
    for (std::size_t k = 0; k < runs->size(); ++k) {
        const auto& run = (*runs)[k];
        QJsonObject metrics;
        for (const auto& m : run.metrics)
            metrics[QString::fromStdString(m.id)] = m.value;
        QJsonArray notes;
        for (const auto& n : run.notes)
            notes.append(QString::fromStdString(n));
        QJsonObject one{{"weight", weights[k]}, {"metrics", metrics}, {"notes", notes}};
        if (priced)
            one["on_front"] = static_cast<bool>(onFront[k]);
        list.append(one);
    }
    printJson(QJsonObject{{"application", QString::fromStdString(request.application)},
                          {"algorithm", "refine"},
                          {"objective", "weighted"},
                          {"seed", static_cast<double>(seed)},
                          {"front", "cost_s against usd"},
                          {"runs", list}});
    return kExitOk;
}

int runSweep(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Sweeps the constraint ratio of an application (SC17 Fig. 7) or the process count of a generated pattern "
        "(Fig. 8): at each point and seed, pins are drawn, random and the mappers run on them, and the mean over "
        "seeds of each mapper's cost normalised to random's is printed with its mean runtime. Under mpirun the "
        "(point, seed) units are split over the ranks, with the same result.");
    addNetworkOptions(parser);
    parser.addOptions({
        {"kind", "ratio (the pins of --application) or processes (a --pattern at each count).", "kind", "ratio"},
        {"application", "The application whose pins are redrawn (kind ratio; default: the project's first).", "name"},
        {"pattern", "The pattern generated at each count (kind processes; see generate; default lu).", "id", "lu"},
        {"ratio", "The share of pinned processes at every count (kind processes; default 0.2).", "r", "0.2"},
        {"points", "Comma-separated ratios in [0, 1], or process counts.", "list"},
        {"algorithms", "Comma-separated mapper ids (default: all but random and monte-carlo).", "ids"},
        {"seeds", "Number of seeds per point (seeds 1..N; default 5).", "n", "5"},
        {"param", "Parameter for one algorithm: id:key=value (repeatable).", "id:key=value"},
        {"format", "json (default) or csv.", "format", "json"},
    });
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    const QString kind = parser.value("kind");
    if (kind != "ratio" && kind != "processes")
        return usageError("--kind must be ratio or processes, not '" + kind + "'");
    const QString format = parser.value("format");
    if (format != "json" && format != "csv")
        return usageError("--format must be json or csv, not '" + format + "'");
    bool ok = false;
    const int seeds = parser.value("seeds").toInt(&ok);
    if (!ok || seeds < 1 || seeds > 100000)
        return usageError("--seeds must be an integer from 1 to 100000, not '" + parser.value("seeds") + "'");
    ops::SweepRequest request;
    request.kind = kind == "ratio" ? ops::SweepKind::ConstraintRatio : ops::SweepKind::ProcessCount;
    const bool byRatio = request.kind == ops::SweepKind::ConstraintRatio;
    // Each kind has its own options: one given to the other kind would be silently unused.
    for (const char* option :
         byRatio ? std::vector<const char*>{"pattern", "ratio"} : std::vector<const char*>{"application"})
        if (parser.isSet(option))
            return usageError(QString("--%1 is an option of --kind %2").arg(option, byRatio ? "processes" : "ratio"));
    if (byRatio && !parser.isSet("project"))
        return usageError("a sweep of the constraint ratio redraws an application's pins: give a --project with "
                          "the application (or sweep a generated pattern with --kind processes)");
    const double ratio = parser.value("ratio").toDouble(&ok);
    if (!ok || !(ratio >= 0.0 && ratio <= 1.0))
        return usageError("--ratio must be a number from 0 to 1, not '" + parser.value("ratio") + "'");
    if (!byRatio) {
        std::string ids;
        for (const auto p : synth::allPatterns())
            ids += (ids.empty() ? "" : ", ") + std::string(synth::patternId(p));
        if (!synth::patternFromId(parser.value("pattern").toStdString()))
            return usageError("unknown pattern '" + parser.value("pattern") + "'; expected "
                              + QString::fromStdString(ids));
    }
    if (!parser.isSet("points"))
        return usageError("--points is required (for example --points 0,0.2,0.4 or --points 16,64,256)");
    auto points = ops::parseSweepPoints(request.kind, parser.value("points").toStdString());
    if (!points)
        return report(prefixedBy("--points")(points.error()));
    Registry<Mapper> registry;
    mapping::registerBuiltinMappers(registry);
    for (const auto& p : parser.values("param"))
        if (p.startsWith("random:"))
            return usageError("--param " + p + ": random, the baseline, runs with its defaults");
    auto chosen = mapperList(parser, registry, false);
    if (!chosen)
        return report(chosen.error());
    std::erase_if(*chosen, [](const auto& m) { return m.first == "random"; });
    if (chosen->empty())
        return usageError("--algorithms names no mapper besides random, the baseline every sweep runs");

    if (!parser.isSet("project") && !parser.isSet("sites"))
        return usageError("name the network with --project, or with --sites, --latency and --bandwidth");
    auto project = sweepProject(parser, byRatio);
    // Every rank read the inputs: all go on, or all stop with the first failure.
    if (int code = agreeToRun(statusOf(project)); code >= 0)
        return code;
    if (byRatio)
        request.application = parser.isSet("application") ? parser.value("application").toStdString()
                                                          : project->applications.front().name;
    request.completeNetwork = project->completeNetwork();
    request.project = std::make_shared<const document::Project>(std::move(*project));
    request.pattern = parser.value("pattern").toStdString();
    request.constraintRatio = ratio;
    request.points = std::move(*points);
    request.mappers = std::move(*chosen);
    request.seeds = seeds;
    Feedback feedback;
    feedback.setRanks(commandRanks());
    auto swept = ops::runSweep(request, registry, feedback);
    if (!swept)
        return report(swept.error());
    printSweep(*swept, kind, format == "csv");
    return kExitOk;
}

} // namespace meridian::cli
