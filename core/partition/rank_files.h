#pragma once

#include "core/io/edge_list_parsing.h"
#include "core/io/edge_partition_io.h"
#include "core/io/text_file.h"
#include "core/partition/snap_stream.h"

#include <optional>
#include <vector>

namespace meridian {
class Ranks;
}

namespace meridian::partition::detail {

/// The most text a rank of partitionSnapOverRanks reads in one round of a pass: a chunk of the file.
constexpr std::size_t kRoundBytes = 4u << 20;

/// Every rank reads the homes file's lines (those of the vertices it owns) and opens the graph, cut into chunks of at
/// most kRoundBytes, finer when the file has fewer than 4 chunks per rank; the ranks agree on the first failure, and
/// on the file's size (every rank must read the same file).
Status openRankInputs(const SnapStreamRequest& request, const Ranks& ranks, std::vector<io::HomeLine>& homeLines,
                      std::optional<io::detail::SnapChunks>& chunks);

/// Rank 0 creates the outputs' temporaries; the others open them to write their parts at their offsets. The ranks
/// agree on the first failure.
Status openRankOutputs(const SnapStreamRequest& request, const Ranks& ranks, std::optional<io::StreamedFile>& edges,
                       std::optional<io::StreamedFile>& masters);

/// After a rank wrote its lines (`written`): syncs and closes its outputs, and the ranks agree on the first failure.
Status finishRankOutputs(const Ranks& ranks, Status written, io::StreamedFile& edges, io::StreamedFile* masters);

/// Rank 0 renames the outputs once every rank wrote and synced its lines (and agreed so), unless a rank was
/// canceled; every rank gets the outcome.
Status commitRankOutputs(const Ranks& ranks, const Feedback& feedback, io::StreamedFile& edges,
                         io::StreamedFile* masters);

} // namespace meridian::partition::detail
