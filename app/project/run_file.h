#pragma once

#include "app/project/project.h"
#include "app/project/run.h"
#include "core/common/expected.h"

#include <QString>

#include <cstdint>

#include <memory>
#include <string>
#include <vector>

namespace meridian::document {

/// Runs read back, and how many stale runs no longer fitted the project and were left out.
struct LoadedRuns {
    std::vector<Run> runs;
    int skippedStale = 0;
};

/// Reads and writes the runs of a project beside it: `<project>.runs.json`, JSON with
/// "format": "meridian-runs" and an integer "version" (1). Each run keeps its algorithm, typed
/// parameters, seed, placement, metrics, site x site matrices, Monte Carlo samples, notes and the
/// fingerprint of the inputs it was computed from, so staleness survives a reopen. A partition run keeps its edge
/// partition as base64 (one site byte per edge and per vertex), its profile and budget, its per-site traffic and
/// its batches (base64 of 16-byte id pairs).
///
/// load() (run_file_load.cpp) reads strictly: every key must have the JSON type it is written with, every number
/// its range, and each placement must pass model::checkPlacement (capacities, slots used once); an error locates
/// the key's line inside the run it belongs to.
class RunFile {
public:
    static constexpr int kVersion = 1;
    /// The largest runs file read (a partition run keeps a byte per edge: large graphs make large runs files).
    static constexpr std::uint64_t kMaxRunsFileBytes = std::uint64_t{4} << 30;

    /// Returns the runs file of a project file ("lu.meridian" -> "lu.runs.json").
    static QString pathFor(const QString& projectPath);
    /// Writes the runs atomically; with no runs, removes an existing file.
    static Status save(const std::vector<std::shared_ptr<const Run>>& runs, const QString& path);
    /// The runs file's content (compact JSON), for a save that writes it together with the project.
    static std::string text(const std::vector<std::shared_ptr<const Run>>& runs);
    /// Reads runs and checks each placement against the project (application, process count, sites,
    /// hosts and slots). A run that was stale when saved and no longer fits is left out and counted;
    /// a current run that does not fit is an error. Errors name the file and, for JSON syntax errors,
    /// the line.
    static Expected<LoadedRuns> load(const QString& path, const Project& project);
    /// load() of a runs file's text (what text() returns), with `path` naming it in errors.
    static Expected<LoadedRuns> fromText(const std::string& text, const QString& path, const Project& project);
};

} // namespace meridian::document
