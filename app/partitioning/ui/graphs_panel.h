#pragma once

#include "app/partitioning/ui/graph_actions.h"
#include "app/project/ui/project_document.h"

#include <QDialog>
#include <QWidget>

#include <cstdint>
#include <string>

class QChartView;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace meridian::workbench {

/// File > Import > Graph: the graph file and its format (guessed from the name), the graph's name in the
/// project, and where the vertices live: a homes file ('vertex site' lines), or drawn uniformly at random over
/// the project's sites with a seed the user sees (and the homes file's unlisted vertices the same way).
class ImportGraphDialog : public QDialog {
    Q_OBJECT
public:
    ImportGraphDialog(const QString& folder, const document::Project& project, QWidget* parent = nullptr);

    actions::GraphSource request() const;
    QLineEdit* pathEdit() const { return m_path; }
    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* homesEdit() const { return m_homes; }
    QComboBox* formatBox() const { return m_format; }
    QSpinBox* seedBox() const { return m_seed; }

private:
    void update();

    const document::Project& m_project;
    QLineEdit* m_path;
    QComboBox* m_format;
    QLineEdit* m_name;
    QLineEdit* m_homes;
    QSpinBox* m_seed;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

/// The project's graphs: a list, and for the selected one its file, format, vertex and edge counts, how the
/// homes were chosen, whether its files changed on disk since the import (then its runs are stale), and its
/// degree distribution (vertices per power-of-two degree band, log-log). Buttons import, re-import and remove.
class GraphsPanel : public QWidget {
    Q_OBJECT
public:
    explicit GraphsPanel(document::ProjectDocument* document, QWidget* parent = nullptr);

    QListWidget* graphList() const { return m_list; }
    QLabel* details() const { return m_details; }
    QChartView* degreeChart() const { return m_chart; }
    /// The selected graph's name, or empty.
    QString currentGraph() const;
    /// Removes a graph as one undoable edit; returns an error text, empty on success.
    QString removeGraph(const QString& name);

Q_SIGNALS:
    void importRequested();
    /// Import the selected graph again with the same settings (its file changed on disk).
    void reimportRequested(const actions::GraphSource& request);
    void errorOccurred(const QString& title, const QString& message);

private:
    void rebuild();
    void showCurrent();

    document::ProjectDocument* m_document;
    QListWidget* m_list;
    QLabel* m_details;
    QChartView* m_chart;
    QPushButton* m_reimport;
    QPushButton* m_remove;
};

} // namespace meridian::workbench
