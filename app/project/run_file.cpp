#include "app/project/run_file.h"

#include "core/io/text_file.h"

#include "app/project/json_util.h"
#include "app/project/project_edits.h"

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
    o["traffic_bytes"] = matrixToJson(run.trafficBytes);
    o["time_s"] = matrixToJson(run.timeSeconds);
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
    return io::writeTextFileAtomically(path.toStdString(), text(runs));
}

std::string RunFile::text(const std::vector<std::shared_ptr<const Run>>& runs)
{
    QJsonArray array;
    for (const auto& r : runs)
        array.append(runToJson(*r));
    const QJsonObject root{{"format", "meridian-runs"}, {"version", kVersion}, {"runs", array}};
    return QJsonDocument(root).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace meridian::document
