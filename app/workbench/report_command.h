#pragma once

namespace meridian::workbench {

/// meridian-cli report --project P [--runs R] --out R.pdf|R.html: writes the workbench's report without a window.
/// With no saved runs it first runs random, geo, greedy, scotch-bw, refine and monte-carlo on every application,
/// so that a report is one command. Creates its own QApplication (offscreen when there is no display): call it
/// instead of creating one.
int runReportCommand(int argc, char** argv);

} // namespace meridian::workbench
