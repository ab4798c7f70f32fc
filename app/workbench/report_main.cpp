// meridian-report: the report's own entry point. The report draws the workbench's figures and prints through Qt
// WebEngine, so it lives apart from meridian-cli, which must run on cluster nodes without a display stack.
#include "app/workbench/report_command.h"

#include "app/cli/commands.h"

#include <cstdio>
#include <exception>

int main(int argc, char** argv)
{
    try {
        return meridian::workbench::runReportCommand(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "meridian-report: internal error: %s\n", e.what());
        return meridian::cli::kExitInternal;
    }
}
