#pragma once

#include "app/project/ui/matrix_data.h"
#include "app/project/ui/project_document.h"
#include "widgets/heatmap_view.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace meridian::workbench {

/// The matrix viewer: the network's latency and bandwidth, each application's volume, message count
/// and average message size, and the selected run's site x site traffic and time, as heatmaps. A run's
/// placement can reorder processes by site or aggregate them by site or host. Input matrices are
/// editable by double-clicking a cell (an undoable edit, marked "edited"); every heatmap exports to
/// PNG, SVG or CSV.
class MatrixPanel : public QWidget {
    Q_OBJECT
public:
    using Source = MatrixSource;
    using Arrangement = MatrixArrangement;

    explicit MatrixPanel(document::ProjectDocument* document, QWidget* parent = nullptr);

    widgets::HeatmapView* heatmap() const { return m_heatmap; }
    QComboBox* sourceChooser() const { return m_source; }
    /// Selects a source (application index for Volume, Messages and AverageSize); false if not offered.
    bool showSource(Source source, int application = -1);
    void setArrangement(Arrangement arrangement);
    /// Builds the heatmap data of a source without showing it (for reports).
    widgets::HeatmapData buildData(Source source, int application, Arrangement arrangement) const;
    /// Applies an edit of a cell of the shown matrix (network or communication input); returns an error.
    /// For a network entry, `bothDirections` sets the reverse entry to the same value.
    QString editCell(int row, int column, const QString& text, bool bothDirections = false);

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void exportRequested();

private:
    void rebuildChooser();
    void showSelected();
    void askEdit(int row, int column);

    document::ProjectDocument* m_document;
    QComboBox* m_source = nullptr;
    bool m_sourceChosen = false; ///< the user picked a matrix (or showSource did): keep it when the project changes
    QComboBox* m_arrangement = nullptr;
    QComboBox* m_binning = nullptr;
    QCheckBox* m_log = nullptr;
    QLabel* m_note = nullptr;
    widgets::HeatmapView* m_heatmap = nullptr;
};

} // namespace meridian::workbench
