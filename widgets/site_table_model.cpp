#include "widgets/site_table_model.h"

#include <cmath>

namespace meridian::widgets {

SiteTableModel::SiteTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SiteTableModel::setTopology(const model::Topology& topology)
{
    beginResetModel();
    m_topology = topology;
    endResetModel();
}

int SiteTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_topology.siteCount(); }

int SiteTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SiteTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_topology.siteCount() || index.column() >= ColumnCount)
        return {};
    const auto& site = m_topology.site(index.row());
    const auto number = [&](double v, const char* unit, int decimals) -> QVariant {
        if (role == Qt::EditRole)
            return std::isnan(v) ? QVariant() : QVariant(v);
        return std::isnan(v) ? QStringLiteral("\u2014") : QString("%1 %2").arg(v, 0, 'f', decimals).arg(unit);
    };
    if (role == Qt::TextAlignmentRole)
        return index.column() == Name ? QVariant(Qt::AlignLeft | Qt::AlignVCenter) : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name: return QString::fromStdString(site.name);
    case Latitude: return role == Qt::EditRole ? QVariant(site.latitude) : QVariant(QString::number(site.latitude, 'f', 3) + "\u00b0");
    case Longitude: return role == Qt::EditRole ? QVariant(site.longitude) : QVariant(QString::number(site.longitude, 'f', 3) + "\u00b0");
    case Hosts: return m_topology.hostCountOf(index.row());
    case Slots: return m_topology.capacity(index.row());
    case Uplink: return number(site.uplinkMBps, "MB/s", 0);
    case Downlink: return number(site.downlinkMBps, "MB/s", 0);
    case Egress: return number(site.egressUsdPerGB, "USD/GB", 3);
    default: return {};
    }
}

QVariant SiteTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section + 1;
    static const char* names[] = {"Site", "Latitude", "Longitude", "Hosts", "Slots", "Uplink", "Downlink", "Egress"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(names[section])) : QVariant();
}

} // namespace meridian::widgets
