#pragma once

#include "app/project/ui/project_document.h"

#include <QWidget>

#include <utility>

class QComboBox;
class QLabel;
class QTableWidget;

namespace meridian::widgets {
class HeatmapView;
}

namespace meridian::workbench {

/// Compares the placements of two runs of one application: which processes moved (from which site
/// and host to which), the cost of each, and the change of site x site traffic (B - A) as a heatmap on
/// a diverging palette.
class DiffPanel : public QWidget {
    Q_OBJECT
public:
    explicit DiffPanel(document::ProjectDocument* document, QWidget* parent = nullptr);

    /// Shows the difference between two runs (false when either is missing or they map different
    /// applications; the panel says why).
    bool showDiff(int runA, int runB);
    int movedCount() const { return m_moved; }
    widgets::HeatmapView* heatmap() const { return m_heatmap; }
    QTableWidget* movedTable() const { return m_table; }

private:
    void refreshChoices();
    /// The ids of the two most recent mapping runs of one application (older, newer); -1s when there are none.
    std::pair<int, int> latestPair() const;
    bool m_userChose = false;
    void update();

    document::ProjectDocument* m_document;
    QComboBox* m_a = nullptr;
    QComboBox* m_b = nullptr;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    widgets::HeatmapView* m_heatmap = nullptr;
    int m_moved = 0;
};

} // namespace meridian::workbench
