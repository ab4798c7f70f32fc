#include "app/simulation/ui/simulation_details_dialog.h"

#include "widgets/heatmap_data.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace meridian::workbench {

namespace {

/// A cell shown as text and sorted by its number (NaN, shown as a dash, sorts first).
class NumberItem final : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value)
        : QTableWidgetItem(text)
        , m_value(value)
    {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setData(Qt::UserRole, value);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        const double v = other.data(Qt::UserRole).toDouble();
        if (std::isnan(m_value) || std::isnan(v))
            return std::isnan(m_value) && !std::isnan(v);
        return m_value < v;
    }

private:
    double m_value;
};

QString percent(double share) { return QString::number(100.0 * share, 'f', 1) + " %"; }

QString siteName(const document::Project& project, int site)
{
    return site >= 0 && site < project.topology.siteCount() ? QString::fromStdString(project.topology.site(site).name)
                                                            : QString::number(site);
}

} // namespace

QString SimulationDetailsDialog::linkName(const ops::LinkComparison& link, const document::Project& project)
{
    if (link.from >= 0 && link.to < 0)
        return tr("%1 uplink").arg(siteName(project, link.from));
    if (link.from < 0)
        return tr("%1 downlink").arg(siteName(project, link.to));
    if (link.from == link.to)
        return tr("inside %1").arg(siteName(project, link.from));
    return tr("%1 \u2192 %2").arg(siteName(project, link.from), siteName(project, link.to));
}

QString SimulationDetailsDialog::summaryText(const ops::SimulationComparison& c, const document::Project& project)
{
    QString text = tr("Alpha-beta cost <b>%1</b> (every pair's time added up, as if each had a private link); "
                      "simulated iteration <b>%2</b> (transfers overlap and share links).")
                       .arg(widgets::formatValue(c.alphaBetaSeconds, "s"),
                            widgets::formatValue(c.simulatedSeconds, "s"));
    const ops::LinkComparison* costliest = c.costliest >= 0 ? &c.links[static_cast<std::size_t>(c.costliest)] : nullptr;
    const ops::LinkComparison* busiest = c.busiest >= 0 ? &c.links[static_cast<std::size_t>(c.busiest)] : nullptr;
    if (costliest)
        text += "<br>"
            + tr("Alpha-beta puts the most time on <b>%1</b>: %2, %3 of its cost.")
                  .arg(linkName(*costliest, project), widgets::formatValue(costliest->alphaBetaSeconds, "s"),
                       percent(c.alphaBetaSeconds > 0.0 ? costliest->alphaBetaSeconds / c.alphaBetaSeconds : 0.0));
    if (busiest)
        text += "<br>"
            + tr("The simulation's busiest link is <b>%1</b>: busy %2 of the iteration, utilisation %3.")
                  .arg(linkName(*busiest, project), percent(busiest->busyFraction), percent(busiest->utilisation));
    if (costliest && busiest) {
        if (costliest == busiest)
            text += "<br>" + tr("They agree on where the time goes.");
        else if (busiest->from < 0 || busiest->to < 0)
            text += "<br>"
                + tr("<b>They disagree</b>: the busiest link is shared by a site's flows, which the alpha-beta cost "
                     "does not model; refine's bottleneck objective minimises it.");
        else
            text += "<br>" + tr("<b>They disagree</b> on where the time goes.");
    }
    return text;
}

SimulationDetailsDialog::SimulationDetailsDialog(const document::Run& run, const ops::SimulationComparison& c,
                                                 const document::Project& project, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Alpha-beta and simulation: %1").arg(QString::fromStdString(run.label())));
    auto* layout = new QVBoxLayout(this);
    m_summary = new QLabel(summaryText(c, project), this);
    m_summary->setObjectName("simulationSummary");
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    layout->addWidget(m_summary);

    m_table = new QTableWidget(static_cast<int>(c.links.size()), ColumnCount, this);
    m_table->setObjectName("simulationLinks");
    m_table->setHorizontalHeaderLabels({tr("Link"), tr("Bytes"), tr("Alpha-beta"), tr("Of the cost"),
                                        tr("Simulated busy"), tr("Busy"), tr("Utilisation")});
    const QString headerTips[] = {
        tr("A site pair's link, a site's uplink or downlink, or the inside of a site"),
        tr("Bytes per iteration over the link"),
        tr("The pair's part of the alpha-beta cost; uplinks and downlinks have none (alpha-beta gives each pair a "
           "private link)"),
        tr("The pair's share of the alpha-beta cost"),
        tr("Seconds of the simulated iteration with a transfer under way on the link"),
        tr("Share of the simulated iteration with a transfer under way on the link"),
        tr("Bytes over bandwidth x the simulated iteration")};
    for (int col = 0; col < ColumnCount; ++col)
        m_table->horizontalHeaderItem(col)->setToolTip(headerTips[col]);
    const double nan = std::nan("");
    const QString dash = QStringLiteral("\u2014");
    for (int row = 0; row < static_cast<int>(c.links.size()); ++row) {
        const ops::LinkComparison& l = c.links[static_cast<std::size_t>(row)];
        const bool access = l.from < 0 || l.to < 0;
        auto* name = new QTableWidgetItem(linkName(l, project));
        if (!l.simulated)
            name->setToolTip(tr("The simulation's links inside a site (per host) are not kept with the run"));
        m_table->setItem(row, Link, name);
        m_table->setItem(row, Bytes, new NumberItem(widgets::formatValue(l.bytes, "bytes"), l.bytes));
        m_table->setItem(row, AlphaBeta,
                         access ? new NumberItem(dash, nan)
                                : new NumberItem(widgets::formatValue(l.alphaBetaSeconds, "s"), l.alphaBetaSeconds));
        const double share = c.alphaBetaSeconds > 0.0 ? l.alphaBetaSeconds / c.alphaBetaSeconds : 0.0;
        m_table->setItem(row, AlphaBetaShare,
                         access ? new NumberItem(dash, nan) : new NumberItem(percent(share), share));
        m_table->setItem(row, Busy,
                         l.simulated ? new NumberItem(widgets::formatValue(l.busySeconds, "s"), l.busySeconds)
                                     : new NumberItem(dash, nan));
        m_table->setItem(row, BusyFraction,
                         l.simulated ? new NumberItem(percent(l.busyFraction), l.busyFraction)
                                     : new NumberItem(dash, nan));
        m_table->setItem(row, Utilisation,
                         l.simulated ? new NumberItem(percent(l.utilisation), l.utilisation)
                                     : new NumberItem(dash, nan));
    }
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(Utilisation, Qt::DescendingOrder);
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(820, 480);
}

} // namespace meridian::workbench
