#pragma once

#include <QStringList>

namespace meridian::cli {

/// Exit codes of meridian-cli.
enum ExitCode { kExitOk = 0, kExitInternal = 1, kExitBadInput = 2 };

/// Each command takes its arguments after the command name (argv[0] first, as QCommandLineParser
/// expects), prints its result (JSON on standard output, errors on standard error) and returns the
/// exit code.
int runInfo(const QStringList& arguments);
int runGenerate(const QStringList& arguments);
int runEvaluate(const QStringList& arguments);
int runMap(const QStringList& arguments);
int runCompare(const QStringList& arguments);
/// meridian-cli pareto: refine's weighted objective at evenly spaced weights between time and dollars.
int runPareto(const QStringList& arguments);
/// meridian-cli sweep: SC17 Fig. 7 and 8, the constraint ratio or the process count swept.
int runSweep(const QStringList& arguments);
int runListAlgorithms(const QStringList& arguments);
int runPartition(const QStringList& arguments);
int runUpdate(const QStringList& arguments);
/// meridian-cli budget-sweep: partitioners of a project's graph at fractions of a WAN budget (Geo-Cut Figs. 19-20).
int runBudgetSweep(const QStringList& arguments);
/// meridian-cli capture --out PREFIX -- COMMAND...: runs an MPI program with the tracer.
int runCapture(const QStringList& arguments);
/// meridian-cli import-comm --openmpi-monitoring DIR --out PREFIX: another tool's record as capture files.
int runImportComm(const QStringList& arguments);
/// meridian-cli simulate: a mapping's communication time by SimGrid simulation; the platform as SimGrid XML.
int runSimulate(const QStringList& arguments);
/// meridian-cli predict: a mapping's predicted run time, the application replayed with SimGrid's SMPI.
int runPredict(const QStringList& arguments);
/// meridian-cli collective: rank a collective's algorithms for a mapping; sweep sizes; write coll_tuned rules.
int runCollective(const QStringList& arguments);
/// meridian-cli project create | add-application | set-network | set-pins.
int runProject(const QStringList& arguments);

} // namespace meridian::cli
