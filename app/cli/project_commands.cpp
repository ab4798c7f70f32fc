// meridian-cli project: builds and changes a project from a user's own files, without writing JSON.
#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/project/json_util.h"
#include "app/project/project_edits.h"
#include "app/project/project_file.h"
#include "app/project/project_imports.h"
#include "core/io/netpipe.h"
#include "core/io/placement_io.h"
#include "core/io/probe_results.h"
#include "core/io/sites_io.h"

#include <QCommandLineParser>
#include <QFileInfo>

#include <cstdio>
#include <optional>

namespace meridian::cli {

namespace {

constexpr const char* kProjectUsage
    = "Usage: meridian-cli project SUBCOMMAND [options]\n"
      "\n"
      "Builds a project from your own files. Each subcommand writes the project atomically (sidecar files\n"
      "first, then the project file) and prints the 'info' JSON of the result; on any error nothing is written.\n"
      "\n"
      "Subcommands:\n"
      "  create OUT.meridian --name N [--description D] --sites S [--hosts H] [--latency L] [--bandwidth B] [--force]\n"
      "  add-application P --name A (--volume V [--messages M] | --pattern PATTERN --processes N [pattern options])\n"
      "                  [--pins PINS] [--trace T]\n"
      "  set-network P [--latency L] [--bandwidth B]\n"
      "  set-link P --from SITE --to SITE --netpipe FILE [--one-direction]\n"
      "  import-probe P PREFIX\n"
      "  import-graph P GRAPH [--name G] [--format snap|metis|mtx] [--homes H] [--homes-seed S]\n"
      "  set-pins P --application A --pins PINS\n"
      "  set-trace P --application A (--trace T | --remove)\n"
      "  set-hosts P --hosts H\n"
      "\n"
      "Sites are CSV (name,lat,lon,nodes[,slots,up_MBps,down_MBps,egress_usd_per_GB]) or GeoJSON; latency (ms)\n"
      "and bandwidth (MB/s) are CSV matrices with site names, or Matrix Market in site order; missing entries\n"
      "are estimated from distance. Volumes and message counts are Matrix Market or CSV; pins are\n"
      "process,site lines. Hosts are host,site[,slots] lines: the real host names a rankfile must carry\n"
      "(without them a site's hosts are placeholders named after it: washington-dc-00, ...). A trace is SimGrid's\n"
      "time-independent trace of the application (capture --trace writes PREFIX.ti): kept with it, replayed for\n"
      "predicted time.\n"
      "Run 'meridian-cli project SUBCOMMAND --help' for the options of one.\n";

using document::Project;

// The project's lock, held from the load to the end of the command (the process ends after one command), so that a
// second writer waits for this one instead of overwriting its edit.
std::optional<io::FileLock>& heldLock()
{
    static std::optional<io::FileLock> lock;
    return lock;
}

// Takes the project's lock for `subcommand`, waiting a bounded time for another writer (who is named on refusal).
Status lockForEdit(const QString& path, const QString& subcommand)
{
    auto lock = document::ProjectFile::lock(path, ("meridian-cli project " + subcommand).toStdString(),
                                            io::FileLock::waitSeconds(document::ProjectFile::kLockWaitSeconds));
    if (!lock)
        return lock.error();
    heldLock() = std::move(*lock);
    return {};
}

// Loads a project to edit it, under its lock.
Expected<Project> loadForEdit(const QString& path, const QString& subcommand)
{
    if (auto locked = lockForEdit(path, subcommand); !locked)
        return locked.error();
    auto project = document::ProjectFile::load(path);
    if (!project && heldLock())
        heldLock()->discard(); // a file that is not a project (a typo) keeps no lock file beside it
    return project;
}

int finish(const Project& project, const QString& path)
{
    if (auto s = document::ProjectFile::save(project, path); !s) {
        if (heldLock() && !QFileInfo::exists(path))
            heldLock()->discard(); // nothing was created: no lock file either
        return report(s.error());
    }
    // Print what a reader of the file sees, so the output is the project as saved.
    auto saved = document::ProjectFile::load(path);
    if (!saved)
        return report(saved.error());
    printJson(projectInfoJson(*saved));
    return kExitOk;
}

// Applies --latency and --bandwidth to a project; each replaces that quantity.
Expected<Project> withNetworkFiles(Project project, const QCommandLineParser& parser)
{
    for (auto q : {model::NetworkQuantity::Latency, model::NetworkQuantity::Bandwidth}) {
        const char* option = q == model::NetworkQuantity::Latency ? "latency" : "bandwidth";
        if (!parser.isSet(option))
            continue;
        auto network = document::readNetworkQuantity(parser.value(option).toStdString(), q, project.topology);
        if (!network)
            return network.error();
        auto edited = document::withNetworkQuantity(project, q, *network);
        if (!edited)
            return inFile(edited.error(), parser.value(option).toStdString());
        project = std::move(*edited);
    }
    return project;
}

void addNetworkOptions(QCommandLineParser& parser)
{
    parser.addOptions(
        {{"latency", "Latency between sites in ms: CSV with site names, or Matrix Market in site order.", "file"},
         {"bandwidth", "Bandwidth between sites in MB/s: CSV with site names, or Matrix Market.", "file"}});
}

int runCreate(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Creates a project from a sites file and, optionally, latency and bandwidth matrices.");
    parser.addPositionalArgument("out", "The project file to write (OUT.meridian).");
    parser.addOptions(
        {{"name", "The project's name.", "N"},
         {"description", "What the project is about.", "D"},
         {"sites", "The sites: CSV or GeoJSON.", "file"},
         {"hosts", "The hosts of the sites: host,site[,slots] lines (real host names for the rankfile).", "file"},
         {"force", "Overwrite OUT if it exists."}});
    addNetworkOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return usageError("expected one output file: meridian-cli project create OUT.meridian --name N --sites S");
    if (!parser.isSet("name") || parser.value("name").trimmed().isEmpty())
        return usageError("--name is required");
    if (!parser.isSet("sites"))
        return usageError("--sites is required");
    const QString out = parser.positionalArguments().front();
    if (QFileInfo(out).isDir())
        return report(makeError(ErrorCode::InvalidInput, "this is a folder; expected the project file to write",
                                {out.toStdString()}));
    if (auto locked = lockForEdit(out, "create"); !locked)
        return report(locked.error());
    if (QFileInfo::exists(out) && !parser.isSet("force"))
        return report(makeError(ErrorCode::InvalidInput, "the file exists already; pass --force to overwrite it",
                                {out.toStdString()}));
    auto topology = io::loadTopology(parser.value("sites").toStdString());
    if (!topology)
        return report(topology.error());
    Project project;
    project.name = parser.value("name").trimmed().toStdString();
    project.description = parser.value("description").toStdString();
    project.topology = std::move(*topology);
    project.network = model::Network(project.topology.siteCount());
    project.sources.push_back("sites: " + QFileInfo(parser.value("sites")).fileName().toStdString());
    if (parser.isSet("hosts")) {
        auto sites = io::readHostsCsv(parser.value("hosts").toStdString(), project.topology);
        if (!sites)
            return report(sites.error());
        auto withHosts = document::withHosts(project, std::move(*sites));
        if (!withHosts)
            return report(inFile(withHosts.error(), parser.value("hosts").toStdString()));
        project = std::move(*withHosts);
        project.sources.push_back("hosts: " + QFileInfo(parser.value("hosts")).fileName().toStdString());
    }
    for (const char* option : {"latency", "bandwidth"})
        if (parser.isSet(option))
            project.sources.push_back(std::string(option) + ": "
                                      + QFileInfo(parser.value(option)).fileName().toStdString());
    auto withNetwork = withNetworkFiles(std::move(project), parser);
    if (!withNetwork)
        return report(withNetwork.error());
    return finish(*withNetwork, out);
}

Expected<Project> loadOne(const QCommandLineParser& parser, const char* example)
{
    if (parser.positionalArguments().size() != 1)
        return makeError(ErrorCode::InvalidInput, std::string("expected one project file: ") + example);
    return loadForEdit(parser.positionalArguments().front(), QString(example).section(' ', 2, 2));
}

int runAddApplication(const QStringList& arguments)
{
    QCommandLineParser parser;
    QString description
        = "Adds an application to a project: from its volume matrix (bytes) and optional message counts, "
          "or generated from a pattern; optionally with pins.\n\nPatterns:\n";
    for (auto p : synth::allPatterns())
        description += "  "
            + QString::fromUtf8(synth::patternId(p).data(), static_cast<qsizetype>(synth::patternId(p).size())) + ": "
            + QString::fromStdString(synth::describePattern(p)) + "\n";
    parser.setApplicationDescription(description);
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addOptions({{"name", "The application's name (new in the project).", "A"},
                       {"volume", "Bytes sent from process i to j: Matrix Market or CSV.", "file"},
                       {"messages", "Message counts from i to j (same size as the volume).", "file"},
                       {"pattern", "Generate instead: lu, bt, sp, cg, ft, mg, kmeans or dnn.", "PATTERN"},
                       {"pins", "Pins: process,site lines.", "file"},
                       {"trace",
                        "The application's time-independent trace (the list PREFIX.ti that capture --trace writes, "
                        "or a merged trace), checked against the volume; kept with it and replayed by predict and map.",
                        "file"}});
    addPatternOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    auto project = loadOne(parser, "meridian-cli project add-application P --name A --volume V");
    if (!project)
        return report(project.error());
    if (!parser.isSet("name") || parser.value("name").trimmed().isEmpty())
        return usageError("--name is required");
    if (parser.isSet("volume") == parser.isSet("pattern"))
        return usageError("give either --volume (with optional --messages) or --pattern with --processes");
    if (parser.isSet("pattern") && (parser.isSet("messages") || parser.isSet("trace")))
        return usageError("--messages and --trace go with --volume; a generated pattern has its own message counts");
    const std::string name = parser.value("name").trimmed().toStdString();
    document::Application app;
    if (parser.isSet("volume")) {
        auto read = document::readApplication(name,
                                              {parser.value("volume").toStdString(),
                                               parser.value("messages").toStdString(),
                                               parser.value("pins").toStdString(), parser.value("trace").toStdString()},
                                              project->topology);
        if (!read)
            return report(read.error());
        app = std::move(*read);
        app.description = "imported from " + QFileInfo(parser.value("volume")).fileName().toStdString();
    } else {
        const auto pattern = synth::patternFromId(parser.value("pattern").toStdString());
        if (!pattern)
            return usageError("unknown pattern '" + parser.value("pattern")
                              + "'; expected lu, bt, sp, cg, ft, mg, kmeans or dnn");
        auto options = patternOptions(parser);
        if (!options)
            return report(options.error());
        auto comm = synth::generatePattern(*pattern, *options);
        if (!comm)
            return report(comm.error());
        app.name = name;
        app.comm = std::move(*comm);
        app.description = "generated: " + parser.value("pattern").toStdString() + ", "
            + std::to_string(options->processes) + " processes";
        if (parser.isSet("pins")) {
            auto pins = io::readPinsCsv(parser.value("pins").toStdString(), project->topology, app.comm.processCount());
            if (!pins)
                return report(pins.error());
            app.pins = std::move(*pins);
        }
    }
    auto edited = document::withApplication(*project, std::move(app));
    if (!edited)
        return report(edited.error());
    return finish(*edited, parser.positionalArguments().front());
}

int runSetNetwork(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Replaces a project's latency and/or bandwidth matrix; entries a file leaves out are estimated.");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    addNetworkOptions(parser);
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    auto project = loadOne(parser, "meridian-cli project set-network P --latency L");
    if (!project)
        return report(project.error());
    if (!parser.isSet("latency") && !parser.isSet("bandwidth"))
        return usageError("give --latency, --bandwidth or both");
    auto edited = withNetworkFiles(std::move(*project), parser);
    if (!edited)
        return report(edited.error());
    return finish(*edited, parser.positionalArguments().front());
}

int runSetLink(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Sets one site pair's latency and bandwidth from a NetPIPE measurement (mpirun -np 2 NPopenmpi -o FILE "
        "between a host of each site): the one-way time of the smallest message and the highest throughput, "
        "both marked measured, in both directions unless --one-direction.");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addOptions({{"from", "The first site.", "SITE"},
                       {"to", "The second site.", "SITE"},
                       {"netpipe", "NetPIPE's output (bytes Mbps seconds lines).", "FILE"},
                       {"one-direction", "Set only from -> to."}});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    auto project = loadOne(parser, "meridian-cli project set-link P --from A --to B --netpipe FILE");
    if (!project)
        return report(project.error());
    if (!parser.isSet("from") || !parser.isSet("to") || !parser.isSet("netpipe"))
        return usageError("give --from SITE, --to SITE and --netpipe FILE");
    const auto from = project->topology.siteIndex(parser.value("from").toStdString());
    const auto to = project->topology.siteIndex(parser.value("to").toStdString());
    if (!from || !to)
        return usageError(
            QString("the project has no site '%1'").arg(!from ? parser.value("from") : parser.value("to")));
    auto link = io::readNetpipe(parser.value("netpipe").toStdString());
    if (!link)
        return report(link.error());
    auto edited = document::withMeasuredLink(*project, *from, *to, link->latencyMs, link->bandwidthMBps,
                                             !parser.isSet("one-direction"), link->measuredAt);
    if (!edited)
        return report(edited.error());
    return finish(*edited, parser.positionalArguments().front());
}

int runImportProbe(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Imports what meridian-probe measured (PREFIX.latency.csv, PREFIX.bandwidth.csv, PREFIX.probe.json): "
        "every pair it measured becomes a measured entry with the probe's date, so runs that used older entries "
        "become stale. With the probe's --sites the pairs are site pairs; without, its hosts must be the "
        "project's hosts: each host pair becomes a host link and each site pair the median of its host pairs.");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addPositionalArgument("prefix", "The probe's --out PREFIX, or one of its three files.");
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 2)
        return usageError("usage: meridian-cli project import-probe P PREFIX");
    auto project = loadForEdit(parser.positionalArguments().front(), "import-probe");
    if (!project)
        return report(project.error());
    auto probe = io::readProbeResults(parser.positionalArguments().at(1).toStdString());
    if (!probe)
        return report(probe.error());
    auto imported = document::withProbeResults(*project, *probe);
    if (!imported)
        return report(imported.error());
    return finish(imported->project, parser.positionalArguments().front());
}

int runImportGraph(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Adds a graph for the partitioners (or replaces the graph of the same name). The project refers to the "
        "file where it is and keeps its checksum, so a change on disk makes the runs on it stale. Each vertex's "
        "home site comes from --homes ('vertex site' lines); the vertices it does not list (all, without it) get "
        "a uniformly random site drawn with --homes-seed.");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addPositionalArgument("graph", "The graph file.");
    parser.addOptions({{"name", "The graph's name in the project (default: the file's name).", "G"},
                       {"format", "snap, metis or mtx (default: from the file's name).", "format"},
                       {"homes", "Home site of each vertex: 'vertex site' lines.", "file"},
                       {"homes-seed", "Seed of the drawn homes (default 1).", "S", "1"}});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 2)
        return usageError("usage: meridian-cli project import-graph P GRAPH [--name G] [--homes H]");
    const QString projectPath = parser.positionalArguments().front();
    const QString graphPath = parser.positionalArguments().at(1);
    auto project = loadForEdit(projectPath, "import-graph");
    if (!project)
        return report(project.error());
    auto format = parser.isSet("format") ? io::graphFormatFromId(parser.value("format").toStdString())
                                         : Expected<io::GraphFormat>(io::guessGraphFormat(graphPath.toStdString()));
    if (!format)
        return report(format.error());
    bool ok = false;
    const qulonglong seed = parser.value("homes-seed").toULongLong(&ok);
    if (!ok)
        return usageError("--homes-seed must be a non-negative integer");
    const std::string name = parser.isSet("name") ? parser.value("name").toStdString()
                                                  : QFileInfo(graphPath).completeBaseName().toStdString();
    auto imported = document::importGraph(name, graphPath.toStdString(), *format, parser.value("homes").toStdString(),
                                          seed, project->topology);
    if (!imported)
        return report(imported.error());
    auto edited = document::withGraph(*project, std::move(imported->first));
    if (!edited)
        return report(edited.error());
    return finish(*edited, projectPath);
}

/// The index of the application --application names in the project the command's first argument is.
Expected<int> namedApplication(const Project& project, const QCommandLineParser& parser)
{
    const int a = project.applicationIndex(parser.value("application").toStdString());
    if (a < 0)
        return makeError(ErrorCode::InvalidInput,
                         "the project has no application named '" + parser.value("application").toStdString() + "'",
                         {parser.positionalArguments().front().toStdString()});
    return a;
}

int runSetPins(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Replaces the pins of one application (process,site lines; an empty file unpins all).");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addOptions({{"application", "The application's name.", "A"}, {"pins", "Pins: process,site lines.", "file"}});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    auto project = loadOne(parser, "meridian-cli project set-pins P --application A --pins PINS");
    if (!project)
        return report(project.error());
    if (!parser.isSet("application") || !parser.isSet("pins"))
        return usageError("--application and --pins are required");
    const auto a = namedApplication(*project, parser);
    if (!a)
        return report(a.error());
    auto pins = io::readPinsCsv(parser.value("pins").toStdString(), project->topology,
                                project->applications[*a].comm.processCount());
    if (!pins)
        return report(pins.error());
    auto edited = document::withPins(*project, *a, std::move(*pins));
    if (!edited)
        return report(inFile(edited.error(), parser.value("pins").toStdString()));
    return finish(*edited, parser.positionalArguments().front());
}

int runSetTrace(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Attaches a time-independent trace to one application (the list PREFIX.ti that capture --trace writes, or a "
        "merged trace; its ranks and each pair's bytes must be the application's), or removes it. predict and map "
        "replay the attached trace for the predicted run time; without one they replay the bulk-synchronous model.");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addOptions({{"application", "The application's name.", "A"},
                       {"trace", "The trace: PREFIX.ti or a merged trace file.", "file"},
                       {"remove", "Remove the application's trace instead."}});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    auto project = loadOne(parser, "meridian-cli project set-trace P --application A --trace T");
    if (!project)
        return report(project.error());
    if (!parser.isSet("application") || parser.isSet("trace") == parser.isSet("remove"))
        return usageError("--application and one of --trace or --remove are required");
    const auto a = namedApplication(*project, parser);
    if (!a)
        return report(a.error());
    std::shared_ptr<const io::StoredTrace> trace;
    if (parser.isSet("trace")) {
        auto read = document::readTraceFor(parser.value("trace").toStdString(), project->applications[*a].comm);
        if (!read)
            return report(read.error());
        trace = std::move(*read);
    }
    auto edited = document::withTrace(*project, *a, std::move(trace));
    if (!edited)
        return report(inFile(edited.error(), parser.value("trace").toStdString()));
    return finish(*edited, parser.positionalArguments().front());
}

int runSetHosts(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Replaces the hosts of the sites a hosts file names (host,site[,slots] lines); pins must still fit.");
    parser.addPositionalArgument("project", "The project file; it is rewritten.");
    parser.addOption({"hosts", "Hosts: host,site[,slots] lines.", "file"});
    if (int code = parseArguments(parser, arguments); code >= 0)
        return code;
    auto project = loadOne(parser, "meridian-cli project set-hosts P --hosts H");
    if (!project)
        return report(project.error());
    if (!parser.isSet("hosts"))
        return usageError("--hosts is required");
    auto sites = io::readHostsCsv(parser.value("hosts").toStdString(), project->topology);
    if (!sites)
        return report(sites.error());
    auto edited = document::withHosts(*project, std::move(*sites));
    if (!edited)
        return report(inFile(edited.error(), parser.value("hosts").toStdString()));
    return finish(*edited, parser.positionalArguments().front());
}

} // namespace

int runProject(const QStringList& arguments)
{
    if (arguments.size() < 2 || arguments[1] == "--help" || arguments[1] == "-h") {
        std::fputs(kProjectUsage, arguments.size() < 2 ? stderr : stdout);
        return arguments.size() < 2 ? kExitBadInput : kExitOk;
    }
    QStringList rest = arguments;
    const QString sub = rest.takeAt(1);
    if (sub == "create")
        return runCreate(rest);
    if (sub == "add-application")
        return runAddApplication(rest);
    if (sub == "set-network")
        return runSetNetwork(rest);
    if (sub == "set-link")
        return runSetLink(rest);
    if (sub == "import-probe")
        return runImportProbe(rest);
    if (sub == "import-graph")
        return runImportGraph(rest);
    if (sub == "set-pins")
        return runSetPins(rest);
    if (sub == "set-hosts")
        return runSetHosts(rest);
    if (sub == "set-trace")
        return runSetTrace(rest);
    std::fprintf(stderr, "meridian-cli: error: unknown project subcommand '%s'\n\n%s", sub.toLocal8Bit().constData(),
                 kProjectUsage);
    return kExitBadInput;
}

} // namespace meridian::cli
