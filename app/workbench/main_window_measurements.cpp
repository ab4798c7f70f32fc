// MainWindow's measurement entries: applications from captures (File > Import > Application from a Capture,
#include "widgets/file_dialogs.h"
// Run > Capture Application) and the network from meridian-probe and NetPIPE (File > Import > Network
// Measurement, Link from NetPIPE; Run > Measure Network). The rest of MainWindow is in main_window.cpp.

#include "app/capture/ui/capture_actions.h"
#include "app/capture/ui/capture_dialog.h"
#include "app/capture/ui/network_actions.h"
#include "app/capture/ui/network_measurement_dialogs.h"
#include "app/project/project_edits.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/network_panel.h"
#include "app/workbench/main_window.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QStatusBar>
#include <QTabWidget>

namespace meridian::workbench {

std::string captureBaseName(const QString& path)
{
    // EZTrace writes NAME_trace/eztrace_log.otf2: the folder names the program.
    if (path.endsWith(".otf2"))
        return QFileInfo(QFileInfo(path).absolutePath()).fileName().remove("_trace").toStdString();
    return QFileInfo(path).fileName().section('.', 0, 0).toStdString();
}

bool MainWindow::importCapture(const QString& path, const std::string& name)
{
    if (auto s = actions::importCapturedApplication(*m_document, name, path); !s) {
        showError(tr("Cannot import the capture"), QString::fromStdString(s.error().toString()));
        return false;
    }
    m_tabs->setCurrentWidget(m_applicationsPanel);
    m_applicationsPanel->setCurrentApplication(static_cast<int>(m_document->project()->applications.size()) - 1);
    statusBar()->showMessage(tr("Imported the captured application %1").arg(QString::fromStdString(name)), 8000);
    return true;
}

void MainWindow::importCaptureWithDialog()
{
    const QString path = widgets::openFileName(
        this, tr("Import an application from a capture"),
        tr("Captures (*.volume.mtx *.prof *.otf2);;meridian-cli capture (*.volume.mtx);;"
           "Open MPI monitoring, any rank's file (*.prof);;OTF2 trace (*.otf2);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString base = QString::fromStdString(captureBaseName(path));
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Import a capture"), tr("Application name:"), QLineEdit::Normal,
                                               QString::fromStdString(
                                                   document::unusedApplicationName(*m_document->project(),
                                                                                   base.toStdString())),
                                               &ok);
    if (ok && !name.trimmed().isEmpty())
        importCapture(path, name.trimmed().toStdString());
}

CaptureDialog* MainWindow::startCaptureDialog()
{
    auto* dialog = new CaptureDialog(QFileInfo(m_document->path()).absolutePath(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startCapture(dialog->request()); });
    dialog->open();
    return dialog;
}

int MainWindow::startCapture(const actions::CaptureRequest& request)
{
    statusBar()->showMessage(tr("Capturing %1 in the background (see the Jobs panel)").arg(request.command.join(' ')),
                             8000);
    const QString name = QString::fromStdString(request.name);
    return actions::startCapture(
        *m_runner, *m_document, request,
        [this](const QString& message) { showError(tr("The capture failed"), message); },
        [this, name] {
            m_tabs->setCurrentWidget(m_applicationsPanel);
            m_applicationsPanel->setCurrentApplication(static_cast<int>(m_document->project()->applications.size())
                                                       - 1); // withApplication appends
            statusBar()->showMessage(tr("Captured the application %1").arg(name), 15000);
        });
}

bool MainWindow::importProbe(const QString& path)
{
    auto imported = actions::importProbeResults(*m_document, path);
    if (!imported) {
        showError(tr("Cannot import the network measurement"), QString::fromStdString(imported.error().toString()));
        return false;
    }
    m_tabs->setCurrentWidget(m_networkPanel);
    statusBar()->showMessage(tr("Imported %1 (Edit > Undo takes it back)").arg(*imported), 15000);
    return true;
}

void MainWindow::importProbeWithDialog()
{
    if (m_document->project()->topology.siteCount() == 0) {
        showError(tr("No sites"),
                  tr("Import or add sites first: a measurement is read against the project's sites "
                     "and hosts."));
        return;
    }
    const QString path = widgets::openFileName(
        this, tr("Import a network measurement"),
        tr("meridian-probe results (*.probe.json *.latency.csv *.bandwidth.csv);;All files (*)"));
    if (!path.isEmpty())
        importProbe(path);
}

NetpipeLinkDialog* MainWindow::startNetpipeDialog()
{
    if (m_document->project()->topology.siteCount() == 0) {
        showError(tr("No sites"), tr("Import or add sites first: a NetPIPE link joins two of them."));
        return nullptr;
    }
    auto* dialog = new NetpipeLinkDialog(QFileInfo(m_document->path()).absolutePath(), *m_document->project(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        auto imported = actions::importNetpipeLink(*m_document, dialog->path(), dialog->from(), dialog->to(),
                                                   dialog->bothDirections());
        if (!imported) {
            showError(tr("Cannot import the NetPIPE link"), QString::fromStdString(imported.error().toString()));
            return;
        }
        m_tabs->setCurrentWidget(m_networkPanel);
        statusBar()->showMessage(tr("Imported %1 (Edit > Undo takes it back)").arg(*imported), 15000);
    });
    dialog->open();
    return dialog;
}

MeasureNetworkDialog* MainWindow::startMeasureNetworkDialog()
{
    if (m_document->project()->topology.siteCount() == 0) {
        showError(tr("No sites"), tr("Import or add sites and their hosts first: the probe measures between them."));
        return nullptr;
    }
    auto* dialog = new MeasureNetworkDialog(QFileInfo(m_document->path()).absolutePath(), *m_document->project(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startProbe(dialog->request()); });
    dialog->open();
    return dialog;
}

int MainWindow::startProbe(const capture::ProbeRequest& request)
{
    statusBar()->showMessage(tr("Measuring the network in the background (see the Jobs panel)"), 8000);
    return actions::startProbe(
        *m_runner, *m_document, request,
        [this](const QString& message) { showError(tr("The network measurement failed"), message); },
        [this](const QString& summary) {
            m_tabs->setCurrentWidget(m_networkPanel);
            statusBar()->showMessage(tr("Network probe done: %1 (Edit > Undo takes it back)").arg(summary), 15000);
        });
}

} // namespace meridian::workbench
