#pragma once

// What `meridian-cli partition` and `budget-sweep` print, without what changes from run to run or with the way the
// work was split.

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace meridian::test {

/// A partition's JSON without its clocks, throughputs, peak memory, notes and whether the graph was streamed (which
/// say how the work was split: a stream in batches runs in memory in one process and streams over ranks).
inline QJsonObject withoutTimes(QJsonObject o)
{
    for (const QString& key : o.keys())
        if (QStringList{"runtime_s", "evaluate_s", "write_s", "whole_s", "streaming_s", "notes"}.contains(key)
            || key.contains("per_second") || key.contains("memory"))
            o.remove(key);
    QJsonObject graph = o["graph"].toObject();
    graph.remove("load_s");
    graph.remove("streamed");
    o["graph"] = graph;
    return o;
}

/// A sweep's JSON (budget-sweep's) without each point's runtime, which is each run's own.
inline QJsonObject withoutPointRuntimes(QJsonObject o)
{
    QJsonArray points;
    for (const auto& point : o["points"].toArray()) {
        QJsonObject p = point.toObject();
        p.remove("runtime_s");
        points.append(p);
    }
    o["points"] = points;
    return o;
}

} // namespace meridian::test
