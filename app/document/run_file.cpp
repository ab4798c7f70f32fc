#include "app/document/run_file.h"

#include "app/cli/json_util.h"
#include "app/document/project_edits.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QtEndian>

#include <algorithm>
#include <optional>

namespace meridian::document {

namespace {

Error fileError(const QString& path, const std::string& message, int line = 0)
{
    return makeError(ErrorCode::Parse, message, {path.toStdString(), line, 0});
}

QJsonArray toArray(const std::vector<int>& v)
{
    QJsonArray a;
    for (int x : v)
        a.append(x);
    return a;
}

QJsonArray toArray(const std::vector<double>& v)
{
    QJsonArray a;
    for (double x : v)
        a.append(x);
    return a;
}

QString bytesToBase64(const std::vector<std::uint8_t>& bytes)
{
    return QString::fromLatin1(
        QByteArray::fromRawData(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size()))
            .toBase64());
}

// A batch's id pairs as base64 of little-endian 64-bit ids, source then destination.
QString pairsToBase64(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& pairs)
{
    QByteArray bytes(static_cast<qsizetype>(pairs.size() * 16), Qt::Uninitialized);
    auto* out = reinterpret_cast<uchar*>(bytes.data());
    for (const auto& [a, b] : pairs) {
        qToLittleEndian<quint64>(a, out);
        qToLittleEndian<quint64>(b, out + 8);
        out += 16;
    }
    return QString::fromLatin1(bytes.toBase64());
}

bool pairsFromBase64(const QJsonValue& v, std::vector<std::pair<std::uint64_t, std::uint64_t>>& out)
{
    if (!v.isString())
        return false;
    const QByteArray bytes = QByteArray::fromBase64(v.toString().toLatin1());
    if (bytes.size() % 16 != 0)
        return false;
    const auto* in = reinterpret_cast<const uchar*>(bytes.constData());
    out.clear();
    for (qsizetype k = 0; k < bytes.size(); k += 16)
        out.emplace_back(qFromLittleEndian<quint64>(in + k), qFromLittleEndian<quint64>(in + k + 8));
    return true;
}

QJsonArray batchesToJson(const std::vector<std::shared_ptr<const EdgeBatch>>& batches)
{
    QJsonArray a;
    for (const auto& b : batches)
        a.append(QJsonObject{{"name", QString::fromStdString(b->name)},
                             {"seed", QString::number(b->seed)},
                             {"deletions", pairsToBase64(b->deletions)},
                             {"insertions", pairsToBase64(b->insertions)},
                             {"edges_after", QString::number(b->edgesAfter)},
                             {"vertices_after", QString::number(b->verticesAfter)}});
    return a;
}

/// Reads the batches a what-if applied; false when one is malformed.
bool readBatches(const QJsonValue& v, std::vector<std::shared_ptr<const EdgeBatch>>& out)
{
    if (v.isUndefined())
        return true;
    if (!v.isArray())
        return false;
    for (const auto& x : v.toArray()) {
        const QJsonObject o = x.toObject();
        auto batch = std::make_shared<EdgeBatch>();
        bool seedOk = false, edgesOk = false, verticesOk = false;
        batch->name = o.value("name").toString().toStdString();
        batch->seed = o.value("seed").toString().toULongLong(&seedOk);
        batch->edgesAfter = o.value("edges_after").toString().toULongLong(&edgesOk);
        batch->verticesAfter = o.value("vertices_after").toString().toULongLong(&verticesOk);
        if (!seedOk || !edgesOk || !verticesOk || !pairsFromBase64(o.value("deletions"), batch->deletions)
            || !pairsFromBase64(o.value("insertions"), batch->insertions))
            return false;
        out.push_back(std::move(batch));
    }
    return true;
}

// A partition run keeps its edge partition (one byte per edge and per vertex, base64) and per-site traffic.
void addPartitionJson(QJsonObject& o, const Run& run)
{
    o["kind"] = "partition";
    o["profile"] = QString::fromStdString(run.profile);
    o["active_fraction"] = run.activeFraction;
    if (run.budgetUsd)
        o["budget_usd"] = *run.budgetUsd;
    if (run.partition) {
        o["edge_sites"] = bytesToBase64(run.partition->edgeSite);
        o["master_sites"] = bytesToBase64(run.partition->masterSite);
    }
    o["site_upload_bytes"] = toArray(run.siteUploadBytes);
    o["site_download_bytes"] = toArray(run.siteDownloadBytes);
    o["site_upload_s"] = toArray(run.siteUploadSeconds);
    o["site_download_s"] = toArray(run.siteDownloadSeconds);
    if (run.derivedFrom > 0) {
        o["derived_from"] = run.derivedFrom;
        o["derivation"] = QString::fromStdString(run.derivation);
    }
    if (!run.batches.empty())
        o["batches"] = batchesToJson(run.batches);
}

QJsonObject runToJson(const Run& run)
{
    QJsonObject o;
    o["id"] = run.id;
    o["algorithm"] = QString::fromStdString(run.algorithm);
    o["application"] = QString::fromStdString(run.application);
    o["seed"] = QString::number(run.seed);
    o["fingerprint"] = QString::number(run.inputFingerprint, 16);
    o["runtime_s"] = run.runtimeSeconds;
    QJsonObject params;
    for (const auto& [name, value] : run.params.values()) {
        QJsonObject v;
        std::visit(
            [&](const auto& x) {
                using T = std::decay_t<decltype(x)>;
                if constexpr (std::is_same_v<T, std::int64_t>)
                    v["int"] = QString::number(x);
                else if constexpr (std::is_same_v<T, double>)
                    v["real"] = x;
                else if constexpr (std::is_same_v<T, bool>)
                    v["flag"] = x;
                else
                    v["choice"] = QString::fromStdString(x);
            },
            value);
        params[QString::fromStdString(name)] = v;
    }
    o["params"] = params;
    if (run.kind == RunKind::Partition)
        addPartitionJson(o, run);
    else {
        o["site"] = toArray(run.placement.site);
        o["host"] = toArray(run.placement.host);
        o["slot"] = toArray(run.placement.slot);
    }
    QJsonArray metrics;
    for (const auto& m : run.metrics)
        metrics.append(QJsonObject{{"id", QString::fromStdString(m.id)},
                                   {"label", QString::fromStdString(m.label)},
                                   {"unit", QString::fromStdString(m.unit)},
                                   {"value", m.value}});
    o["metrics"] = metrics;
    o["traffic_bytes"] = cli::matrixToJson(run.trafficBytes);
    o["time_s"] = cli::matrixToJson(run.timeSeconds);
    QJsonArray samples;
    for (double c : run.costSamples)
        samples.append(c);
    o["cost_samples"] = samples;
    QJsonArray curve;
    for (const auto& [k, c] : run.bestCurve)
        curve.append(QJsonArray{QString::number(k), c});
    o["best_curve"] = curve;
    QJsonArray notes;
    for (const auto& n : run.notes)
        notes.append(QString::fromStdString(n));
    o["notes"] = notes;
    if (!run.simulatedLinks.empty()) {
        QJsonArray links;
        for (const auto& l : run.simulatedLinks)
            links.append(QJsonArray{l.from, l.to, l.bytes, l.busyFraction, l.utilisation});
        o["simulated_links"] = links;
    }
    return o;
}

bool readInts(const QJsonValue& v, std::vector<int>& out)
{
    if (!v.isArray())
        return false;
    for (const auto& x : v.toArray()) {
        if (!x.isDouble())
            return false;
        out.push_back(x.toInt());
    }
    return true;
}

bool readDoubles(const QJsonValue& v, std::size_t n, std::vector<double>& out)
{
    const auto a = v.toArray();
    if (static_cast<std::size_t>(a.size()) != n)
        return false;
    out.clear();
    for (const auto& x : a) {
        if (!x.isDouble())
            return false;
        out.push_back(x.toDouble());
    }
    return true;
}

/// Reads base64 site bytes: exactly `n` of them, each a site below `sites`.
bool readSiteBytes(const QJsonValue& v, std::uint64_t n, int sites, std::vector<std::uint8_t>& out)
{
    const QByteArray bytes = QByteArray::fromBase64(v.toString().toLatin1());
    if (!v.isString() || static_cast<std::uint64_t>(bytes.size()) != n)
        return false;
    out.assign(bytes.begin(), bytes.end());
    return std::all_of(out.begin(), out.end(), [&](std::uint8_t s) { return s < sites; });
}

/// Reads a partition run's own fields; returns what does not fit the project ("" when all fits).
std::string readPartitionRun(const QJsonObject& o, const Project& project, Run& run)
{
    run.kind = RunKind::Partition;
    const int g = project.graphIndex(run.application);
    if (g < 0)
        return "the project has no graph '" + run.application + "'";
    const auto& stats = project.graphs[g].stats;
    const int sites = project.topology.siteCount();
    run.profile = o.value("profile").toString().toStdString();
    run.derivedFrom = o.value("derived_from").toInt();
    run.derivation = o.value("derivation").toString().toStdString();
    run.activeFraction = o.value("active_fraction").toDouble(0.1);
    if (o.contains("budget_usd"))
        run.budgetUsd = o.value("budget_usd").toDouble();
    if (!readBatches(o.value("batches"), run.batches))
        return "its insert/delete batches are not readable";
    // A what-if on an updated graph partitions the graph its last batch left.
    const std::uint64_t edges = run.batches.empty() ? stats.edges : run.batches.back()->edgesAfter;
    const std::uint64_t vertices = run.batches.empty() ? stats.vertices : run.batches.back()->verticesAfter;
    auto partition = std::make_shared<model::EdgePartition>();
    if (!readSiteBytes(o.value("edge_sites"), edges, sites, partition->edgeSite)
        || !readSiteBytes(o.value("master_sites"), vertices, sites, partition->masterSite))
        return "the partition does not give one of the project's " + std::to_string(sites) + " sites to each of the "
            + std::to_string(edges) + " edges and " + std::to_string(vertices) + " vertices of graph '"
            + run.application + "'" + (run.batches.empty() ? "" : " after its batches");
    run.partition = std::move(partition);
    const auto n = static_cast<std::size_t>(sites);
    if (!readDoubles(o.value("site_upload_bytes"), n, run.siteUploadBytes)
        || !readDoubles(o.value("site_download_bytes"), n, run.siteDownloadBytes)
        || !readDoubles(o.value("site_upload_s"), n, run.siteUploadSeconds)
        || !readDoubles(o.value("site_download_s"), n, run.siteDownloadSeconds))
        return "the per-site traffic does not list the project's " + std::to_string(sites) + " sites";
    return {};
}

/// Reads a mapping run's placement; returns what does not fit the project ("" when all fits).
std::string readMappingRun(const QJsonObject& o, const Project& project, Run& run)
{
    const auto& topology = project.topology;
    const int a = project.applicationIndex(run.application);
    if (a < 0)
        return "the project has no application '" + run.application + "'";
    const int n = project.applications[a].comm.processCount();
    if (!readInts(o.value("site"), run.placement.site) || !readInts(o.value("host"), run.placement.host)
        || !readInts(o.value("slot"), run.placement.slot) || static_cast<int>(run.placement.site.size()) != n
        || run.placement.host.size() != run.placement.site.size()
        || run.placement.slot.size() != run.placement.site.size())
        return "the placement does not list " + std::to_string(n) + " processes";
    for (int i = 0; i < n; ++i) {
        const int s = run.placement.site[i], h = run.placement.host[i], k = run.placement.slot[i];
        if (s < 0 || s >= topology.siteCount()
            || (h >= 0
                && (h >= topology.hostCount() || topology.siteOfHost(h) != s || k < 0 || k >= topology.host(h).slots)))
            return "process " + std::to_string(i) + " is placed on a site, host or slot the project does not have";
    }
    return {};
}

/// A run's simulated links: [from, to, bytes, busy fraction, utilisation] each, `from` or `to` -1 for a site's
/// downlink or uplink. False when an entry is not that, or names a site outside the project's `sites`.
bool readSimulatedLinks(const QJsonValue& v, int sites, Run& run)
{
    for (const auto& entry : v.toArray()) {
        const QJsonArray a = entry.toArray();
        if (a.size() != 5 || !std::all_of(a.begin(), a.end(), [](const QJsonValue& x) { return x.isDouble(); }))
            return false;
        // -2 (what toInt gives a number that is not an integer) is no site and no uplink: refused below.
        const SimulatedLink l{a[0].toInt(-2), a[1].toInt(-2), a[2].toDouble(), a[3].toDouble(), a[4].toDouble()};
        const auto site = [&](int s) { return s >= -1 && s < sites; };
        if (!site(l.from) || !site(l.to) || (l.from < 0 && l.to < 0) || l.bytes < 0.0 || l.busyFraction < 0.0
            || l.utilisation < 0.0)
            return false;
        run.simulatedLinks.push_back(l);
    }
    return true;
}

/// The metrics and notes every run has.
void readRunCommon(const QJsonObject& o, Run& run)
{
    for (const auto& m : o.value("metrics").toArray()) {
        const auto mo = m.toObject();
        run.metrics.push_back({mo.value("id").toString().toStdString(), mo.value("label").toString().toStdString(),
                               mo.value("unit").toString().toStdString(), mo.value("value").toDouble()});
    }
    for (const auto& note : o.value("notes").toArray())
        run.notes.push_back(note.toString().toStdString());
}

bool readMatrix(const QJsonValue& v, int n, Eigen::MatrixXd& out)
{
    const auto rows = v.toArray();
    if (rows.size() != n)
        return false;
    out.resize(n, n);
    for (int r = 0; r < n; ++r) {
        const auto row = rows[r].toArray();
        if (row.size() != n)
            return false;
        for (int c = 0; c < n; ++c)
            out(r, c) = row[c].toDouble();
    }
    return true;
}

} // namespace

QString RunFile::pathFor(const QString& projectPath)
{
    const QFileInfo info(projectPath);
    return info.dir().filePath(info.completeBaseName() + ".runs.json");
}

Status RunFile::save(const std::vector<std::shared_ptr<const Run>>& runs, const QString& path)
{
    if (runs.empty()) {
        if (QFile::exists(path) && !QFile::remove(path))
            return makeError(ErrorCode::Io, "cannot remove the old runs file", {path.toStdString(), 0, 0});
        return {};
    }
    QJsonArray array;
    for (const auto& r : runs)
        array.append(runToJson(*r));
    const QJsonObject root{{"format", "meridian-runs"}, {"version", kVersion}, {"runs", array}};
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, "cannot write: " + file.errorString().toStdString(), {path.toStdString(), 0, 0});
    file.write(QJsonDocument(root).toJson(QJsonDocument::Compact));
    if (!file.commit())
        return makeError(ErrorCode::Io, "cannot write: " + file.errorString().toStdString(), {path.toStdString(), 0, 0});
    return {};
}

Expected<LoadedRuns> RunFile::load(const QString& path, const Project& project)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, "cannot open: " + file.errorString().toStdString(), {path.toStdString(), 0, 0});
    const QByteArray bytes = file.readAll();
    QJsonParseError parseError;
    const auto doc = QJsonDocument::fromJson(bytes, &parseError);
    if (doc.isNull()) {
        const int line = static_cast<int>(std::count(bytes.begin(), bytes.begin() + parseError.offset, '\n')) + 1;
        return fileError(path, parseError.errorString().toStdString(), line);
    }
    const auto root = doc.object();
    if (root.value("format").toString() != "meridian-runs")
        return fileError(path, "not a Meridian runs file (\"format\" is not \"meridian-runs\")");
    if (root.value("version").toInt() > kVersion)
        return fileError(path,
                         "written by a newer Meridian (runs file version "
                             + std::to_string(root.value("version").toInt()) + ")");
    LoadedRuns loaded;
    auto& runs = loaded.runs;
    const auto& topology = project.topology;
    int index = 0;
    for (const auto& value : root.value("runs").toArray()) {
        const auto o = value.toObject();
        const std::string where = "run " + std::to_string(index++) + ": ";
        Run run;
        run.id = o.value("id").toInt();
        run.algorithm = o.value("algorithm").toString().toStdString();
        run.application = o.value("application").toString().toStdString();
        bool ok = false;
        run.seed = o.value("seed").toString().toULongLong(&ok);
        const std::uint64_t fingerprint = o.value("fingerprint").toString().toULongLong(&ok, 16);
        if (!ok || run.id <= 0 || run.algorithm.empty())
            return fileError(path, where + "missing id, algorithm, seed or fingerprint");
        run.inputFingerprint = fingerprint;
        run.runtimeSeconds = o.value("runtime_s").toDouble();
        std::map<std::string, ParamValue> params;
        const auto stored = o.value("params").toObject();
        for (auto it = stored.begin(); it != stored.end(); ++it) {
            const auto v = it.value().toObject();
            ParamValue pv;
            if (v.contains("int")) {
                pv = static_cast<std::int64_t>(v.value("int").toString().toLongLong(&ok));
                if (!ok)
                    return fileError(path, where + "parameter " + it.key().toStdString() + " is not an integer");
            } else if (v.contains("real"))
                pv = v.value("real").toDouble();
            else if (v.contains("flag"))
                pv = v.value("flag").toBool();
            else if (v.contains("choice"))
                pv = v.value("choice").toString().toStdString();
            else
                return fileError(path, where + "parameter " + it.key().toStdString() + " has no typed value");
            params.emplace(it.key().toStdString(), std::move(pv));
        }
        run.params = ParamValues::fromStored(std::move(params));
        // A run that was stale when saved may no longer fit the inputs (a site was added, an application
        // removed): it is left out and counted. A current run that does not fit means a damaged file.
        const bool stale = inputFingerprint(project, run.application) != run.inputFingerprint;
        auto misfit = [&](const std::string& what) -> std::optional<Error> {
            if (stale) {
                ++loaded.skippedStale;
                return std::nullopt;
            }
            return fileError(path, where + what);
        };
        const auto what = o.value("kind").toString() == "partition" ? readPartitionRun(o, project, run)
                                                                    : readMappingRun(o, project, run);
        if (!what.empty()) {
            if (auto e = misfit(what))
                return *e;
            continue;
        }
        readRunCommon(o, run);
        if (!readMatrix(o.value("traffic_bytes"), topology.siteCount(), run.trafficBytes)
            || !readMatrix(o.value("time_s"), topology.siteCount(), run.timeSeconds)) {
            if (auto e = misfit("the site matrices do not match the project's " + std::to_string(topology.siteCount())
                                + " sites"))
                return *e;
            continue;
        }
        if (!readSimulatedLinks(o.value("simulated_links"), topology.siteCount(), run)) {
            if (auto e = misfit("its simulated links do not name the project's " + std::to_string(topology.siteCount())
                                + " sites"))
                return *e;
            continue;
        }
        for (const auto& c : o.value("cost_samples").toArray())
            run.costSamples.push_back(c.toDouble());
        for (const auto& p : o.value("best_curve").toArray()) {
            const auto pair = p.toArray();
            run.bestCurve.emplace_back(pair.at(0).toString().toLongLong(), pair.at(1).toDouble());
        }
        runs.push_back(std::move(run));
    }
    return loaded;
}

} // namespace meridian::document
