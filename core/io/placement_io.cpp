#include "core/io/placement_io.h"

#include "core/io/text_file.h"
#include "core/io/utf8_text.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>

namespace meridian::io {

namespace {

Expected<int> parseProcess(const Field& field, const std::string& path, int line)
{
    const auto id = parseInteger(field.text);
    if (!id || *id < 0 || *id >= std::numeric_limits<int>::max())
        return parseError(path, line, field.column,
                          "expected a process id (a whole number >= 0), found " + shown(field.text) + "");
    return static_cast<int>(*id);
}

Expected<int> parseSite(const Field& field, const model::Topology& topology, const std::string& path, int line)
{
    if (auto ok = checkUtf8Name(path, line, field.column, field.text, "a site name"); !ok)
        return ok.error();
    const auto site = topology.siteIndex(field.text);
    if (!site)
        return parseError(path, line, field.column,
                          "unknown site " + shown(field.text) + "; expected one of the project's sites");
    return *site;
}

} // namespace

Expected<model::Constraints> readPinsCsv(const std::string& path, const model::Topology& topology, int processCount)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    CsvRecords records(*text, path);
    std::vector<model::Pin> pins;
    std::map<int, int> lineOfProcess;
    std::vector<int> perSite(topology.siteCount(), 0);
    while (records.next()) {
        const auto& fields = records.fields();
        const int line = records.line();
        const bool header = records.isFirst() && toLower(fields[0].text) == "process";
        if (fields.size() != 2)
            return parseError(path, line, 1, "expected 2 fields 'process,site', found " + std::to_string(fields.size()));
        if (header)
            continue;
        auto process = parseProcess(fields[0], path, line);
        if (!process)
            return process.error();
        if (processCount >= 0 && *process >= processCount)
            return parseError(path, line, fields[0].column,
                              "process " + std::to_string(*process) + " does not exist: the application has "
                                  + std::to_string(processCount) + " processes (0 to "
                                  + std::to_string(processCount - 1) + ")");
        auto site = parseSite(fields[1], topology, path, line);
        if (!site)
            return site.error();
        if (auto [it, inserted] = lineOfProcess.emplace(*process, line); !inserted)
            return parseError(path, line, fields[0].column,
                              "process " + std::to_string(*process) + " is already pinned on line "
                                  + std::to_string(it->second));
        if (++perSite[*site] > topology.capacity(*site))
            return parseError(path, line, fields[1].column,
                              "site '" + topology.site(*site).name + "' has " + std::to_string(topology.capacity(*site))
                                  + " slots; this pin is one more than it can hold");
        pins.push_back({*process, *site});
    }
    if (records.error())
        return *records.error();
    auto constraints = model::Constraints::fromPins(std::move(pins));
    if (!constraints)
        return inFile(constraints.error(), path);
    return constraints;
}

Status writePinsCsv(const std::string& path, const model::Constraints& constraints, const model::Topology& topology)
{
    return writeTextFileAtomically(path, pinsCsvText(constraints, topology));
}

std::string pinsCsvText(const model::Constraints& constraints, const model::Topology& topology)
{
    std::string out = "process,site\n";
    for (const auto& pin : constraints.pins())
        out += std::to_string(pin.process) + ',' + quoteCsvField(topology.site(pin.site).name) + '\n';
    return out;
}

Expected<model::Placement> readMappingCsv(const std::string& path, const model::Topology& topology,
                                          int expectedProcesses)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    CsvRecords records(*text, path);
    struct Row {
        int site, host, slot, line;
    };
    std::map<int, Row> rows;
    while (records.next()) {
        const auto& fields = records.fields();
        const int line = records.line();
        const bool header = records.isFirst() && toLower(fields[0].text) == "process";
        if (fields.size() != 4 && fields.size() != 2)
            return parseError(path, line, 1,
                              "expected 'process,site,host,slot' or a site-level 'process,site', found "
                                  + std::to_string(fields.size()) + " fields");
        if (header)
            continue;
        std::vector<Field> f = fields;
        f.resize(4, Field{"", f.back().column});
        auto process = parseProcess(f[0], path, line);
        if (!process)
            return process.error();
        auto site = parseSite(f[1], topology, path, line);
        if (!site)
            return site.error();
        Row row{*site, -1, -1, line};
        if (f[2].text.empty() != f[3].text.empty())
            return parseError(path, line, f[2].text.empty() ? f[2].column : f[3].column,
                              "expected both a host and a slot, or neither");
        if (!f[2].text.empty()) {
            const auto host = topology.hostIndex(f[2].text);
            if (!host)
                return parseError(path, line, f[2].column, "unknown host " + shown(f[2].text) + "");
            if (topology.siteOfHost(*host) != *site)
                return parseError(path, line, f[2].column,
                                  "host " + shown(f[2].text) + " is in site '"
                                      + topology.site(topology.siteOfHost(*host)).name + "', not in " + shown(f[1].text)
                                      + "");
            const auto slot = parseInteger(f[3].text);
            const int slots = topology.host(*host).slots;
            if (!slot || *slot < 0 || *slot >= slots)
                return parseError(path, line, f[3].column,
                                  "expected a slot between 0 and " + std::to_string(slots - 1) + " for host '"
                                      + f[2].text + "', found " + shown(f[3].text) + "");
            row.host = *host;
            row.slot = static_cast<int>(*slot);
        }
        if (auto [it, inserted] = rows.emplace(*process, row); !inserted)
            return parseError(path, line, f[0].column,
                              "process " + std::to_string(*process) + " is already mapped on line "
                                  + std::to_string(it->second.line));
    }
    if (records.error())
        return *records.error();
    if (rows.empty())
        return parseError(path, records.line(), 1, "the file maps no process");
    const int n = rows.rbegin()->first + 1;
    if (static_cast<int>(rows.size()) != n) {
        int missing = 0;
        while (rows.count(missing))
            ++missing;
        return parseError(path, records.line(), 0,
                          "process ids must run from 0 to " + std::to_string(n - 1) + " without gaps; process "
                              + std::to_string(missing) + " is missing");
    }
    if (expectedProcesses >= 0 && n != expectedProcesses)
        return parseError(path, records.line(), 0,
                          "the mapping places " + std::to_string(n) + " processes but the application has "
                              + std::to_string(expectedProcesses));
    model::Placement placement;
    placement.site.reserve(n);
    for (const auto& [process, row] : rows) {
        placement.site.push_back(row.site);
        placement.host.push_back(row.host);
        placement.slot.push_back(row.slot);
    }
    return placement;
}

Status writeMappingCsv(const std::string& path, const model::Placement& placement, const model::Topology& topology)
{
    return writeTextFileAtomically(path, mappingCsvText(placement, topology));
}

std::string mappingCsvText(const model::Placement& placement, const model::Topology& topology)
{
    std::string out = "process,site,host,slot\n";
    for (int p = 0; p < placement.processCount(); ++p) {
        out += std::to_string(p) + ',' + quoteCsvField(topology.site(placement.site[p]).name) + ',';
        if (placement.host[p] >= 0)
            out += quoteCsvField(topology.host(placement.host[p]).name) + ',' + std::to_string(placement.slot[p]);
        else
            out += ',';
        out += '\n';
    }
    return out;
}

} // namespace meridian::io
