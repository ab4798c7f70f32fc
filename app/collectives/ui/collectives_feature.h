#pragma once

#include "app/project/ui/workbench_feature.h"

namespace meridian::workbench {

class CollectivesPanel;

/// Collectives in the workbench: the Collectives tab (the selected mapping run's collective plan, its charts and
/// its coll_tuned rules).
class CollectivesFeature : public WorkbenchFeature {
public:
    CollectivesFeature(WorkbenchShell& shell, QObject* parent);

    std::vector<Tab> tabs() const override;
    CollectivesPanel* panel() const { return m_panel; }

private:
    CollectivesPanel* m_panel = nullptr;
};

} // namespace meridian::workbench
