#pragma once

#include "app/project/ui/project_document.h"

#include <QWidget>

#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QTableWidget;

namespace meridian::workbench {

/// The network as tables a user can type or paste into: latency (ms) or bandwidth (MB/s) between every
/// pair of sites, row = from, column = to. Measured entries are plain, edited ones bold, estimated ones
/// grey italics (with the distance model under the table). A measured entry's tooltip gives its date and age;
/// entries measured over kOldMeasurementDays ago are shaded, and the note under the table says when the
/// network was measured. Editing a cell asks whether the value holds for
/// both directions; pasting a tab-separated block from a spreadsheet (Ctrl+V, or the Paste button) sets
/// every cell it covers as one undoable edit; Import reads a whole matrix from a file.
class NetworkPanel : public QWidget {
    Q_OBJECT
public:
    explicit NetworkPanel(document::ProjectDocument* document, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    QComboBox* quantityChooser() const { return m_quantity; }
    model::NetworkQuantity quantity() const;
    void setQuantity(model::NetworkQuantity quantity);

    /// Sets one cell as the user would; `bothDirections` answers the question instead of a dialog.
    QString editCell(int row, int column, const QString& text, std::optional<bool> bothDirections = std::nullopt);
    /// Pastes tab-separated text (rows on lines) with its top-left cell at (row, column); one undoable edit.
    QString paste(int row, int column, const QString& text);
    /// Replaces the dialog that asks "both directions?" (for tests): returns true for both, false for one,
    /// nullopt to cancel.
    void setDirectionQuestion(std::function<std::optional<bool>(const QString&)> ask) { m_ask = std::move(ask); }

Q_SIGNALS:
    void errorOccurred(const QString& title, const QString& message);
    void importRequested(model::NetworkQuantity quantity);

private:
    void rebuild();
    void pasteFromClipboard();

    document::ProjectDocument* m_document;
    QComboBox* m_quantity = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_note = nullptr;
    bool m_rebuilding = false;
    std::function<std::optional<bool>(const QString&)> m_ask;
};

} // namespace meridian::workbench
