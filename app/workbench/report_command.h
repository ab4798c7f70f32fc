#pragma once

namespace meridian::workbench {

/// meridian-report --project P [--runs R] --out R.pdf|R.html (also reached as `meridian-cli report ...`, which
/// hands over to meridian-report): writes the workbench's report without a window. With no saved runs it first
/// runs random, geo, greedy, scotch-bw, refine and monte-carlo on every application (hash, HDRF, G-Cut and
/// Geo-Cut on every graph), so that a report is one command. `argv` holds the program and then the options.
/// Creates its own QApplication (offscreen when there is no display): call it instead of creating one.
int runReportCommand(int argc, char** argv);

} // namespace meridian::workbench
