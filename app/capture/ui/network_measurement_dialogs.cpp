#include "app/capture/ui/network_measurement_dialogs.h"

#include "widgets/dialog_rows.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace meridian::workbench {

namespace {

QLabel* buddyLabel(const QString& text, QWidget* buddy, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setBuddy(buddy); // a row holding a layout gets no buddy of its own
    return label;
}

QSpinBox* spinBox(int minimum, int maximum, int value, const QString& suffix, QWidget* parent)
{
    auto* box = new QSpinBox(parent);
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

} // namespace

MeasureNetworkDialog::MeasureNetworkDialog(const QString& folder, const document::Project& project, QWidget* parent)
    : QDialog(parent)
    , m_launcher(new QLineEdit(this))
    , m_perRank(new QCheckBox(tr("Measure between every rank, not one rank per host"), this))
    , m_sites(new QLineEdit(this))
    , m_prefix(new QLineEdit(this))
    , m_smallBytes(spinBox(1, 1 << 20, 1024, tr(" B"), this))
    , m_smallReps(spinBox(1, 1000000, 1000, tr(" times"), this))
    , m_largeBytes(spinBox(1024, 1 << 30, 4 << 20, tr(" B"), this))
    , m_largeReps(spinBox(1, 100000, 20, tr(" times"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Measure Network"));
    auto* intro = new QLabel(
        tr("Runs meridian-probe on your hosts: every pair of hosts exchanges small messages for latency and large "
           "ones for bandwidth, one pair at a time per host. The medians become measured entries of the network, "
           "dated today; runs that used older entries become stale. The probe's hosts must be the project's hosts "
           "(%n host(s) now), or give a host,site file to measure between sites.",
           "", project.topology.hostCount()),
        this);
    intro->setWordWrap(true);
    m_launcher->setText("mpirun --map-by node");
    m_launcher->setToolTip(tr("How to start one rank on each host, e.g. mpirun --hostfile hosts --map-by node. "
                              "meridian-probe and its options follow."));
    m_perRank->setToolTip(tr("For several ranks on one machine, or to test the probe on this computer"));
    m_sites->setPlaceholderText(tr("optional: host,site lines"));
    m_sites->setToolTip(tr("With it the probe reports site pairs (the median of their host pairs); without it "
                           "host pairs, which become host links"));
    m_prefix->setText(QDir(folder).filePath("network-" + QDateTime::currentDateTimeUtc().toString("yyyyMMdd-HHmm")));
    m_prefix->setToolTip(tr("The results are PREFIX.latency.csv, PREFIX.bandwidth.csv and PREFIX.probe.json"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Launcher:"), m_launcher);
    form->addRow(QString(), m_perRank);
    form->addRow(buddyLabel(tr("Hosts to &sites:"), m_sites, this), widgets::withBrowse(m_sites, this, [this] {
                     return QFileDialog::getOpenFileName(this, tr("Hosts to sites"), m_sites->text(),
                                                         tr("host,site files (*.csv *.txt);;All files (*)"));
                 }));
    form->addRow(buddyLabel(tr("&Results:"), m_prefix, this), widgets::withBrowse(m_prefix, this, [this] {
                     return QFileDialog::getSaveFileName(this, tr("Results prefix"), m_prefix->text());
                 }));
    auto* latencyRow = new QHBoxLayout;
    latencyRow->addWidget(m_smallBytes);
    latencyRow->addWidget(new QLabel("\u00d7", this));
    latencyRow->addWidget(m_smallReps);
    form->addRow(buddyLabel(tr("La&tency messages:"), m_smallBytes, this), latencyRow);
    auto* bandwidthRow = new QHBoxLayout;
    bandwidthRow->addWidget(m_largeBytes);
    bandwidthRow->addWidget(new QLabel("\u00d7", this));
    bandwidthRow->addWidget(m_largeReps);
    form->addRow(buddyLabel(tr("&Bandwidth messages:"), m_largeBytes, this), bandwidthRow);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Measure"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_launcher, &QLineEdit::textChanged, this, &MeasureNetworkDialog::update);
    connect(m_prefix, &QLineEdit::textChanged, this, &MeasureNetworkDialog::update);
    setMinimumWidth(600);
    update();
}

capture::ProbeRequest MeasureNetworkDialog::request() const
{
    capture::ProbeRequest r;
    r.launcher = QProcess::splitCommand(m_launcher->text());
    r.prefix = m_prefix->text().trimmed();
    r.perRank = m_perRank->isChecked();
    r.sitesFile = m_sites->text().trimmed();
    r.smallBytes = m_smallBytes->value();
    r.smallRepetitions = m_smallReps->value();
    r.largeBytes = m_largeBytes->value();
    r.largeRepetitions = m_largeReps->value();
    return r;
}

void MeasureNetworkDialog::update()
{
    m_buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(!QProcess::splitCommand(m_launcher->text()).isEmpty() && !m_prefix->text().trimmed().isEmpty());
}

NetpipeLinkDialog::NetpipeLinkDialog(const QString& folder, const document::Project& project, QWidget* parent)
    : QDialog(parent)
    , m_path(new QLineEdit(this))
    , m_from(new QComboBox(this))
    , m_to(new QComboBox(this))
    , m_both(new QCheckBox(tr("The same in both directions"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Import a Link from NetPIPE"));
    auto* intro = new QLabel(tr("NetPIPE measures one link (mpirun -np 2 NPopenmpi -o FILE, one rank on a host of "
                                "each site). Its smallest message's one-way time becomes the latency and its highest "
                                "throughput the bandwidth, both measured, dated by the file."),
                             this);
    intro->setWordWrap(true);
    for (const auto& site : project.topology.sites()) {
        m_from->addItem(QString::fromStdString(site.name));
        m_to->addItem(QString::fromStdString(site.name));
    }
    m_to->setCurrentIndex(project.topology.siteCount() > 1 ? 1 : 0);
    m_both->setChecked(true);
    auto* form = new QFormLayout;
    form->addRow(buddyLabel(tr("NetPIPE &output:"), m_path, this), widgets::withBrowse(m_path, this, [this, folder] {
                     return QFileDialog::getOpenFileName(this, tr("NetPIPE output"), folder,
                                                         tr("NetPIPE output (*.out *.txt *.np);;All files (*)"));
                 }));
    form->addRow(tr("&From site:"), m_from);
    form->addRow(tr("&To site:"), m_to);
    form->addRow(QString(), m_both);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Import"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_path, &QLineEdit::textChanged, this, &NetpipeLinkDialog::update);
    setMinimumWidth(520);
    update();
}

QString NetpipeLinkDialog::path() const { return m_path->text().trimmed(); }
int NetpipeLinkDialog::from() const { return m_from->currentIndex(); }
int NetpipeLinkDialog::to() const { return m_to->currentIndex(); }
bool NetpipeLinkDialog::bothDirections() const { return m_both->isChecked(); }

void NetpipeLinkDialog::update()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!path().isEmpty() && m_from->count() > 0);
}

} // namespace meridian::workbench
