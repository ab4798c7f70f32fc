#pragma once

#include "app/capture/ui/capture_actions.h"

#include <QDialog>

class QCheckBox;
class QDialogButtonBox;
class QLineEdit;

namespace meridian::workbench {

/// Run > Capture Application: the MPI command to run with the tracer, where its capture files go, and the
/// name of the application they become.
class CaptureDialog : public QDialog {
    Q_OBJECT
public:
    explicit CaptureDialog(const QString& folder, QWidget* parent = nullptr);

    actions::CaptureRequest request() const;
    QLineEdit* commandEdit() const { return m_command; }
    QLineEdit* prefixEdit() const { return m_prefix; }
    QLineEdit* nameEdit() const { return m_name; }
    QCheckBox* traceBox() const { return m_trace; }

private:
    void update();

    QLineEdit* m_command;
    QLineEdit* m_prefix;
    QLineEdit* m_name;
    QCheckBox* m_trace;
    QDialogButtonBox* m_buttons;
    bool m_nameEdited = false;
};

} // namespace meridian::workbench
