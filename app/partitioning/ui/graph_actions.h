#pragma once

#include "app/jobs/job_runner.h"
#include "app/project/ui/project_document.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <string>

namespace meridian::actions {

/// Where a graph comes from (File > Import > Graph, or its Import again).
struct GraphSource {
    std::string name;
    std::string path;
    io::GraphFormat format = io::GraphFormat::Snap;
    std::string homesPath; ///< empty: every home drawn
    std::uint64_t homesSeed = 1;
};

/// Reads a graph and its homes as a background job (document::importGraph: checksums, statistics, homes
/// checked against the graph and the sites) and, when it succeeds, adds it to the project (or replaces the
/// graph of that name) as one undoable edit. `failed` gets the error; `landed` a sentence saying what was added.
int startGraphImport(jobs::JobRunner& runner, document::ProjectDocument& document, const GraphSource& source,
                     std::function<void(const QString& message)> failed,
                     std::function<void(const QString& summary)> landed);

/// Writes a partition run as Geo-Cut's files, together and only when both can be written: one
/// 'src dst site' line per edge in the graph file's order (`edgesPath`, E.tsv) and one 'vertex site' line per
/// master (`mastersPath`, M.tsv), with the graph's own vertex ids. The graph is read in the background (and
/// checked to be the file imported). `done` gets an empty string on success, else the error.
int startPartitionExport(jobs::JobRunner& runner, const document::ProjectDocument& document, int runId,
                         const QString& edgesPath, const QString& mastersPath,
                         std::function<void(const QString& error)> done);

} // namespace meridian::actions
