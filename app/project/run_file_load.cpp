// RunFile::load: reads a runs file strictly. Every key has the JSON type it is written with (a key of another
// type is an error, never an empty value), every number its range, and a run's placement or partition must fit
// the project (sites, hosts, slots, capacities). Errors name the file, the line and column of the key where it
// can be found, the run and the field.
#include "app/project/run_file.h"

#include "core/io/text_file.h"

#include "app/project/project_edits.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace meridian::document {

namespace {

/// What a JSON value is, for messages ("found a string").
std::string typeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return "true or false";
    case QJsonValue::Double:
        return "the number " + QString::number(v.toDouble(), 'g', 17).toStdString();
    case QJsonValue::String:
        return "a string";
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    case QJsonValue::Undefined:
        break;
    }
    return "nothing";
}

qsizetype skipString(const QByteArray& t, qsizetype at)
{
    for (++at; at < t.size(); ++at) {
        if (t[at] == '\\')
            ++at;
        else if (t[at] == '"')
            return at + 1;
    }
    return t.size();
}

qsizetype skipSpace(const QByteArray& t, qsizetype at)
{
    while (at < t.size() && (t[at] == ' ' || t[at] == '\t' || t[at] == '\r' || t[at] == '\n'))
        ++at;
    return at;
}

/// Finds keys in the file's text, to point an error at the line of the key it is about: the offset of each
/// object of the top-level "runs" array, and a key's offset inside one of them.
class KeyLocator {
public:
    explicit KeyLocator(QByteArray text)
        : m_text(std::move(text))
    {
        int depth = 0, runsDepth = -1;
        bool runsNext = false;
        for (qsizetype i = 0; i < m_text.size(); ++i) {
            const char c = m_text[i];
            if (c == '"') {
                const qsizetype end = skipString(m_text, i);
                const qsizetype after = skipSpace(m_text, end);
                if (depth == 1 && after < m_text.size() && m_text[after] == ':')
                    runsNext = m_text.mid(i, end - i) == "\"runs\"";
                i = end - 1;
            } else if (c == '{' || c == '[') {
                if (depth == runsDepth && c == '{')
                    m_runs.push_back(i);
                ++depth;
                if (runsNext && depth == 2)
                    runsDepth = c == '[' ? 2 : -1;
                runsNext = false;
            } else if (c == '}' || c == ']') {
                if (--depth < runsDepth)
                    runsDepth = -1;
            }
        }
    }

    /// The line and column of `"key":` in run `run` (-1: the top-level object); a nested key is looked for at
    /// any depth. The run's own start when the key is not found, (0, 0) when neither is.
    SourceLocation locate(const std::string& file, int run, const std::string& key, bool nested) const
    {
        const qsizetype start = run < 0 ? 0 : run < static_cast<int>(m_runs.size()) ? m_runs[run] : -1;
        if (start < 0)
            return {file, 0, 0};
        const QByteArray quoted = "\"" + QByteArray::fromStdString(key) + "\"";
        int depth = 0;
        for (qsizetype i = start; i < m_text.size(); ++i) {
            const char c = m_text[i];
            if (c == '"') {
                const qsizetype end = skipString(m_text, i);
                const qsizetype after = skipSpace(m_text, end);
                if ((depth == 1 || (nested && depth > 1)) && after < m_text.size() && m_text[after] == ':'
                    && m_text.mid(i, end - i) == quoted)
                    return at(file, i);
                i = end - 1;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth <= 0) {
                break;
            }
        }
        return run < 0 ? SourceLocation{file, 0, 0} : at(file, start);
    }

private:
    SourceLocation at(const std::string& file, qsizetype offset) const
    {
        const QByteArray before = m_text.left(offset);
        return {file, static_cast<int>(before.count('\n')) + 1,
                static_cast<int>(offset - (before.lastIndexOf('\n') + 1)) + 1};
    }

    QByteArray m_text;
    std::vector<qsizetype> m_runs;
};

/// The largest whole number a run file's integer fields hold (ids, sites, hosts, slots).
constexpr double kMaxIndex = std::numeric_limits<int>::max();

/// Reads one runs file against a project.
class RunsReader {
public:
    RunsReader(const QString& path, const QByteArray& text, const Project& project)
        : m_path(path.toStdString())
        , m_keys(text)
        , m_project(project)
    {}

    Expected<LoadedRuns> read(const QJsonObject& root);

private:
    /// A run that does not fit the project: the key and what is wrong. A stale run that does not fit is
    /// skipped; a current one is an error.
    struct Misfit {
        std::string key;
        std::string what;
    };

    static std::optional<Misfit> misfitOf(std::string key, std::string what)
    {
        return Misfit{std::move(key), std::move(what)};
    }

    Error fail(const std::string& key, const std::string& what, bool nested = false) const
    {
        const std::string where = m_run < 0 ? "" : "run " + std::to_string(m_run) + ", ";
        return makeError(ErrorCode::Parse, where + "\"" + key + "\": " + what,
                         m_keys.locate(m_path, m_run, key, nested));
    }
    Error wrongType(const std::string& key, const QJsonValue& v, const std::string& expected, bool nested = false) const
    {
        return fail(key, "expected " + expected + ", found " + typeName(v), nested);
    }

    Expected<QJsonValue> field(const QJsonObject& o, const char* key, QJsonValue::Type type, const char* expected,
                               bool required = true) const;
    Expected<std::string> string(const QJsonObject& o, const char* key, bool required = true) const;
    Expected<double> amount(const QJsonObject& o, const char* key, bool required = true) const;
    Expected<std::vector<int>> indices(const QJsonObject& o, const char* key, int least) const;
    Expected<std::vector<double>> amounts(const QJsonValue& v, const std::string& key) const;
    Expected<std::uint64_t> decimal(const QJsonObject& o, const char* key, const std::string& field, int base) const;

    Expected<Run> readRun(const QJsonObject& o, std::set<int>& ids);
    Status readParams(const QJsonObject& o, Run& run) const;
    Expected<std::optional<Misfit>> readMapping(const QJsonObject& o, Run& run) const;
    Expected<std::optional<Misfit>> readPartition(const QJsonObject& o, Run& run) const;
    Status readBatches(const QJsonObject& o, Run& run) const;
    Expected<std::optional<Misfit>> readCommon(const QJsonObject& o, Run& run) const;
    Expected<std::optional<Misfit>> readMatrix(const QJsonObject& o, const char* key, Eigen::MatrixXd& out) const;
    Expected<std::optional<Misfit>> readSimulatedLinks(const QJsonObject& o, Run& run) const;

    std::string m_path;
    KeyLocator m_keys;
    const Project& m_project;
    int m_run = -1; ///< the run being read, -1 for the file's top level
};

Expected<QJsonValue> RunsReader::field(const QJsonObject& o, const char* key, QJsonValue::Type type,
                                       const char* expected, bool required) const
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined() && !required)
        return v;
    if (v.isUndefined())
        return fail(key, std::string("missing; expected ") + expected);
    if (v.type() != type)
        return wrongType(key, v, expected);
    return v;
}

Expected<std::string> RunsReader::string(const QJsonObject& o, const char* key, bool required) const
{
    return field(o, key, QJsonValue::String, "a string", required).transform([](const QJsonValue& v) {
        return v.toString().toStdString();
    });
}

/// A finite number >= 0 (a time, bytes, dollars); NaN when an optional key is absent.
Expected<double> RunsReader::amount(const QJsonObject& o, const char* key, bool required) const
{
    auto v = field(o, key, QJsonValue::Double, "a number >= 0", required);
    if (!v)
        return v.error();
    if (v->isUndefined())
        return std::nan("");
    const double x = v->toDouble();
    if (!(x >= 0.0 && std::isfinite(x)))
        return wrongType(key, *v, "a number >= 0");
    return x;
}

/// An array of whole numbers from `least` to 2^31 - 1 (sites, or hosts and slots with -1 for none).
Expected<std::vector<int>> RunsReader::indices(const QJsonObject& o, const char* key, int least) const
{
    auto v = field(o, key, QJsonValue::Array, "an array of whole numbers");
    if (!v)
        return v.error();
    std::vector<int> out;
    const auto array = v->toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const double x = array[i].toDouble(std::nan(""));
        if (!array[i].isDouble() || x != std::floor(x) || x < least || x > kMaxIndex)
            return wrongType(std::string(key), array[i],
                             "a whole number >= " + std::to_string(least) + " at [" + std::to_string(i) + "]");
        out.push_back(static_cast<int>(x));
    }
    return out;
}

Expected<std::vector<double>> RunsReader::amounts(const QJsonValue& v, const std::string& key) const
{
    if (!v.isArray())
        return wrongType(key, v, "an array of numbers >= 0");
    std::vector<double> out;
    const auto array = v.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const double x = array[i].toDouble(std::nan(""));
        if (!array[i].isDouble() || !(x >= 0.0 && std::isfinite(x)))
            return wrongType(key, array[i], "a number >= 0 at [" + std::to_string(i) + "]");
        out.push_back(x);
    }
    return out;
}

/// A 64-bit number written as a string (seeds, fingerprints, edge counts), in `base`.
Expected<std::uint64_t> RunsReader::decimal(const QJsonObject& o, const char* key, const std::string& field,
                                            int base) const
{
    const QJsonValue v = o.value(QLatin1String(key));
    const char* expected = base == 16 ? "a string of a hexadecimal number" : "a string of a whole number";
    if (!v.isString())
        return wrongType(field, v, expected, field != key);
    bool ok = false;
    const std::uint64_t x = v.toString().toULongLong(&ok, base);
    if (!ok)
        return fail(field, std::string("expected ") + expected + ", found \"" + v.toString().toStdString() + "\"",
                    field != key);
    return x;
}

Status RunsReader::readParams(const QJsonObject& o, Run& run) const
{
    auto stored = field(o, "params", QJsonValue::Object, "an object of parameters");
    if (!stored)
        return stored.error();
    std::map<std::string, ParamValue> params;
    const auto object = stored->toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const std::string name = it.key().toStdString();
        const auto v = it.value().toObject();
        if (!it.value().isObject() || v.size() != 1)
            return wrongType(name, it.value(), "one of {\"int\": \"N\"}, {\"real\": X}, {\"flag\": B}, {\"choice\": S}",
                             true);
        const QString type = v.begin().key();
        const QJsonValue x = v.begin().value();
        bool ok = false;
        if (type == "int" && x.isString()) {
            const std::int64_t i = x.toString().toLongLong(&ok);
            if (!ok)
                return fail(name, "expected a string of an integer, found \"" + x.toString().toStdString() + "\"", true);
            params.emplace(name, i);
        } else if (type == "real" && x.isDouble())
            params.emplace(name, x.toDouble());
        else if (type == "flag" && x.isBool())
            params.emplace(name, x.toBool());
        else if (type == "choice" && x.isString())
            params.emplace(name, x.toString().toStdString());
        else
            return wrongType(name, it.value(), "one of {\"int\": \"N\"}, {\"real\": X}, {\"flag\": B}, {\"choice\": S}",
                             true);
    }
    run.params = ParamValues::fromStored(std::move(params));
    return {};
}

/// A mapping run's placement: a site for every process, and a host and slot (-1 for none) that exist, lie in
/// that site and are used once, with no site over its capacity.
Expected<std::optional<RunsReader::Misfit>> RunsReader::readMapping(const QJsonObject& o, Run& run) const
{
    const auto& topology = m_project.topology;
    auto site = indices(o, "site", 0);
    auto host = site ? indices(o, "host", -1) : site;
    auto slot = host ? indices(o, "slot", -1) : host;
    if (!slot)
        return slot.error();
    run.placement.site = std::move(*site);
    run.placement.host = std::move(*host);
    run.placement.slot = std::move(*slot);
    const auto& p = run.placement;
    const int a = m_project.applicationIndex(run.application);
    if (a < 0)
        return misfitOf("application", "the project has no application '" + run.application + "'");
    const int n = m_project.applications[a].comm.processCount();
    for (const auto& [key, size] : {std::pair{"site", p.site.size()}, {"host", p.host.size()}, {"slot", p.slot.size()}})
        if (static_cast<int>(size) != n)
            return misfitOf(key,
                            "expected one entry for each of the " + std::to_string(n) + " processes of '"
                                + run.application + "', found " + std::to_string(size));
    for (int i = 0; i < n; ++i) {
        const int s = p.site[i], h = p.host[i], k = p.slot[i];
        if (s >= topology.siteCount())
            return misfitOf("site",
                            "process " + std::to_string(i) + " is placed on site " + std::to_string(s)
                                + "; the project's sites are 0 to " + std::to_string(topology.siteCount() - 1));
        if ((h < 0) != (k < 0))
            return misfitOf(h < 0 ? "host" : "slot",
                            "process " + std::to_string(i) + " has a "
                                + (h < 0 ? "slot but no host" : "host but no slot"));
        if (h >= 0 && (h >= topology.hostCount() || topology.siteOfHost(h) != s))
            return misfitOf("host",
                            "process " + std::to_string(i) + " is placed on host " + std::to_string(h)
                                + ", which is not a host of site '" + topology.site(s).name + "'");
    }
    const auto violations = model::checkPlacement(p, topology, {});
    if (!violations.empty())
        return misfitOf(violations.front().kind == model::Violation::Kind::Capacity ? "site" : "slot",
                        violations.front().message);
    return std::optional<Misfit>{};
}

Status RunsReader::readBatches(const QJsonObject& o, Run& run) const
{
    auto batches = field(o, "batches", QJsonValue::Array, "an array of batches", false);
    if (!batches)
        return batches.error();
    const auto pairs = [&](const QJsonObject& b, const char* key,
                           std::vector<std::pair<std::uint64_t, std::uint64_t>>& out) -> Status {
        const auto bytes = QByteArray::fromBase64Encoding(b.value(QLatin1String(key)).toString().toLatin1(),
                                                          QByteArray::AbortOnBase64DecodingErrors);
        if (!b.value(QLatin1String(key)).isString() || !bytes || bytes.decoded.size() % 16 != 0)
            return fail(std::string("batches.") + key, "expected base64 of 16-byte id pairs", true);
        const auto* in = reinterpret_cast<const uchar*>(bytes.decoded.constData());
        for (qsizetype k = 0; k < bytes.decoded.size(); k += 16)
            out.emplace_back(qFromLittleEndian<quint64>(in + k), qFromLittleEndian<quint64>(in + k + 8));
        return {};
    };
    for (const auto& x : batches->toArray()) {
        if (!x.isObject())
            return wrongType("batches", x, "an array of objects");
        const QJsonObject b = x.toObject();
        auto batch = std::make_shared<EdgeBatch>();
        if (!b.value("name").isString())
            return wrongType("batches.name", b.value("name"), "a string", true);
        batch->name = b.value("name").toString().toStdString();
        auto seed = decimal(b, "seed", "seed", 10);
        auto edges = seed ? decimal(b, "edges_after", "edges_after", 10) : seed;
        auto vertices = edges ? decimal(b, "vertices_after", "vertices_after", 10) : edges;
        if (!vertices)
            return vertices.error();
        batch->seed = *seed;
        batch->edgesAfter = *edges;
        batch->verticesAfter = *vertices;
        if (auto d = pairs(b, "deletions", batch->deletions); !d)
            return d;
        if (auto i = pairs(b, "insertions", batch->insertions); !i)
            return i;
        run.batches.push_back(std::move(batch));
    }
    return {};
}

/// A partition run: its profile, budget, batches, the site of every edge and vertex, and per-site traffic.
Expected<std::optional<RunsReader::Misfit>> RunsReader::readPartition(const QJsonObject& o, Run& run) const
{
    run.kind = RunKind::Partition;
    auto profile = string(o, "profile");
    auto derivation = profile ? string(o, "derivation", false) : profile;
    if (!derivation)
        return derivation.error();
    run.profile = *profile;
    run.derivation = *derivation;
    auto fraction = amount(o, "active_fraction");
    if (!fraction)
        return fraction.error();
    if (*fraction > 1.0)
        return fail("active_fraction", "expected a share from 0 to 1, found " + std::to_string(*fraction));
    run.activeFraction = *fraction;
    auto budget = amount(o, "budget_usd", false);
    if (!budget)
        return budget.error();
    if (!std::isnan(*budget))
        run.budgetUsd = *budget;
    if (o.contains("derived_from")) {
        const double from = o.value("derived_from").toDouble(-1.0);
        if (!o.value("derived_from").isDouble() || from != std::floor(from) || from < 0 || from > kMaxIndex)
            return wrongType("derived_from", o.value("derived_from"), "the id of another run");
        run.derivedFrom = static_cast<int>(from);
    }
    if (auto b = readBatches(o, run); !b)
        return b.error();
    const auto n = static_cast<std::size_t>(m_project.topology.siteCount());
    std::vector<double>* perSite[] = {&run.siteUploadBytes, &run.siteDownloadBytes, &run.siteUploadSeconds,
                                      &run.siteDownloadSeconds};
    const char* perSiteKeys[] = {"site_upload_bytes", "site_download_bytes", "site_upload_s", "site_download_s"};
    for (int k = 0; k < 4; ++k) {
        auto values = amounts(o.value(QLatin1String(perSiteKeys[k])), perSiteKeys[k]);
        if (!values)
            return values.error();
        *perSite[k] = std::move(*values);
    }
    auto partition = std::make_shared<model::EdgePartition>();
    for (const char* key : {"edge_sites", "master_sites"}) {
        const QJsonValue v = o.value(QLatin1String(key));
        const auto bytes = QByteArray::fromBase64Encoding(v.toString().toLatin1(),
                                                          QByteArray::AbortOnBase64DecodingErrors);
        if (!v.isString() || !bytes)
            return wrongType(key, v,
                             "a base64 string of one site byte per " + std::string(*key == 'e' ? "edge" : "vertex"));
        (*key == 'e' ? partition->edgeSite : partition->masterSite).assign(bytes.decoded.begin(), bytes.decoded.end());
    }
    const int g = m_project.graphIndex(run.application);
    if (g < 0)
        return misfitOf("application", "the project has no graph '" + run.application + "'");
    // A what-if on an updated graph partitions the graph its last batch left.
    const auto& stats = m_project.graphs[g].stats;
    const std::uint64_t edges = run.batches.empty() ? stats.edges : run.batches.back()->edgesAfter;
    const std::uint64_t vertices = run.batches.empty() ? stats.vertices : run.batches.back()->verticesAfter;
    const int sites = m_project.topology.siteCount();
    const auto fits = [&](const std::vector<std::uint8_t>& v, std::uint64_t count) {
        return v.size() == count && std::all_of(v.begin(), v.end(), [&](std::uint8_t s) { return s < sites; });
    };
    const std::string after = run.batches.empty() ? "" : " after its batches";
    if (!fits(partition->edgeSite, edges))
        return misfitOf("edge_sites",
                        "expected one of the project's " + std::to_string(sites) + " sites for each of the "
                            + std::to_string(edges) + " edges of graph '" + run.application + "'" + after);
    if (!fits(partition->masterSite, vertices))
        return misfitOf("master_sites",
                        "expected one of the project's " + std::to_string(sites) + " sites for each of the "
                            + std::to_string(vertices) + " vertices of graph '" + run.application + "'" + after);
    run.partition = std::move(partition);
    for (int k = 0; k < 4; ++k)
        if (perSite[k]->size() != n)
            return misfitOf(perSiteKeys[k],
                            "expected one number for each of the project's " + std::to_string(n) + " sites, found "
                                + std::to_string(perSite[k]->size()));
    return std::optional<Misfit>{};
}

/// A site x site matrix of numbers >= 0.
Expected<std::optional<RunsReader::Misfit>> RunsReader::readMatrix(const QJsonObject& o, const char* key,
                                                                   Eigen::MatrixXd& out) const
{
    auto rows = field(o, key, QJsonValue::Array, "an array of rows, one per site");
    if (!rows)
        return rows.error();
    const auto array = rows->toArray();
    const int n = m_project.topology.siteCount();
    std::vector<std::vector<double>> values;
    for (const auto& row : array) {
        auto r = amounts(row, key);
        if (!r)
            return r.error();
        values.push_back(std::move(*r));
    }
    const bool square = std::all_of(values.begin(), values.end(),
                                    [&](const auto& r) { return r.size() == values.size(); });
    if (static_cast<int>(values.size()) != n || !square)
        return misfitOf(key,
                        "expected " + std::to_string(n) + " rows of " + std::to_string(n)
                            + " numbers, one per site of the project");
    out.resize(n, n);
    for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
            out(r, c) = values[r][c];
    return std::optional<Misfit>{};
}

/// A run's simulated links: [from, to, bytes, busy fraction, utilisation] each, `from` or `to` -1 for a site's
/// downlink or uplink.
Expected<std::optional<RunsReader::Misfit>> RunsReader::readSimulatedLinks(const QJsonObject& o, Run& run) const
{
    auto links = field(o, "simulated_links", QJsonValue::Array, "an array of links", false);
    if (!links)
        return links.error();
    const int sites = m_project.topology.siteCount();
    for (const auto& entry : links->toArray()) {
        const QJsonArray a = entry.toArray();
        const auto number = [](const QJsonValue& x) { return x.isDouble() && std::isfinite(x.toDouble()); };
        const auto whole = [](const QJsonValue& x) { return x.toDouble() == std::floor(x.toDouble()); };
        if (!entry.isArray() || a.size() != 5 || !std::all_of(a.begin(), a.end(), number) || !whole(a[0])
            || !whole(a[1]) || a[2].toDouble() < 0 || a[3].toDouble() < 0 || a[4].toDouble() < 0)
            return wrongType("simulated_links", entry,
                             "[from, to, bytes, busy fraction, utilisation] with numbers >= 0");
        const double from = a[0].toDouble(), to = a[1].toDouble();
        const auto site = [&](double s) { return s >= -1 && s < sites; };
        if (!site(from) || !site(to) || (from < 0 && to < 0))
            return misfitOf("simulated_links",
                            "its simulated links do not name the project's " + std::to_string(sites) + " sites");
        run.simulatedLinks.push_back(
            {static_cast<int>(from), static_cast<int>(to), a[2].toDouble(), a[3].toDouble(), a[4].toDouble()});
    }
    return std::optional<Misfit>{};
}

/// The metrics, notes, matrices, samples and simulated links every run has.
Expected<std::optional<RunsReader::Misfit>> RunsReader::readCommon(const QJsonObject& o, Run& run) const
{
    auto metrics = field(o, "metrics", QJsonValue::Array, "an array of metrics");
    if (!metrics)
        return metrics.error();
    for (const auto& m : metrics->toArray()) {
        if (!m.isObject())
            return wrongType("metrics", m, "an array of objects {id, label, unit, value}");
        const auto mo = m.toObject();
        RunMetric metric;
        for (auto [key, out] : {std::pair{"id", &metric.id}, {"label", &metric.label}, {"unit", &metric.unit}}) {
            if (!mo.value(QLatin1String(key)).isString())
                return wrongType(std::string("metrics.") + key, mo.value(QLatin1String(key)), "a string", true);
            *out = mo.value(QLatin1String(key)).toString().toStdString();
        }
        const double value = mo.value("value").toDouble(std::nan(""));
        if (!mo.value("value").isDouble() || !(value >= 0.0 && std::isfinite(value)))
            return fail("value",
                        "metric '" + metric.id + "': expected a number >= 0, found " + typeName(mo.value("value")),
                        true);
        metric.value = value;
        run.metrics.push_back(std::move(metric));
    }
    auto notes = field(o, "notes", QJsonValue::Array, "an array of strings");
    if (!notes)
        return notes.error();
    for (const auto& note : notes->toArray()) {
        if (!note.isString())
            return wrongType("notes", note, "an array of strings");
        run.notes.push_back(note.toString().toStdString());
    }
    auto samples = amounts(o.value("cost_samples"), "cost_samples");
    if (!samples)
        return samples.error();
    run.costSamples = std::move(*samples);
    auto curve = field(o, "best_curve", QJsonValue::Array, "an array of [\"evaluations\", cost]");
    if (!curve)
        return curve.error();
    for (const auto& p : curve->toArray()) {
        const auto pair = p.toArray();
        bool ok = false;
        const std::int64_t k = pair.at(0).toString().toLongLong(&ok);
        const double c = pair.at(1).toDouble(-1.0);
        if (!p.isArray() || pair.size() != 2 || !ok || k < 0 || !pair.at(1).isDouble() || !(c >= 0 && std::isfinite(c)))
            return wrongType("best_curve", p, "[\"evaluations\", cost] with a cost >= 0");
        run.bestCurve.emplace_back(k, c);
    }
    for (const char* key : {"traffic_bytes", "time_s"}) {
        auto misfit = readMatrix(o, key, std::string_view(key) == "traffic_bytes" ? run.trafficBytes : run.timeSeconds);
        if (!misfit || *misfit)
            return misfit;
    }
    return readSimulatedLinks(o, run);
}

Expected<Run> RunsReader::readRun(const QJsonObject& o, std::set<int>& ids)
{
    Run run;
    const double id = o.value("id").toDouble(-1.0);
    if (!o.value("id").isDouble() || id != std::floor(id) || id < 1 || id > kMaxIndex)
        return wrongType("id", o.value("id"), "a whole number >= 1");
    run.id = static_cast<int>(id);
    if (!ids.insert(run.id).second)
        return fail("id", "run id " + std::to_string(run.id) + " is used by an earlier run");
    auto algorithm = string(o, "algorithm");
    auto application = algorithm ? string(o, "application") : algorithm;
    auto kind = application ? string(o, "kind", false) : application;
    if (!kind)
        return kind.error();
    if (algorithm->empty())
        return fail("algorithm", "expected the id of an algorithm, found \"\"");
    run.algorithm = *algorithm;
    run.application = *application;
    if (o.contains("kind") && *kind != "partition")
        return fail("kind", "expected \"partition\" (or no kind for a mapping), found \"" + *kind + "\"");
    auto seed = decimal(o, "seed", "seed", 10);
    auto fingerprint = seed ? decimal(o, "fingerprint", "fingerprint", 16) : seed;
    auto runtime = fingerprint ? amount(o, "runtime_s") : Expected<double>(fingerprint.error());
    if (!runtime)
        return runtime.error();
    run.seed = *seed;
    run.inputFingerprint = *fingerprint;
    run.runtimeSeconds = *runtime;
    if (auto p = readParams(o, run); !p)
        return p.error();
    return run;
}

Expected<LoadedRuns> RunsReader::read(const QJsonObject& root)
{
    if (root.value("format").toString() != "meridian-runs")
        return makeError(ErrorCode::Parse, "not a Meridian runs file (\"format\" is not \"meridian-runs\")",
                         m_keys.locate(m_path, -1, "format", false));
    const double version = root.value("version").toDouble(0.0);
    if (!root.value("version").isDouble() || version != std::floor(version) || version < 1)
        return wrongType("version", root.value("version"), "the whole number " + std::to_string(RunFile::kVersion));
    if (version > RunFile::kVersion)
        return fail("version",
                    "written by a newer Meridian (runs file version " + QString::number(version).toStdString()
                        + "); this one reads version " + std::to_string(RunFile::kVersion));
    auto runs = field(root, "runs", QJsonValue::Array, "an array of runs");
    if (!runs)
        return runs.error();
    LoadedRuns loaded;
    std::set<int> ids;
    const auto array = runs->toArray();
    for (m_run = 0; m_run < static_cast<int>(array.size()); ++m_run) {
        if (!array[m_run].isObject())
            return makeError(ErrorCode::Parse,
                             "run " + std::to_string(m_run) + ": expected an object, found " + typeName(array[m_run]),
                             m_keys.locate(m_path, m_run, "", false));
        const auto o = array[m_run].toObject();
        auto run = readRun(o, ids);
        if (!run)
            return run.error();
        auto misfit = o.contains("kind") ? readPartition(o, *run) : readMapping(o, *run);
        if (misfit && !*misfit)
            misfit = readCommon(o, *run);
        if (!misfit)
            return misfit.error();
        // A run that was stale when saved may no longer fit the inputs (a site was added, an application
        // removed): it is left out and counted. A current run that does not fit means a damaged file.
        if (*misfit) {
            if (inputFingerprint(m_project, run->application) != run->inputFingerprint) {
                ++loaded.skippedStale;
                continue;
            }
            return makeError(ErrorCode::Parse,
                             "run " + std::to_string(m_run) + " (id " + std::to_string(run->id) + "), \""
                                 + (*misfit)->key + "\": " + (*misfit)->what,
                             m_keys.locate(m_path, m_run, (*misfit)->key, false));
        }
        loaded.runs.push_back(std::move(*run));
    }
    return loaded;
}

} // namespace

Expected<LoadedRuns> RunFile::load(const QString& path, const Project& project)
{
    // Through the engine's reader: a FIFO or /dev/zero given as --runs is refused at once, a huge file from its size.
    auto text = io::readTextFile(path.toStdString(), kMaxRunsFileBytes);
    if (!text)
        return text.error();
    return fromText(*text, path, project);
}

Expected<LoadedRuns> RunFile::fromText(const std::string& text, const QString& path, const Project& project)
{
    const QByteArray bytes = QByteArray::fromStdString(text);
    QJsonParseError parseError;
    const auto doc = QJsonDocument::fromJson(bytes, &parseError);
    if (doc.isNull()) {
        const auto before = bytes.left(parseError.offset);
        return makeError(ErrorCode::Parse, parseError.errorString().toStdString(),
                         {path.toStdString(), static_cast<int>(before.count('\n')) + 1,
                          static_cast<int>(parseError.offset - (before.lastIndexOf('\n') + 1)) + 1});
    }
    if (!doc.isObject())
        return makeError(ErrorCode::Parse, "expected an object {\"format\": \"meridian-runs\", ...}",
                         {path.toStdString(), 1, 1});
    return RunsReader(path, bytes, project).read(doc.object());
}

} // namespace meridian::document
