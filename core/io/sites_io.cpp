#include "core/io/sites_io.h"

#include "core/io/json_text.h"
#include "core/io/text_file.h"
#include "core/io/utf8_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace meridian::io {

namespace {

enum Column { kName, kLat, kLon, kNodes, kSlots, kUp, kDown, kPrice, kInstancePrice, kColumnCount };
constexpr std::array<const char*, kColumnCount> kColumnNames = {"name",
                                                                "lat",
                                                                "lon",
                                                                "nodes",
                                                                "slots",
                                                                "up_MBps",
                                                                "down_MBps",
                                                                "egress_usd_per_GB",
                                                                "instance_usd_per_hour"};

std::string acceptedColumns()
{
    std::string out;
    for (auto* c : kColumnNames)
        out += (out.empty() ? "" : ", ") + std::string(c);
    return out;
}

// Checks a numeric site attribute; returns an error message or empty.
std::string checkValue(int column, double v)
{
    switch (column) {
    case kLat:
        return v >= -90 && v <= 90 ? "" : "a latitude between -90 and 90 degrees";
    case kLon:
        return v >= -180 && v <= 180 ? "" : "a longitude between -180 and 180 degrees";
    case kNodes:
        return v >= 1 && v == std::floor(v) && v <= model::Topology::kMaxHosts
            ? ""
            : "a whole number of nodes from 1 to " + std::to_string(model::Topology::kMaxHosts);
    case kSlots:
        return v >= 1 && v == std::floor(v) && v <= static_cast<double>(model::Topology::kMaxSlots)
            ? ""
            : "a whole number of slots from 1 to " + std::to_string(model::Topology::kMaxSlots);
    case kUp:
    case kDown:
        return v > 0 ? "" : "a bandwidth > 0 MB/s";
    case kPrice:
        return v >= 0 ? "" : "a price >= 0 USD/GB";
    case kInstancePrice:
        return v >= 0 ? "" : "a price >= 0 USD per node-hour";
    default:
        return "";
    }
}

void assign(model::Site& site, int column, double v)
{
    switch (column) {
    case kLat:
        site.latitude = v;
        break;
    case kLon:
        site.longitude = v;
        break;
    case kNodes:
        site.nodes = static_cast<int>(v);
        break;
    case kSlots:
        site.slotsPerNode = static_cast<int>(v);
        break;
    case kUp:
        site.uplinkMBps = v;
        break;
    case kDown:
        site.downlinkMBps = v;
        break;
    case kPrice:
        site.egressUsdPerGB = v;
        break;
    case kInstancePrice:
        site.instanceUsdPerHour = v;
        break;
    default:
        break;
    }
}

} // namespace

Expected<std::vector<model::Site>> readSitesCsv(const std::string& path)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    CsvRecords records(*text, path);
    std::array<int, kColumnCount> columnOf;
    columnOf.fill(-1);
    std::size_t headerSize = 0;
    int headerLine = 0;
    std::vector<model::Site> sites;
    std::set<std::string> names;
    while (records.next()) {
        const auto& fields = records.fields();
        const int line = records.line();
        if (headerLine == 0) {
            headerLine = line;
            headerSize = fields.size();
            for (std::size_t f = 0; f < fields.size(); ++f) {
                const auto& field = fields[f];
                int found = -1;
                for (int c = 0; c < kColumnCount; ++c)
                    if (toLower(field.text) == toLower(kColumnNames[c]))
                        found = c;
                if (found < 0)
                    return parseError(path, line, field.column,
                                      "unknown column " + shown(field.text) + "; expected the columns "
                                          + acceptedColumns());
                if (columnOf[found] >= 0)
                    return parseError(path, line, field.column, "column " + shown(field.text) + " appears twice");
                columnOf[found] = static_cast<int>(f);
            }
            for (int c : {kName, kLat, kLon, kNodes})
                if (columnOf[c] < 0)
                    return parseError(path, line, 1,
                                      std::string("the header has no '") + kColumnNames[c]
                                          + "' column; a sites file needs name,lat,lon,nodes");
            continue;
        }
        if (fields.size() != headerSize)
            return parseError(path, line, 1,
                              "expected " + std::to_string(headerSize) + " fields as in the header on line "
                                  + std::to_string(headerLine) + ", found " + std::to_string(fields.size()));
        model::Site site;
        const auto& nameField = fields[columnOf[kName]];
        if (nameField.text.empty())
            return parseError(path, line, nameField.column, "expected a site name");
        if (auto ok = checkUtf8Name(path, line, nameField.column, nameField.text, "a site name"); !ok)
            return ok.error();
        if (!names.insert(nameField.text).second)
            return parseError(path, line, nameField.column, "site " + shown(nameField.text) + " is listed twice");
        site.name = nameField.text;
        for (int c = kLat; c < kColumnCount; ++c) {
            if (columnOf[c] < 0)
                continue;
            const auto& field = fields[columnOf[c]];
            const bool required = c <= kNodes;
            if (field.text.empty()) {
                if (required)
                    return parseError(path, line, field.column,
                                      std::string("expected a value for '") + kColumnNames[c] + "'");
                continue;
            }
            const auto value = parseNumber(field.text);
            const std::string problem = value ? checkValue(c, *value) : "a number";
            if (!problem.empty())
                return parseError(path, line, field.column,
                                  std::string("expected ") + problem + " for '" + kColumnNames[c] + "', found "
                                      + shown(field.text) + "");
            assign(site, c, *value);
        }
        sites.push_back(std::move(site));
    }
    if (records.error())
        return *records.error();
    if (headerLine == 0)
        return parseError(path, 1, 1, "the file is empty; expected a header name,lat,lon,nodes");
    if (sites.empty())
        return parseError(path, headerLine, 1, "the file lists no site");
    return sites;
}

namespace {

// Returns the line of every `"type": "Feature"` in the text, in order: nlohmann::json keeps no positions,
// so a semantic error in feature k is reported at the k-th such line. A plain scan, linear in the text and
// with constant stack (std::regex recursed per character and overflowed the stack on long blank runs).
std::vector<int> featureLines(const std::string& text)
{
    static constexpr std::string_view kKey = "\"type\"";
    static constexpr std::string_view kValue = "\"Feature\"";
    const auto skipBlanks = [&](std::size_t at) {
        while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' || text[at] == '\n'))
            ++at;
        return at;
    };
    std::vector<int> lines;
    int line = 1;
    std::size_t counted = 0;
    for (std::size_t at = text.find(kKey); at != std::string::npos; at = text.find(kKey, at + 1)) {
        std::size_t next = skipBlanks(at + kKey.size());
        if (next >= text.size() || text[next] != ':')
            continue;
        next = skipBlanks(next + 1);
        if (text.compare(next, kValue.size(), kValue) != 0)
            continue;
        line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                            text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        counted = at;
        lines.push_back(line);
    }
    return lines;
}

// Returns a member's string value, or "" when it is absent or not a string (never throws).
std::string stringMember(const nlohmann::json& object, const char* key)
{
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

namespace {
Expected<std::vector<model::Site>> readSitesGeoJsonUnguarded(const std::string& path);
} // namespace

Expected<std::vector<model::Site>> readSitesGeoJson(const std::string& path)
{
    // The reader checks every type before use; this guard turns a check it missed into an error, not a crash.
    try {
        return readSitesGeoJsonUnguarded(path);
    } catch (const nlohmann::json::exception& e) {
        return parseError(path, 0, 0, std::string("unexpected GeoJSON content: ") + e.what());
    }
}

namespace {

Expected<std::vector<model::Site>> readSitesGeoJsonUnguarded(const std::string& path)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    auto parsed = parseJsonText(*text, path);
    if (!parsed)
        return parsed.error();
    const nlohmann::json& doc = *parsed;
    if (!doc.is_object() || stringMember(doc, "type") != "FeatureCollection" || !doc.contains("features")
        || !doc["features"].is_array())
        return parseError(path, 1, 1, "expected a GeoJSON FeatureCollection with a 'features' array");
    std::vector<model::Site> sites;
    std::set<std::string> names;
    const auto& features = doc["features"];
    const std::vector<int> lines = featureLines(*text);
    for (std::size_t k = 0; k < features.size(); ++k) {
        const auto& f = features[k];
        const int line = k < lines.size() ? lines[k] : 0;
        auto fail = [&](const std::string& what) {
            return parseError(path, line, 0, "feature " + std::to_string(k + 1) + ": " + what);
        };
        if (!f.is_object() || stringMember(f, "type") != "Feature")
            return fail("expected an object with \"type\": \"Feature\"");
        const auto geometry = f.find("geometry");
        if (geometry == f.end() || !geometry->is_object() || stringMember(*geometry, "type") != "Point")
            return fail("expected a Point geometry (sites are points)");
        const auto coords = geometry->find("coordinates");
        if (coords == geometry->end() || !coords->is_array() || coords->size() < 2 || !(*coords)[0].is_number()
            || !(*coords)[1].is_number())
            return fail("expected coordinates [longitude, latitude]");
        const auto props = f.find("properties");
        if (props == f.end() || !props->is_object())
            return fail("expected 'properties' with at least 'name' and 'nodes'");
        model::Site site;
        if (!props->contains("name") || !(*props)["name"].is_string() || (*props)["name"].get<std::string>().empty())
            return fail("expected a non-empty string property 'name'");
        site.name = (*props)["name"].get<std::string>();
        if (!names.insert(site.name).second)
            return fail("site " + shown(site.name) + " is listed twice");
        const double lon = (*coords)[0].get<double>();
        const double lat = (*coords)[1].get<double>();
        if (std::string p = checkValue(kLon, lon); !p.empty())
            return fail("expected " + p + " as the first coordinate");
        if (std::string p = checkValue(kLat, lat); !p.empty())
            return fail("expected " + p + " as the second coordinate");
        site.latitude = lat;
        site.longitude = lon;
        if (!props->contains("nodes"))
            return fail("expected a property 'nodes'");
        for (int c = kNodes; c < kColumnCount; ++c) {
            const auto it = props->find(kColumnNames[c]);
            if (it == props->end() || it->is_null())
                continue;
            if (!it->is_number())
                return fail(std::string("expected a number for '") + kColumnNames[c] + "'");
            const double v = it->get<double>();
            if (std::string p = checkValue(c, v); !p.empty())
                return fail("expected " + p + " for '" + kColumnNames[c] + "'");
            assign(site, c, v);
        }
        sites.push_back(std::move(site));
    }
    if (sites.empty())
        return parseError(path, 1, 1, "the FeatureCollection has no site");
    return sites;
}

} // namespace

Expected<model::Topology> loadTopology(const std::string& path)
{
    const auto dot = path.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : toLower(path.substr(dot));
    auto sites = (ext == ".geojson" || ext == ".json") ? readSitesGeoJson(path) : readSitesCsv(path);
    if (!sites)
        return sites.error();
    auto topology = model::Topology::create(std::move(*sites));
    if (!topology)
        return inFile(topology.error(), path);
    return topology;
}

namespace {

std::string optionalNumber(double v)
{
    if (std::isnan(v))
        return "";
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
}

} // namespace

Status writeSitesGeoJson(const std::string& path, const model::Topology& topology)
{
    nlohmann::json features = nlohmann::json::array();
    for (const auto& s : topology.sites()) {
        nlohmann::json props = {{"name", s.name},
                                {"nodes", s.nodes},
                                {"slots", s.hosts.empty() ? s.slotsPerNode : s.hosts.front().slots}};
        const std::pair<int, double> optional[] = {{kUp, s.uplinkMBps},
                                                   {kDown, s.downlinkMBps},
                                                   {kPrice, s.egressUsdPerGB},
                                                   {kInstancePrice, s.instanceUsdPerHour}};
        for (const auto& [column, value] : optional)
            if (!std::isnan(value))
                props[kColumnNames[column]] = value;
        features.push_back({{"type", "Feature"},
                            {"geometry", {{"type", "Point"}, {"coordinates", {s.longitude, s.latitude}}}},
                            {"properties", props}});
    }
    const nlohmann::json doc = {{"type", "FeatureCollection"}, {"features", features}};
    // A site name read from a CSV may hold bytes that are not UTF-8: written as U+FFFD rather than thrown on.
    return writeTextFileAtomically(path, doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

Status writeSitesCsv(const std::string& path, const model::Topology& topology)
{
    std::ostringstream out;
    out.precision(17);
    out << "name,lat,lon,nodes,slots,up_MBps,down_MBps,egress_usd_per_GB,instance_usd_per_hour\n";
    for (const auto& s : topology.sites())
        out << quoteCsvField(s.name) << ',' << s.latitude << ',' << s.longitude << ',' << s.nodes << ','
            << (s.hosts.empty() ? s.slotsPerNode : s.hosts.front().slots) << ',' << optionalNumber(s.uplinkMBps) << ','
            << optionalNumber(s.downlinkMBps) << ',' << optionalNumber(s.egressUsdPerGB) << ','
            << optionalNumber(s.instanceUsdPerHour) << '\n';
    return writeTextFileAtomically(path, out.str());
}

Expected<std::vector<model::Site>> readHostsCsv(const std::string& path, const model::Topology& topology)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    std::vector<std::vector<model::Host>> listed(topology.siteCount());
    std::map<std::string, int> lineOfHost;
    CsvRecords records(*text, path);
    while (records.next()) {
        const auto& f = records.fields();
        const int line = records.line();
        if (records.isFirst() && toLower(f[0].text) == "host")
            continue;
        if (f.size() != 2 && f.size() != 3)
            return parseError(path, line, 1,
                              "expected 'host,site' or 'host,site,slots', found " + std::to_string(f.size())
                                  + " fields");
        if (f[0].text.empty())
            return parseError(path, line, f[0].column, "expected a host name");
        for (std::size_t k : {0, 1})
            if (auto ok = checkUtf8Name(path, line, f[k].column, f[k].text, k == 0 ? "a host name" : "a site name"); !ok)
                return ok.error();
        if (const std::string problem = model::Topology::hostNameProblem(f[0].text); !problem.empty())
            return parseError(path, line, f[0].column,
                              "host name " + shown(f[0].text) + " cannot go into a rankfile or hostfile: " + problem
                                  + "; expected letters, digits, '-', '_' and '.', not starting with '-' or '.' (a "
                                    "host name as in RFC 1123)");
        const auto site = topology.siteIndex(f[1].text);
        if (!site)
            return parseError(path, line, f[1].column,
                              "unknown site " + shown(f[1].text) + "; expected one of the project's sites");
        int slots = 1;
        if (f.size() == 3) {
            const auto v = parseInteger(f[2].text);
            if (!v || *v < 1 || *v > 1000000)
                return parseError(path, line, f[2].column,
                                  "expected slots as a whole number from 1 to 1000000, found " + shown(f[2].text) + "");
            slots = static_cast<int>(*v);
        }
        if (auto [it, inserted] = lineOfHost.emplace(f[0].text, line); !inserted)
            return parseError(path, line, f[0].column,
                              "host " + shown(f[0].text) + " is already listed on line " + std::to_string(it->second));
        listed[*site].push_back({f[0].text, slots});
    }
    if (records.error())
        return *records.error();
    if (lineOfHost.empty())
        return parseError(path, records.line(), 1, "the file lists no host");
    std::vector<model::Site> sites = topology.sites();
    for (int s = 0; s < topology.siteCount(); ++s) {
        if (!listed[s].empty()) {
            sites[s].hosts = std::move(listed[s]);
            continue;
        }
        sites[s].hosts.clear();
        for (int h = topology.firstHost(s); h < topology.firstHost(s) + topology.hostCountOf(s); ++h)
            sites[s].hosts.push_back(topology.host(h));
    }
    for (auto& site : sites) {
        site.nodes = static_cast<int>(site.hosts.size());
        site.slotsPerNode = site.hosts.front().slots;
    }
    return sites;
}

} // namespace meridian::io
