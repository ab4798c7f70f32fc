#pragma once

#include "app/cli/commands.h"
#include "core/common/error.h"
#include "core/model/network.h"
#include "core/model/network_estimator.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace meridian::cli {

/// Prints an error to standard error and returns the exit code for it (1 internal, 2 otherwise).
int report(const Error& error);
/// Reports a usage error (bad or missing options) and returns kExitBadInput.
int usageError(const QString& message);
/// Adds --help and parses `arguments`; returns -1 to go on, or an exit code (help printed, or a usage error).
int parseArguments(QCommandLineParser& parser, const QStringList& arguments);
/// Returns how the network was completed: the distance model and the counts of measured, edited and
/// estimated entries.
QJsonObject distanceModelJson(const model::DistanceModel& m, const model::Network& input);

} // namespace meridian::cli
