#include "app/cli/commands.h"
#include "app/version.h"
#include "app/workbench/report_command.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstring>
#include <exception>

namespace {

constexpr const char* kUsage
    = "Usage: meridian-cli COMMAND [options]\n"
      "\n"
      "Plans where parallel work runs across geo-distributed sites.\n"
      "\n"
      "Commands:\n"
      "  project SUBCOMMAND  create a project from your files; add applications, set the network or pins\n"
      "  capture --out P -- COMMAND  run an MPI program with the tracer; write its communication matrix\n"
      "  import-comm         turn Open MPI monitoring files or an OTF2 trace into capture files\n"
      "  info PROJECT        summary of a project as JSON\n"
      "  generate PATTERN    generate a communication pattern or a constraint vector\n"
      "  evaluate            cost of a mapping (alpha-beta model) as JSON\n"
      "  map                 map processes with one algorithm; write mapping, rankfile, hostfiles\n"
      "  simulate            simulate a mapping's communication per iteration with SimGrid; export the platform\n"
      "  predict             a mapping's predicted run time: the application replayed by SimGrid's SMPI\n"
      "  collective          rank a collective's algorithms on a mapping's network; write Open MPI rules\n"
      "  compare             run several mappers over several seeds, normalised to random\n"
      "  report              write the project's report (PDF or HTML), running mappers first if it has no runs\n"
      "  list-algorithms     the mappers, their parameters and defaults\n"
      "  partition           partition a graph's edges across sites (vertex-cut, Geo-Cut and peers)\n"
      "  update              apply edge insertions and deletions to a partition\n"
      "\n"
      "Run 'meridian-cli COMMAND --help' for the options of a command.\n"
      "Exit codes: 0 success, 2 bad input, 1 internal error.\n";

} // namespace

int main(int argc, char** argv)
{
    // The report lays out and prints through Qt WebEngine, which needs a GUI application set up before it exists.
    if (argc > 1 && std::strcmp(argv[1], "report") == 0) {
        try {
            return meridian::workbench::runReportCommand(argc, argv);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "meridian-cli: internal error: %s\n", e.what());
            return meridian::cli::kExitInternal;
        }
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("meridian-cli");
    QCoreApplication::setApplicationVersion(MERIDIAN_VERSION);
    QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
        std::fputs(kUsage, args.size() < 2 ? stderr : stdout);
        return args.size() < 2 ? meridian::cli::kExitBadInput : meridian::cli::kExitOk;
    }
    if (args[1] == "--version") {
        std::puts("meridian-cli " MERIDIAN_VERSION);
        return meridian::cli::kExitOk;
    }
    const QString command = args[1];
    args.removeAt(1);
    try {
        if (command == "project")
            return meridian::cli::runProject(args);
        if (command == "capture")
            return meridian::cli::runCapture(args);
        if (command == "import-comm")
            return meridian::cli::runImportComm(args);
        if (command == "info")
            return meridian::cli::runInfo(args);
        if (command == "generate")
            return meridian::cli::runGenerate(args);
        if (command == "evaluate")
            return meridian::cli::runEvaluate(args);
        if (command == "map")
            return meridian::cli::runMap(args);
        if (command == "simulate")
            return meridian::cli::runSimulate(args);
        if (command == "predict")
            return meridian::cli::runPredict(args);
        if (command == "collective")
            return meridian::cli::runCollective(args);
        if (command == "compare")
            return meridian::cli::runCompare(args);
        if (command == "list-algorithms")
            return meridian::cli::runListAlgorithms(args);
        if (command == "partition")
            return meridian::cli::runPartition(args);
        if (command == "update")
            return meridian::cli::runUpdate(args);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "meridian-cli: internal error: %s\n", e.what());
        return meridian::cli::kExitInternal;
    }
    std::fprintf(stderr, "meridian-cli: error: unknown command '%s'\n\n%s", command.toLocal8Bit().constData(), kUsage);
    return meridian::cli::kExitBadInput;
}
