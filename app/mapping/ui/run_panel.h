#pragma once

#include "app/mapping/ui/run_controller.h"
#include "app/project/ui/project_document.h"

#include <QMap>
#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLineEdit;
class QLabel;
class QPushButton;
class QDoubleSpinBox;
class QListWidget;
class QSpinBox;
class QStackedWidget;

namespace meridian::widgets {
class ParamForm;
}

namespace meridian::workbench {

/// Where runs are asked for: the input (an application or a graph), one or several algorithms (mappers for
/// an application, partitioners for a graph; each with a parameter form generated from its specs), the seed
/// and the number of seeds. For an application, a generator that redraws its pins at a constraint ratio (an
/// undoable edit); for a graph, the traffic profile and the WAN budget, with GrapH's cost one click away.
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
    /// The traffic profile and budget the partitioners get.
    actions::PartitionSettings partitionSettings() const;
    void setPartitionSettings(const actions::PartitionSettings& settings);
    /// True when the chosen input is a graph.
    bool isGraphInput() const;
    /// Returns the parameter form of a mapper (or a partitioner, when the input is a graph).
    widgets::ParamForm* form(const QString& id) const;
    QComboBox* applicationChooser() const { return m_application; }
    /// Submits requests(); returns the job ids.
    std::vector<int> runChecked();
    /// The runs of a budget sweep: every ticked partitioner at 1.0, 0.9, 0.8, 0.7 and 0.6 times the budget, leaving
    /// out those below the lowest possible cost when it is known (the note under the budget says which). None, with
    /// `refusal` saying why, without a graph, a budget or a ticked partitioner, or when every budget is out of reach.
    std::vector<actions::RunRequest> budgetSweepRequests(QString& refusal);
    /// Submits budgetSweepRequests() here; returns an error text.
    QString runBudgetSweep();
    /// The lowest WAN cost any partition of the chosen graph can reach under the chosen profile, once computed
    /// (in the background, whenever a budget is on) for the current project.
    std::optional<double> costBound() const;
    /// Redraws the pins of the current application at the panel's ratio and seed; returns an error.
    QString generatePins();

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);

private:
    static constexpr int kGraphRole = Qt::UserRole + 1;
    static constexpr int kPartitionerRole = Qt::UserRole + 2;
    void rebuildApplications();
    void showAlgorithmsForInput();
    /// Says above the Run button what the input's algorithms need and the project lacks, and disables it then.
    void updateRequirements();
    void addAlgorithm(const QString& id, const QString& description, const std::vector<ParamSpec>& specs,
                      bool partitioner);
    QWidget* buildPartitionSettings();
    /// Shows the cost bound of the chosen graph and profile, computing it first when it is not known yet.
    void updateCostBound();
    /// Says why the run cannot start (a budget below the cost bound), or nothing.
    QString budgetRefusal() const;

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
    QMap<QString, widgets::ParamForm*> m_partitionFormById;
    QLabel* m_algorithmsLabel = nullptr;
    QPushButton* m_runButton = nullptr;
    QLabel* m_requirements = nullptr;
    QGroupBox* m_pinsBox = nullptr;
    QGroupBox* m_partitionBox = nullptr;
    QComboBox* m_profile = nullptr;
    QDoubleSpinBox* m_activeFraction = nullptr;
    QCheckBox* m_budgetOn = nullptr;
    QLineEdit* m_budget = nullptr;
    QLabel* m_budgetNote = nullptr;
    QLabel* m_boundNote = nullptr;
    struct Bound {
        std::uint64_t fingerprint = 0;
        double usd = 0.0;
    };
    QMap<QString, Bound> m_bounds; ///< by RunController::costBoundKey
    QMap<QString, std::uint64_t> m_boundsPending;
};

} // namespace meridian::workbench
