#pragma once

// Ranks as threads of one process, for tests of computations split over MPI ranks without MPI.

#include "core/common/ranks.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace meridian::test {

/// Ranks as threads of one process: every call is a meeting of all of them.
class ThreadRanks final : public Ranks {
public:
    struct Board {
        explicit Board(int size)
            : posted(static_cast<std::size_t>(size))
        {}
        std::mutex mutex;
        std::condition_variable changed;
        std::vector<std::string> posted;
        int arrived = 0;
        int left = 0;
        std::uint64_t round = 0;
        std::map<std::pair<int, int>, std::deque<std::string>> mail; ///< (from, to): what send() left
    };
    ThreadRanks(Board& board, int rank)
        : m_board(board)
        , m_rank(rank)
    {}
    int rank() const override { return m_rank; }
    int size() const override { return static_cast<int>(m_board.posted.size()); }
    std::vector<std::string> gather(std::string_view bytes) const override
    {
        auto all = meet(std::string(bytes));
        return isRoot() ? all : std::vector<std::string>{};
    }
    void broadcast(std::string& bytes) const override { bytes = meet(bytes)[0]; }
    bool all(bool ok) const override
    {
        const auto votes = meet(ok ? "1" : "0");
        return std::all_of(votes.begin(), votes.end(), [](const std::string& v) { return v == "1"; });
    }
    std::vector<std::string> exchange(const std::vector<std::string>& toEach) const override
    {
        Packer mine;
        for (const auto& bytes : toEach)
            mine.putVector(std::vector<char>(bytes.begin(), bytes.end()));
        std::vector<std::string> received;
        for (const auto& posted : meet(mine.bytes())) {
            Unpacker in(posted);
            for (int r = 0; r <= m_rank; ++r) {
                const auto bytes = in.getVector<char>();
                if (r == m_rank)
                    received.emplace_back(bytes.begin(), bytes.end());
            }
        }
        return received;
    }
    void send(int to, std::string_view bytes) const override
    {
        std::lock_guard lock(m_board.mutex);
        m_board.mail[{m_rank, to}].emplace_back(bytes);
        m_board.changed.notify_all();
    }
    std::string receive(int from) const override
    {
        std::unique_lock lock(m_board.mutex);
        auto& box = m_board.mail[{from, m_rank}];
        m_board.changed.wait(lock, [&] { return !box.empty(); });
        std::string bytes = std::move(box.front());
        box.pop_front();
        return bytes;
    }

private:
    /// Posts this rank's bytes and returns everyone's once all have posted.
    std::vector<std::string> meet(std::string bytes) const
    {
        std::unique_lock lock(m_board.mutex);
        m_board.changed.wait(lock, [&] { return m_board.left == 0; }); // the last meeting is over
        const std::uint64_t round = m_board.round;
        m_board.posted[static_cast<std::size_t>(m_rank)] = std::move(bytes);
        if (++m_board.arrived == size()) {
            m_board.arrived = 0;
            m_board.left = size();
            ++m_board.round;
            m_board.changed.notify_all();
        } else {
            m_board.changed.wait(lock, [&] { return m_board.round != round; });
        }
        auto all = m_board.posted;
        if (--m_board.left == 0)
            m_board.changed.notify_all();
        return all;
    }
    Board& m_board;
    int m_rank;
};

/// Runs `work(ranks)` on `size` threads, each one rank.
inline void onRanks(int size, const std::function<void(const Ranks&)>& work)
{
    ThreadRanks::Board board(size);
    std::vector<std::thread> threads;
    for (int r = 0; r < size; ++r)
        threads.emplace_back([&, r] { work(ThreadRanks(board, r)); });
    for (auto& t : threads)
        t.join();
}

} // namespace meridian::test
