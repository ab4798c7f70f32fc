#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "app/simulation/simulate_operation.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace meridian::workbench {

/// Where a simulated run's alpha-beta cost and its SimGrid simulation put the time, link by link: a summary that
/// names the costliest pair under alpha-beta and the simulation's busiest link (and says when they differ), then a
/// sortable table of every link with its bytes, alpha-beta seconds and share, simulated busy seconds, busy fraction
/// and utilisation. Uplinks and downlinks have no alpha-beta part (it gives each pair a private link); the insides
/// of sites have no simulated one kept with the run.
class SimulationDetailsDialog : public QDialog {
    Q_OBJECT
public:
    SimulationDetailsDialog(const document::Run& run, const ops::SimulationComparison& comparison,
                            const document::Project& project, QWidget* parent = nullptr);

    enum Column { Link, Bytes, AlphaBeta, AlphaBetaShare, Busy, BusyFraction, Utilisation, ColumnCount };

    QLabel* summary() const { return m_summary; }
    QTableWidget* table() const { return m_table; }

    /// The summary's text for a comparison (the sites named from `project`).
    static QString summaryText(const ops::SimulationComparison& comparison, const document::Project& project);
    /// A link's name: "A → B", "A uplink", "B downlink", "inside A".
    static QString linkName(const ops::LinkComparison& link, const document::Project& project);

private:
    QLabel* m_summary;
    QTableWidget* m_table;
};

} // namespace meridian::workbench
