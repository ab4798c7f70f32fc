#include "app/project/json_util.h"

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

} // namespace meridian::document
