#pragma once

#include "app/actions/run_controller.h"
#include "app/document/project_document.h"

#include <QMap>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QListWidget;
class QSpinBox;
class QStackedWidget;

namespace meridian::widgets {
class ParamForm;
}

namespace meridian::workbench {

/// Where runs are asked for: the application, one or several mappers (each with a parameter form
/// generated from its specs), the seed and the number of seeds; and a generator that redraws the
/// application's pins at a constraint ratio (an undoable edit).
class RunPanel : public QWidget {
    Q_OBJECT
public:
    RunPanel(document::ProjectDocument* document, actions::RunController* controller, QWidget* parent = nullptr);

    /// Checks exactly these mappers (by id).
    void setCheckedMappers(const QStringList& ids);
    QStringList checkedMappers() const;
    /// Returns the requests the Run button would submit.
    std::vector<actions::RunRequest> requests() const;
    /// Loads a run's application, algorithm, parameters and seed into the panel (duplicate).
    void loadRun(const document::Run& run);
    /// Returns the parameter form of a mapper.
    widgets::ParamForm* form(const QString& id) const;
    QComboBox* applicationChooser() const { return m_application; }
    /// Submits requests(); returns the job ids.
    std::vector<int> runChecked();
    /// Redraws the pins of the current application at the panel's ratio and seed; returns an error.
    QString generatePins();

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);

private:
    void rebuildApplications();

    document::ProjectDocument* m_document;
    actions::RunController* m_controller;
    QComboBox* m_application = nullptr;
    QListWidget* m_mappers = nullptr;
    QStackedWidget* m_forms = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_seeds = nullptr;
    QDoubleSpinBox* m_ratio = nullptr;
    QSpinBox* m_pinSeed = nullptr;
    QMap<QString, widgets::ParamForm*> m_formById;
};

} // namespace meridian::workbench
