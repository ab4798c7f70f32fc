#pragma once

#include "core/common/expected.h"
#include "core/common/feedback.h"
#include "core/model/graph.h"
#include "core/model/topology.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meridian::io {

/// Graph file formats.
enum class GraphFormat { Snap, Metis, MatrixMarket };

/// Returns the format of a `--format` id ("snap", "metis", "mtx"), or an error listing them.
Expected<GraphFormat> graphFormatFromId(std::string_view id);
/// Returns the id of a format ("snap", "metis", "mtx").
std::string_view graphFormatId(GraphFormat format);
/// Returns the format a file's name suggests: `.mtx` Matrix Market, `.graph` or `.metis` METIS, else SNAP.
GraphFormat guessGraphFormat(std::string_view path);
/// Returns a 64-bit checksum of a file's bytes (word-wise multiplicative hash, about 1 GB/s): tells whether a
/// file the project refers to changed since it was read.
Expected<std::uint64_t> fileChecksum(const std::string& path);

/// Reads a SNAP edge list: `#` comment lines, then `src dst` per line separated by tabs or spaces (further
/// columns are ignored), LF or CRLF. Ids are non-negative integers below 2^32, renumbered densely in order of
/// first appearance. Self-loops are dropped and counted; duplicates are kept. Errors (a line with one id, a
/// non-numeric or negative id, an id of 2^32 or more, no edge at all) name the file, line and column.
/// The file is cut into chunks of whole lines that the workers of `feedback`'s executor parse at once; the ids
/// are then renumbered in file order. Memory is the edge list plus the chunks' raw ids (8 bytes per edge)
/// until each is renumbered. O(file size). Cancel is checked between chunks (16 MB).
Expected<model::Graph> readSnapGraph(const std::string& path, const Feedback& feedback = Feedback());

/// Reads a METIS graph (`n m [fmt [ncon]]`, `%` comments, 1-based neighbours, optional vertex and edge
/// weights, which are checked and ignored). Each undirected edge {u, v} becomes one directed edge from the
/// lower to the higher id; the adjacency lists must hold exactly 2m entries and be symmetric in count.
Expected<model::Graph> readMetisGraph(const std::string& path);

/// Reads a square Matrix Market coordinate matrix as a graph: entry (i, j) is the edge i -> j (1-based);
/// `symmetric` entries give one edge each; values are ignored; the diagonal is dropped.
Expected<model::Graph> readMatrixMarketGraph(const std::string& path);

/// Reads a graph in any format through a binary edge cache kept in `cacheDir` (created when missing;
/// empty = no cache). The cache is named by the file's absolute path and format, and an entry is used only
/// when the file's size, inode and modification and change times (nanoseconds) are the ones it was made
/// from; it holds the dense edge arrays, so a second load is a few large reads. Every field of an entry is
/// checked on load (sizes against the entry's file size before allocating, ids against the vertex count, a
/// checksum of the arrays): a stale or corrupt entry is ignored and rewritten. A cache that cannot be
/// written is skipped silently (the graph itself is still returned).
/// `fromCache` tells which path was taken.
/// A SNAP file is parsed by the workers of `feedback`'s executor.
Expected<model::Graph> loadGraph(const std::string& path, GraphFormat format, const std::string& cacheDir,
                                 bool* fromCache = nullptr, const Feedback& feedback = Feedback());

/// Returns the default cache folder: $XDG_CACHE_HOME/meridian/graphs or ~/.cache/meridian/graphs.
std::string defaultGraphCacheDir();

} // namespace meridian::io
