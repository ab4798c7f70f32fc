#include "app/capture/record_import.h"

#include "core/io/comm_io.h"
#include "core/io/openmpi_monitoring.h"
#include "core/io/otf2_trace.h"
#include "core/io/text_file.h"

#include <QJsonArray>

#include <ostream>
#include <vector>

namespace meridian::capture {

Expected<ImportedRecord> importOtf2(const std::string& anchor)
{
    auto trace = io::readOtf2Trace(anchor);
    if (!trace)
        return trace.error();
    ImportedRecord out;
    out.source = "otf2";
    out.from = anchor;
    out.collectivesJson = io::collectivesJson(trace->pointToPoint.processCount(), trace->collectives, "otf2");
    out.events = trace->events;
    out.comm = std::move(trace->pointToPoint);
    return out;
}

Expected<ImportedRecord> importOpenMpiMonitoring(const std::string& folder, const std::string& name)
{
    auto run = io::readOpenMpiMonitoring(folder, name);
    if (!run)
        return run.error();
    ImportedRecord out;
    out.source = "openmpi-monitoring";
    out.from = run->name + ".RANK.prof";
    out.collectivesJson = io::monitoringCollectivesJson(*run);
    out.comm = std::move(run->pointToPoint);
    return out;
}

Expected<QJsonObject> writeImportedRecord(const ImportedRecord& record, const std::string& prefix)
{
    const std::string comment = "recorded by " + record.source + " (" + record.from + ")";
    const std::vector<io::PendingFile> files{
        {prefix + ".volume.mtx", [&](std::ostream& out) { out << io::commMatrixText(record.comm, false, comment); }},
        {prefix + ".messages.mtx", [&](std::ostream& out) { out << io::commMatrixText(record.comm, true, comment); }},
        {prefix + ".collectives.json", [&](std::ostream& out) { out << record.collectivesJson; }}};
    if (auto written = io::writeFilesTogether(files); !written)
        return written.error();
    QJsonObject out;
    out["source"] = QString::fromStdString(record.source);
    out["from"] = QString::fromStdString(record.from);
    out["processes"] = record.comm.processCount();
    out["nonzeros"] = record.comm.nonZeros();
    if (record.events > 0)
        out["events"] = static_cast<qint64>(record.events);
    QJsonArray written;
    for (const auto& file : files)
        written.append(QString::fromStdString(file.path));
    out["written"] = written;
    return out;
}

} // namespace meridian::capture
