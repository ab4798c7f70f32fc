#include "core/partition/rank_files.h"

#include "core/common/ranks.h"
#include "core/partition/rank_messages.h"
#include "core/partition/vertex_owners.h"

#include <algorithm>

namespace meridian::partition::detail {

Status openRankInputs(const SnapStreamRequest& request, const Ranks& ranks, std::vector<io::HomeLine>& homeLines,
                      std::optional<io::detail::SnapChunks>& chunks)
{
    const auto open = [&]() -> Status {
        if (ranks.size() > 0xFFFF) // a rank is kept in 16 bits
            return makeError(ErrorCode::InvalidInput, "a graph splits over at most 65535 ranks");
        if (!splitsSnapOverRanks(request.algorithm, request.values))
            return makeError(ErrorCode::InvalidInput, overRanksRefusal(request.algorithm));
        if (!request.homesPath.empty()) {
            // A rank holds the lines of the vertices it owns.
            const Owners owners(ranks.size());
            auto lines = io::readHomeLines(request.homesPath, *request.topology,
                                           [&](std::uint64_t id) { return owners.of(id) == ranks.rank(); });
            if (!lines)
                return lines.error();
            homeLines = std::move(*lines);
        }
        // A chunk is a round's work: its messages, a few bytes per edge, are what a rank holds beyond its records.
        auto opened = io::detail::SnapChunks::open(request.graphPath, std::min(request.chunkBytes, kRoundBytes));
        if (!opened)
            return opened.error();
        // Every rank needs chunks to read: a file of few chunks is cut finer (at least 4 per rank, of 64 KiB or
        // more). How a file is cut changes nothing in the result.
        const std::uint64_t bytes = opened->fileBytes();
        const auto wanted = 4 * static_cast<std::size_t>(ranks.size());
        if (opened->count() >= wanted || bytes <= (64u << 10)) {
            chunks.emplace(std::move(*opened));
            return {};
        }
        const auto finer = std::max<std::uint64_t>(64u << 10, bytes / wanted);
        auto reopened = io::detail::SnapChunks::open(request.graphPath, static_cast<std::size_t>(finer));
        if (!reopened)
            return reopened.error();
        chunks.emplace(std::move(*reopened));
        return {};
    };
    if (auto agreed = agreeOnFileError(ranks, open()); !agreed)
        return agreed;
    // The ranks cut the file alike only if they see it alike (a copy still under way, a stale network file system).
    const auto sizes = valueOfEveryRank(ranks, chunks->fileBytes());
    for (std::size_t r = 1; r < sizes.size(); ++r)
        if (sizes[r] != sizes[0])
            return makeError(ErrorCode::Io,
                             "rank 0 sees " + std::to_string(sizes[0]) + " bytes and rank " + std::to_string(r)
                                 + " sees " + std::to_string(sizes[r]) + ": every rank must read the same file",
                             SourceLocation{request.graphPath, 0, 0});
    return {};
}

Status openRankOutputs(const SnapStreamRequest& request, const Ranks& ranks, std::optional<io::StreamedFile>& edges,
                       std::optional<io::StreamedFile>& masters)
{
    Status opened;
    if (ranks.isRoot()) {
        auto created = io::StreamedFile::create(request.edgesPath);
        if (created) {
            edges.emplace(std::move(*created));
            if (!request.mastersPath.empty()) {
                auto more = io::StreamedFile::create(request.mastersPath);
                if (more)
                    masters.emplace(std::move(*more));
                else
                    opened = more.error();
            }
        } else {
            opened = created.error();
        }
    }
    if (auto agreed = agreeOn(ranks, opened); !agreed)
        return agreed;
    std::string names = ranks.isRoot() ? edges->temporary() + '\n' + (masters ? masters->temporary() : "") : "";
    ranks.broadcast(names);
    if (!ranks.isRoot()) {
        const auto cut = names.find('\n');
        auto piece = io::StreamedFile::openPiece(request.edgesPath, names.substr(0, cut));
        if (piece) {
            edges.emplace(std::move(*piece));
            if (!request.mastersPath.empty()) {
                auto more = io::StreamedFile::openPiece(request.mastersPath, names.substr(cut + 1));
                if (more)
                    masters.emplace(std::move(*more));
                else
                    opened = more.error();
            }
        } else {
            opened = piece.error();
        }
    }
    return agreeOn(ranks, opened);
}

Status finishRankOutputs(const Ranks& ranks, Status written, io::StreamedFile& edges, io::StreamedFile* masters)
{
    if (written)
        written = edges.finish();
    if (written && masters)
        written = masters->finish();
    return agreeOn(ranks, written);
}

Status commitRankOutputs(const Ranks& ranks, const Feedback& feedback, io::StreamedFile& edges,
                         io::StreamedFile* masters)
{
    if (auto agreed = agreeOn(ranks,
                              feedback.isCanceled() ? Status(makeError(ErrorCode::Canceled, "canceled")) : Status{});
        !agreed)
        return agreed;
    Status committed;
    if (ranks.isRoot()) {
        std::vector<io::StreamedFile*> files{&edges};
        if (masters)
            files.push_back(masters);
        committed = io::commitTogether(files);
    }
    return agreeOn(ranks, committed);
}

} // namespace meridian::partition::detail
