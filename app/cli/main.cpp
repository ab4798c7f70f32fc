#include "app/cli/cli_support.h"
#include "app/cli/commands.h"
#include "app/distributed/mpi_launch.h"
#include "app/version.h"
#include "core/common/held_share.h"
#include "core/io/utf8_text.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <new>
#include <string>
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
      "  budget-sweep        partition a project's graph at fractions of a WAN budget (Geo-Cut Figs. 19-20)\n"
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
        // The report is one process's work: refused under a launcher of several, before MPI is touched.
        if (const int size = meridian::distributed::Launch::launcherSize(); size > 1) {
            if (meridian::distributed::Launch::launcherRank() != 0)
                return meridian::cli::kExitBadInput; // rank 0 says why
            std::fprintf(stderr,
                         "meridian-cli: error: meridian-cli report runs whole in one process, so %d ranks would "
                         "each write it: start it without mpirun\n",
                         size);
            return meridian::cli::kExitBadInput;
        }
        QCoreApplication app(argc, argv);
        return handOverToReport(argc, argv);
    }
    // Under an MPI launcher (mpirun -np N), every rank runs this same command; rank 0 alone prints and writes.
    auto launch = meridian::distributed::Launch::join(&argc, &argv);
    if (!launch)
        return meridian::cli::report(launch.error());
    const auto& ranks = (*launch)->ranks();
    meridian::cli::setCommandRanks(ranks);
    // The other ranks print nothing; an internal error of theirs still reaches the terminal (rankErrors).
    int rankErrors = -1;
    if (!ranks.isRoot()) {
        rankErrors = ::dup(STDERR_FILENO);
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
    using Command = int (*)(const QStringList&);
    // The commands that split their work over the ranks of a launcher's job.
    const std::map<QString, std::pair<Command, bool>> commands{
        {"project", {meridian::cli::runProject, false}},
        {"capture", {meridian::cli::runCapture, false}},
        {"import-comm", {meridian::cli::runImportComm, false}},
        {"info", {meridian::cli::runInfo, false}},
        {"generate", {meridian::cli::runGenerate, false}},
        {"evaluate", {meridian::cli::runEvaluate, false}},
        {"map", {meridian::cli::runMap, true}},
        {"simulate", {meridian::cli::runSimulate, false}},
        {"predict", {meridian::cli::runPredict, false}},
        {"collective", {meridian::cli::runCollective, false}},
        {"compare", {meridian::cli::runCompare, true}},
        {"sweep", {meridian::cli::runSweep, true}},
        {"pareto", {meridian::cli::runPareto, true}},
        {"list-algorithms", {meridian::cli::runListAlgorithms, false}},
        {"partition", {meridian::cli::runPartition, true}},
        {"update", {meridian::cli::runUpdate, false}},
        {"budget-sweep", {meridian::cli::runBudgetSweep, true}},
    };
    const auto found = commands.find(command);
    if (found == commands.end()) {
        std::fprintf(stderr, "meridian-cli: error: unknown command '%s'\n\n%s", command.toLocal8Bit().constData(),
                     kUsage);
        return meridian::cli::kExitBadInput;
    }
    if (!found->second.second)
        if (const int code = meridian::cli::refuseIfSplit("meridian-cli " + command); code >= 0)
            return code;
    const auto stopEveryRank = [&](const std::string& what) {
        if (rankErrors >= 0)
            dprintf(rankErrors, "meridian-cli: rank %d of %d: %s\n", ranks.rank(), ranks.size(), what.c_str());
        // The other ranks may wait for this one in a collective call: stop them all.
        if (ranks.size() > 1)
            (*launch)->abortAll(meridian::cli::kExitInternal);
    };
    const auto atStart = meridian::cli::AddressSpace::now();
    try {
        return found->second.first(args);
    } catch (const std::bad_alloc&) {
        rlimit limit{};
        const bool limited = ::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
        meridian::cli::OutOfMemory at;
        at.ranks = ranks.size();
        at.launched = (*launch)->launched();
        at.splits = meridian::held_share::splits();
        at.edgeBytes = meridian::held_share::edgeBytes();
        at.vertexBytes = meridian::held_share::vertexBytes();
        at.vertexBytesEachRank = meridian::held_share::vertexBytesEachRank();
        at.held = meridian::held_share::last();
        at.vertices = meridian::held_share::projectedVertices();
        at.start = atStart;
        at.end = meridian::cli::AddressSpace::now();
        at.limit = limited ? static_cast<double>(limit.rlim_cur) : 0.0;
        const std::string what = meridian::cli::outOfMemoryMessage(at);
        std::fprintf(stderr, "meridian-cli: error: %s\n", what.c_str());
        stopEveryRank(what);
        return meridian::cli::kExitInternal;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "meridian-cli: internal error: %s\n", e.what());
        stopEveryRank(std::string("internal error: ") + e.what());
        return meridian::cli::kExitInternal;
    }
}
