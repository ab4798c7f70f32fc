#pragma once

#include "app/project/ui/project_document.h"

#include <QString>

namespace meridian::workbench {

/// Explains one run as rich text for the runs panel's details pane: what was asked (algorithm, parameters, seed),
/// what it reports (every metric, the mapper's runtime), how full each site is, the mapper's notes (its stages and
/// what it decided) and, for a mapping run, where the time goes: the costliest site pairs with their bytes, share
/// of the cost and egress charge.
QString runExplanationHtml(const document::ProjectDocument& document, const document::Run& run);

} // namespace meridian::workbench
