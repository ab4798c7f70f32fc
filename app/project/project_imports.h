#pragma once

#include "app/project/project.h"
#include "core/common/expected.h"

#include <string>

namespace meridian::document {

/// Reading a user's own files into a project: the readers behind File > Import, the New Project wizard and
/// `meridian-cli project`. Each returns the data or an error naming the file, line and column; none changes
/// a project (the caller applies the result as one edit, so nothing is ever half-applied).

/// Reads a latency (ms) or bandwidth (MB/s) matrix for the project's sites (CSV with site names, or
/// Matrix Market in site order) into a network holding that quantity only. Names the project lacks are
/// an error listing them and the project's sites the file leaves out.
Expected<model::Network> readNetworkQuantity(const std::string& path, model::NetworkQuantity quantity,
                                             const model::Topology& topology);

/// Where an application's files are: the volume (bytes) and, optionally, message counts and pins.
struct ApplicationFiles {
    std::string volume;
    std::string messages;
    std::string pins;
    std::string trace; ///< a time-independent trace: the list PREFIX.ti `capture --trace` writes, or a merged one
};

/// Reads an application: the volume and message matrices (Matrix Market or CSV; their sizes must agree)
/// and the pins (`process,site`; every process must exist in the application and no site may get more
/// pins than slots), and the trace (readTraceFor). Errors name the file and line.
Expected<Application> readApplication(const std::string& name, const ApplicationFiles& files,
                                      const model::Topology& topology);

/// Reads a time-independent trace (a list or a merged file) and checks that it is the application's: its ranks
/// and each pair's bytes against the volume matrix. The result is what a project keeps with the application.
Expected<std::shared_ptr<const io::StoredTrace>> readTraceFor(const std::string& path, const model::CommMatrix& comm);

/// What a dropped or chosen file holds, told from its content (never from its name alone).
enum class FileKind {
    Unknown,
    Project,       ///< JSON with "format": "meridian-project"
    Sites,         ///< a sites CSV (name, lat, lon, nodes columns) or GeoJSON FeatureCollection
    NetworkMatrix, ///< a square CSV matrix whose names are the project's sites (latency or bandwidth: ask)
    Application,   ///< Matrix Market, or a square CSV matrix of processes (p0, rank0 names, or none)
    ProcessSites,  ///< `process,site` lines: pins or a site-level mapping (ask)
    Mapping,       ///< `process,site,host,slot` lines
    Hosts,         ///< a `host,site[,slots]` header: the hosts of the sites
    Capture,       ///< an application's communication as a tool recorded it: meridian-cli capture's
                   ///< PREFIX.volume.mtx (with PREFIX.messages.mtx), an Open MPI monitoring .prof, an OTF2 anchor
    ProbeResults   ///< meridian-probe's PREFIX.probe.json, or one of its matrices with the JSON beside it
};

/// Returns the kind of a file and, in `why`, one sentence saying what gave it away or why none fits.
FileKind detectFileKind(const std::string& path, const model::Topology& topology, std::string* why = nullptr);

} // namespace meridian::document
