#pragma once

#include "core/partition/snap_stream.h"

namespace meridian::partition {

/// partitionSnapStream over the ranks of an MPI launcher's job (feedback.ranks(), more than one): each rank reads its
/// share of the file's chunks (whole lines, in file order) and the result is one process's, byte for byte. Only hash
/// splits this way: its rule needs the two homes alone (hashSite), where HDRF places each edge from those placed
/// before it; another algorithm is refused with a message saying so.
///
/// Each vertex id has an owner rank (a hash of the id). The ranks send the ids of their parts to the owners, which
/// find the first appearance of each (the lowest rank holding it), so every rank knows which vertices are new in
/// its part; the k-th vertex of the file takes the k-th home draw, as in one process. The owners pass the homes
/// on, each rank places its edges at their positions in the whole file with the one-process stream's placer
/// (makeOnlinePlacer), counts its lines' bytes, and all write
/// their lines at their offsets into the temporaries rank 0 created (the ranks must share the output's folder); rank
/// 0 renames them once every rank has synced its part. The metrics are folded through the ranks in vertex order
/// (cost::GasSitesFold), as one process sums them. Errors are one process's: the first bad line of the file, the
/// first bad line of the homes file; every rank stops on any rank's failure (agreeOn), and nothing is renamed.
///
/// Memory per rank: the id map and about 60 bytes per vertex of its part (the placer's records among them), the
/// owned vertices' records during the exchanges (about 30 bytes each), 9 bytes per edge of its part (its edges'
/// local ids, so that the file is parsed once, and sites), and the chunks in flight. A part of a shuffled file
/// touches nearly every vertex of the graph, so a rank's memory does not fall as 1/N with more ranks.
Expected<SnapStreamResult> partitionSnapOverRanks(const SnapStreamRequest& request, const Feedback& feedback);

} // namespace meridian::partition
