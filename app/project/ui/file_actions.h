#pragma once

#include "app/project/project_imports.h"
#include "app/project/run.h"
#include "app/project/ui/project_document.h"
#include "core/common/expected.h"
#include "core/io/launcher_files.h"
#include "widgets/heatmap_data.h"

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>

class QPainter;

namespace meridian::actions {

/// Imports sites from a CSV or GeoJSON file (chosen by suffix: .geojson/.json, else CSV) into the
/// document as one undoable edit. Sites whose names match keep their network entries. On error (with
/// file and line) the document is unchanged.
Status importSites(document::ProjectDocument& document, const QString& path);

/// Imports a latency (ms) or bandwidth (MB/s) matrix (CSV with site names, or Matrix Market in site order)
/// as one undoable edit that replaces that quantity: the file's entries become measured, the rest estimated.
Status importNetworkMatrix(document::ProjectDocument& document, model::NetworkQuantity quantity, const QString& path);
/// Imports an application from its files (volume, optional message counts and pins) as one undoable edit.
Status importApplication(document::ProjectDocument& document, const std::string& name,
                         const document::ApplicationFiles& files);
/// Replaces the hosts of the sites a hosts CSV (host,site[,slots]) names, as one undoable edit: the host
/// names a rankfile will carry. Pins must still fit.
Status importHosts(document::ProjectDocument& document, const QString& path);
/// Replaces the pins of an application by a pins CSV (process,site) as one undoable edit.
Status importPins(document::ProjectDocument& document, const std::string& application, const QString& path);

/// Reads a mapping CSV for an application and lands it as a run (algorithm "imported"), measured like
/// any other run; on error nothing changes. A site-level mapping (process,site) is completed to hosts and
/// slots as the mappers complete theirs, so it can be exported to a launcher.
Status importMapping(document::ProjectDocument& document, const std::string& application, const QString& path);

/// Writes a run's placement as an Open MPI rankfile, an MPICH/Intel machinefile or a Slurm hostfile; returns how
/// to launch it (the launch line, what its slots mean, the placeholder hosts it names).
Expected<io::LaunchAdvice> exportLauncher(const document::Run& run, const document::Project& project,
                                          io::LauncherFormat format, const QString& path);
/// Writes a run's placement as a mapping CSV (process,site,host,slot).
Status exportMappingCsv(const document::Run& run, const document::Project& project, const QString& path);

/// Saves an image; the format follows the suffix (PNG unless told otherwise). Atomic.
Status saveImage(const QImage& image, const QString& path);
/// Saves a drawing as SVG: `draw` paints into a rectangle of `size`. Atomic.
Status saveSvg(const QString& path, const QSize& size, const QString& title,
               const std::function<void(QPainter&, const QRect&)>& draw);
/// Saves a drawing as PNG or SVG by the path's suffix (PNG when it is neither).
Status saveDrawing(const QString& path, const QSize& size, const QString& title,
                   const std::function<void(QPainter&, const QRect&)>& draw);
/// Saves a heatmap's matrix as CSV (writeHeatmapCsv). Atomic.
Status saveHeatmapCsv(const widgets::HeatmapData& data, const QString& path);

/// Attaches a time-independent trace (a list PREFIX.ti or a merged trace, checked against the application's
/// matrix) to application `application` of the document, or detaches it when `path` is empty, as one undoable edit.
Status attachTrace(document::ProjectDocument& document, int application, const QString& path);

} // namespace meridian::actions
