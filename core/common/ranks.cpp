#include "core/common/ranks.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace meridian {

namespace {

class SingleProcess final : public Ranks {
public:
    int rank() const override { return 0; }
    int size() const override { return 1; }
    std::vector<std::string> gather(std::string_view bytes) const override { return {std::string(bytes)}; }
    void broadcast(std::string&) const override {}
    bool all(bool ok) const override { return ok; }
    std::vector<std::string> exchange(const std::vector<std::string>& toEach) const override { return toEach; }
    /// One process has no other rank: a fold through the ranks hands nothing over.
    void send(int, std::string_view) const override { throw std::logic_error("one process sends to no other rank"); }
    std::string receive(int) const override { throw std::logic_error("one process receives from no other rank"); }
};

} // namespace

const Ranks& Ranks::single()
{
    static const SingleProcess instance;
    return instance;
}

Expected<std::vector<int>> Ranks::partitionGraph(const RankGraph&, const std::vector<int>&, double, std::uint64_t) const
{
    return makeError(
        ErrorCode::InvalidInput,
        "mapping on PT-Scotch (parallel=true) runs only in 'meridian-cli map' under an MPI launcher "
        "(mpirun -np N meridian-cli map ..., 1 rank or more; from the workbench, Run > Run Ticked Algorithms on "
        "a Launcher)");
}

Status agreeOn(const Ranks& ranks, const Status& local)
{
    if (ranks.all(static_cast<bool>(local)))
        return {};
    Packer mine;
    mine.put<char>(local ? 1 : 0);
    if (!local) {
        const Error& e = local.error();
        mine.put(static_cast<int>(e.code));
        mine.put(e.where.line);
        mine.put(e.where.column);
        mine.putVector(std::vector<char>(e.message.begin(), e.message.end()));
        mine.putVector(std::vector<char>(e.where.file.begin(), e.where.file.end()));
    }
    std::string first;
    const auto all = ranks.gather(mine.bytes());
    for (std::size_t r = 0; r < all.size() && first.empty(); ++r)
        if (all[r][0] == 0) {
            Packer tagged;
            tagged.put(static_cast<int>(r));
            first = tagged.bytes() + all[r];
        }
    ranks.broadcast(first);
    Unpacker in(first);
    const int failed = in.get<int>();
    in.get<char>();
    Error error;
    error.code = static_cast<ErrorCode>(in.get<int>());
    error.where.line = in.get<decltype(error.where.line)>();
    error.where.column = in.get<decltype(error.where.column)>();
    const auto message = in.getVector<char>();
    const auto file = in.getVector<char>();
    error.message = std::string(message.begin(), message.end());
    error.where.file = std::string(file.begin(), file.end());
    if (failed != 0)
        error.message = "rank " + std::to_string(failed) + " of " + std::to_string(ranks.size()) + ": " + error.message;
    return error;
}

Share shareOf(std::int64_t count, int rank, int size)
{
    const std::int64_t base = count / size, extra = count % size;
    const std::int64_t begin = rank * base + std::min<std::int64_t>(rank, extra);
    return {begin, begin + base + (rank < extra ? 1 : 0)};
}

namespace {

/// Every rank's bytes, one after the other in rank order, on every rank.
std::string allRanksBytes(const Ranks& ranks, const std::string& mine)
{
    std::string all;
    for (const auto& bytes : ranks.gather(mine))
        all += bytes;
    ranks.broadcast(all);
    return all;
}

} // namespace

std::vector<double> concatenatedOnEveryRank(const Ranks& ranks, const std::vector<double>& local)
{
    Packer mine;
    mine.putVector(local);
    const std::string all = allRanksBytes(ranks, mine.bytes());
    std::vector<double> values;
    Unpacker in(all);
    for (int r = 0; r < ranks.size(); ++r) {
        const auto part = in.getVector<double>();
        values.insert(values.end(), part.begin(), part.end());
    }
    return values;
}

std::vector<std::uint64_t> valueOfEveryRank(const Ranks& ranks, std::uint64_t value)
{
    Packer mine;
    mine.put(value);
    const std::string all = allRanksBytes(ranks, mine.bytes());
    std::vector<std::uint64_t> values;
    values.reserve(static_cast<std::size_t>(ranks.size()));
    Unpacker in(all);
    for (int r = 0; r < ranks.size(); ++r)
        values.push_back(in.get<std::uint64_t>());
    return values;
}

std::vector<std::uint64_t> sumOnEveryRank(const Ranks& ranks, const std::vector<std::uint64_t>& local)
{
    Packer mine;
    mine.putVector(local);
    const std::string all = allRanksBytes(ranks, mine.bytes());
    std::vector<std::uint64_t> sums(local.size(), 0);
    Unpacker in(all);
    for (int r = 0; r < ranks.size(); ++r) {
        const auto part = in.getVector<std::uint64_t>();
        if (part.size() != sums.size())
            throw std::runtime_error("the ranks sum counts of different lengths");
        for (std::size_t k = 0; k < sums.size(); ++k)
            sums[k] += part[k];
    }
    return sums;
}

void Unpacker::fail() { throw std::runtime_error("a rank's message is shorter than its contents say"); }

void Unpacker::take(void* out, std::size_t n)
{
    if (n > m_bytes.size())
        fail();
    if (n > 0)
        std::memcpy(out, m_bytes.data(), n);
    m_bytes.remove_prefix(n);
}

} // namespace meridian
