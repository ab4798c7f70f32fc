#pragma once

#include <Eigen/Dense>

#include <QJsonArray>
#include <QJsonObject>

namespace meridian::document {

/// Returns a matrix as an array of row arrays.
QJsonArray matrixToJson(const Eigen::MatrixXd& matrix);
/// Prints a JSON object to standard output, indented, followed by a newline.
void printJson(const QJsonObject& object);

} // namespace meridian::document
