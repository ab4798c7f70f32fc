#pragma once

#include "core/model/topology.h"

#include <QAbstractTableModel>

#include <functional>

namespace meridian::widgets {

/// Applies an edit typed into a table cell and returns an error message, or an empty string when the
/// edit was accepted. The owner (the document) applies it as an undoable command and then hands the
/// model the new data, so the model never changes its own copy.
using CellEditor = std::function<QString(int row, int column, const QString& text)>;

/// Presents the sites of a topology as a table: name, latitude, longitude, nodes, slots per node, total
/// slots, uplink and downlink (MB/s) and egress price (USD/GB). Numbers are doubles under Qt::EditRole
/// (for sorting and editing) and formatted with units for display; an unknown quantity is "—".
/// Editable when an editor is set (every column but the total slots); a rejected edit is reported through
/// editRejected and leaves the data as it was.
class SiteTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Latitude, Longitude, Nodes, SlotsPerNode, Slots, Uplink, Downlink, Egress, ColumnCount };

    explicit SiteTableModel(QObject* parent = nullptr);

    /// Replaces the topology shown (the model keeps its own copy). Keeps the views' selection when the
    /// number of sites is unchanged.
    void setTopology(const model::Topology& topology);
    void setEditor(CellEditor editor) { m_editor = std::move(editor); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

Q_SIGNALS:
    void editRejected(const QString& message);

private:
    model::Topology m_topology;
    CellEditor m_editor;
};

/// Presents every host of a topology: name, site and slots. Name and slots are editable through the
/// editor, as in SiteTableModel.
class HostTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Site, Slots, ColumnCount };

    explicit HostTableModel(QObject* parent = nullptr);
    void setTopology(const model::Topology& topology);
    void setEditor(CellEditor editor) { m_editor = std::move(editor); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

Q_SIGNALS:
    void editRejected(const QString& message);

private:
    model::Topology m_topology;
    CellEditor m_editor;
};

} // namespace meridian::widgets
