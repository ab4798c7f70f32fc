#include "app/project/json_util.h"

#include "core/common/utc_date.h"

#include <QJsonDocument>

#include <cstdio>

namespace meridian::document {

QJsonArray matrixToJson(const Eigen::MatrixXd& matrix)
{
    QJsonArray rows;
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
        QJsonArray row;
        for (Eigen::Index j = 0; j < matrix.cols(); ++j)
            row.append(matrix(i, j));
        rows.append(row);
    }
    return rows;
}

void printJson(const QJsonObject& object)
{
    const QByteArray text = QJsonDocument(object).toJson(QJsonDocument::Indented);
    std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
    std::fflush(stdout);
}

QJsonObject distanceModelJson(const model::DistanceModel& m, const model::Network& input)
{
    using model::NetworkQuantity;
    using model::Provenance;
    QJsonObject o;
    o["description"] = QString::fromStdString(m.describe());
    for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth}) {
        QJsonObject counts;
        for (auto p : {Provenance::Measured, Provenance::Edited, Provenance::Missing})
            counts[QString::fromStdString(
                std::string(model::provenanceId(p == Provenance::Missing ? Provenance::Estimated : p)))]
                = input.count(q, p);
        o[q == NetworkQuantity::Latency ? "latency_entries" : "bandwidth_entries"] = counts;
    }
    if (const auto dates = input.measurementDates(); dates.dated > 0) {
        o["oldest_measurement"] = QString::fromStdString(formatUtcDate(dates.oldest));
        o["newest_measurement"] = QString::fromStdString(formatUtcDate(dates.newest));
    }
    return o;
}

QJsonObject instanceJson(const cost::InstanceMetrics& m)
{
    return QJsonObject{{"inter_bytes", m.interBytes},
                       {"intra_bytes", m.intraBytes},
                       {"inter_messages", m.interMessages},
                       {"intra_messages", m.intraMessages},
                       {"comm_time_s", m.commTimeSeconds}};
}

} // namespace meridian::document
