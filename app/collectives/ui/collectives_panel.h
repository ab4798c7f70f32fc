#pragma once

#include "app/collectives/collective_operation.h"
#include "app/project/ui/project_document.h"
#include "core/collectives/planner.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>

class QChartView;
class QComboBox;
class QLabel;
class QTabWidget;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace meridian::jobs {
class JobRunner;
}
namespace meridian::widgets {
class WorldMapView;
}

namespace meridian::workbench {

class BandStrip;

using ops::CollectivePlan;

/// The collective operations planner for the selected mapping run: the operation, root, message size and cost
/// model; time against message size per algorithm (log-log) with the fastest algorithm per size as a band beneath,
/// time against process count at the chosen size, and the fastest algorithm's schedule at that size drawn on the
/// site map over the run's placement (the bytes each site pair carries). The charts export as PNG and the choice as
/// an Open MPI coll_tuned rules file. The planning runs as a job; a change of run or setting replaces it.
class CollectivesPanel : public QWidget {
    Q_OBJECT
public:
    CollectivesPanel(document::ProjectDocument* document, jobs::JobRunner* runner, QWidget* parent = nullptr);
    ~CollectivesPanel() override;

    QComboBox* operationChooser() const { return m_operation; }
    QComboBox* modelChooser() const { return m_model; }
    QSpinBox* rootSpin() const { return m_root; }
    QLineEdit* sizeEdit() const { return m_size; }
    QLabel* summary() const { return m_summary; }
    QChartView* sizeChart() const { return m_sizeChart; }
    QChartView* countChart() const { return m_countChart; }
    widgets::WorldMapView* map() const { return m_map; }
    /// The last plan that landed, or null.
    const CollectivePlan* plan() const { return m_plan.get(); }

    /// Plans again for the current run and settings (replacing a planning under way); while the panel is hidden,
    /// when it is next shown.
    void replan();
    /// Writes the coll_tuned rules of the current plan; an error message, or empty.
    QString exportRules(const QString& path);
    /// Writes the two charts and the band as one PNG; an error message, or empty.
    QString exportChart(const QString& path);

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    /// A plan landed (or the panel was cleared).
    void planChanged();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void display(std::shared_ptr<const CollectivePlan> plan);
    void clear(const QString& why);
    void fillSizeChart();
    void fillCountChart();
    void fillMap();
    QString describe() const;

    document::ProjectDocument* m_document;
    /// The window's runner; a QPointer because the window deletes it before its tabs.
    QPointer<jobs::JobRunner> m_runner;
    QComboBox* m_operation = nullptr;
    QComboBox* m_model = nullptr;
    QSpinBox* m_root = nullptr;
    QLineEdit* m_size = nullptr;
    QPushButton* m_exportRules = nullptr;
    QPushButton* m_exportChart = nullptr;
    QLabel* m_summary = nullptr;
    QChartView* m_sizeChart = nullptr;
    BandStrip* m_bands = nullptr;
    QChartView* m_countChart = nullptr;
    widgets::WorldMapView* m_map = nullptr;
    QTabWidget* m_charts = nullptr;
    std::shared_ptr<const CollectivePlan> m_plan;
    int m_job = -1;
    int m_generation = 0;
    bool m_stale = true;
};

} // namespace meridian::workbench
