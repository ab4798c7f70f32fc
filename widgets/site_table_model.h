#pragma once

#include "core/model/topology.h"

#include <QAbstractTableModel>

#include <functional>

namespace meridian::widgets {

/// Applies an edit typed into a table cell and returns an error message, or an empty string when the
/// edit was accepted. The owner (the document) applies it as an undoable command and then hands the
/// model the new data, so the model never changes its own copy.
using CellEditor = std::function<QString(int row, int column, const QString& text)>;

/// What the site and host tables share: a copy of a topology, replaced as a whole (a reset when the
/// row count changes, otherwise one dataChanged so that views keep their selection), and edits passed
/// to a CellEditor. Without an editor the table is read-only; a rejected edit is reported through
/// editRejected and leaves the data as it was.
class TopologyTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    explicit TopologyTableModel(QObject* parent = nullptr);

    /// Replaces the topology shown (the model keeps its own copy).
    void setTopology(const model::Topology& topology);
    void setEditor(CellEditor editor) { m_editor = std::move(editor); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

Q_SIGNALS:
    void editRejected(const QString& message);

protected:
    /// Returns the number of rows a topology gives (sites or hosts).
    virtual int rowsOf(const model::Topology& topology) const = 0;
    virtual int columns() const = 0;
    /// Returns true for the columns an editor may change.
    virtual bool isEditableColumn(int column) const = 0;
    const model::Topology& topology() const { return m_topology; }

private:
    model::Topology m_topology;
    CellEditor m_editor;
};

/// Presents the sites of a topology as a table: name, latitude, longitude, nodes, slots per node, total
/// slots, uplink and downlink (MB/s) and egress price (USD/GB). Numbers are doubles under Qt::EditRole
/// (for sorting and editing) and formatted with units for display; an unknown quantity is "—" and
/// edits as an empty field. Every column but the total slots is editable when an editor is set.
class SiteTableModel : public TopologyTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Latitude,
        Longitude,
        Nodes,
        SlotsPerNode,
        Slots,
        Uplink,
        Downlink,
        Egress,
        InstancePrice,
        ColumnCount
    };

    explicit SiteTableModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    int rowsOf(const model::Topology& topology) const override { return topology.siteCount(); }
    int columns() const override { return ColumnCount; }
    bool isEditableColumn(int column) const override { return column != Slots; }
};

/// Presents every host of a topology: name, site and slots. Name and slots are editable.
class HostTableModel : public TopologyTableModel {
    Q_OBJECT
public:
    enum Column { Name, Site, Slots, ColumnCount };

    explicit HostTableModel(QObject* parent = nullptr);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    int rowsOf(const model::Topology& topology) const override { return topology.hostCount(); }
    int columns() const override { return ColumnCount; }
    bool isEditableColumn(int column) const override { return column != Site; }
};

} // namespace meridian::widgets
