#include "app/collectives/ui/collectives_feature.h"

#include "app/collectives/ui/collectives_panel.h"

namespace meridian::workbench {

CollectivesFeature::CollectivesFeature(WorkbenchShell& shell, QObject* parent)
    : WorkbenchFeature(parent)
{
    m_panel = new CollectivesPanel(shell.document(), shell.jobRunner(), shell.shellWindow());
    connect(m_panel, &CollectivesPanel::errorOccurred, this,
            [&shell](const QString& title, const QString& message) { shell.showError(title, message); });
}

std::vector<WorkbenchFeature::Tab> CollectivesFeature::tabs() const
{
    return {{80, m_panel, tr("Collectives"),
             tr("Collectives: which algorithm of a collective operation is fastest on the selected run's network."),
             tr("<b>Collectives</b><p>Ranks broadcast, allreduce and the other collectives' algorithms for the "
                "selected mapping run, by message size, and exports Open MPI's tuned rules.</p>")}};
}

} // namespace meridian::workbench
