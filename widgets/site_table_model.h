#pragma once

#include "core/model/topology.h"

#include <QAbstractTableModel>

namespace meridian::widgets {

/// Presents the sites of a topology as a table: name, latitude, longitude, hosts, slots, uplink and
/// downlink (MB/s) and egress price (USD/GB). Read-only; numbers are exposed as doubles for sorting
/// (Qt::EditRole) and formatted with units for display.
class SiteTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Latitude, Longitude, Hosts, Slots, Uplink, Downlink, Egress, ColumnCount };

    explicit SiteTableModel(QObject* parent = nullptr);

    /// Replaces the topology shown (the model keeps its own copy).
    void setTopology(const model::Topology& topology);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    model::Topology m_topology;
};

} // namespace meridian::widgets
