#include "app/project/project_imports.h"

#include "core/io/comm_io.h"
#include "core/io/matrix_csv.h"
#include "core/io/network_io.h"
#include "core/io/placement_io.h"
#include "core/io/probe_results.h"
#include "core/io/text_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>

namespace meridian::document {

Expected<model::Network> readNetworkQuantity(const std::string& path, model::NetworkQuantity quantity,
                                             const model::Topology& topology)
{
    model::Network network(topology.siteCount());
    if (auto s = io::readNetworkMatrix(path, quantity, topology, network); !s)
        return s.error();
    return network;
}

Expected<Application> readApplication(const std::string& name, const ApplicationFiles& files,
                                      const model::Topology& topology)
{
    if (files.volume.empty())
        return makeError(ErrorCode::InvalidInput, "application '" + name + "' needs a volume matrix (bytes)");
    auto comm = io::readCommMatrix(files.volume, files.messages);
    if (!comm)
        return comm.error();
    Application app;
    app.name = name;
    app.comm = std::move(*comm);
    if (!files.pins.empty()) {
        auto pins = io::readPinsCsv(files.pins, topology, app.comm.processCount());
        if (!pins)
            return pins.error();
        app.pins = std::move(*pins);
    }
    if (!files.trace.empty()) {
        auto trace = readTraceFor(files.trace, app.comm);
        if (!trace)
            return trace.error();
        app.trace = std::move(*trace);
    }
    return app;
}

Expected<std::shared_ptr<const io::StoredTrace>> readTraceFor(const std::string& path, const model::CommMatrix& comm)
{
    auto trace = io::readApplicationTrace(path, comm);
    if (!trace)
        return trace.error();
    return io::storeTiTrace(*trace).transform(
        [](io::StoredTrace&& stored) { return std::make_shared<const io::StoredTrace>(std::move(stored)); });
}

namespace {

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool endsWith(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool fileExists(const std::string& path)
{
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

// True for "12", "p12", "rank12": a process id written as a matrix name.
bool isProcessName(const std::string& name)
{
    const auto digits = name.find_last_not_of("0123456789");
    return digits == std::string::npos ? !name.empty() : digits + 1 < name.size();
}

FileKind say(std::string* why, FileKind kind, std::string text)
{
    if (why)
        *why = std::move(text);
    return kind;
}

} // namespace

FileKind detectFileKind(const std::string& path, const model::Topology& topology, std::string* why)
{
    auto text = io::readTextFile(path);
    if (!text)
        return say(why, FileKind::Unknown, text.error().toString());
    const std::string_view body = io::trim(
        io::withoutByteOrderMark(std::string_view(*text).substr(0, std::min<std::size_t>(text->size(), 1 << 16))));
    // What measurement tools wrote: told by content, with the files a result always comes with beside it.
    const auto beside = [&](const char* suffix, const char* sibling) {
        return endsWith(path, suffix) && fileExists(path.substr(0, path.size() - std::strlen(suffix)) + sibling);
    };
    if (endsWith(path, ".otf2") && std::string_view(*text).substr(0, 8).find("OTF2") != std::string_view::npos)
        return say(why, FileKind::Capture, "an OTF2 trace's anchor file: the communication of an MPI run");
    if (endsWith(path, ".prof") && (startsWith(body, "# POINT TO POINT") || startsWith(body, "# COLLECTIVES")))
        return say(why, FileKind::Capture, "one rank's Open MPI monitoring file: the communication of an MPI run");
    if (startsWith(body, "%%MatrixMarket") && beside(".volume.mtx", ".messages.mtx"))
        return say(why, FileKind::Capture, "a capture by meridian-cli capture (with its .messages.mtx beside it)");
    if (startsWith(body, "{") && body.find("\"meridian-probe\"") != std::string_view::npos)
        return say(why, FileKind::ProbeResults, "a meridian-probe result: latency and bandwidth between hosts or sites");
    if ((beside(".latency.csv", ".probe.json") || beside(".bandwidth.csv", ".probe.json"))
        && detectFileKind(io::probePrefix(path) + ".probe.json", topology) == FileKind::ProbeResults)
        return say(why, FileKind::ProbeResults, "a matrix of a meridian-probe result (its .probe.json is beside it)");
    if (startsWith(body, "{")) {
        if (body.find("\"meridian-project\"") != std::string_view::npos)
            return say(why, FileKind::Project, "a Meridian project (\"format\": \"meridian-project\")");
        if (body.find("FeatureCollection") != std::string_view::npos)
            return say(why, FileKind::Sites, "a GeoJSON FeatureCollection of sites");
        return say(why, FileKind::Unknown,
                   "a JSON file that is neither a Meridian project nor a GeoJSON FeatureCollection");
    }
    if (startsWith(body, "%%MatrixMarket"))
        return say(why, FileKind::Application, "a Matrix Market matrix: an application's volume or message counts");
    io::CsvRecords records(*text, path);
    if (!records.next())
        return say(why, FileKind::Unknown,
                   records.error() ? records.error()->toString() : "the file holds no CSV record");
    std::vector<std::string> first;
    for (const auto& f : records.fields())
        first.push_back(io::toLower(f.text));
    const auto has = [&](const char* column) { return std::find(first.begin(), first.end(), column) != first.end(); };
    if (has("name") && has("lat") && has("lon"))
        return say(why, FileKind::Sites, "a sites CSV (its header names name, lat and lon)");
    if (first.front() == "host" && first.size() >= 2 && first[1] == "site")
        return say(why, FileKind::Hosts, "a hosts CSV (its header is host,site[,slots])");
    // process,site[,host,slot]: a process id then a site name (a number there makes it a matrix row).
    const bool processThenSite = first.front() == "process"
        || (io::parseInteger(first.front()).has_value() && first.size() >= 2 && !io::parseNumber(first[1]).has_value());
    if (first.size() == 4 && processThenSite)
        return say(why, FileKind::Mapping, "a mapping: process,site,host,slot lines");
    if (first.size() == 2 && processThenSite)
        return say(why, FileKind::ProcessSites, "process,site lines: pins, or a site-level mapping");
    auto matrix = io::readMatrixCsv(path, io::CellRule::NonNegative, true);
    if (!matrix)
        return say(why, FileKind::Unknown, "not a sites, pins, mapping or matrix file: " + matrix.error().toString());
    const auto& names = !matrix->rowNames.empty() ? matrix->rowNames : matrix->columnNames;
    if (!names.empty()) {
        const bool sites = std::all_of(names.begin(), names.end(),
                                       [&](const std::string& n) { return topology.siteIndex(n).has_value(); });
        if (sites)
            return say(why, FileKind::NetworkMatrix,
                       "a square matrix whose names are the project's sites: latency or bandwidth");
        if (std::all_of(names.begin(), names.end(), isProcessName))
            return say(why, FileKind::Application,
                       "a square matrix of processes: an application's volume or message counts");
        return say(why, FileKind::Unknown,
                   "a square matrix whose names ('" + names.front()
                       + "', ...) are neither the project's sites nor process ids");
    }
    if (matrix->size == topology.siteCount())
        return say(
            why, FileKind::NetworkMatrix,
            "a square matrix with one row per site of the project and no names: latency or bandwidth in site order");
    return say(why, FileKind::Application,
               "a square matrix without names and not one row per site: an application's volume");
}

} // namespace meridian::document
