#include "app/capture/ui/capture_feature.h"

#include "app/capture/ui/capture_dialog.h"
#include "app/capture/ui/network_actions.h"
#include "app/capture/ui/network_measurement_dialogs.h"
#include "app/project/project_edits.h"
#include "app/project/ui/applications_panel.h"
#include "app/project/ui/network_panel.h"
#include "app/project/ui/project_document.h"
#include "widgets/file_dialogs.h"

#include <QAction>
#include <QFileInfo>
#include <QInputDialog>

namespace meridian::workbench {

CaptureFeature::CaptureFeature(WorkbenchShell& shell, QObject* parent)
    : WorkbenchFeature(parent)
    , m_shell(shell)
{
    m_entries = {
        {Menu::Import, 55,
         action(tr("Application from a &Capture\u2026"), "actionImportCapture", [this] { importCaptureWithDialog(); })},
        {Menu::Import, 65,
         action(tr("&Network Measurement (meridian-probe)\u2026"), "actionImportProbe",
                [this] { importProbeWithDialog(); })},
        {Menu::Import, 75,
         action(tr("Link from Net&PIPE\u2026"), "actionImportNetpipe", [this] { startNetpipeDialog(); })},
        {Menu::Run, 45, action(tr("Ca&pture Application\u2026"), "actionCapture", [this] { startCaptureDialog(); })},
        {Menu::Run, 55,
         action(tr("Measure &Network\u2026"), "actionMeasureNetwork", [this] { startMeasureNetworkDialog(); })},
    };
}

std::vector<WorkbenchFeature::Entry> CaptureFeature::entries() const { return m_entries; }

QAction* CaptureFeature::action(const QString& text, const char* name, const std::function<void()>& triggered)
{
    auto* action = new QAction(text, this);
    action->setObjectName(name);
    connect(action, &QAction::triggered, this, triggered);
    return action;
}

void CaptureFeature::showAddedApplication()
{
    auto* panel = m_shell.applicationsPanel();
    m_shell.showTab(panel);
    // withApplication appends.
    panel->setCurrentApplication(static_cast<int>(m_shell.document()->project()->applications.size()) - 1);
}

std::string captureBaseName(const QString& path)
{
    // EZTrace writes NAME_trace/eztrace_log.otf2: the folder names the program.
    if (path.endsWith(".otf2"))
        return QFileInfo(QFileInfo(path).absolutePath()).fileName().remove("_trace").toStdString();
    return QFileInfo(path).fileName().section('.', 0, 0).toStdString();
}

bool CaptureFeature::importCapture(const QString& path, const std::string& name)
{
    if (auto s = actions::importCapturedApplication(*m_shell.document(), name, path); !s) {
        m_shell.showError(tr("Cannot import the capture"), QString::fromStdString(s.error().toString()));
        return false;
    }
    showAddedApplication();
    m_shell.showStatus(tr("Imported the captured application %1").arg(QString::fromStdString(name)), 8000);
    return true;
}

void CaptureFeature::importCaptureWithDialog()
{
    const QString path = widgets::openFileName(
        m_shell.shellWindow(), tr("Import an application from a capture"),
        tr("Captures (*.volume.mtx *.prof *.otf2);;meridian-cli capture (*.volume.mtx);;"
           "Open MPI monitoring, any rank's file (*.prof);;OTF2 trace (*.otf2);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString base = QString::fromStdString(captureBaseName(path));
    bool ok = false;
    const QString name = QInputDialog::getText(m_shell.shellWindow(), tr("Import a capture"), tr("Application name:"),
                                               QLineEdit::Normal,
                                               QString::fromStdString(
                                                   document::unusedApplicationName(*m_shell.document()->project(),
                                                                                   base.toStdString())),
                                               &ok);
    if (ok && !name.trimmed().isEmpty())
        importCapture(path, name.trimmed().toStdString());
}

CaptureDialog* CaptureFeature::startCaptureDialog()
{
    auto* dialog = new CaptureDialog(QFileInfo(m_shell.document()->path()).absolutePath(), m_shell.shellWindow());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startCapture(dialog->request()); });
    dialog->open();
    return dialog;
}

int CaptureFeature::startCapture(const actions::CaptureRequest& request)
{
    m_shell.showStatus(tr("Capturing %1 in the background (see the Jobs panel)").arg(request.command.join(' ')), 8000);
    const QString name = QString::fromStdString(request.name);
    return actions::startCapture(
        *m_shell.jobRunner(), *m_shell.document(), request,
        [this](const QString& message) { m_shell.showError(tr("The capture failed"), message); },
        [this, name] {
            showAddedApplication();
            m_shell.showStatus(tr("Captured the application %1").arg(name), 15000);
        });
}

bool CaptureFeature::importProbe(const QString& path)
{
    auto imported = actions::importProbeResults(*m_shell.document(), path);
    if (!imported) {
        m_shell.showError(tr("Cannot import the network measurement"),
                          QString::fromStdString(imported.error().toString()));
        return false;
    }
    m_shell.showTab(m_shell.networkPanel());
    m_shell.showStatus(tr("Imported %1 (Edit > Undo takes it back)").arg(*imported), 15000);
    return true;
}

void CaptureFeature::importProbeWithDialog()
{
    if (m_shell.document()->project()->topology.siteCount() == 0) {
        m_shell.showError(tr("No sites"),
                          tr("Import or add sites first: a measurement is read against the project's sites "
                             "and hosts."));
        return;
    }
    const QString path = widgets::openFileName(
        m_shell.shellWindow(), tr("Import a network measurement"),
        tr("meridian-probe results (*.probe.json *.latency.csv *.bandwidth.csv);;All files (*)"));
    if (!path.isEmpty())
        importProbe(path);
}

NetpipeLinkDialog* CaptureFeature::startNetpipeDialog()
{
    if (m_shell.document()->project()->topology.siteCount() == 0) {
        m_shell.showError(tr("No sites"), tr("Import or add sites first: a NetPIPE link joins two of them."));
        return nullptr;
    }
    auto* dialog = new NetpipeLinkDialog(QFileInfo(m_shell.document()->path()).absolutePath(),
                                         *m_shell.document()->project(), m_shell.shellWindow());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        auto imported = actions::importNetpipeLink(*m_shell.document(), dialog->path(), dialog->from(), dialog->to(),
                                                   dialog->bothDirections());
        if (!imported) {
            m_shell.showError(tr("Cannot import the NetPIPE link"), QString::fromStdString(imported.error().toString()));
            return;
        }
        m_shell.showTab(m_shell.networkPanel());
        m_shell.showStatus(tr("Imported %1 (Edit > Undo takes it back)").arg(*imported), 15000);
    });
    dialog->open();
    return dialog;
}

MeasureNetworkDialog* CaptureFeature::startMeasureNetworkDialog()
{
    if (m_shell.document()->project()->topology.siteCount() == 0) {
        m_shell.showError(tr("No sites"),
                          tr("Import or add sites and their hosts first: the probe measures between them."));
        return nullptr;
    }
    auto* dialog = new MeasureNetworkDialog(QFileInfo(m_shell.document()->path()).absolutePath(),
                                            *m_shell.document()->project(), m_shell.shellWindow());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { startProbe(dialog->request()); });
    dialog->open();
    return dialog;
}

int CaptureFeature::startProbe(const capture::ProbeRequest& request)
{
    m_shell.showStatus(tr("Measuring the network in the background (see the Jobs panel)"), 8000);
    return actions::startProbe(
        *m_shell.jobRunner(), *m_shell.document(), request,
        [this](const QString& message) { m_shell.showError(tr("The network measurement failed"), message); },
        [this](const QString& summary) {
            m_shell.showTab(m_shell.networkPanel());
            m_shell.showStatus(tr("Network probe done: %1 (Edit > Undo takes it back)").arg(summary), 15000);
        });
}

} // namespace meridian::workbench
