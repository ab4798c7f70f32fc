#pragma once

#include "app/capture/probe_run.h"
#include "app/capture/ui/capture_actions.h"
#include "app/project/ui/workbench_feature.h"

#include <QString>

#include <functional>
#include <string>

class QAction;

namespace meridian::workbench {

class CaptureDialog;
class MeasureNetworkDialog;
class NetpipeLinkDialog;

/// The application name a capture file suggests: its name up to the first dot, or for an EZTrace OTF2 archive
/// (NAME_trace/eztrace_log.otf2) the program's name.
std::string captureBaseName(const QString& path);

/// Capture and measurement in the workbench: applications from captures (File > Import > Application from a
/// Capture, Run > Capture Application) and the network from meridian-probe and NetPIPE (File > Import > Network
/// Measurement, Link from NetPIPE; Run > Measure Network). Each import is one undoable edit and shows what it added.
class CaptureFeature : public WorkbenchFeature {
public:
    CaptureFeature(WorkbenchShell& shell, QObject* parent);

    std::vector<Entry> entries() const override;

    /// Adds an application from a capture (Meridian's PREFIX.volume.mtx, an Open MPI NAME.RANK.prof or an
    /// OTF2 NAME.otf2) as one undoable edit; an error is shown and returned.
    bool importCapture(const QString& path, const std::string& name);
    /// Opens Run > Capture Application (non-modal; it deletes itself when closed): when accepted, the
    /// command runs with the tracer as a background job and its capture becomes an application.
    CaptureDialog* startCaptureDialog();
    /// Starts a capture job without the dialog (what the dialog's Run does); returns the job id.
    int startCapture(const actions::CaptureRequest& request);
    /// Imports a meridian-probe result (its prefix or any of its files) into the network as one undoable edit;
    /// an error is shown and returned.
    bool importProbe(const QString& path);
    /// Opens File > Import > Link from NetPIPE (non-modal; deletes itself when closed); nullptr without sites.
    NetpipeLinkDialog* startNetpipeDialog();
    /// Opens Run > Measure Network (non-modal; deletes itself when closed): when accepted, meridian-probe runs
    /// as a background job and its results are imported. nullptr without sites.
    MeasureNetworkDialog* startMeasureNetworkDialog();
    /// Starts a probe job without the dialog (what the dialog's Measure does); returns the job id.
    int startProbe(const capture::ProbeRequest& request);

private:
    void importCaptureWithDialog();
    void importProbeWithDialog();
    /// Shows the application an import or a capture added (the last one) in the Applications tab.
    void showAddedApplication();
    QAction* action(const QString& text, const char* name, const std::function<void()>& triggered);

    WorkbenchShell& m_shell;
    std::vector<Entry> m_entries;
};

} // namespace meridian::workbench
