#include "core/io/probe_results.h"

#include "core/common/utc_date.h"
#include "core/io/json_text.h"
#include "core/io/matrix_csv.h"
#include "core/io/text_file.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

namespace meridian::io {

namespace {

constexpr const char* kSuffixes[] = {".probe.json", ".latency.csv", ".bandwidth.csv"};

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Expected<LabeledMatrix> readGroupMatrix(const std::string& path, CellRule rule)
{
    auto m = readMatrixCsv(path, rule, true);
    if (!m)
        return m.error();
    if (m->columnNames.empty() || m->rowNames.empty())
        return parseError(path, 1, 1, "expected a header row and a first column naming the probe's hosts or sites");
    if (m->rowNames != m->columnNames)
        return parseError(path, m->headerLine, 1, "expected the header row to name the rows' hosts or sites, in order");
    std::map<std::string, int> lineOf;
    for (std::size_t i = 0; i < m->rowNames.size(); ++i)
        if (const auto [it, added] = lineOf.emplace(m->rowNames[i], m->rowLines[i]); !added)
            return parseError(path, m->rowLines[i], 1,
                              "the host or site " + shown(m->rowNames[i]) + " is named twice (also on line "
                                  + std::to_string(it->second) + "); expected each once");
    return m;
}

Eigen::MatrixXd toMatrix(const LabeledMatrix& m)
{
    Eigen::MatrixXd out(m.size, m.size);
    for (int i = 0; i < m.size; ++i)
        for (int j = 0; j < m.size; ++j)
            out(i, j) = m.values[static_cast<std::size_t>(i) * m.size + j];
    return out;
}

// Reads a whole-number member >= minimum; false if absent or not one.
bool wholeMember(const nlohmann::json& doc, const char* key, std::int64_t minimum, std::int64_t& out)
{
    const auto it = doc.find(key);
    if (it == doc.end() || !it->is_number_integer() || it->get<std::int64_t>() < minimum)
        return false;
    out = it->get<std::int64_t>();
    return true;
}

Status readJson(const std::string& path, ProbeResults& out)
{
    auto text = readTextFile(path);
    if (!text)
        return text.error();
    auto parsed = parseJsonText(*text, path);
    if (!parsed)
        return parsed.error();
    const nlohmann::json& doc = *parsed;
    const auto fail = [&](const std::string& key, const std::string& what) {
        const int line = key.empty() ? 1 : lineOf(*text, "\"" + key + "\"");
        return parseError(path, line > 0 ? line : 1, 0, what);
    };
    if (!doc.is_object() || doc.value("format", nlohmann::json()) != "meridian-probe")
        return fail("format", "expected a meridian-probe result (\"format\": \"meridian-probe\")");
    if (doc.value("version", nlohmann::json()) != 1)
        return fail("version", "expected \"version\": 1 (this Meridian reads version 1 of the probe's results)");
    const auto date = doc.find("date");
    const auto when = date != doc.end() && date->is_string() ? parseUtcDateText(date->get<std::string>())
                                                             : std::nullopt;
    if (!when)
        return fail("date", "expected \"date\": \"YYYY-MM-DDTHH:MM:SSZ\" (UTC)");
    if (const auto problem = measurementDateProblem(*when))
        return fail("date",
                    "the measurement's \"date\" is not plausible: " + *problem
                        + " (was the clock of the probe's first host set?)");
    out.measuredAt = *when;
    const auto perRank = doc.find("per_rank");
    if (perRank == doc.end() || !perRank->is_boolean())
        return fail("per_rank", "expected \"per_rank\": true or false");
    out.perRank = perRank->get<bool>();
    if (!wholeMember(doc, "small_bytes", 1, out.smallBytes)
        || !wholeMember(doc, "small_repetitions", 1, out.smallRepetitions)
        || !wholeMember(doc, "large_bytes", 1, out.largeBytes)
        || !wholeMember(doc, "large_repetitions", 1, out.largeRepetitions))
        return fail("",
                    "expected small_bytes, small_repetitions, large_bytes and large_repetitions, whole numbers >= 1");
    const auto participants = doc.find("participants");
    if (participants == doc.end() || !participants->is_array() || participants->size() < 2)
        return fail("participants", "expected \"participants\": an array of at least two ranks");
    for (const auto& p : *participants)
        if (!p.is_object() || !p.contains("name") || !p["name"].is_string() || !p.contains("group")
            || !p["group"].is_string())
            return fail("participants", "expected each participant as {\"name\": ..., \"group\": ...}");
    out.participants = static_cast<int>(participants->size());
    return {};
}

} // namespace

std::string probePrefix(const std::string& path)
{
    for (const char* suffix : kSuffixes)
        if (endsWith(path, suffix))
            return path.substr(0, path.size() - std::string(suffix).size());
    return path;
}

Expected<ProbeResults> readProbeResults(const std::string& path)
{
    ProbeResults out;
    out.prefix = probePrefix(path);
    if (auto s = readJson(out.prefix + ".probe.json", out); !s)
        return s.error();
    const std::string latencyPath = out.prefix + ".latency.csv";
    const std::string bandwidthPath = out.prefix + ".bandwidth.csv";
    auto latency = readGroupMatrix(latencyPath, CellRule::Latency);
    if (!latency)
        return latency.error();
    auto bandwidth = readGroupMatrix(bandwidthPath, CellRule::Bandwidth);
    if (!bandwidth)
        return bandwidth.error();
    if (bandwidth->columnNames != latency->columnNames)
        return parseError(bandwidthPath, bandwidth->headerLine, 1,
                          "expected the same hosts or sites as " + latencyPath + ", in the same order");
    for (int i = 0; i < latency->size; ++i)
        for (int j = 0; j < latency->size; ++j) {
            const auto k = static_cast<std::size_t>(i) * latency->size + j;
            if (std::isnan(latency->values[k]) != std::isnan(bandwidth->values[k]))
                return parseError(std::isnan(latency->values[k]) ? latencyPath : bandwidthPath,
                                  (std::isnan(latency->values[k]) ? latency : bandwidth)->rowLines[i], 0,
                                  "the pair " + shown(latency->rowNames[i]) + " -> " + shown(latency->rowNames[j])
                                      + " has a latency or a bandwidth but not both");
        }
    out.names = latency->rowNames;
    out.latencyMs = toMatrix(*latency);
    out.bandwidthMBps = toMatrix(*bandwidth);
    return out;
}

} // namespace meridian::io
