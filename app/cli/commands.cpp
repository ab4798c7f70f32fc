#include "app/cli/commands.h"

#include "app/cli/cli_support.h"
#include "app/cli/problem_loader.h"
#include "app/mapping/map_operation.h"
#include "app/project/json_util.h"
#include "app/project/project_file.h"
#include "core/cost/alpha_beta_cost.h"
#include "core/cost/instance_metrics.h"
#include "core/io/comm_io.h"
#include "core/io/placement_io.h"
#include "core/io/sites_io.h"
#include "core/io/text_file.h"
#include "core/synth/constraint_generator.h"
#include "core/synth/patterns.h"
#include "core/synth/power_law_graph.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>

namespace meridian::cli {

namespace {

QJsonValue numberOrNull(double v) { return std::isnan(v) ? QJsonValue() : QJsonValue(v); }

} // namespace

void addPatternOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {"processes", "Number of processes.", "N", "64"},
        {"iterations", "Time steps (default: the pattern's).", "K"},
        {"message-bytes", "Main message size in bytes (default: the pattern's).", "bytes"},
        {"secondary-bytes", "LU/BT/SP boundary-exchange message size in bytes.", "bytes"},
        {"clusters", "K-means: number of clusters k.", "k", "64"},
        {"dimensions", "K-means: dimensions d.", "d", "8"},
        {"levels", "MG: multigrid levels.", "L", "4"},
        {"dnn-exchange", "DNN: ps (parameter server) or ring (ring allreduce).", "mode", "ps"},
    });
}

Expected<synth::PatternOptions> patternOptions(const QCommandLineParser& parser)
{
    synth::PatternOptions o;
    bool ok = true;
    auto intOption = [&](const char* key, int& target) {
        if (parser.value(key).isEmpty())
            return;
        bool good = false;
        target = parser.value(key).toInt(&good);
        ok = ok && good;
    };
    auto bytesOption = [&](const char* key, double& target) {
        if (!parser.isSet(key))
            return;
        bool good = false;
        target = parser.value(key).toDouble(&good);
        ok = ok && good && target >= 0;
    };
    intOption("processes", o.processes);
    intOption("iterations", o.iterations);
    intOption("clusters", o.clusters);
    intOption("dimensions", o.dimensions);
    intOption("levels", o.levels);
    bytesOption("message-bytes", o.messageBytes);
    bytesOption("secondary-bytes", o.secondaryBytes);
    if (!ok)
        return makeError(ErrorCode::InvalidInput,
                         "--processes, --iterations, --clusters, --dimensions and --levels take whole numbers; "
                         "message sizes take numbers of bytes >= 0");
    if (parser.value("dnn-exchange") == "ring")
        o.dnnExchange = synth::DnnExchange::RingAllreduce;
    else if (parser.value("dnn-exchange") != "ps")
        return makeError(ErrorCode::InvalidInput, "--dnn-exchange takes ps or ring");
    return o;
}

QJsonObject projectInfoJson(const document::Project& project)
{
    QJsonObject out;
    out["name"] = QString::fromStdString(project.name);
    out["description"] = QString::fromStdString(project.description);
    QJsonArray sources;
    for (const auto& s : project.sources)
        sources.append(QString::fromStdString(s));
    out["sources"] = sources;
    QJsonArray sites;
    const auto& topo = project.topology;
    for (int s = 0; s < topo.siteCount(); ++s) {
        const auto& site = topo.site(s);
        sites.append(QJsonObject{{"name", QString::fromStdString(site.name)},
                                 {"lat", site.latitude},
                                 {"lon", site.longitude},
                                 {"hosts", topo.hostCountOf(s)},
                                 {"slots", topo.capacity(s)},
                                 {"up_MBps", numberOrNull(site.uplinkMBps)},
                                 {"down_MBps", numberOrNull(site.downlinkMBps)},
                                 {"egress_usd_per_GB", numberOrNull(site.egressUsdPerGB)},
                                 {"instance_usd_per_hour", numberOrNull(site.instanceUsdPerHour)}});
    }
    out["sites"] = sites;
    out["total_slots"] = topo.totalCapacity();
    model::DistanceModel dm;
    const auto complete = project.completeNetwork(&dm);
    out["network"] = distanceModelJson(dm, project.network);
    out["latency_ms"] = matrixToJson(complete.latencyMs());
    out["bandwidth_MBps"] = matrixToJson(complete.bandwidthMBps());
    out["host_links"] = static_cast<int>(project.network.hostLinks().size());
    QJsonArray apps;
    for (const auto& app : project.applications)
        apps.append(
            QJsonObject{{"name", QString::fromStdString(app.name)},
                        {"description", QString::fromStdString(app.description)},
                        {"processes", app.comm.processCount()},
                        {"nonzeros", app.comm.nonZeros()},
                        {"bytes", app.comm.totalBytes()},
                        {"messages", app.comm.hasMessages() ? QJsonValue(app.comm.totalMessages()) : QJsonValue()},
                        {"pins", app.pins.size()},
                        {"trace_lines", app.trace ? QJsonValue(static_cast<double>(app.trace->lines)) : QJsonValue()}});
    out["applications"] = apps;
    QJsonArray graphs;
    for (const auto& g : project.graphs) {
        QJsonObject o{{"name", QString::fromStdString(g.name)},
                      {"file", QString::fromStdString(g.path)},
                      {"format", QString::fromStdString(std::string(io::graphFormatId(g.format)))},
                      {"vertices", static_cast<double>(g.stats.vertices)},
                      {"edges", static_cast<double>(g.stats.edges)},
                      {"max_degree", static_cast<double>(g.stats.maxDegree)},
                      {"homes", QString::fromStdString(g.homesText(project.topology.siteCount()))}};
        if (const auto change = document::graphChangeOnDisk(g); !change.empty())
            o["changed_on_disk"] = QString::fromStdString(change);
        graphs.append(o);
    }
    out["graphs"] = graphs;
    return out;
}

int runInfo(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription("Prints a summary of a Meridian project as JSON: sites, network coverage, the "
                                     "distance model that fills missing entries, and the applications.");
    parser.addPositionalArgument("project", "The project file.");
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return usageError("expected one project file: meridian-cli info PROJECT");
    auto project = document::ProjectFile::load(parser.positionalArguments().front());
    if (!project)
        return report(project.error());
    printJson(projectInfoJson(*project));
    return kExitOk;
}

namespace {

int generateConstraints(QCommandLineParser& parser)
{
    bool ok = false;
    const int processes = parser.value("processes").toInt(&ok);
    if (!ok || processes < 1)
        return usageError("--processes needs a whole number >= 1");
    const double ratio = parser.value("ratio").toDouble(&ok);
    if (!ok)
        return usageError("--ratio needs a number between 0 and 1");
    const auto seed = parser.value("seed").toULongLong(&ok);
    if (!ok)
        return usageError("--seed needs a whole number >= 0");
    if (!parser.isSet("out"))
        return usageError("--out is required");
    model::Topology topology;
    if (parser.isSet("project")) {
        auto project = document::ProjectFile::load(parser.value("project"));
        if (!project)
            return report(project.error());
        topology = project->topology;
    } else if (parser.isSet("sites")) {
        auto t = io::loadTopology(parser.value("sites").toStdString());
        if (!t)
            return report(t.error());
        topology = std::move(*t);
    } else {
        return usageError("constraints need the sites: --sites FILE or --project FILE");
    }
    auto pins = synth::generateConstraints(processes, ratio, topology, seed);
    if (!pins)
        return report(pins.error());
    if (auto s = io::writePinsCsv(parser.value("out").toStdString(), *pins, topology); !s)
        return report(s.error());
    printJson(QJsonObject{{"pins", pins->size()},
                          {"processes", processes},
                          {"ratio", ratio},
                          {"seed", QString::number(seed)},
                          {"out", parser.value("out")}});
    return kExitOk;
}

} // namespace

int generateGraph(const QCommandLineParser& parser)
{
    bool ok = false;
    const qulonglong edges = parser.value("edges").toULongLong(&ok);
    if (!ok)
        return usageError("--edges must be a positive integer");
    const double alpha = parser.value("alpha").toDouble(&ok);
    if (!ok)
        return usageError("--alpha must be a number above 1");
    const qulonglong seed = parser.value("seed").toULongLong(&ok);
    if (!ok)
        return usageError("--seed must be a non-negative integer");
    if (!parser.isSet("out"))
        return usageError("--out is required");
    auto g = synth::generatePowerLawGraph(edges, alpha, seed);
    if (!g)
        return report(g.error());
    std::string text = "# Power-law graph (PowerGraph-style, alpha " + parser.value("alpha").toStdString() + ", seed "
        + std::to_string(seed) + ")\n# Nodes: " + std::to_string(g->vertexCount)
        + " Edges: " + std::to_string(g->edgeCount()) + "\n";
    text.reserve(text.size() + g->edgeCount() * 16);
    for (std::size_t e = 0; e < g->edgeCount(); ++e) {
        text += std::to_string(g->src[e]);
        text += '\t';
        text += std::to_string(g->dst[e]);
        text += '\n';
    }
    if (auto st = io::writeTextFileAtomically(parser.value("out").toStdString(), text); !st)
        return report(st.error());
    printJson(QJsonObject{{"vertices", static_cast<double>(g->vertexCount)},
                          {"edges", static_cast<double>(g->edgeCount())},
                          {"alpha", alpha}});
    return kExitOk;
}

int runGenerate(const QStringList& arguments)
{
    QCommandLineParser parser;
    QString description = "Generates an application communication matrix (bytes, and message counts with "
                          "--messages-out) as Matrix Market, or with PATTERN 'constraints' a pins CSV at a given "
                          "ratio.\n\nPatterns:\n";
    for (auto p : synth::allPatterns())
        description += "  "
            + QString::fromUtf8(synth::patternId(p).data(), static_cast<qsizetype>(synth::patternId(p).size())) + ": "
            + QString::fromStdString(synth::describePattern(p)) + "\n";
    parser.setApplicationDescription(description);
    parser.addPositionalArgument("pattern", "lu, bt, sp, cg, ft, mg, kmeans, dnn, constraints, or graph.");
    addPatternOptions(parser);
    parser.addOptions({
        {"out", "Output file: the volume matrix (.mtx), or the pins CSV.", "file"},
        {"messages-out", "Also write the message counts (.mtx).", "file"},
        {"ratio", "constraints: share of processes to pin, 0 to 1.", "r", "0.2"},
        {"seed", "constraints: random seed.", "s", "1"},
        {"sites", "constraints: the sites (CSV or GeoJSON).", "file"},
        {"project", "constraints: take the sites from a project.", "file"},
        {"edges", "graph: number of edges of a PowerGraph-style power-law graph (written as a SNAP edge list).", "E",
         "1000000"},
        {"alpha", "graph: power-law exponent of the in-degrees (> 1).", "a", "2.1"},
    });
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return usageError("expected one pattern: meridian-cli generate PATTERN --processes N --out FILE");
    const QString name = parser.positionalArguments().front();
    if (name == "constraints")
        return generateConstraints(parser);
    if (name == "graph")
        return generateGraph(parser);
    const auto pattern = synth::patternFromId(name.toStdString());
    if (!pattern)
        return usageError("unknown pattern '" + name + "'; expected lu, bt, sp, cg, ft, mg, kmeans, dnn or constraints");
    if (!parser.isSet("out"))
        return usageError("--out is required");
    auto options = patternOptions(parser);
    if (!options)
        return report(options.error());
    const synth::PatternOptions& o = *options;
    auto comm = synth::generatePattern(*pattern, o);
    if (!comm)
        return report(comm.error());
    const std::string comment = "meridian-cli generate " + name.toStdString() + " --processes "
        + std::to_string(o.processes);
    if (auto s = io::writeCommMatrix(parser.value("out").toStdString(), *comm, false, comment + " (bytes)"); !s)
        return report(s.error());
    if (parser.isSet("messages-out"))
        if (auto s = io::writeCommMatrix(parser.value("messages-out").toStdString(), *comm, true,
                                         comment + " (messages)");
            !s)
            return report(s.error());
    printJson(QJsonObject{{"pattern", name},
                          {"processes", comm->processCount()},
                          {"nonzeros", comm->nonZeros()},
                          {"bytes", comm->totalBytes()},
                          {"messages", comm->totalMessages()},
                          {"out", parser.value("out")}});
    return kExitOk;
}

int runEvaluate(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Evaluates a mapping with the alpha-beta cost of SC17 eq. 3: the sum over process pairs of "
        "messages x latency + bytes / bandwidth, in seconds, using the site-level network with missing "
        "entries estimated from distance. Prints JSON: cost_s, latency_s, bandwidth_s, per-site load, site x site "
        "traffic and time, CloudMap's Inter/Intra/CommTime when the mapping names hosts, and every violated "
        "capacity, slot or pin.");
    addProblemOptions(parser);
    parser.addOption({"mapping", "The mapping CSV: process,site,host,slot.", "file"});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (!parser.isSet("mapping"))
        return usageError("--mapping is required");
    auto problem = loadProblem(parser);
    if (!problem)
        return report(problem.error());
    const auto& project = problem->project;
    const auto& app = project.applications[problem->application];
    auto placement = io::readMappingCsv(parser.value("mapping").toStdString(), project.topology,
                                        app.comm.processCount());
    if (!placement)
        return report(placement.error());

    model::DistanceModel dm;
    const auto network = project.completeNetwork(&dm);
    auto measures = ops::measure(*placement, app, project.topology, network);
    if (!measures)
        return report(measures.error());
    QJsonObject out;
    out["application"] = QString::fromStdString(app.name);
    out["processes"] = app.comm.processCount();
    addCostBreakdown(out, measures->breakdown, project.topology);
    out["messages_given"] = app.comm.hasMessages();
    if (!app.comm.hasMessages())
        out["note"] = "no message counts were given: the latency term is 0";
    QJsonArray violations;
    static const char* kinds[] = {"capacity", "slot", "pin"};
    for (const auto& v : model::checkPlacement(*placement, project.topology, app.pins))
        violations.append(
            QJsonObject{{"kind", kinds[static_cast<int>(v.kind)]}, {"message", QString::fromStdString(v.message)}});
    out["violations"] = violations;
    out["valid"] = violations.isEmpty();
    out["dollars"] = dollarsJson(measures->dollars);
    if (measures->instance)
        out["instance"] = instanceJson(*measures->instance);
    out["network"] = distanceModelJson(dm, project.network);
    printJson(out);
    return kExitOk;
}

} // namespace meridian::cli
