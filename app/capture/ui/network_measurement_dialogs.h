#pragma once

#include "app/capture/probe_run.h"
#include "app/project/project.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

namespace meridian::workbench {

/// Run > Measure Network: how to start meridian-probe on the hosts to measure (the launcher and its options),
/// whether to measure between every rank, an optional host,site file, the message sizes and repetitions, and
/// where the results go. The defaults are CloudMap's: 1 KB messages x 1000 for latency.
class MeasureNetworkDialog : public QDialog {
    Q_OBJECT
public:
    MeasureNetworkDialog(const QString& folder, const document::Project& project, QWidget* parent = nullptr);

    capture::ProbeRequest request() const;
    QLineEdit* launcherEdit() const { return m_launcher; }
    QLineEdit* prefixEdit() const { return m_prefix; }
    QCheckBox* perRankBox() const { return m_perRank; }
    QSpinBox* smallRepetitionsBox() const { return m_smallReps; }
    QSpinBox* largeRepetitionsBox() const { return m_largeReps; }

private:
    void update();

    QLineEdit* m_launcher;
    QCheckBox* m_perRank;
    QLineEdit* m_sites;
    QLineEdit* m_prefix;
    QSpinBox* m_smallBytes;
    QSpinBox* m_smallReps;
    QSpinBox* m_largeBytes;
    QSpinBox* m_largeReps;
    QDialogButtonBox* m_buttons;
};

/// File > Import > Link from NetPIPE: NetPIPE's output file and the site pair it measured.
class NetpipeLinkDialog : public QDialog {
    Q_OBJECT
public:
    NetpipeLinkDialog(const QString& folder, const document::Project& project, QWidget* parent = nullptr);

    QString path() const;
    int from() const;
    int to() const;
    bool bothDirections() const;
    QLineEdit* pathEdit() const { return m_path; }
    QComboBox* fromBox() const { return m_from; }
    QComboBox* toBox() const { return m_to; }
    QCheckBox* bothDirectionsBox() const { return m_both; }

private:
    void update();

    QLineEdit* m_path;
    QComboBox* m_from;
    QComboBox* m_to;
    QCheckBox* m_both;
    QDialogButtonBox* m_buttons;
};

} // namespace meridian::workbench
