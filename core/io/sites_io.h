#pragma once

#include "core/common/expected.h"
#include "core/model/topology.h"

#include <string>
#include <vector>

namespace meridian::io {

/// Reads a sites CSV file. The first line that is not blank or a `#` comment is a header naming the
/// columns, in any order (case-insensitive): `name,lat,lon,nodes` are required; `slots` (per node,
/// default 1), `up_MBps`, `down_MBps`, `egress_usd_per_GB` and `instance_usd_per_hour` are optional and may be
/// left empty.
/// Any other column is an error (a misspelt optional column would otherwise be silently dropped).
/// Errors name the file, line and column.
Expected<std::vector<model::Site>> readSitesCsv(const std::string& path);

/// Reads sites from a GeoJSON FeatureCollection (RFC 7946) of Point features: coordinates are
/// [longitude, latitude]; `properties` carry `name` and `nodes` (required) and the optional keys of the CSV.
/// Errors name the file and the line of the offending feature.
Expected<std::vector<model::Site>> readSitesGeoJson(const std::string& path);

/// Reads sites from a `.geojson`/`.json` file or else a CSV file, then builds the topology.
Expected<model::Topology> loadTopology(const std::string& path);

/// Reads a hosts CSV: lines `host,site[,slots]` (slots per host, default 1), an optional header line
/// `host,site[,slots]`, `#` comments. Returns the topology's sites in order, where every site the file
/// names gets exactly the hosts the file lists for it, in file order; the other sites keep theirs. Use it
/// to give a cluster's real host names (the ones a rankfile must name). An unknown site, a host named
/// twice, or slots that are not a whole number >= 1 are errors naming the file, line and column.
Expected<std::vector<model::Site>> readHostsCsv(const std::string& path, const model::Topology& topology);

/// Writes sites as a GeoJSON FeatureCollection of Points ([longitude, latitude]) with the CSV's keys as
/// properties (unknown quantities left out; hosts as nodes x slots of the first host).
Status writeSitesGeoJson(const std::string& path, const model::Topology& topology);

/// Writes a sites CSV file with every column (hosts are written as nodes x slots of the first host).
Status writeSitesCsv(const std::string& path, const model::Topology& topology);

} // namespace meridian::io
