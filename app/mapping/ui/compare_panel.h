#pragma once

#include "app/mapping/sweep_operation.h"
#include "app/mapping/ui/run_controller.h"
#include "app/project/ui/project_document.h"
#include "app/report/compare_charts.h"
#include "app/report/report_writer.h"

#include <QWidget>

#include <functional>
#include <optional>

class QChartView;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;
class QTableView;
class QTabWidget;

namespace meridian::workbench {

class CompareTableModel;

/// Comparison of runs: a table normalised to a baseline run, bar charts per application, the cost/time
/// skyline with its Pareto front (clicking a point selects the run everywhere), the Monte Carlo cost
/// CDF and best-of-K curve with every other mapper's cost marked (SC17 Fig. 9-10), and sweeps over the
/// constraint ratio and the process count (Fig. 7-8); for graphs, the partitioners' transfer time and WAN cost
/// normalised to hash (Geo-Cut Figs. 5-8) and a partition run's per-site shares (Table 10). Every chart exports
/// to PNG and SVG.
class ComparePanel : public QWidget {
    Q_OBJECT
public:
    enum Tab { TableTab, BarsTab, SkylineTab, MonteCarloTab, SweepsTab, PartitionsTab };
    /// Returns the mappers (and their parameters) a sweep should run.
    using MapperProvider = std::function<std::vector<std::pair<std::string, ParamValues>>()>;

    ComparePanel(document::ProjectDocument* document, actions::RunController* controller, MapperProvider mappers,
                 QWidget* parent = nullptr);

    QTabWidget* tabs() const { return m_tabs; }
    QTableView* table() const { return m_table; }
    CompareTableModel* compareModel() const { return m_compareModel; }
    QChartView* chart(Tab tab) const;
    /// Sets the skyline's axes by metric id; false when a metric is not offered.
    bool setSkylineAxes(const QString& xMetric, const QString& yMetric);
    /// Returns the run ids on the skyline's Pareto front, by increasing x.
    std::vector<int> skylineFront() const { return m_front; }
    /// Where a run is drawn on the skyline, in its axes' units (bytes scaled to KB ... TB); nullopt when not drawn.
    std::optional<QPointF> skylinePoint(int runId) const;
    /// Returns the run id of the skyline point nearest to a value-space position, or -1.
    int skylineRunAt(const QPointF& value) const;
    /// Adds the panel's charts to a report as vector drawings at `size`: the skyline of each input with runs
    /// ("skyline:<input>"), each monte-carlo run's CDF and best-of-K ("cdf:<id>", "best-of-k:<id>"), the mean cost
    /// per application ("bars") and each graph's partitioners ("partitions:<graph>"). The choices on screen are
    /// put back afterwards.
    void addReportFigures(report::Figures& figures, const QSize& size, double minimumTextPoints);
    /// Saves a chart as PNG or SVG (by suffix); returns an error message or an empty string.
    QString exportChart(Tab tab, const QString& path) const;
    /// Starts a sweep with the panel's settings; returns the job id or -1 (the error is emitted).
    int startSweep();
    /// Starts a Pareto sweep (refine between time and dollars) of the skyline's input with the panel's number
    /// of weights; returns the job id, or -1 when the input is not an application.
    int startParetoSweep();
    void setSweep(ops::SweepKind kind, const QString& points, int seeds);
    /// Shows a finished sweep.
    void showSweep(const ops::SweepResult& result);
    const std::optional<ops::SweepResult>& lastSweep() const { return m_sweep; }

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);

private:
    void refresh();
    void refreshBaselines();
    /// Sets the skyline's y axis to what the chosen input's runs report (transfer time for a graph).
    void fitAxesToInput();
    void refreshBars();
    void refreshSkyline();
    void refreshMonteCarlo();
    void refreshSweepChart();
    void refreshPartitions();
    QWidget* buildPartitionTab();
    QWidget* chartTab(QChartView* view, QWidget* controls);
    /// Shows, above the skyline, why it has no dollars for `input` (which sites lack which price), or hides it.
    void updateSkylineNote(const std::string& input, const std::string& xId);
    QWidget* buildTableTab();
    QWidget* buildSkylineTab();
    QWidget* buildMonteCarloTab();
    QWidget* buildSweepTab();

    document::ProjectDocument* m_document;
    actions::RunController* m_controller;
    MapperProvider m_mapperProvider;
    QTabWidget* m_tabs = nullptr;
    CompareTableModel* m_compareModel = nullptr;
    QTableView* m_table = nullptr;
    QComboBox* m_baseline = nullptr;
    QChartView* m_bars = nullptr;
    QChartView* m_skyline = nullptr;
    QComboBox* m_skyApplication = nullptr;
    QComboBox* m_xMetric = nullptr;
    QComboBox* m_yMetric = nullptr;
    /// The x and y metrics the user chose (empty: the defaults, dollars against time, as soon as runs report them).
    QString m_xChosen, m_yChosen;
    /// Whether the user chose the skyline's input; until then it follows the selected (or latest) run's.
    bool m_inputChosen = false;
    /// Why the skyline does not show dollars (which sites lack which price), or empty.
    QLabel* m_skyNote = nullptr;
    QSpinBox* m_paretoPoints = nullptr;
    QPushButton* m_paretoSweep = nullptr;
    std::vector<std::pair<int, QPointF>> m_skyPoints;
    std::vector<int> m_front;
    std::size_t m_skyFrontPoints = 0; ///< distinct points on the front (equal runs are one point)
    QChartView* m_cdf = nullptr;
    QChartView* m_bestOfK = nullptr;
    QComboBox* m_mcRun = nullptr;
    QChartView* m_sweepChart = nullptr;
    QComboBox* m_sweepKind = nullptr;
    QLineEdit* m_sweepPoints = nullptr;
    QComboBox* m_sweepPattern = nullptr;
    QComboBox* m_sweepApplication = nullptr;
    QSpinBox* m_sweepSeeds = nullptr;
    QComboBox* m_sweepMetric = nullptr;
    std::optional<ops::SweepResult> m_sweep;
    QComboBox* m_partitionGraph = nullptr;
    QChartView* m_partitionBars = nullptr;
    QChartView* m_siteShares = nullptr;
};

} // namespace meridian::workbench
