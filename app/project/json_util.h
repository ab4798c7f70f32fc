#pragma once

#include "core/cost/instance_metrics.h"
#include "core/model/network.h"
#include "core/model/network_estimator.h"

#include <Eigen/Dense>

#include <QJsonArray>
#include <QJsonObject>

namespace meridian::document {

/// Returns a matrix as an array of row arrays.
QJsonArray matrixToJson(const Eigen::MatrixXd& matrix);
/// Prints a JSON object to standard output, indented, followed by a newline.
void printJson(const QJsonObject& object);
/// How a network was completed: the distance model and the counts of measured, edited and estimated entries.
QJsonObject distanceModelJson(const model::DistanceModel& m, const model::Network& input);
/// CloudMap's instance metrics (inter/intra bytes and messages, comm_time_s).
QJsonObject instanceJson(const cost::InstanceMetrics& metrics);

} // namespace meridian::document
