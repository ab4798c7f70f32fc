#include "widgets/site_table_model.h"

#include <cmath>

namespace meridian::widgets {

namespace {

QString editText(const QVariant& value)
{
    if (value.typeId() == QMetaType::Double)
        return QString::number(value.toDouble(), 'g', 17);
    return value.toString();
}

} // namespace

TopologyTableModel::TopologyTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{}

void TopologyTableModel::setTopology(const model::Topology& topology)
{
    if (rowsOf(topology) != rowsOf(m_topology)) {
        beginResetModel();
        m_topology = topology;
        endResetModel();
        return;
    }
    m_topology = topology;
    if (rowsOf(m_topology) > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowsOf(m_topology) - 1, columns() - 1));
}

int TopologyTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : rowsOf(m_topology); }

int TopologyTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : columns(); }

Qt::ItemFlags TopologyTableModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (m_editor && isEditableColumn(index.column()))
        f |= Qt::ItemIsEditable;
    return f;
}

bool TopologyTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || !m_editor || !isEditableColumn(index.column()))
        return false;
    const QString error = m_editor(index.row(), index.column(), editText(value));
    if (!error.isEmpty()) {
        Q_EMIT editRejected(error);
        return false;
    }
    return true;
}

SiteTableModel::SiteTableModel(QObject* parent)
    : TopologyTableModel(parent)
{}

QVariant SiteTableModel::data(const QModelIndex& index, int role) const
{
    const auto& topo = topology();
    if (!index.isValid() || index.row() >= topo.siteCount() || index.column() >= ColumnCount)
        return {};
    const auto& site = topo.site(index.row());
    const auto number = [&](double v, const char* unit, int decimals) -> QVariant {
        if (role == Qt::EditRole)
            return std::isnan(v) ? QVariant(QString()) : QVariant(v);
        return std::isnan(v) ? QStringLiteral("\u2014") : QString("%1 %2").arg(v, 0, 'f', decimals).arg(unit);
    };
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole)
        return {};
    const int hosts = topo.hostCountOf(index.row());
    const int firstSlots = hosts > 0 ? topo.host(topo.firstHost(index.row())).slots : 0;
    switch (index.column()) {
    case Name:
        return QString::fromStdString(site.name);
    case Latitude:
        return role == Qt::EditRole ? QVariant(site.latitude)
                                    : QVariant(QString::number(site.latitude, 'f', 3) + "\u00b0");
    case Longitude:
        return role == Qt::EditRole ? QVariant(site.longitude)
                                    : QVariant(QString::number(site.longitude, 'f', 3) + "\u00b0");
    case Nodes:
        return hosts;
    case SlotsPerNode:
        return firstSlots;
    case Slots:
        return topo.capacity(index.row());
    case Uplink:
        return number(site.uplinkMBps, "MB/s", 0);
    case Downlink:
        return number(site.downlinkMBps, "MB/s", 0);
    case Egress:
        return number(site.egressUsdPerGB, "USD/GB", 3);
    case InstancePrice:
        return number(site.instanceUsdPerHour, "USD/h", 3);
    default:
        return {};
    }
}

QVariant SiteTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Vertical)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    static const char* names[] = {"Site",  "Latitude", "Longitude", "Nodes",  "Slots/node",
                                  "Slots", "Uplink",   "Downlink",  "Egress", "Instance price"};
    static const char* tips[] = {"Site name (unique)",
                                 "Latitude in degrees (WGS84)",
                                 "Longitude in degrees (WGS84)",
                                 "Number of hosts; changing it recreates the site's hosts with default names",
                                 "Slots (MPI processes) per host",
                                 "Total slots of the site",
                                 "Uplink bandwidth out of the site, MB/s (empty: unknown)",
                                 "Downlink bandwidth into the site, MB/s (empty: unknown)",
                                 "WAN egress price, USD per GB uploaded (empty: unknown)",
                                 "What one node (instance) costs, USD per hour (empty: unknown)"};
    if (section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

HostTableModel::HostTableModel(QObject* parent)
    : TopologyTableModel(parent)
{}

QVariant HostTableModel::data(const QModelIndex& index, int role) const
{
    const auto& topo = topology();
    if (!index.isValid() || index.row() >= topo.hostCount() || index.column() >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == Slots ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                       : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const auto& host = topo.host(index.row());
    switch (index.column()) {
    case Name:
        return QString::fromStdString(host.name);
    case Site:
        return QString::fromStdString(topo.site(topo.siteOfHost(index.row())).name);
    case Slots:
        return host.slots;
    default:
        return {};
    }
}

QVariant HostTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    static const char* names[] = {"Host", "Site", "Slots"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(names[section])) : QVariant();
}

} // namespace meridian::widgets
