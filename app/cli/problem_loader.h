#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"

#include <QCommandLineParser>
#include <QString>

#include <initializer_list>

namespace meridian::cli {

/// The inputs of one mapping problem as the CLI collects them: from a project and one of its
/// applications, or from raw files.
struct LoadedProblem {
    document::Project project; ///< for raw files, a project holding the one application
    int application = 0;       ///< index into project.applications
};

/// Adds the options that name a network: --project, or --sites with --latency and --bandwidth.
void addNetworkOptions(QCommandLineParser& parser);
/// Adds the options that name a problem: --project/--application or --sites/--latency/--bandwidth/
/// --volume/--messages/--pins.
void addProblemOptions(QCommandLineParser& parser);

/// Refuses any of the `raw` options (names without dashes) beside --project, which carries them.
Status refuseRawWithProject(const QCommandLineParser& parser, std::initializer_list<const char*> raw);
/// Loads --sites with --latency and --bandwidth (as available) into a project without applications.
Expected<document::Project> loadSitesAndNetwork(const QCommandLineParser& parser);

/// Loads the problem the options name, with the application's trace from --trace when the command has that
/// option and it is given (else the project's own). Errors name the file at fault; a missing option is an
/// InvalidInput error saying which options are needed.
Expected<LoadedProblem> loadProblem(const QCommandLineParser& parser);

} // namespace meridian::cli
