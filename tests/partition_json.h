#pragma once

// What `meridian-cli partition` prints, without what changes from run to run or with the way the work was split.

#include <QJsonObject>
#include <QStringList>

namespace meridian::test {

/// A partition's JSON without its clocks, throughputs, peak memory and notes (which say how the work was split).
inline QJsonObject withoutTimes(QJsonObject o)
{
    for (const QString& key : o.keys())
        if (QStringList{"runtime_s", "evaluate_s", "write_s", "whole_s", "streaming_s", "notes"}.contains(key)
            || key.contains("per_second") || key.contains("memory"))
            o.remove(key);
    QJsonObject graph = o["graph"].toObject();
    graph.remove("load_s");
    o["graph"] = graph;
    return o;
}

} // namespace meridian::test
