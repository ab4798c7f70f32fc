#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/distributed/mpi_launch.h"
#include "app/version.h"
#include "core/io/utf8_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

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
      "  sweep               sweep the constraint ratio or the process count (SC17 Fig. 7, 8)\n"
      "  pareto              refine between time and dollars at several weights; the Pareto front\n"
      "  report              write the project's report (PDF or HTML), running mappers first if it has no runs;\n"
      "                      hands over to meridian-report, installed with the workbench\n"
      "  list-algorithms     the mappers, their parameters and defaults\n"
      "  partition           partition a graph's edges across sites (vertex-cut, Geo-Cut and peers)\n"
      "  update              apply edge insertions and deletions to a partition\n"
      "\n"
      "Run 'meridian-cli COMMAND --help' for the options of a command.\n"
      "Exit codes: 0 success, 2 bad input, 1 internal error.\n";

constexpr const char* kReportProgram = "meridian-report";

/// `meridian-cli report OPTIONS` runs `meridian-report OPTIONS` in its place. The report draws the workbench's
/// figures and prints them through Qt WebEngine; meridian-cli links none of that, so that it runs on cluster nodes
/// without a display stack. Returns only when meridian-report cannot be started.
int handOverToReport(int argc, char** argv)
{
    const QString program = QDir(QCoreApplication::applicationDirPath()).filePath(kReportProgram);
    if (!QFileInfo(program).isExecutable()) {
        std::fprintf(stderr,
                     "meridian-cli: error: the report is written by %s, which is not installed beside meridian-cli "
                     "(looked for %s). It comes with the workbench (Qt Widgets and WebEngine); on a machine without "
                     "them, copy the project to one that has the workbench and run the report there.\n",
                     kReportProgram, program.toLocal8Bit().constData());
        return meridian::cli::kExitBadInput;
    }
    const QByteArray path = program.toLocal8Bit();
    std::vector<char*> arguments{const_cast<char*>(path.constData())};
    for (int k = 2; k < argc; ++k)
        arguments.push_back(argv[k]);
    arguments.push_back(nullptr);
    std::fflush(nullptr);
    ::execv(path.constData(), arguments.data());
    std::fprintf(stderr, "meridian-cli: internal error: cannot start %s: %s\n", path.constData(), std::strerror(errno));
    return meridian::cli::kExitInternal;
}

} // namespace

int main(int argc, char** argv)
{
    // Names and paths are read as UTF-8: another byte sequence would become U+FFFD and name a site, an
    // application or a file that is not the user's. A command's own arguments after "--" pass through.
    for (int k = 1; k < argc && std::strcmp(argv[k], "--") != 0; ++k)
        if (const std::size_t bad = meridian::io::findInvalidUtf8(argv[k]); bad != std::string_view::npos) {
            std::fprintf(stderr,
                         "meridian-cli: error: argument %d, %s, is not UTF-8 (byte %zu): names and paths are read as "
                         "UTF-8\n",
                         k, meridian::io::shown(argv[k]).c_str(), bad + 1);
            return meridian::cli::kExitBadInput;
        }
    if (argc > 1 && std::strcmp(argv[1], "report") == 0) {
        QCoreApplication app(argc, argv);
        return handOverToReport(argc, argv);
    }
    // Under an MPI launcher (mpirun -np N), every rank runs this same command; rank 0 alone prints and writes.
    auto launch = meridian::distributed::Launch::join(&argc, &argv);
    if (!launch) {
        std::fprintf(stderr, "meridian-cli: error: %s\n", launch.error().message.c_str());
        return meridian::cli::kExitBadInput;
    }
    const auto& ranks = (*launch)->ranks();
    meridian::cli::setCommandRanks(ranks);
    if (!ranks.isRoot()) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
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
    if (command != "map" && command != "compare" && command != "sweep" && command != "pareto")
        if (const int code = meridian::cli::refuseIfSplit("meridian-cli " + command); code >= 0)
            return code;
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
        if (command == "sweep")
            return meridian::cli::runSweep(args);
        if (command == "pareto")
            return meridian::cli::runPareto(args);
        if (command == "list-algorithms")
            return meridian::cli::runListAlgorithms(args);
        if (command == "partition")
            return meridian::cli::runPartition(args);
        if (command == "update")
            return meridian::cli::runUpdate(args);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "meridian-cli: internal error: %s\n", e.what());
        // The other ranks may wait for this one in a collective call: stop them all.
        if (ranks.size() > 1)
            (*launch)->abortAll(meridian::cli::kExitInternal);
        return meridian::cli::kExitInternal;
    }
    std::fprintf(stderr, "meridian-cli: error: unknown command '%s'\n\n%s", command.toLocal8Bit().constData(), kUsage);
    return meridian::cli::kExitBadInput;
}
