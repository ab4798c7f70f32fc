#include "app/cli/problem_loader.h"

#include "app/project/project_file.h"
#include "app/project/project_imports.h"
#include "core/io/comm_io.h"
#include "core/io/network_io.h"
#include "core/io/placement_io.h"
#include "core/io/sites_io.h"

namespace meridian::cli {

void addNetworkOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {"project", "A Meridian project file.", "file"},
        {"sites", "Sites as CSV (name,lat,lon,nodes[,slots,...]) or GeoJSON.", "file"},
        {"latency", "Latency between sites in ms (CSV or .mtx); missing entries are estimated.", "file"},
        {"bandwidth", "Bandwidth between sites in MB/s (CSV or .mtx); missing entries are estimated.", "file"},
    });
}

void addProblemOptions(QCommandLineParser& parser)
{
    addNetworkOptions(parser);
    parser.addOptions({
        {"application", "The application of the project (default: the first).", "name"},
        {"volume", "Communication volume in bytes, process x process (CSV or .mtx).", "file"},
        {"messages", "Message counts, process x process (CSV or .mtx).", "file"},
        {"pins", "Pinned processes as CSV lines process,site.", "file"},
    });
}

Status refuseRawWithProject(const QCommandLineParser& parser, std::initializer_list<const char*> raw)
{
    for (const char* option : raw)
        if (parser.isSet(option))
            return makeError(ErrorCode::InvalidInput, std::string("--") + option + " cannot be combined with --project");
    return {};
}

Expected<document::Project> loadSitesAndNetwork(const QCommandLineParser& parser)
{
    document::Project project;
    auto topology = io::loadTopology(parser.value("sites").toStdString());
    if (!topology)
        return topology.error();
    project.name = "command line";
    project.topology = std::move(*topology);
    project.network = model::Network(project.topology.siteCount());
    if (parser.isSet("latency"))
        if (auto s = io::readNetworkMatrix(parser.value("latency").toStdString(), model::NetworkQuantity::Latency,
                                           project.topology, project.network);
            !s)
            return s.error();
    if (parser.isSet("bandwidth"))
        if (auto s = io::readNetworkMatrix(parser.value("bandwidth").toStdString(), model::NetworkQuantity::Bandwidth,
                                           project.topology, project.network);
            !s)
            return s.error();
    return project;
}

Expected<LoadedProblem> loadProblem(const QCommandLineParser& parser)
{
    LoadedProblem problem;
    if (parser.isSet("project")) {
        if (auto ok = refuseRawWithProject(parser, {"sites", "latency", "bandwidth", "volume", "messages"}); !ok)
            return ok.error();
        auto project = document::ProjectFile::load(parser.value("project"));
        if (!project)
            return project.error();
        problem.project = std::move(*project);
        if (problem.project.applications.empty())
            return makeError(ErrorCode::InvalidInput, "the project has no application to evaluate",
                             {parser.value("project").toStdString()});
        if (parser.isSet("application")) {
            problem.application = problem.project.applicationIndex(parser.value("application").toStdString());
            if (problem.application < 0) {
                std::string names;
                for (const auto& a : problem.project.applications)
                    names += (names.empty() ? "" : ", ") + a.name;
                return makeError(ErrorCode::InvalidInput,
                                 "no application named '" + parser.value("application").toStdString()
                                     + "'; the project has " + names);
            }
        }
        if (parser.isSet("pins")) {
            auto& target = problem.project.applications[problem.application];
            auto pins = io::readPinsCsv(parser.value("pins").toStdString(), problem.project.topology,
                                        target.comm.processCount());
            if (!pins)
                return pins.error();
            target.pins = std::move(*pins);
        }
    } else {
        if (!parser.isSet("sites") || !parser.isSet("volume"))
            return makeError(
                ErrorCode::InvalidInput,
                "name the problem with --project, or with --sites and --volume (plus --latency, --bandwidth, "
                "--messages and --pins as available)");
        auto network = loadSitesAndNetwork(parser);
        if (!network)
            return network.error();
        problem.project = std::move(*network);
        document::Application app;
        app.name = parser.value("volume").toStdString();
        auto comm = io::readCommMatrix(parser.value("volume").toStdString(), parser.value("messages").toStdString());
        if (!comm)
            return comm.error();
        app.comm = std::move(*comm);
        if (parser.isSet("pins")) {
            auto pins = io::readPinsCsv(parser.value("pins").toStdString(), problem.project.topology,
                                        app.comm.processCount());
            if (!pins)
                return pins.error();
            app.pins = std::move(*pins);
        }
        problem.project.applications.push_back(std::move(app));
    }
    auto& app = problem.project.applications[problem.application];
    if (auto s = app.pins.validate(app.comm.processCount(), problem.project.topology); !s)
        return inFile(s.error(), parser.value("pins").toStdString());
    // --trace (map, predict) replaces the project's trace of the application for this command.
    if (parser.optionNames().contains("trace")) {
        auto trace = document::readTraceFor(parser.value("trace").toStdString(), app.comm);
        if (!trace)
            return trace.error();
        app.trace = std::move(*trace);
        app.traceFile = parser.value("trace").toStdString();
    }
    return problem;
}

} // namespace meridian::cli
