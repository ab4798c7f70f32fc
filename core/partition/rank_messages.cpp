#include "core/partition/rank_messages.h"

namespace meridian::partition::detail {

/// agreeOn for failures that name their file and line (a bad line, a file that cannot be read or written): which
/// rank read it says nothing to the user, so the message is one process's.
Status agreeOnFileError(const Ranks& ranks, const Status& local)
{
    auto agreed = agreeOn(ranks, local);
    if (agreed || agreed.error().where.file.empty())
        return agreed;
    Error e = agreed.error();
    const std::string tag = " of " + std::to_string(ranks.size()) + ": ";
    if (e.message.rfind("rank ", 0) == 0)
        if (const auto end = e.message.find(tag); end != std::string::npos)
            e.message.erase(0, end + tag.size());
    return e;
}

/// Returns on every rank the error of the earliest line in a file among the ranks' errors (each rank checked the
/// lines it owns), or success.
Status firstLineInFile(const Ranks& ranks, const Status& local)
{
    if (ranks.all(static_cast<bool>(local)))
        return {};
    Packer mine;
    mine.put<std::int64_t>(local ? -1 : local.error().where.line);
    std::string lines;
    for (const auto& bytes : ranks.gather(mine.bytes()))
        lines += bytes;
    ranks.broadcast(lines);
    Unpacker in(lines);
    int first = -1;
    std::int64_t firstLine = 0;
    for (int r = 0; r < ranks.size(); ++r) {
        const auto line = in.get<std::int64_t>();
        if (line >= 0 && (first < 0 || line < firstLine)) {
            first = r;
            firstLine = line;
        }
    }
    // The earliest keeps its error, which agreeOn then gives every rank.
    return agreeOnFileError(ranks, ranks.rank() == first ? local : Status{});
}

/// The sum of the values of the ranks before this one.
std::uint64_t before(const std::vector<std::uint64_t>& values, int rank)
{
    std::uint64_t sum = 0;
    for (int r = 0; r < rank; ++r)
        sum += values[static_cast<std::size_t>(r)];
    return sum;
}

std::uint64_t total(const std::vector<std::uint64_t>& values)
{
    return before(values, static_cast<int>(values.size()));
}

/// The error of a file that changed between two passes over it.
Error fileChanged(const std::string& path)
{
    return makeError(ErrorCode::Io, "the file changed while it was read: run again when nothing writes to it",
                     SourceLocation{path, 0, 0});
}

/// A running digest of a part's id pairs, by which the passes after the first see that the file changed.
std::uint64_t digestOf(std::uint64_t digest, const std::vector<std::uint32_t>& pairs)
{
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
        digest ^= (std::uint64_t{pairs[i]} << 32 | pairs[i + 1]) * 0x9E3779B97F4A7C15ull;
        digest = (digest << 29 | digest >> 35) * 0xBF58476D1CE4E5B9ull;
    }
    return digest;
}

} // namespace meridian::partition::detail
