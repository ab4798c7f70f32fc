#pragma once

#include "core/cost/gas_cost.h"
#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"
#include "core/io/text_file.h"
#include "core/partition/snap_stream.h"

#include <optional>
#include <vector>

namespace meridian::partition::detail {

/// What partitionHashDense works on: the request, and the inputs and outputs every rank opened
/// (openRankInputs, openRankOutputs).
struct DenseHashJob {
    const SnapStreamRequest& request;
    const io::detail::SnapChunks& chunks;
    const std::vector<io::HomeLine>& homeLines; ///< the homes file's lines of the ids this rank owns (Owners)
    io::StreamedFile& edges;
    io::StreamedFile* masters;
    const cost::GasNetwork& network;
    const Feedback& feedback;
};

/// What the ranks of partitionHashDense hold, for the out-of-memory message (held_share): per edge of the graph,
/// together (its site).
constexpr double kDenseEdgeBytes = 1.0;
/// The bytes of a vertex's sites as bits, over `sites` sites: 1, 2, 4 or 8.
std::uint64_t maskBytes(int sites);
/// What each rank holds per vertex of the graph (its ids in order, a home, the sites' bits, the owners' tables while
/// they are exchanged): 12 bytes up to 8 sites, as bench_distributed measured (9 on most ranks, 14 on rank 0, which
/// holds most vertices), and 4 more for each more byte of a vertex's sites.
double denseVertexBytesEachRank(int sites);

/// The largest id the dense tables take for a file of `fileBytes` bytes over `sites` sites: 2^26, or a sixteenth of
/// the file's bytes (a line of an edge list has at least 4), over maskBytes(sites), below 2^32.
std::uint64_t denseIdLimit(std::uint64_t fileBytes, int sites);

/// Hash over the ranks (partitionSnapOverRanks) when the graph's ids are dense, below denseIdLimit: the same files
/// and metrics as one process, with no message per edge. Each rank reads its share of the file's chunks three times,
/// in rounds of one chunk, and keeps its edges' sites (1 byte per edge of its part) and tables by id: a bit for
/// the ids its part holds, its ids in order of first appearance (4 bytes each), the home of every vertex (1 byte)
/// and the sites its edges gave each vertex (the sites as bits, twice: replicas and in-edge sites):
/// 1. Each rank reads its chunks, noting its ids in the order they first appear in its part.
/// 2. The ids' owners (Owners) learn which ranks hold each id and tell each rank the ids that appear first in its
///    part (the lowest rank holding it): in that order, the rank's vertices come after those of the ranks before.
///    The rank draws their homes (the k-th vertex of the file takes the k-th draw, or its site in the homes file,
///    which the owners hold); the owners gather them and every rank gets every home.
/// 3. Each rank places its edges by hashSite at their positions in the file, ORing the sites into its tables.
/// 4. Each rank writes its lines at their offsets, and its vertices' masters lines; the owners OR the ranks' tables
///    and hand each rank its vertices' sites, and the metrics are folded through the ranks in vertex order
///    (cost::GasSitesFold), as one process sums them.
/// Errors are one process's (the first bad line of the file or the homes file; a file that changes between the
/// passes), and a cancel stops every rank within a round. Returns no result, on every rank and with nothing
/// written, when an id is at or beyond denseIdLimit: the owners' passes (partitionSnapOverRanks) then partition
/// the graph.
Expected<std::optional<SnapStreamResult>> partitionHashDense(const DenseHashJob& job);

} // namespace meridian::partition::detail
