#pragma once

#include "app/project/ui/project_document.h"

#include <QAbstractTableModel>
#include <QString>

#include <utility>
#include <vector>

namespace meridian::workbench {

/// The run list as a table: id, algorithm, input (application or graph), parameters, seed, the cost (a
/// mapping's alpha-beta cost, a partition's transfer time per GAS iteration), a mapping's simulated time (SimGrid),
/// the cost's parts, WAN dollars and
/// bytes, CloudMap's CommTime, a partition's replication factor and budget status, runtime and whether the
/// run is stale (its inputs changed since; such rows are tinted and say so). Numbers are doubles under
/// Qt::EditRole for sorting. Read-only; follows the document.
class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Id,
        Algorithm,
        Application,
        Parameters,
        Seed,
        Predicted,
        Cost,
        Simulated,
        Latency,
        Bandwidth,
        WanUsd,
        WanBytes,
        CommTime,
        Replication,
        Budget,
        Runtime,
        PerSite,
        Status,
        ColumnCount
    };
    static constexpr int RunIdRole = Qt::UserRole + 1;
    /// The sort key: Qt::EditRole's value, with a missing number last in ascending order (+infinity).
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit RunTableModel(document::ProjectDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// Returns the row of a run id, or -1.
    int rowOf(int runId) const;

private:
    void refresh();
    document::ProjectDocument* m_document;
    std::vector<std::shared_ptr<const document::Run>> m_runs;
    std::vector<bool> m_stale;
    std::vector<std::pair<QString, int>> m_perSite; ///< each row's processes per site, and the sites used
};

/// The runs normalised to a baseline run: each metric of each run divided by the baseline's, so the
/// baseline reads 1 and a smaller number is better for costs and times. Runs on another application
/// than the baseline's are compared to the same algorithm-free baseline value only when they share
/// the application; otherwise their cells are empty.
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int RunIdRole = Qt::UserRole + 1;
    /// The sort key: Qt::EditRole's value, with a missing number last in ascending order (+infinity).
    static constexpr int SortRole = Qt::UserRole + 2;

    explicit CompareTableModel(document::ProjectDocument* document, QObject* parent = nullptr);

    /// What a metric cell shows: the ratio to the baseline's value, the value itself with its unit, or both.
    enum class Show { Ratios, Values, Both };

    void setBaseline(int runId);
    int baseline() const { return m_baseline; }
    void setShow(Show show);
    Show show() const { return m_show; }
    /// The metric ids shown as columns (after the run column), in order.
    const std::vector<std::string>& metricIds() const { return m_metrics; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void refresh();
    document::ProjectDocument* m_document;
    std::vector<std::shared_ptr<const document::Run>> m_runs;
    std::vector<std::string> m_metrics;
    std::vector<std::string> m_labels;
    std::vector<std::string> m_units;
    int m_baseline = -1;
    Show m_show = Show::Both;
};

} // namespace meridian::workbench
