#include "app/project/project_file.h"

#include "app/project/project_imports.h"

#include "app/project/run_file.h"
#include "core/common/utc_date.h"
#include "core/io/comm_io.h"
#include "core/io/journal.h"
#include "core/io/network_io.h"
#include "core/io/placement_io.h"
#include "core/io/text_file.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <sys/stat.h>

namespace meridian::document {

namespace {

using model::NetworkQuantity;

struct Reader {
    QString path;
    QByteArray text;                    ///< the file's bytes, to find the line of a key
    std::map<QString, QString> pending; ///< files of a save still in progress: final -> its temporary, read instead

    /// An error at `where` ("applications[0].volume"), at the line and column of that key in the file (of the last
    /// key before a trailing index: "network.latency_ms[0][1]" is located at "latency_ms").
    Error fail(const QString& where, const QString& what) const
    {
        const auto [line, column] = positionOfPath(where);
        return makeError(ErrorCode::Parse, (where + ": " + what).toStdString(), {path.toStdString(), line, column});
    }

    /// Walks the JSON text keeping the path of keys and array indices it is in, and returns the position of the
    /// key at `where`; (0, 0) when there is none.
    std::pair<int, int> positionOfPath(const QString& where) const
    {
        QStringList target; // keys, and indices written "[n]"
        static const QRegularExpression parts(R"(([^.\[\]]+)|\[(\d+)\])");
        for (auto it = parts.globalMatch(where); it.hasNext();) {
            const auto m = it.next();
            target << (m.captured(1).isEmpty() ? "[" + m.captured(2) + "]" : m.captured(1));
        }
        while (!target.isEmpty() && target.back().startsWith('['))
            target.removeLast();
        if (target.isEmpty())
            return {0, 0};
        struct Frame {
            bool array = false;
            int index = 0;
            QString key;
        };
        std::vector<Frame> frames;
        int line = 1, column = 1;
        for (qsizetype i = 0; i < text.size(); ++i) {
            const char c = text[i];
            if (c == '"') {
                const int keyLine = line, keyColumn = column;
                qsizetype end = i + 1;
                while (end < text.size() && text[end] != '"')
                    end += text[end] == '\\' ? 2 : 1;
                const QString name = QString::fromUtf8(text.mid(i + 1, end - i - 1));
                column += static_cast<int>(end - i);
                i = end;
                qsizetype after = end + 1;
                while (after < text.size() && QByteArrayView(" \t\r\n").contains(text[after]))
                    ++after;
                if (after < text.size() && text[after] == ':' && !frames.empty() && !frames.back().array) {
                    frames.back().key = name;
                    if (frames.size() == static_cast<std::size_t>(target.size())) {
                        bool same = true;
                        for (std::size_t f = 0; f < frames.size() && same; ++f)
                            same = (frames[f].array ? QString("[%1]").arg(frames[f].index) : frames[f].key)
                                == target[static_cast<qsizetype>(f)];
                        if (same)
                            return {keyLine, keyColumn};
                    }
                }
            } else if (c == '{' || c == '[') {
                frames.push_back({c == '[', 0, {}});
            } else if (c == '}' || c == ']') {
                if (!frames.empty())
                    frames.pop_back();
            } else if (c == ',' && !frames.empty() && frames.back().array) {
                ++frames.back().index;
            }
            if (c == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return {0, 0};
    }

    /// Refuses a key present with another JSON type than `expected` (a wrong type read as empty would make the
    /// next save delete the data). Absent and null keys pass.
    Status checkType(const QJsonObject& o, const char* key, QJsonValue::Type expected, const QString& where) const
    {
        const auto v = o.value(key);
        if (v.isUndefined() || v.isNull() || v.type() == expected)
            return {};
        static const std::map<QJsonValue::Type, const char*> names{{QJsonValue::Bool, "true or false"},
                                                                   {QJsonValue::Double, "a number"},
                                                                   {QJsonValue::String, "a string"},
                                                                   {QJsonValue::Array, "an array [...]"},
                                                                   {QJsonValue::Object, "an object {...}"}};
        const QString field = where.isEmpty() ? QString(key) : where + "." + key;
        return fail(field, QString("expected %1, found %2").arg(names.at(expected), names.at(v.type())));
    }

    Status checkTypes(const QJsonObject& o, const QString& where,
                      std::initializer_list<std::pair<const char*, QJsonValue::Type>> keys) const
    {
        for (const auto& [key, type] : keys)
            if (auto s = checkType(o, key, type, where); !s)
                return s;
        return {};
    }

    /// The file a project-relative sidecar name stands for: inside the project's folder only (an absolute path or
    /// one climbing out with ".." is refused, so that a save never writes outside the folder), read from the
    /// temporary of a save in progress where there is one.
    Expected<QString> sidecar(const QString& where, const QString& name) const
    {
        const QString clean = QDir::cleanPath(name);
        if (name.isEmpty() || QDir::isAbsolutePath(name) || clean == ".." || clean.startsWith("../"))
            return fail(where, "expected a file name inside the project's folder, not '" + name + "'");
        const QString file = QFileInfo(path).absoluteDir().filePath(clean);
        if (auto in = ProjectFile::checkInsideFolder(path, file); !in)
            return fail(where, QString::fromStdString(in.error().message));
        const auto redirected = pending.find(file);
        return redirected == pending.end() ? file : redirected->second;
    }

    /// Returns the 1-based line and column of the first `"key":` in the file (0, 0 if not found).
    std::pair<int, int> positionOfKey(const QString& key) const
    {
        const QByteArray quoted = QJsonDocument(QJsonArray{key}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
        for (qsizetype at = text.indexOf(quoted); at >= 0; at = text.indexOf(quoted, at + 1)) {
            qsizetype after = at + quoted.size();
            while (after < text.size() && QByteArrayView(" \t\r\n").contains(text[after]))
                ++after;
            if (after < text.size() && text[after] == ':') {
                const auto before = text.left(at);
                return {static_cast<int>(before.count('\n')) + 1,
                        static_cast<int>(at - (before.lastIndexOf('\n') + 1)) + 1};
            }
        }
        return {0, 0};
    }

    /// Fails on a key that is not in `allowed` (a misspelt key would otherwise be silently ignored).
    Status checkKeys(const QJsonObject& object, const QString& where, std::initializer_list<const char*> allowed) const
    {
        for (const QString& key : object.keys()) {
            if (std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == QLatin1String(a); }))
                continue;
            QStringList names;
            for (const char* a : allowed)
                names << a;
            const auto [line, column] = positionOfKey(key);
            return makeError(ErrorCode::Parse,
                             QString("%1: unknown key '%2'; expected one of %3")
                                 .arg(where.isEmpty() ? "project" : where, key, names.join(", "))
                                 .toStdString(),
                             {path.toStdString(), line, column});
        }
        return {};
    }
};

const char* quantityKey(NetworkQuantity q) { return q == NetworkQuantity::Latency ? "latency_ms" : "bandwidth_MBps"; }

std::optional<double> optionalNumber(const QJsonObject& o, const char* key, bool& bad)
{
    const auto v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    if (!v.isDouble()) {
        bad = true;
        return std::nullopt;
    }
    return v.toDouble();
}

Expected<model::Topology> readSites(const Reader& r, const QJsonValue& value)
{
    if (!value.isArray() || value.toArray().isEmpty())
        return r.fail("sites", "expected a non-empty array of sites");
    std::vector<model::Site> sites;
    const auto array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString where = QString("sites[%1]").arg(i);
        if (!array[i].isObject())
            return r.fail(where, "expected an object");
        const auto o = array[i].toObject();
        if (auto k = r.checkKeys(o, where,
                                 {"name", "lat", "lon", "nodes", "slots", "hosts", "up_MBps", "down_MBps",
                                  "egress_usd_per_GB", "instance_usd_per_hour"});
            !k)
            return k.error();
        model::Site s;
        if (!o.value("name").isString())
            return r.fail(where + ".name", "expected a string");
        s.name = o.value("name").toString().toStdString();
        for (const char* key : {"lat", "lon"})
            if (!o.value(key).isDouble())
                return r.fail(where + "." + key, "expected a number of degrees");
        s.latitude = o.value("lat").toDouble();
        s.longitude = o.value("lon").toDouble();
        bool bad = false;
        const auto nodes = optionalNumber(o, "nodes", bad);
        const auto slots = optionalNumber(o, "slots", bad);
        s.uplinkMBps = optionalNumber(o, "up_MBps", bad).value_or(model::Site::kUnknown);
        s.downlinkMBps = optionalNumber(o, "down_MBps", bad).value_or(model::Site::kUnknown);
        s.egressUsdPerGB = optionalNumber(o, "egress_usd_per_GB", bad).value_or(model::Site::kUnknown);
        s.instanceUsdPerHour = optionalNumber(o, "instance_usd_per_hour", bad).value_or(model::Site::kUnknown);
        if (bad)
            return r.fail(where,
                          "nodes, slots, up_MBps, down_MBps, egress_usd_per_GB and instance_usd_per_hour must "
                          "be numbers or null");
        const auto wholeNumber = [](const std::optional<double>& v, double most) {
            return v && *v >= 1 && *v == std::floor(*v) && *v <= most;
        };
        const double maxHosts = model::Topology::kMaxHosts, maxSlots = static_cast<double>(model::Topology::kMaxSlots);
        if (o.contains("hosts")) {
            if (!o.value("hosts").isArray())
                return r.fail(where + ".hosts", "expected an array of {name, slots}");
            const auto hosts = o.value("hosts").toArray();
            if (hosts.isEmpty())
                return r.fail(
                    where + ".hosts",
                    "expected at least one host {\"name\", \"slots\"} (a site without hosts cannot run anything)");
            for (qsizetype h = 0; h < hosts.size(); ++h) {
                const auto ho = hosts[h].toObject();
                if (auto k = r.checkKeys(ho, where + QString(".hosts[%1]").arg(h), {"name", "slots"}); !k)
                    return k.error();
                bool hostBad = false;
                const auto hostSlots = optionalNumber(ho, "slots", hostBad);
                if (!ho.value("name").isString() || hostBad || !wholeNumber(hostSlots, maxSlots))
                    return r.fail(where + QString(".hosts[%1]").arg(h),
                                  QString("expected {\"name\": string, \"slots\": a whole number from 1 to %1}")
                                      .arg(model::Topology::kMaxSlots));
                const std::string hostName = ho.value("name").toString().toStdString();
                if (const std::string problem = model::Topology::hostNameProblem(hostName); !problem.empty())
                    return r.fail(where + QString(".hosts[%1].name").arg(h),
                                  QString("host name '%1' cannot go into a rankfile or hostfile: %2; expected letters, "
                                          "digits, '-', '_' and '.', not starting with '-' or '.' (a host name as in "
                                          "RFC 1123)")
                                      .arg(QString::fromStdString(hostName), QString::fromStdString(problem)));
                s.hosts.push_back({hostName, static_cast<int>(*hostSlots)});
            }
        } else {
            if (!wholeNumber(nodes, maxHosts))
                return r.fail(where + ".nodes",
                              QString("expected a whole number from 1 to %1").arg(model::Topology::kMaxHosts));
            if (slots && !wholeNumber(slots, maxSlots))
                return r.fail(where + ".slots",
                              QString("expected a whole number from 1 to %1").arg(model::Topology::kMaxSlots));
            s.nodes = static_cast<int>(*nodes);
            s.slotsPerNode = slots ? static_cast<int>(*slots) : 1;
        }
        sites.push_back(std::move(s));
    }
    auto topology = model::Topology::create(std::move(sites));
    if (!topology)
        return r.fail("sites", QString::fromStdString(topology.error().message));
    return topology;
}

Status readQuantity(const Reader& r, const QJsonObject& network, NetworkQuantity q, const model::Topology& topo,
                    model::Network& out)
{
    const QString where = QString("network.") + quantityKey(q);
    const auto value = network.value(quantityKey(q));
    if (value.isUndefined() || value.isNull())
        return {};
    if (!value.isObject())
        return r.fail(where, "expected {\"values\": [[...]]} or {\"file\": \"path\"}");
    const auto o = value.toObject();
    if (auto k = r.checkKeys(o, where, {"values", "file"}); !k)
        return k;
    if (auto t = r.checkTypes(o, where, {{"values", QJsonValue::Array}, {"file", QJsonValue::String}}); !t)
        return t;
    if (o.contains("file")) {
        auto file = r.sidecar(where + ".file", o.value("file").toString());
        if (!file)
            return file.error();
        return io::readNetworkMatrix(file->toStdString(), q, topo, out);
    }
    if (!o.value("values").isArray())
        return r.fail(where, "expected {\"values\": [[...]]} or {\"file\": \"path\"}");
    const auto rows = o.value("values").toArray();
    const int m = topo.siteCount();
    if (rows.size() != m)
        return r.fail(where, QString("expected %1 rows, one per site, found %2").arg(m).arg(rows.size()));
    for (int i = 0; i < m; ++i) {
        const auto row = rows[i].toArray();
        if (!rows[i].isArray() || row.size() != m)
            return r.fail(where + QString("[%1]").arg(i), QString("expected %1 values").arg(m));
        for (int j = 0; j < m; ++j) {
            if (row[j].isNull())
                continue;
            if (!row[j].isDouble() || !model::isValidNetworkValue(q, row[j].toDouble()))
                return r.fail(where + QString("[%1][%2]").arg(i).arg(j),
                              QString::fromStdString("expected " + model::networkValueRange(q) + ", or null"));
            out.set(q, i, j, row[j].toDouble(), model::Provenance::Measured);
        }
    }
    return {};
}

// A measurement's date: the syntax, then a plausible date (not before 2000, not in the future), which says its range.
Expected<model::MeasuredAt> measurementDate(const Reader& r, const QJsonValue& value, const QString& where)
{
    const auto date = parseUtcDateText(value.toString().toStdString());
    if (!value.isString() || !date)
        return r.fail(where, "expected a UTC date \"YYYY-MM-DDTHH:MM:SSZ\"");
    if (const auto problem = measurementDateProblem(*date))
        return r.fail(where, QString::fromStdString(*problem));
    return *date;
}

// "measured_at": [{"date": "YYYY-MM-DDTHH:MM:SSZ", "latency_ms": [[row, column], ...], "bandwidth_MBps": [...]}]:
// the entries measured at each date, grouped by date since one measurement sets many entries at once.
Status readMeasurementDates(const Reader& r, const QJsonValue& value, const model::Topology& topo, model::Network& out)
{
    if (value.isUndefined())
        return {};
    if (!value.isArray())
        return r.fail("network.measured_at",
                      "expected an array of {\"date\": ..., \"latency_ms\": [[row, column], ...]}");
    const auto groups = value.toArray();
    for (qsizetype g = 0; g < groups.size(); ++g) {
        const QString where = QString("network.measured_at[%1]").arg(g);
        if (!groups[g].isObject())
            return r.fail(where, "expected {\"date\": ..., \"latency_ms\": [[row, column], ...]}");
        const auto group = groups[g].toObject();
        if (auto k = r.checkKeys(group, where, {"date", "latency_ms", "bandwidth_MBps"}); !k)
            return k;
        if (auto t = r.checkTypes(group, where,
                                  {{"date", QJsonValue::String},
                                   {"latency_ms", QJsonValue::Array},
                                   {"bandwidth_MBps", QJsonValue::Array}});
            !t)
            return t;
        const auto date = measurementDate(r, group.value("date"), where + ".date");
        if (!date)
            return date.error();
        for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth})
            for (const auto& cell : group.value(quantityKey(q)).toArray()) {
                const auto pair = cell.toArray();
                const int i = pair.at(0).toInt(-1), j = pair.at(1).toInt(-1);
                if (pair.size() != 2 || i < 0 || j < 0 || i >= topo.siteCount() || j >= topo.siteCount()
                    || out.provenance(q, i, j) != model::Provenance::Measured)
                    return r.fail(where + "." + quantityKey(q),
                                  "expected [row, column] pairs of measured entries (not edited, not empty)");
                out.set(q, i, j, out.value(q, i, j), model::Provenance::Measured, *date);
            }
    }
    return {};
}

Status readNetwork(const Reader& r, const QJsonValue& value, const model::Topology& topo, model::Network& out)
{
    out = model::Network(topo.siteCount());
    if (value.isUndefined())
        return {};
    if (!value.isObject())
        return r.fail("network", "expected an object");
    const auto o = value.toObject();
    if (auto k = r.checkKeys(o, "network", {"latency_ms", "bandwidth_MBps", "edited", "measured_at", "host_links"}); !k)
        return k;
    if (auto t = r.checkTypes(o, "network",
                              {{"edited", QJsonValue::Object},
                               {"measured_at", QJsonValue::Array},
                               {"host_links", QJsonValue::Array}});
        !t)
        return t;
    for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth})
        if (auto s = readQuantity(r, o, q, topo, out); !s)
            return s;
    const auto edited = o.value("edited").toObject();
    if (auto k = r.checkKeys(edited, "network.edited", {"latency_ms", "bandwidth_MBps"}); !k)
        return k;
    if (auto t = r.checkTypes(edited, "network.edited",
                              {{"latency_ms", QJsonValue::Array}, {"bandwidth_MBps", QJsonValue::Array}});
        !t)
        return t;
    for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth}) {
        for (const auto& cell : edited.value(quantityKey(q)).toArray()) {
            const auto pair = cell.toArray();
            const int i = pair.at(0).toInt(-1), j = pair.at(1).toInt(-1);
            if (pair.size() != 2 || i < 0 || j < 0 || i >= topo.siteCount() || j >= topo.siteCount()
                || out.provenance(q, i, j) == model::Provenance::Missing)
                return r.fail(QString("network.edited.") + quantityKey(q),
                              "expected [row, column] pairs of entries that have a value");
            out.set(q, i, j, out.value(q, i, j), model::Provenance::Edited);
        }
    }
    if (auto s = readMeasurementDates(r, o.value("measured_at"), topo, out); !s)
        return s;
    const auto links = o.value("host_links").toArray();
    for (qsizetype k = 0; k < links.size(); ++k) {
        const QString where = QString("network.host_links[%1]").arg(k);
        if (!links[k].isObject())
            return r.fail(where, "expected {\"from\": host, \"to\": host, \"latency_ms\": ..., ...}");
        const auto link = links[k].toObject();
        if (auto c = r.checkKeys(link, where,
                                 {"from", "to", "latency_ms", "bandwidth_MBps", "provenance", "measured_at"});
            !c)
            return c;
        if (auto t = r.checkTypes(link, where,
                                  {{"from", QJsonValue::String},
                                   {"to", QJsonValue::String},
                                   {"latency_ms", QJsonValue::Double},
                                   {"bandwidth_MBps", QJsonValue::Double},
                                   {"provenance", QJsonValue::String},
                                   {"measured_at", QJsonValue::String}});
            !t)
            return t;
        const auto from = topo.hostIndex(link.value("from").toString().toStdString());
        const auto to = topo.hostIndex(link.value("to").toString().toStdString());
        if (!from || !to)
            return r.fail(where, "expected \"from\" and \"to\" naming hosts of the project");
        model::HostLink h;
        h.latencyMs = link.value("latency_ms").toDouble(std::nan(""));
        h.bandwidthMBps = link.value("bandwidth_MBps").toDouble(std::nan(""));
        const auto provenance = model::provenanceFromId(link.value("provenance").toString("measured").toStdString());
        if (!model::isValidNetworkValue(NetworkQuantity::Latency, h.latencyMs)
            || !model::isValidNetworkValue(NetworkQuantity::Bandwidth, h.bandwidthMBps) || !provenance
            || *provenance == model::Provenance::Missing)
            return r.fail(where,
                          QString::fromStdString(
                              "expected latency_ms: " + model::networkValueRange(NetworkQuantity::Latency)
                              + "; bandwidth_MBps: " + model::networkValueRange(NetworkQuantity::Bandwidth)
                              + "; provenance measured, estimated or edited"));
        h.provenance = *provenance;
        if (link.contains("measured_at")) {
            if (h.provenance != model::Provenance::Measured)
                return r.fail(where + ".measured_at", "a date belongs to a measured link only");
            const auto date = measurementDate(r, link.value("measured_at"), where + ".measured_at");
            if (!date)
                return date.error();
            h.measuredAt = *date;
        }
        out.setHostLink(*from, *to, h);
    }
    return {};
}

// An application's pins: a sidecar file, or inline [process, "site"] pairs.
Expected<model::Constraints> readPins(const Reader& r, const QJsonValue& value, const QString& where,
                                      const model::Topology& topo, int processCount)
{
    if (value.isString()) {
        auto file = r.sidecar(where + ".pins", value.toString());
        if (!file)
            return file.error();
        if (!QFileInfo::exists(*file))
            return makeError(ErrorCode::Io, (where + ": the sidecar file '" + *file + "' is missing").toStdString(),
                             {r.path.toStdString()});
        return io::readPinsCsv(file->toStdString(), topo, processCount);
    }
    std::vector<model::Pin> pins;
    const auto inline_ = value.toArray();
    for (qsizetype k = 0; k < inline_.size(); ++k) {
        const auto pair = inline_[k].toArray();
        const auto site = topo.siteIndex(pair.at(1).toString().toStdString());
        const double process = pair.at(0).toDouble(-1);
        // A process id is a whole number below the process count (toInt() would read 1.5 or 1e12 as 0).
        if (!inline_[k].isArray() || pair.size() != 2 || !pair.at(0).isDouble() || !pair.at(1).isString() || process < 0
            || process != std::floor(process) || process >= processCount || !site)
            return r.fail(where + QString(".pins[%1]").arg(k),
                          QString(
                              "expected [process, \"site\"]: a whole process id from 0 to %1 and a site of the project")
                              .arg(processCount - 1));
        pins.push_back({static_cast<int>(process), *site});
    }
    auto constraints = model::Constraints::fromPins(std::move(pins));
    if (!constraints)
        return r.fail(where + ".pins", QString::fromStdString(constraints.error().message));
    return constraints;
}

/// Reads an application's trace sidecar and checks it is the application's (its ranks and bytes).
Expected<std::shared_ptr<const io::StoredTrace>> readTrace(const Reader& r, const QString& where, const QString& file,
                                                           const model::CommMatrix& comm)
{
    auto path = r.sidecar(where + ".trace", file);
    if (!path)
        return path.error();
    if (!QFileInfo::exists(*path))
        return makeError(ErrorCode::Io, (where + ": the sidecar file '" + *path + "' is missing").toStdString(),
                         {r.path.toStdString()});
    return readTraceFor(path->toStdString(), comm);
}

Expected<Application> readApplication(const Reader& r, const QJsonValue& value, int index, const model::Topology& topo)
{
    const QString where = QString("applications[%1]").arg(index);
    if (!value.isObject())
        return r.fail(where, "expected an object {\"name\": ..., \"volume\": ...}");
    const auto o = value.toObject();
    if (auto k = r.checkKeys(o, where, {"name", "description", "volume", "messages", "pins", "trace"}); !k)
        return k.error();
    if (auto t = r.checkTypes(o, where,
                              {{"description", QJsonValue::String},
                               {"messages", QJsonValue::String},
                               {"trace", QJsonValue::String}});
        !t)
        return t.error();
    if (!o.value("name").isString() || o.value("name").toString().isEmpty())
        return r.fail(where + ".name", "expected a non-empty string");
    if (!o.value("volume").isString())
        return r.fail(where + ".volume", "expected the path of the volume matrix (bytes)");
    const auto pinsValue = o.value("pins");
    if (!pinsValue.isUndefined() && !pinsValue.isNull() && !pinsValue.isString() && !pinsValue.isArray())
        return r.fail(where + ".pins", "expected the path of the pins file or an array of [process, \"site\"]");
    auto volume = r.sidecar(where + ".volume", o.value("volume").toString());
    if (!volume)
        return volume.error();
    Expected<QString> messages = QString();
    if (o.value("messages").isString())
        messages = r.sidecar(where + ".messages", o.value("messages").toString());
    if (!messages)
        return messages.error();
    for (const QString& file : {*volume, *messages})
        if (!file.isEmpty() && !QFileInfo::exists(file))
            return makeError(ErrorCode::Io, (where + ": the sidecar file '" + file + "' is missing").toStdString(),
                             {r.path.toStdString()});
    Application app;
    app.name = o.value("name").toString().toStdString();
    app.description = o.value("description").toString().toStdString();
    app.volumeFile = o.value("volume").toString().toStdString();
    app.messagesFile = o.value("messages").toString().toStdString();
    app.pinsFile = pinsValue.toString().toStdString();
    auto comm = io::readCommMatrix(volume->toStdString(), messages->toStdString());
    if (!comm)
        return comm.error();
    app.comm = std::move(*comm);
    auto constraints = readPins(r, pinsValue, where, topo, app.comm.processCount());
    if (!constraints)
        return constraints.error();
    if (auto s = constraints->validate(app.comm.processCount(), topo); !s)
        return r.fail(where + ".pins", QString::fromStdString(s.error().message));
    app.pins = std::move(*constraints);
    if (o.value("trace").isString()) {
        app.traceFile = o.value("trace").toString().toStdString();
        auto trace = readTrace(r, where, o.value("trace").toString(), app.comm);
        if (!trace)
            return trace.error();
        app.trace = std::move(*trace);
    }
    return app;
}

QJsonValue numberOrNull(double v) { return std::isnan(v) ? QJsonValue() : QJsonValue(v); }

/// A whole non-negative number below 2^53 (JSON numbers are doubles).
bool readCount(const QJsonValue& v, std::uint64_t& out)
{
    const double d = v.toDouble(-1.0);
    if (!v.isDouble() || d < 0 || d != std::floor(d) || d > 9007199254740992.0)
        return false;
    out = static_cast<std::uint64_t>(d);
    return true;
}

bool readHex(const QJsonValue& v, std::uint64_t& out)
{
    bool ok = false;
    out = v.toString().toULongLong(&ok, 16);
    return v.isString() && ok;
}

Status readGraphStats(const Reader& r, const QJsonObject& o, const QString& where, GraphStats& stats)
{
    for (auto [key, field] :
         {std::pair{"vertices", &stats.vertices}, std::pair{"edges", &stats.edges},
          std::pair{"self_loops_dropped", &stats.selfLoopsDropped}, std::pair{"max_degree", &stats.maxDegree},
          std::pair{"homes_from_file", &stats.homesFromFile}})
        if (!readCount(o.value(key), *field))
            return r.fail(where + "." + key, "expected a whole number >= 0 (measured when the graph was imported)");
    if (stats.homesFromFile > stats.vertices)
        return r.fail(where + ".homes_from_file", "more homes than vertices");
    const auto histogram = o.value("degree_histogram").toArray();
    for (qsizetype k = 0; k < histogram.size(); ++k) {
        std::uint64_t n = 0;
        if (!readCount(histogram[k], n))
            return r.fail(where + QString(".degree_histogram[%1]").arg(k), "expected a whole number >= 0");
        stats.degreeHistogram.push_back(n);
    }
    return {};
}

Expected<GraphInput> readGraph(const Reader& r, const QJsonValue& value, int index)
{
    const QString where = QString("graphs[%1]").arg(index);
    if (!value.isObject())
        return r.fail(where, "expected an object {\"name\": ..., \"file\": ...}");
    const auto o = value.toObject();
    if (auto k = r.checkKeys(o, where,
                             {"name", "file", "format", "checksum", "homes", "homes_checksum", "homes_seed", "vertices",
                              "edges", "self_loops_dropped", "max_degree", "degree_histogram", "homes_from_file"});
        !k)
        return k.error();
    if (auto t = r.checkTypes(o, where, {{"degree_histogram", QJsonValue::Array}}); !t)
        return t.error();
    GraphInput g;
    if (!o.value("name").isString() || o.value("name").toString().isEmpty())
        return r.fail(where + ".name", "expected a non-empty string");
    g.name = o.value("name").toString().toStdString();
    if (!o.value("file").isString() || o.value("file").toString().isEmpty())
        return r.fail(where + ".file", "expected the path of the graph file");
    const QDir dir = QFileInfo(r.path).absoluteDir();
    g.path = QDir::cleanPath(dir.absoluteFilePath(o.value("file").toString())).toStdString();
    auto format = io::graphFormatFromId(o.value("format").toString().toStdString());
    if (!format)
        return r.fail(where + ".format", "expected \"snap\", \"metis\" or \"mtx\"");
    g.format = *format;
    if (!readHex(o.value("checksum"), g.checksum))
        return r.fail(where + ".checksum", "expected the file's checksum as a hexadecimal string");
    if (o.contains("homes")) {
        if (!o.value("homes").isString() || o.value("homes").toString().isEmpty())
            return r.fail(where + ".homes", "expected the path of the homes file");
        g.homesPath = QDir::cleanPath(dir.absoluteFilePath(o.value("homes").toString())).toStdString();
        if (!readHex(o.value("homes_checksum"), g.homesChecksum))
            return r.fail(where + ".homes_checksum", "expected the homes file's checksum as a hexadecimal string");
    }
    if (!readCount(o.value("homes_seed"), g.homesSeed))
        return r.fail(where + ".homes_seed", "expected the seed of the drawn homes, a whole number >= 0");
    if (auto s = readGraphStats(r, o, where, g.stats); !s)
        return s.error();
    return g;
}

QJsonObject graphJson(const GraphInput& g, const QDir& dir)
{
    QJsonArray histogram;
    for (auto n : g.stats.degreeHistogram)
        histogram.append(static_cast<double>(n));
    QJsonObject o{{"name", QString::fromStdString(g.name)},
                  {"file", dir.relativeFilePath(QString::fromStdString(g.path))},
                  {"format", QString::fromStdString(std::string(io::graphFormatId(g.format)))},
                  {"checksum", QString::number(g.checksum, 16)},
                  {"homes_seed", static_cast<double>(g.homesSeed)},
                  {"vertices", static_cast<double>(g.stats.vertices)},
                  {"edges", static_cast<double>(g.stats.edges)},
                  {"self_loops_dropped", static_cast<double>(g.stats.selfLoopsDropped)},
                  {"max_degree", static_cast<double>(g.stats.maxDegree)},
                  {"homes_from_file", static_cast<double>(g.stats.homesFromFile)},
                  {"degree_histogram", histogram}};
    if (!g.homesPath.empty()) {
        o["homes"] = dir.relativeFilePath(QString::fromStdString(g.homesPath));
        o["homes_checksum"] = QString::number(g.homesChecksum, 16);
    }
    return o;
}

} // namespace

QString ProjectFile::sidecarName(const std::string& applicationName, SidecarKind kind)
{
    QString slug;
    for (QChar c : QString::fromStdString(applicationName).toLower())
        slug += c.isLetterOrNumber() ? c : QChar('-');
    switch (kind) {
    case SidecarKind::Volume:
        return slug + ".volume.mtx";
    case SidecarKind::Messages:
        return slug + ".messages.mtx";
    case SidecarKind::Pins:
        return slug + ".pins.csv";
    case SidecarKind::Trace:
        return slug + ".trace.ti";
    }
    return slug;
}

Project ProjectFile::withSidecarNames(const Project& project)
{
    Project out = project;
    std::set<std::string> used;
    const auto keep = [&](std::string& file, const char* suffix) {
        const std::string s(suffix);
        const bool fits = file.size() > s.size() && file.compare(file.size() - s.size(), s.size(), s) == 0;
        if (!fits || !used.insert(file).second)
            file.clear();
    };
    for (auto& app : out.applications) {
        keep(app.volumeFile, ".mtx");
        keep(app.messagesFile, ".mtx");
        keep(app.pinsFile, ".csv");
        keep(app.traceFile, ".ti");
    }
    const auto assign = [&](std::string& file, const std::string& name, SidecarKind kind) {
        if (!file.empty())
            return;
        const QString base = sidecarName(name, kind);
        const qsizetype dot = base.indexOf('.');
        std::string candidate = base.toStdString();
        for (int k = 2; used.count(candidate); ++k)
            candidate = (base.left(dot) + QString("-%1").arg(k) + base.mid(dot)).toStdString();
        used.insert(candidate);
        file = candidate;
    };
    for (auto& app : out.applications) {
        assign(app.volumeFile, app.name, SidecarKind::Volume);
        assign(app.messagesFile, app.name, SidecarKind::Messages);
        assign(app.pinsFile, app.name, SidecarKind::Pins);
        assign(app.traceFile, app.name, SidecarKind::Trace);
    }
    return out;
}

namespace {

// Sidecar suffixes Meridian writes: a killed save's temporaries of such files in the folder are removed.
bool isSidecarName(std::string_view name)
{
    const auto endsWith = [&](std::string_view suffix) {
        return name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
    };
    return endsWith(".mtx") || endsWith(".csv") || endsWith(".ti");
}

// The sidecar files a project file names (its applications' volume, messages, pins and trace), as absolute paths.
// A file that cannot be read or parsed names none (it is not the project's then, and load says why).
void addSidecarsNamedIn(const QString& projectFile, const QDir& folder, std::vector<std::string>& out)
{
    auto text = io::readTextFile(projectFile.toStdString(), ProjectFile::kMaxProjectBytes);
    if (!text)
        return;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(*text));
    for (const auto& app : doc.object().value("applications").toArray())
        for (const char* key : {"volume", "messages", "pins", "trace"})
            if (const QJsonValue v = app.toObject().value(key); v.isString() && !v.toString().isEmpty())
                out.push_back(folder.absoluteFilePath(v.toString()).toStdString());
}

} // namespace

ProjectFile::Stamp ProjectFile::stamp(const QString& path)
{
    struct stat st {};
    const bool exists = ::stat(QFile::encodeName(path).constData(), &st) == 0;
    return {exists ? static_cast<qint64>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec : -1,
            exists ? static_cast<qint64>(st.st_size) : -1, exists ? static_cast<qint64>(st.st_ino) : -1,
            QFileInfo::exists(journalPath(path))};
}

io::JournalScope ProjectFile::journalScope(const QString& projectPath, const std::vector<std::string>& written)
{
    const QFileInfo info(projectPath);
    const QDir folder = info.absoluteDir();
    std::vector<std::string> own{info.absoluteFilePath().toStdString(),
                                 QFileInfo(RunFile::pathFor(projectPath)).absoluteFilePath().toStdString()};
    // With a pending save, its sidecars are those named by the project file it installs (its temporary, while it
    // waits; the project is renamed last), else by the project file as it is. Without one, a save's scope is the
    // files it writes, and nothing is read.
    const QFileInfo journal(journalPath(projectPath));
    if (journal.exists() || journal.isSymLink()) {
        QString named = info.absoluteFilePath();
        const auto anyInside = io::filesInFolder(
            folder.absolutePath().toStdString(), [](std::string_view) { return true; }, "the project's files");
        if (auto entries = io::readJournal(journal.absoluteFilePath().toStdString(), anyInside))
            for (const auto& e : *entries)
                if (QFileInfo(QString::fromStdString(e.final)).absoluteFilePath().toStdString() == own.front()
                    && QFileInfo::exists(QString::fromStdString(e.temporary)))
                    named = QString::fromStdString(e.temporary);
        addSidecarsNamedIn(named, folder, own);
    }
    own.insert(own.end(), written.begin(), written.end());
    return io::theseFilesInFolder(folder.absolutePath().toStdString(), own,
                                  "the project's own files (the project, its runs file and the sidecars it names)");
}

Status ProjectFile::checkInsideFolder(const QString& projectPath, const QString& file)
{
    // Any name inside the folder may be read (a save gives a sidecar of another suffix a name of its own).
    const auto inside = io::filesInFolder(
        QFileInfo(projectPath).absolutePath().toStdString(), [](std::string_view) { return true; },
        "the project's files");
    const std::string why = inside(QFileInfo(file).absoluteFilePath().toStdString());
    if (why.empty())
        return {};
    return makeError(ErrorCode::InvalidInput, "the file '" + file.toStdString() + "' " + why,
                     {projectPath.toStdString()});
}

QString ProjectFile::lockPath(const QString& projectPath)
{
    return QFileInfo(projectPath).absoluteFilePath() + ".lock";
}

Expected<io::FileLock> ProjectFile::lock(const QString& projectPath, const std::string& holder, double waitSeconds)
{
    return io::FileLock::acquire(lockPath(projectPath).toStdString(), waitSeconds, holder);
}

QString ProjectFile::pendingFile(const QString& projectPath, const QString& file)
{
    if (!QFileInfo::exists(journalPath(projectPath)))
        return file;
    auto entries = io::readJournal(journalPath(projectPath).toStdString(), journalScope(projectPath));
    if (entries)
        for (const auto& e : *entries)
            if (QString::fromStdString(e.final) == QFileInfo(file).absoluteFilePath()
                && QFileInfo::exists(QString::fromStdString(e.temporary)))
                return QString::fromStdString(e.temporary);
    return file;
}

Expected<std::map<QString, QString>> ProjectFile::finishInterruptedSave(const QString& path)
{
    const std::string journal = journalPath(path).toStdString();
    if (!QFileInfo::exists(journalPath(path)) && !QFileInfo(journalPath(path)).isSymLink())
        return std::map<QString, QString>{};
    const auto scope = journalScope(path);
    if (io::FileLock::heldHere(lockPath(path).toStdString())) {
        if (auto s = io::completeJournal(journal, scope); !s)
            return s.error();
        return std::map<QString, QString>{};
    }
    // Only a holder of the lock may finish a save: without it (another process is saving, or this user may not
    // write here) the files are read as the save will leave them, each from its temporary while it is there.
    auto lock = ProjectFile::lock(path, "finishing an interrupted save", 0);
    if (lock) {
        if (auto s = io::completeJournal(journal, scope); !s)
            return s.error();
        return std::map<QString, QString>{};
    }
    auto entries = io::readJournal(journal, scope);
    if (!entries)
        return entries.error();
    std::map<QString, QString> pending;
    for (const auto& e : *entries)
        if (QFileInfo::exists(QString::fromStdString(e.temporary)))
            pending[QString::fromStdString(e.final)] = QString::fromStdString(e.temporary);
    return pending;
}

Expected<Project> ProjectFile::load(const QString& path)
{
    // A save that a kill interrupted after all its files were written is finished first. Without this process
    // holding the project's lock, a save may run meanwhile: the files are read again if the project file or its
    // journal changed while they were read, so a load never mixes two saves.
    const bool locked = io::FileLock::heldHere(lockPath(path).toStdString());
    for (int attempt = 0; attempt < kLoadAttempts; ++attempt) {
        const Stamp before = stamp(path);
        auto pending = finishInterruptedSave(path);
        if (!pending)
            return pending.error();
        auto project = loadFiles(path, *pending);
        if (locked || stamp(path) == before)
            return project;
        QThread::msleep(10 + 10 * static_cast<unsigned long>(attempt));
    }
    return makeError(ErrorCode::Busy,
                     "the project kept changing while it was read (another program saves it over and over); try again",
                     {path.toStdString()});
}

Expected<Project> ProjectFile::loadFiles(const QString& path, const std::map<QString, QString>& pending)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const auto redirected = pending.find(absolute);
    const QString source = redirected == pending.end() ? path : redirected->second;
    auto text = io::readTextFile(source.toStdString(), kMaxProjectBytes);
    if (!text)
        return inFile(text.error(), path.toStdString());
    const QByteArray data = QByteArray::fromStdString(*text);
    QJsonParseError parseError;
    const auto doc = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const auto before = data.left(parseError.offset);
        const int line = static_cast<int>(before.count('\n')) + 1;
        const int column = static_cast<int>(parseError.offset - (before.lastIndexOf('\n') + 1)) + 1;
        return makeError(ErrorCode::Parse, "not valid JSON: " + parseError.errorString().toStdString(),
                         {path.toStdString(), line, column});
    }
    const Reader r{path, data, pending};
    if (!doc.isObject())
        return r.fail("project", "expected a JSON object {\"format\": \"meridian-project\", ...}");
    const auto root = doc.object();
    if (root.value("format").toString() != "meridian-project")
        return r.fail("format", "expected \"meridian-project\"; this is not a Meridian project file");
    if (!root.value("version").isDouble()
        || root.value("version").toDouble() != std::floor(root.value("version").toDouble())
        || root.value("version").toInt() < 1)
        return r.fail("version", "expected a whole number >= 1");
    if (root.value("version").toInt() > kVersion)
        return makeError(
            ErrorCode::InvalidInput,
            QString("the project was written by a newer Meridian (format version %1); this build reads version %2")
                .arg(root.value("version").toInt())
                .arg(kVersion)
                .toStdString(),
            {path.toStdString()});
    if (auto k = r.checkKeys(root, {},
                             {"format", "version", "name", "description", "sources", "sites", "network", "applications",
                              "graphs"});
        !k)
        return k.error();
    if (auto t = r.checkTypes(root, {},
                              {{"name", QJsonValue::String},
                               {"description", QJsonValue::String},
                               {"sources", QJsonValue::Array},
                               {"network", QJsonValue::Object},
                               {"applications", QJsonValue::Array},
                               {"graphs", QJsonValue::Array}});
        !t)
        return t.error();
    Project project;
    project.name = root.value("name").toString(QFileInfo(path).completeBaseName()).toStdString();
    project.description = root.value("description").toString().toStdString();
    const auto sources = root.value("sources").toArray();
    for (qsizetype k = 0; k < sources.size(); ++k) {
        if (!sources[k].isString())
            return r.fail(QString("sources[%1]").arg(k), "expected a string");
        project.sources.push_back(sources[k].toString().toStdString());
    }
    auto topology = readSites(r, root.value("sites"));
    if (!topology)
        return topology.error();
    project.topology = std::move(*topology);
    if (auto s = readNetwork(r, root.value("network"), project.topology, project.network); !s)
        return s.error();
    const auto apps = root.value("applications").toArray();
    for (qsizetype i = 0; i < apps.size(); ++i) {
        auto app = readApplication(r, apps[i], static_cast<int>(i), project.topology);
        if (!app)
            return app.error();
        if (project.applicationIndex(app->name) >= 0)
            return r.fail(QString("applications[%1].name").arg(i), "another application has the same name");
        project.applications.push_back(std::move(*app));
    }
    const auto graphs = root.value("graphs").toArray();
    for (qsizetype i = 0; i < graphs.size(); ++i) {
        auto graph = readGraph(r, graphs[i], static_cast<int>(i));
        if (!graph)
            return graph.error();
        if (project.graphIndex(graph->name) >= 0 || project.applicationIndex(graph->name) >= 0)
            return r.fail(QString("graphs[%1].name").arg(i), "another graph or application has the same name");
        project.graphs.push_back(std::move(*graph));
    }
    return project;
}

namespace {

// The network as saved: both matrices (measured and edited values; estimated ones are left null), which entries
// were edited, when measured entries were measured, and the host links.
QJsonObject networkJson(const Project& project)
{
    QJsonObject network, edited;
    std::map<model::MeasuredAt, QJsonObject> measuredAt; // date -> {"latency_ms": cells, "bandwidth_MBps": cells}
    const int m = project.topology.siteCount();
    for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth}) {
        QJsonArray rows, editedCells;
        for (int i = 0; i < m; ++i) {
            QJsonArray row;
            for (int j = 0; j < m; ++j) {
                const auto p = project.network.provenance(q, i, j);
                const bool known = p == model::Provenance::Measured || p == model::Provenance::Edited;
                row.append(known ? QJsonValue(project.network.value(q, i, j)) : QJsonValue());
                if (p == model::Provenance::Edited)
                    editedCells.append(QJsonArray{i, j});
                if (const auto date = project.network.measuredAt(q, i, j); date != 0) {
                    auto& group = measuredAt[date];
                    auto cells = group.value(quantityKey(q)).toArray();
                    cells.append(QJsonArray{i, j});
                    group[quantityKey(q)] = cells;
                }
            }
            rows.append(row);
        }
        network[quantityKey(q)] = QJsonObject{{"values", rows}};
        if (!editedCells.isEmpty())
            edited[quantityKey(q)] = editedCells;
    }
    if (!edited.isEmpty())
        network["edited"] = edited;
    if (!measuredAt.empty()) {
        QJsonArray groups;
        for (auto& [date, group] : measuredAt) {
            group["date"] = QString::fromStdString(formatUtcDate(date));
            groups.append(group);
        }
        network["measured_at"] = groups;
    }
    QJsonArray links;
    for (const auto& [key, link] : project.network.hostLinks()) {
        QJsonObject o{{"from", QString::fromStdString(project.topology.host(key.first).name)},
                      {"to", QString::fromStdString(project.topology.host(key.second).name)},
                      {"latency_ms", link.latencyMs},
                      {"bandwidth_MBps", link.bandwidthMBps},
                      {"provenance", QString::fromStdString(std::string(model::provenanceId(link.provenance)))}};
        if (link.provenance == model::Provenance::Measured && link.measuredAt != 0)
            o["measured_at"] = QString::fromStdString(formatUtcDate(link.measuredAt));
        links.append(o);
    }
    if (!links.isEmpty())
        network["host_links"] = links;
    return network;
}

} // namespace

Status ProjectFile::save(const Project& project, const QString& path, const std::vector<io::PendingFile>& alsoWrite)
{
    const QDir dir = QFileInfo(path).absoluteDir();
    QJsonObject root;
    root["format"] = "meridian-project";
    root["version"] = kVersion;
    root["name"] = QString::fromStdString(project.name);
    if (!project.description.empty())
        root["description"] = QString::fromStdString(project.description);
    QJsonArray sources;
    for (const auto& s : project.sources)
        sources.append(QString::fromStdString(s));
    if (!sources.isEmpty())
        root["sources"] = sources;

    QJsonArray sites;
    for (const auto& s : project.topology.sites()) {
        QJsonObject o;
        o["name"] = QString::fromStdString(s.name);
        o["lat"] = s.latitude;
        o["lon"] = s.longitude;
        const bool uniform = std::all_of(s.hosts.begin(), s.hosts.end(),
                                         [&](const model::Host& h) { return h.slots == s.hosts.front().slots; });
        bool defaultNames = true;
        for (int h = 0; h < s.nodes; ++h)
            defaultNames = defaultNames && s.hosts[h].name == model::Topology::defaultHostName(s.name, h, s.nodes);
        if (uniform && defaultNames) {
            o["nodes"] = s.nodes;
            o["slots"] = s.hosts.front().slots;
        } else {
            QJsonArray hosts;
            for (const auto& h : s.hosts)
                hosts.append(QJsonObject{{"name", QString::fromStdString(h.name)}, {"slots", h.slots}});
            o["hosts"] = hosts;
        }
        o["up_MBps"] = numberOrNull(s.uplinkMBps);
        o["down_MBps"] = numberOrNull(s.downlinkMBps);
        o["egress_usd_per_GB"] = numberOrNull(s.egressUsdPerGB);
        o["instance_usd_per_hour"] = numberOrNull(s.instanceUsdPerHour);
        sites.append(o);
    }
    root["sites"] = sites;

    root["network"] = networkJson(project);

    // The sidecars and the project are one transaction (io::writeFilesWithJournal): a kill at any moment
    // leaves the old set or the new set, never applications of both.
    QJsonArray apps;
    const Project named = withSidecarNames(project);
    std::vector<std::pair<std::string, std::string>> outputs; // path, content; the project last
    for (const auto& app : named.applications) {
        const QString volume = QString::fromStdString(app.volumeFile);
        QJsonObject o{{"name", QString::fromStdString(app.name)}, {"volume", volume}};
        if (!app.description.empty())
            o["description"] = QString::fromStdString(app.description);
        const std::string comment = app.name + ", " + std::to_string(app.comm.processCount()) + " processes";
        outputs.emplace_back(dir.filePath(volume).toStdString(),
                             io::commMatrixText(app.comm, false, comment + ", bytes"));
        if (app.comm.hasMessages()) {
            const QString messages = QString::fromStdString(app.messagesFile);
            outputs.emplace_back(dir.filePath(messages).toStdString(),
                                 io::commMatrixText(app.comm, true, comment + ", messages"));
            o["messages"] = messages;
        }
        if (!app.pins.empty()) {
            const QString pins = QString::fromStdString(app.pinsFile);
            outputs.emplace_back(dir.filePath(pins).toStdString(), io::pinsCsvText(app.pins, named.topology));
            o["pins"] = pins;
        }
        if (app.trace) {
            const QString trace = QString::fromStdString(app.traceFile);
            outputs.emplace_back(dir.filePath(trace).toStdString(), app.trace->text);
            o["trace"] = trace;
        }
        apps.append(o);
    }
    root["applications"] = apps;
    if (!project.graphs.empty()) {
        QJsonArray graphs;
        for (const auto& g : project.graphs)
            graphs.append(graphJson(g, dir));
        root["graphs"] = graphs;
    }
    const QByteArray json = QJsonDocument(root).toJson(QJsonDocument::Indented);
    outputs.emplace_back(QFileInfo(path).absoluteFilePath().toStdString(), json.toStdString());
    return writeTransaction(path, outputs, alsoWrite);
}

Status ProjectFile::writeTransaction(const QString& path,
                                     const std::vector<std::pair<std::string, std::string>>& outputs,
                                     const std::vector<io::PendingFile>& alsoWrite)
{
    // The project's lock is held across the save (taken here unless this process holds it already), so that two
    // writers never interleave their journals; the project file is renamed last.
    std::optional<io::FileLock> lock;
    if (!io::FileLock::heldHere(lockPath(path).toStdString())) {
        auto taken = ProjectFile::lock(path, "saving", io::FileLock::waitSeconds(kLockWaitSeconds));
        if (!taken)
            return taken.error();
        lock = std::move(*taken);
    }
    std::vector<io::PendingFile> files;
    for (std::size_t k = 0; k + 1 < outputs.size(); ++k)
        files.push_back(io::textFile(outputs[k].first, outputs[k].second));
    files.insert(files.end(), alsoWrite.begin(), alsoWrite.end());
    files.push_back(io::textFile(outputs.back().first, outputs.back().second));
    std::vector<std::string> written;
    written.reserve(files.size());
    for (const auto& f : files)
        written.push_back(f.path);
    if (auto s = io::writeFilesWithJournal(files, journalPath(path).toStdString(), journalScope(path, written)); !s)
        return s;
    removeStaleTemporaries(path);
    return {};
}

void ProjectFile::removeStaleTemporaries(const QString& projectPath)
{
    // Killed saves leave "<file>.part-<pid>-..." beside the project's own files, also of files no longer saved.
    const QFileInfo info(projectPath);
    const auto inside = io::filesInFolder(
        info.absolutePath().toStdString(),
        [project = info.fileName().toStdString(),
         runs = QFileInfo(RunFile::pathFor(projectPath)).fileName().toStdString()](std::string_view name) {
            return name == project || name == runs || isSidecarName(name);
        },
        "the project's files");
    std::set<std::string> finals;
    for (const QString& name : info.absoluteDir().entryList(QDir::Files | QDir::Hidden | QDir::System)) {
        const qsizetype part = name.indexOf(".part-");
        if (part <= 0)
            continue;
        const QString final = info.absoluteDir().filePath(name.left(part));
        if (io::isTemporaryNameOf(name.toStdString(), name.left(part).toStdString())
            && (inside(final.toStdString()).empty() || final == journalPath(projectPath)))
            finals.insert(final.toStdString());
    }
    for (const auto& final : finals)
        io::removeStaleTemporaries(final);
}

QString ProjectFile::journalPath(const QString& projectPath)
{
    return QFileInfo(projectPath).absoluteFilePath() + ".saving";
}

} // namespace meridian::document
