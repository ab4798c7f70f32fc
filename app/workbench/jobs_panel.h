#pragma once

#include "app/jobs/job_runner.h"

#include <QMap>
#include <QWidget>

class QLabel;
class QProgressBar;
class QTimer;
class QToolButton;
class QVBoxLayout;

namespace meridian::widgets {
class BestCurveView;
}

namespace meridian::workbench {

/// The jobs that are running: for each, its title, a progress bar, the current stage, the elapsed time
/// and a button that cancels it, and for an anytime search (refine) its best cost so far against time. A row
/// disappears when its job ends.
class JobsPanel : public QWidget {
    Q_OBJECT
public:
    explicit JobsPanel(jobs::JobRunner* runner, QWidget* parent = nullptr);

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    /// Returns the progress bar of a job (for tests), or null.
    QProgressBar* progressBar(int jobId) const;
    QToolButton* cancelButton(int jobId) const;
    /// Returns the best-so-far chart of a job (for tests), or null.
    widgets::BestCurveView* bestCurve(int jobId) const;

private:
    struct Row {
        QWidget* widget = nullptr;
        QProgressBar* progress = nullptr;
        QLabel* stage = nullptr;
        QLabel* elapsed = nullptr;
        QToolButton* cancel = nullptr;
        widgets::BestCurveView* best = nullptr;
    };
    void addRow(int id, const QString& title);
    void updateElapsed();

    jobs::JobRunner* m_runner;
    QVBoxLayout* m_list = nullptr;
    QLabel* m_empty = nullptr;
    QMap<int, Row> m_rows;
    QTimer* m_timer = nullptr;
};

} // namespace meridian::workbench
