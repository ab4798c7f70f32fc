#include "app/mapping/ui/run_table_model.h"

#include <limits>

#include "app/report/report_numbers.h"

#include "widgets/heatmap_data.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace meridian::workbench {

namespace {

const QColor kStaleTint(255, 226, 190);

QVariant metricCell(const document::Run& run, const char* id, const char* unit, int role)
{
    const auto v = run.metric(id);
    if (!v)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("\u2014")) : QVariant();
    if (role == Qt::EditRole)
        return *v;
    return widgets::formatValue(*v, unit);
}

// "met", "over by 0.12 USD", or a dash without a budget.
QVariant budgetCell(const document::Run& run, int role)
{
    const auto over = run.metric("over_budget_usd");
    if (!over)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("\u2014")) : QVariant();
    if (role == Qt::EditRole)
        return *over;
    return *over > 0.0 ? QObject::tr("over by %1").arg(widgets::formatValue(*over, "USD")) : QObject::tr("met");
}

// "VA 16/16 · OR 8/16": processes per site of its slots, the sites with processes only; and how many sites are
// used (the sort key). A dash for a partition run.
std::pair<QString, int> perSite(const document::Run& run, const model::Topology& topology)
{
    if (run.kind != document::RunKind::Mapping || run.placement.processCount() == 0)
        return {QStringLiteral("\u2014"), -1};
    const auto load = run.placement.siteLoad(topology.siteCount());
    QStringList parts;
    for (int s = 0; s < topology.siteCount() && s < static_cast<int>(load.size()); ++s)
        if (load[s] > 0)
            parts << QString("%1 %2/%3")
                         .arg(QString::fromStdString(topology.site(s).name))
                         .arg(load[s])
                         .arg(topology.capacity(s));
    return {parts.join(QStringLiteral(" \u00b7 ")), static_cast<int>(parts.size())};
}

} // namespace

RunTableModel::RunTableModel(document::ProjectDocument* document, QObject* parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &document::ProjectDocument::runsChanged, this, &RunTableModel::refresh);
    refresh();
}

void RunTableModel::refresh()
{
    beginResetModel();
    m_runs = m_document->runs();
    m_stale.clear();
    m_perSite.clear();
    // Computed here, once per change: a cell is drawn and sorted on far more often, and reads every process.
    for (const auto& r : m_runs) {
        m_stale.push_back(m_document->isStale(*r));
        m_perSite.push_back(perSite(*r, m_document->project()->topology));
    }
    endResetModel();
}

int RunTableModel::rowOf(int runId) const
{
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i]->id == runId)
            return static_cast<int>(i);
    return -1;
}

int RunTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(m_runs.size()) || index.column() >= ColumnCount)
        return {};
    const auto& run = *m_runs[index.row()];
    const bool stale = m_stale[index.row()];
    if (role == RunIdRole)
        return run.id;
    if (role == SortRole) {
        const QVariant value = data(index, Qt::EditRole);
        return value.isValid() ? value : QVariant(std::numeric_limits<double>::infinity());
    }
    if (role == Qt::BackgroundRole)
        return stale ? QVariant(QBrush(kStaleTint)) : QVariant();
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(run.label());
        if (stale)
            tip += tr("\nStale: the project's inputs changed since this run; re-run it to update.");
        if (run.kind == document::RunKind::Partition) {
            if (const auto change = m_document->graphChangeOnDisk(run.application); !change.empty())
                tip += "\n" + QString::fromStdString(change) + ".";
            tip += tr("\nCost: transfer time of one GAS iteration (Geo-Cut eq. 1), profile %1.")
                       .arg(QString::fromStdString(run.profile));
        }
        for (const auto& n : run.notes)
            tip += "\n" + QString::fromStdString(n);
        return tip;
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Seed && index.column() <= Runtime ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                   : QVariant();
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const bool partition = run.kind == document::RunKind::Partition;
    switch (index.column()) {
    case Id:
        return run.id;
    case Algorithm:
        return QString::fromStdString(run.algorithm);
    case Application:
        // A what-if names its source run and what it changed there.
        if (run.derivedFrom > 0)
            return QStringLiteral("%1 (#%2 %3)")
                .arg(QString::fromStdString(run.application))
                .arg(run.derivedFrom)
                .arg(QString::fromStdString(run.derivation));
        return QString::fromStdString(run.application);
    case Parameters:
        return QString::fromStdString(run.params.toString());
    case Seed:
        return QVariant::fromValue<qulonglong>(run.seed);
    case Predicted:
        return metricCell(run, "predicted_s", "s", role);
    case Cost:
        return metricCell(run, partition ? "transfer_time_s" : "cost_s", "s", role);
    case Simulated:
        return metricCell(run, "simulated_s", "s", role);
    case Latency:
        return metricCell(run, "latency_s", "s", role);
    case Bandwidth:
        return metricCell(run, "bandwidth_s", "s", role);
    case WanUsd:
        return metricCell(run, "wan_usd", "USD", role);
    case WanBytes:
        return metricCell(run, "wan_bytes", "bytes", role);
    case CommTime:
        return metricCell(run, "comm_time_s", "s", role);
    case Replication:
        return metricCell(run, "replication_factor", "", role);
    case Budget:
        return budgetCell(run, role);
    case Runtime:
        return metricCell(run, "runtime_s", "s", role);
    case PerSite:
        if (m_perSite[index.row()].second < 0)
            return role == Qt::DisplayRole ? QVariant(m_perSite[index.row()].first) : QVariant();
        return role == Qt::EditRole ? QVariant(m_perSite[index.row()].second) : QVariant(m_perSite[index.row()].first);
    case Status:
        return stale ? tr("stale") : tr("current");
    default:
        return {};
    }
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section == PerSite)
        return tr("How many processes the run placed on each site, of its slots");
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section == Predicted)
        return tr("A mapping's predicted run time: SimGrid's SMPI replays the application's trace, or its matrices "
                  "as bulk-synchronous steps, on the project's platform. Runs are recommended by it.");
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section == Cost)
        return tr("SC17's eq. 3 for a mapping (every message's latency and transfer time added, as if one process "
                  "sent them all: a measure of total traffic, not a time); a partition's transfer time");
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section == Simulated)
        return tr("A mapping's communication time simulated with SimGrid, its links shared by the flows that cross "
                  "them (a dash: not simulated yet; select the run and press Simulate)");
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal)
        return {};
    static const char* names[] = {"Run",
                                  "Algorithm",
                                  "Input",
                                  "Parameters",
                                  "Seed",
                                  "Predicted",
                                  "Cost",
                                  "Simulated",
                                  "Latency part",
                                  "Bandwidth part",
                                  "WAN egress",
                                  "WAN bytes",
                                  "CommTime",
                                  "Repl. factor",
                                  "Budget",
                                  "Runtime",
                                  "Processes per site",
                                  "Status"};
    return section >= 0 && section < ColumnCount ? QVariant(tr(names[section])) : QVariant();
}

CompareTableModel::CompareTableModel(document::ProjectDocument* document, QObject* parent)
    : QAbstractTableModel(parent)
    , m_document(document)
{
    connect(document, &document::ProjectDocument::runsChanged, this, &CompareTableModel::refresh);
    refresh();
}

void CompareTableModel::setShow(Show show)
{
    beginResetModel();
    m_show = show;
    endResetModel();
}

void CompareTableModel::setBaseline(int runId)
{
    m_baseline = runId;
    refresh();
}

void CompareTableModel::refresh()
{
    beginResetModel();
    m_runs = m_document->runs();
    m_metrics.clear();
    m_labels.clear();
    m_units.clear();
    for (const auto& r : m_runs)
        for (const auto& m : r->metrics)
            if (std::find(m_metrics.begin(), m_metrics.end(), m.id) == m_metrics.end()) {
                m_metrics.push_back(m.id);
                m_labels.push_back(m.label);
                m_units.push_back(m.unit);
            }
    if (!m_document->run(m_baseline))
        m_baseline = m_runs.empty() ? -1 : m_runs.front()->id;
    endResetModel();
}

int CompareTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_metrics.size()) + 1;
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= static_cast<int>(m_runs.size())
        || index.column() > static_cast<int>(m_metrics.size()))
        return {};
    const auto& run = *m_runs[index.row()];
    if (role == RunIdRole)
        return run.id;
    if (role == Qt::FontRole && run.id == m_baseline) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    if (index.column() == 0)
        return role == Qt::DisplayRole || role == Qt::EditRole ? QVariant(QString::fromStdString(run.label()))
                                                               : QVariant();
    const auto base = m_document->run(m_baseline);
    const std::string& id = m_metrics[index.column() - 1];
    const auto v = run.metric(id);
    // The baseline's value, when the baseline maps the same application and reports the metric.
    double baseValue = 0.0;
    bool comparable = false;
    if (base && base->application == run.application)
        if (const auto b = base->metric(id)) {
            baseValue = *b;
            comparable = true;
        }
    if (role == Qt::ToolTipRole && v) {
        const QString unit = QString::fromStdString(m_units[index.column() - 1]);
        return tr("%1: %2 (baseline %3)")
            .arg(QString::fromStdString(m_labels[index.column() - 1]), report::formatQuantity(*v, unit),
                 comparable ? report::formatQuantity(baseValue, unit) : tr("not comparable: another application"));
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::EditRole)
        return {};
    const QString unit = QString::fromStdString(m_units[index.column() - 1]);
    if (m_show == Show::Values || (m_show == Show::Both && (!comparable || baseValue == 0))) {
        if (!v)
            return role == Qt::DisplayRole ? QVariant(QStringLiteral("\u2014")) : QVariant();
        return role == Qt::EditRole ? QVariant(*v) : QVariant(report::formatQuantity(*v, unit));
    }
    if (!v || !comparable || baseValue == 0)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("\u2014")) : QVariant();
    const double ratio = *v / baseValue;
    if (role == Qt::EditRole)
        return ratio;
    return m_show == Show::Both
        ? QVariant(QString("%1  (%2)").arg(report::formatQuantity(*v, unit), QString::number(ratio, 'f', 3)))
        : QVariant(QString::number(ratio, 'f', 3));
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    if (section == 0)
        return tr("Run");
    if (section - 1 < static_cast<int>(m_labels.size()))
        return QString::fromStdString(m_labels[section - 1]);
    return {};
}

} // namespace meridian::workbench
