#pragma once

#include <QDialog>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace meridian::workbench {

/// Asks for an insert/delete batch to apply to a partition run (Geo-Cut's dynamic graphs): a file of edges
/// to insert, a file of edges to delete (`src dst` lines as in a SNAP file, either may be left empty), and the
/// share of a site's traffic whose change triggers Geo-Cut's refinement. OK stays disabled until a file is
/// named and every named file exists.
class BatchDialog : public QDialog {
    Q_OBJECT
public:
    BatchDialog(const QString& folder, const QString& runLabel, QWidget* parent = nullptr);

    QLineEdit* insertEdit() const { return m_insert; }
    QLineEdit* deleteEdit() const { return m_delete; }
    QDoubleSpinBox* thresholdBox() const { return m_threshold; }
    /// The refinement threshold as a share (the box shows a percentage).
    double threshold() const;

private:
    void update();

    QLineEdit* m_insert;
    QLineEdit* m_delete;
    QDoubleSpinBox* m_threshold;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace meridian::workbench
