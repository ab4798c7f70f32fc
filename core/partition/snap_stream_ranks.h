#pragma once

#include "core/partition/snap_stream.h"

namespace meridian::partition {

/// partitionSnapStream over the ranks of an MPI launcher's job (feedback.ranks(), more than one): each rank reads its
/// share of the file's chunks (whole lines, in file order) and the result is one process's, byte for byte. Hash and
/// the streams in batches (HDRF's, Geo-Cut's stage 1) split this way (splitsSnapOverRanks): hash needs the two homes
/// alone (hashSite); a stream in batches (EdgeBatches) is placed in batches whose schedule does not depend on the
/// ranks: each rank keeps its edges from pass 1, pass 2 below places them batch by batch (RankBatches: the owners
/// answer with what the rule reads of each vertex) and pass 3 writes them without reading the file again. HDRF one
/// edge at a time places each edge from those placed before it, and Geo-Cut's stages 2 and 3 refine the whole graph:
/// both are refused with a message saying so.
///
/// Hash on a graph whose ids are dense goes through partitionHashDense (dense_hash_ranks.h): tables by id on every
/// rank and no message per edge. The rest of this comment is the owners' passes, which partition everything else.
///
/// Each vertex has one record, at its owner rank (a rotation of the ids in runs of N, so that an owner numbers its
/// ids densely), and no rank keeps a record per vertex of its part: a part of a shuffled file touches nearly every
/// vertex of the graph. The ranks read their parts three times, in rounds of one chunk each (every rank takes part in
/// every round, with an empty chunk once its own are done):
/// 1. Each vertex occurrence goes to the owner, which keeps the earliest (the lowest rank, then the earliest
///    round and place). The vertices are then ordered by first appearance, split over the ranks: the vertices first
///    seen in one rank's chunk of one round go to one holder, by equal shares in file order, and each holder sorts
///    its own. The holders draw the homes in that order (the k-th vertex of the file takes the k-th draw, or its
///    site in the homes file, of which each rank holds its owned vertices' lines) and tell the owners.
/// 2. Each edge's endpoints ask their owners for their homes; the edge goes where hashSite puts it at its position
///    in the whole file, as in one process, and the owners learn the sites their vertices gained. A rank keeps its
///    edges' sites (1 byte per edge).
/// 3. Each rank writes its lines at their offsets into the temporaries rank 0 created (the ranks must share the
///    output's folder), and the holders their masters lines; rank 0 renames them once every rank has synced.
/// The metrics are folded through the holders in vertex order (cost::GasSitesFold), as one process sums them.
/// Errors are one process's: the first bad line of the file, the first bad line of the homes file; every rank stops
/// on any rank's failure (agreeOn), and nothing is renamed. A file that changes between the passes is an error.
///
/// Memory per rank: the owned records (31 bytes per vertex it owns, more while their vectors grow by doubling),
/// 5 bytes per vertex it holds (16 while they are sorted, and 16 more while the metrics are folded), 1 byte per
/// edge of its part, a round's messages (a few bytes per edge of a 4 MB chunk) and batches of 2^18 per-vertex
/// records in the exchanges. bench_distributed measured about 75 bytes per vertex and 1 byte per edge of the graph,
/// divided by N, plus the process's 52 MB, on a power-law graph of 2 x 10^8 edges.
Expected<SnapStreamResult> partitionSnapOverRanks(const SnapStreamRequest& request, const Feedback& feedback);

} // namespace meridian::partition
