#include "core/collectives/schedule.h"

#include <QtTest>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace meridian;
using namespace meridian::collectives;

namespace {

/// p processes, each on a node of its own, `sites` sites in turn (rank r at site r mod sites).
Layout spread(int p, int sites)
{
    Layout l;
    for (int r = 0; r < p; ++r) {
        l.site.push_back(r % sites);
        l.node.push_back(r);
    }
    return l;
}

/// For every process, which processes' data it holds once the schedule ran, counting only what the messages'
/// dependencies guarantee: a message carries what its sender had from its own data and the messages it waited for.
std::vector<std::vector<char>> knowledge(const Schedule& s)
{
    const int p = s.processes;
    std::vector<std::vector<char>> carried(s.messages.size(), std::vector<char>(static_cast<std::size_t>(p), 0));
    std::vector<std::vector<char>> held(static_cast<std::size_t>(p), std::vector<char>(static_cast<std::size_t>(p), 0));
    for (int r = 0; r < p; ++r)
        held[static_cast<std::size_t>(r)][static_cast<std::size_t>(r)] = 1;
    for (std::size_t k = 0; k < s.messages.size(); ++k) {
        const Message& m = s.messages[k];
        carried[k][static_cast<std::size_t>(m.from)] = 1;
        for (int need : m.needs) {
            if (need < 0 || need >= static_cast<int>(k))
                return {};
            for (int r = 0; r < p; ++r)
                carried[k][static_cast<std::size_t>(r)] |= carried[static_cast<std::size_t>(need)]
                                                                  [static_cast<std::size_t>(r)];
        }
        for (int r = 0; r < p; ++r)
            held[static_cast<std::size_t>(m.to)][static_cast<std::size_t>(r)] |= carried[k][static_cast<std::size_t>(r)];
    }
    return held;
}

bool everyoneHoldsEveryone(const Schedule& s)
{
    const auto held = knowledge(s);
    if (held.empty())
        return false;
    for (const auto& row : held)
        if (std::find(row.begin(), row.end(), 0) != row.end())
            return false;
    return true;
}

Schedule build(Operation op, Algorithm a, int p, int sites = 1, int root = 0, double bytes = 1024.0, int chunks = 1)
{
    CollectiveSpec spec;
    spec.operation = op;
    spec.algorithm = a;
    spec.root = root;
    spec.bytes = bytes;
    spec.chunks = chunks;
    auto s = buildSchedule(spec, spread(p, sites), nullptr);
    if (!s)
        qFatal("%s", s.error().message.c_str());
    return *s;
}

} // namespace

class TestSchedule : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every broadcast brings the root's data to every process, each receiving it once (the chain once per chunk),
    // and the reduce (the broadcast reversed) brings every process's data to the root. Root 3 of 11 processes on
    // 3 sites, so that no algorithm gets a power of two or the root at rank 0.
    void broadcastsReachEveryoneAndReducesReachTheRoot()
    {
        const int p = 11, root = 3;
        for (Algorithm a : algorithmsFor(Operation::Broadcast)) {
            if (a == Algorithm::TopologyChain)
                continue; // needs a network: test_collective_planner
            const int chunks = takesChunks(a) ? 4 : 1;
            const Schedule down = build(Operation::Broadcast, a, p, 3, root, 1024.0, chunks);
            const auto held = knowledge(down);
            QVERIFY2(!held.empty(), algorithmId(a));
            for (int r = 0; r < p; ++r)
                QVERIFY2(held[static_cast<std::size_t>(r)][root], algorithmId(a));
            if (a != Algorithm::Bucket) {
                std::vector<int> received(p, 0);
                for (const Message& m : down.messages)
                    ++received[static_cast<std::size_t>(m.to)];
                for (int r = 0; r < p; ++r)
                    QCOMPARE(received[static_cast<std::size_t>(r)], r == root ? 0 : chunks);
            }
        }
        for (Algorithm a : algorithmsFor(Operation::Reduce)) {
            if (a == Algorithm::TopologyChain)
                continue;
            const Schedule up = build(Operation::Reduce, a, p, 3, root, 1024.0, takesChunks(a) ? 4 : 1);
            const auto held = knowledge(up);
            QVERIFY2(std::find(held[root].begin(), held[root].end(), 0) == held[root].end(), algorithmId(a));
        }
    }

    // The all-to-all family: after allreduce, allgather, all-to-all and the shuffle every process holds something
    // of every process, for every algorithm, on 8 processes (power of two) and, where allowed, 11.
    void allToAllOperationsMixEveryone()
    {
        for (Operation op : {Operation::Allreduce, Operation::Allgather, Operation::Alltoall, Operation::Shuffle})
            for (Algorithm a : algorithmsFor(op))
                for (int p : {8, 11}) {
                    const bool powerOfTwoOnly = a == Algorithm::Hypercube
                        || (a == Algorithm::RecursiveDoubling && op == Operation::Allgather);
                    if (p == 11 && powerOfTwoOnly)
                        continue;
                    const Schedule s = build(op, a, p, 3);
                    QVERIFY2(everyoneHoldsEveryone(s),
                             (std::string(operationId(op)) + " " + algorithmId(a) + " " + std::to_string(p)).c_str());
                }
    }

    // The bytes each algorithm sends, by its definition, for p = 8 and n = 8192.
    void bytesSentMatchTheAlgorithms()
    {
        const double n = 8192.0;
        const auto total = [&](Operation op, Algorithm a) { return build(op, a, 8, 2, 0, n).totalBytes(); };
        QCOMPARE(total(Operation::Broadcast, Algorithm::Flat), 7 * n);
        QCOMPARE(total(Operation::Broadcast, Algorithm::Mst), 7 * n);
        // Bucket: the scatter's 7 blocks, then 7 ring steps of 8 blocks of n / 8.
        QCOMPARE(total(Operation::Broadcast, Algorithm::Bucket), 7 * n / 8 + 7 * n);
        QCOMPARE(total(Operation::Scatter, Algorithm::Flat), 7 * n / 8);
        QCOMPARE(total(Operation::Scatter, Algorithm::Mst), 12 * n / 8); // 4 + 2 + 2 + 1 + 1 + 1 + 1 blocks
        QCOMPARE(total(Operation::Gather, Algorithm::Mst), 12 * n / 8);
        QCOMPARE(total(Operation::Allreduce, Algorithm::Ring), 2 * 7 * n);           // 2 (p - 1) p blocks of n / p
        QCOMPARE(total(Operation::Allreduce, Algorithm::RecursiveDoubling), 24 * n); // log2 p steps of p n
        QCOMPARE(total(Operation::Allreduce, Algorithm::Rabenseifner), 2 * 7 * n);   // 2 p n (1 - 1/p)
        QCOMPARE(total(Operation::Allgather, Algorithm::Ring), 7 * n);
        QCOMPARE(total(Operation::Allgather, Algorithm::RecursiveDoubling), 7 * n);
        QCOMPARE(total(Operation::Alltoall, Algorithm::Flat), 7 * n);
        QCOMPARE(total(Operation::Alltoall, Algorithm::Hypercube), 3 * 8 * n / 2);
    }

    // Twister's local reduction: 80 map tasks per process; without it a process sends all their outputs, with it
    // their merge (one output, K-means' case): 80 times less.
    void localReductionShrinksTheShuffle()
    {
        CollectiveSpec spec;
        spec.operation = Operation::Shuffle;
        spec.algorithm = Algorithm::Flat;
        spec.bytes = 2e9;
        spec.shuffle.mapTasks = 80;
        const Layout layout = spread(5, 5);
        const double plain = buildSchedule(spec, layout, nullptr)->totalBytes();
        spec.shuffle.localReduction = true;
        const double reduced = buildSchedule(spec, layout, nullptr)->totalBytes();
        QCOMPARE(plain, 5 * 80 * 2e9 * 4 / 5);
        QCOMPARE(plain / reduced, 80.0);
    }

    void reversingTwiceGivesTheSchedule()
    {
        const Schedule s = build(Operation::Broadcast, Algorithm::Chain, 6, 2, 1, 600.0, 3);
        const Schedule back = reversed(reversed(s));
        QCOMPARE(back.messages.size(), s.messages.size());
        for (std::size_t k = 0; k < s.messages.size(); ++k) {
            QCOMPARE(back.messages[k].from, s.messages[k].from);
            QCOMPARE(back.messages[k].to, s.messages[k].to);
            auto a = back.messages[k].needs;
            auto b = s.messages[k].needs;
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            QCOMPARE(a, b);
        }
    }

    void refusesBadRequests()
    {
        const auto error = [](CollectiveSpec spec, int p = 6) {
            auto s = buildSchedule(spec, spread(p, 2), nullptr);
            return s ? std::string() : s.error().message;
        };
        CollectiveSpec ok;
        ok.bytes = 100.0;
        QVERIFY(error(ok).empty());
        CollectiveSpec rootOut = ok;
        rootOut.root = 6;
        QVERIFY(error(rootOut).find("the root 6 is not in the communicator: its ranks are 0 to 5") != std::string::npos);
        CollectiveSpec zero = ok;
        zero.bytes = 0.0;
        QVERIFY(error(zero).find("positive number of bytes") != std::string::npos);
        CollectiveSpec negative = ok;
        negative.bytes = -5.0;
        QVERIFY(!error(negative).empty());
        CollectiveSpec tooManyChunks = ok;
        tooManyChunks.algorithm = Algorithm::Chain;
        tooManyChunks.chunks = 101;
        QVERIFY(error(tooManyChunks).find("101 chunks of a 100-byte message") != std::string::npos);
        CollectiveSpec chunksForMst = ok;
        chunksForMst.chunks = 2;
        QVERIFY(error(chunksForMst).find("only chain and topology-chain") != std::string::npos);
        CollectiveSpec ringBroadcast = ok;
        ringBroadcast.algorithm = Algorithm::Ring;
        QCOMPARE(error(ringBroadcast),
                 std::string("ring does not implement broadcast; these do: flat, mst, bucket, chain, topology-chain, "
                             "hierarchical"));
        CollectiveSpec hypercube = ok;
        hypercube.operation = Operation::Alltoall;
        hypercube.algorithm = Algorithm::Hypercube;
        QVERIFY(error(hypercube).find("needs a power-of-two process count, not 6") != std::string::npos);
        QVERIFY(error(hypercube, 8).empty());
        CollectiveSpec huge = ok;
        huge.operation = Operation::Alltoall;
        huge.algorithm = Algorithm::Flat;
        QVERIFY(error(huge, 4096).find("at most 4000000 are evaluated") != std::string::npos);
        CollectiveSpec noTasks = ok;
        noTasks.operation = Operation::Shuffle;
        noTasks.algorithm = Algorithm::Flat;
        noTasks.shuffle.mapTasks = 0;
        QVERIFY(error(noTasks).find("at least one map task") != std::string::npos);
    }

    void idsRoundTrip()
    {
        for (Operation op : allOperations()) {
            QCOMPARE(parseOperation(operationId(op)), std::optional<Operation>(op));
            for (Algorithm a : algorithmsFor(op))
                QCOMPARE(parseAlgorithm(algorithmId(a)), std::optional<Algorithm>(a));
        }
        QVERIFY(!parseAlgorithm("binomial"));
        QCOMPARE(parseOperation("bcast"), std::optional<Operation>(Operation::Broadcast));
    }
};

QTEST_APPLESS_MAIN(TestSchedule)
#include "test_schedule.moc"
