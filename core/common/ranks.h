#pragma once

#include "core/common/expected.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace meridian {

/// This rank's block of a graph split over the ranks, for Ranks::partitionGraph: its vertices' adjacency in
/// compressed form, with the global ids of the neighbours and the edges' weights (each edge in both directions).
struct RankGraph {
    std::int64_t globalVertices = 0;
    std::vector<std::int64_t> offsets{0}; ///< one more than this rank's vertices
    std::vector<std::int64_t> neighbours;
    std::vector<std::int64_t> weights; ///< positive
};

/// The processes one command is split over, as an MPI launcher started them (`mpirun -np N meridian-cli ...`):
/// each has a rank from 0 to size() - 1, runs the same command on the same inputs and takes its share of the work
/// by global index, and rank 0 gathers the shares, writes the files and prints the result. The engine knows no MPI:
/// it sees this interface; the CLI gives the MPI communicator (app/distributed), everything else single(), one
/// process. Every call is collective: all ranks make it, in the same order, or the ones that did wait forever.
class Ranks {
public:
    virtual ~Ranks() = default;

    virtual int rank() const = 0;
    virtual int size() const = 0;
    bool isRoot() const { return rank() == 0; }

    /// Returns, on rank 0, every rank's bytes in rank order; elsewhere, nothing.
    virtual std::vector<std::string> gather(std::string_view bytes) const = 0;
    /// Gives every rank rank 0's bytes.
    virtual void broadcast(std::string& bytes) const = 0;
    /// Returns on every rank whether `ok` holds on all of them: a rank that failed tells the others, so that none
    /// waits in a later call for it.
    virtual bool all(bool ok) const = 0;
    /// Sends `toEach[r]` to rank r (toEach has size() entries) and returns what each rank sent this one, in rank
    /// order: the all-to-all of a computation whose records belong to the rank that owns them.
    virtual std::vector<std::string> exchange(const std::vector<std::string>& toEach) const = 0;
    /// Sends bytes to one rank, which takes them with receive(): the hand-over of a fold that runs through the
    /// ranks in order. Not collective: only the two ranks take part.
    virtual void send(int to, std::string_view bytes) const = 0;
    virtual std::string receive(int from) const = 0;

    /// Partitions a graph whose vertices the ranks hold in blocks (shareOf order) into parts of the given relative
    /// weights (each part within `imbalance` of its share), cutting as little edge weight as it can: PT-Scotch's SCOTCH_dgraphMap onto a weighted complete
    /// graph, deterministic for a seed and a number of ranks (another number of ranks gives another partition).
    /// Returns the parts of this rank's vertices. Only the ranks of an MPI launcher's job can; the others return an
    /// error saying so. Collective.
    virtual Expected<std::vector<int>> partitionGraph(const RankGraph& graph, const std::vector<int>& partWeights,
                                                      double imbalance, std::uint64_t seed) const;

    /// The process alone: gather returns its own bytes, broadcast and all change nothing.
    static const Ranks& single();
};

/// Returns on every rank the first failure of all ranks (the lowest rank's, named "rank R of N" unless it is rank 0,
/// which speaks for all when the ranks fail alike), or success when every rank succeeded. A sharded computation
/// calls it after its local work and before it gathers, so that a rank that failed alone (a run of its share, a
/// file only it could not read) stops every rank with its own message.
Status agreeOn(const Ranks& ranks, const Status& local);

/// The share of `count` items, numbered from 0, that `rank` of `size` ranks takes: a contiguous block, the first
/// `count % size` ranks one item more. The blocks cover the items in rank order.
struct Share {
    std::int64_t begin = 0;
    std::int64_t end = 0;
};
Share shareOf(std::int64_t count, int rank, int size);

/// Returns on every rank the values of every rank's `local`, one after the other in rank order: what a computation
/// split by shareOf() gathers when every rank needs the whole result.
std::vector<double> concatenatedOnEveryRank(const Ranks& ranks, const std::vector<double>& local);

/// Returns on every rank each rank's `value`, in rank order (counts and sizes, from which a rank takes its offset:
/// the sum of the values before its own).
std::vector<std::uint64_t> valueOfEveryRank(const Ranks& ranks, std::uint64_t value);

/// Returns on every rank the sum, entry by entry, of every rank's `local` (all of the same length): counts that
/// the ranks make of one set of items.
std::vector<std::uint64_t> sumOnEveryRank(const Ranks& ranks, const std::vector<std::uint64_t>& local);

/// Appends plain values to a byte string and reads them back, for what ranks send each other (one machine's byte
/// order: the ranks of one job run the same build).
class Packer {
public:
    template <typename T>
    void put(const T& value)
    {
        m_bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
    }
    template <typename T>
    void putVector(const std::vector<T>& values)
    {
        put<std::uint64_t>(values.size());
        m_bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
    }
    std::string& bytes() { return m_bytes; }

private:
    std::string m_bytes;
};

class Unpacker {
public:
    explicit Unpacker(std::string_view bytes)
        : m_bytes(bytes)
    {}
    template <typename T>
    T get()
    {
        T value{};
        take(&value, sizeof(T));
        return value;
    }
    template <typename T>
    std::vector<T> getVector()
    {
        const auto count = get<std::uint64_t>();
        if (count > m_bytes.size() / sizeof(T))
            fail(); // before allocating what the bytes cannot hold
        std::vector<T> values(count);
        take(values.data(), values.size() * sizeof(T));
        return values;
    }

private:
    void take(void* out, std::size_t n);
    [[noreturn]] static void fail();
    std::string_view m_bytes;
};

} // namespace meridian
