#pragma once

#include "app/project/ui/project_document.h"
#include "widgets/heatmap_data.h"

namespace meridian::workbench {

/// What a matrix heatmap shows.
enum class MatrixSource { Latency, Bandwidth, Volume, Messages, AverageSize, RunTraffic, RunTime };
/// How an application's processes are laid out: as numbered, reordered by the current run's sites (with group
/// lines), or summed by site or host of that run.
enum class MatrixArrangement { AsIs, ReorderBySite, AggregateBySite, AggregateByHost };

/// The heatmap data of a source of the document, for the matrix panel and for reports (no widget involved).
/// Network matrices carry each cell's provenance as a note; an application's volume is marked with its pins.
/// `application` indexes the project's applications (Volume, Messages, AverageSize); the run sources and
/// the arrangements use the document's current run. An empty HeatmapData when there is nothing to show.
widgets::HeatmapData matrixHeatmapData(const document::ProjectDocument& document, MatrixSource source, int application,
                                       MatrixArrangement arrangement);

} // namespace meridian::workbench
