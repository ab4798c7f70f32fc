#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/io/probe_results.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>

namespace meridian::capture {

/// Finds meridian-probe: $MERIDIAN_PROBE, else beside the running executable (the build tree and an
/// installation both put it there). The error says where it looked.
Expected<QString> probeProgram();

/// A run of meridian-probe: the launcher that starts it on the hosts to measure, and its options.
struct ProbeRequest {
    /// The launcher and its options, e.g. {"mpirun", "--hostfile", "hosts", "--map-by", "node"}; the probe
    /// and its options follow them.
    QStringList launcher;
    /// Where the results go: PREFIX.latency.csv, PREFIX.bandwidth.csv and PREFIX.probe.json.
    QString prefix;
    /// Measure between every rank rather than one leader per host (several ranks on one machine).
    bool perRank = false;
    /// host,site lines: the probe then aggregates host pairs into site pairs; empty for host-level results.
    QString sitesFile;
    std::int64_t smallBytes = 1024;
    std::int64_t smallRepetitions = 1000;
    std::int64_t largeBytes = 4 << 20;
    std::int64_t largeRepetitions = 20;
};

/// The command a request runs (the launcher, then `program` and its options writing to `outPrefix`).
QStringList probeCommand(const ProbeRequest& request, const QString& program, const QString& outPrefix);

/// Runs the probe and, when it succeeds, reads its results back (io::readProbeResults) and moves its three
/// files to PREFIX together. It writes into a temporary folder beside PREFIX first, so a failed, killed or
/// canceled run leaves PREFIX's files as they were. A probe that exits with a failing status or crashes is
/// an error quoting the last lines of its output (where meridian-probe says why); so is a probe that cannot
/// start. `output` gets the merged output as it comes.
Expected<io::ProbeResults> runProbe(const ProbeRequest& request, const std::function<void(const QByteArray&)>& output,
                                    const Feedback& feedback);

} // namespace meridian::capture
