#pragma once

#include "app/project/ui/project_document.h"

class QChart;

namespace meridian::workbench {

/// Geo-Cut's Figs. 5-8 for one graph: per partitioner, the mean transfer time and WAN cost of its current runs,
/// each divided by hash's mean (hash reads 1; lower is better). Without a current hash run the values are
/// divided by the largest mean instead, and the axis says so. An empty graph name leaves a hint.
void fillPartitionBars(QChart* chart, const document::ProjectDocument& document, const std::string& graph);

/// Geo-Cut's Table 10 for one partition run: each site's share of the iteration's WAN upload and download, with
/// the site whose link sets the transfer time named in the title. A null run leaves a hint.
void fillSiteShares(QChart* chart, const document::Run* run, const model::Topology& topology);

} // namespace meridian::workbench
