// Ranks: the shares of a count, the messages ranks send, and a failure on one rank reaching all of them; the
// Monte Carlo mapper over three ranks (threads standing in for MPI processes) gives one process's result.

#include "core/common/ranks.h"
#include "core/mapping/builtin_mappers.h"
#include "core/model/network_estimator.h"
#include "test_support.h"
#include "thread_ranks.h"

#include <QTest>

using namespace meridian;

class TestRanks : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sharesCoverTheItemsInRankOrder()
    {
        for (std::int64_t count : {0, 1, 2, 7, 30, 1000003})
            for (int size : {1, 2, 3, 4, 64}) {
                std::int64_t next = 0;
                for (int r = 0; r < size; ++r) {
                    const Share s = shareOf(count, r, size);
                    QCOMPARE(s.begin, next);
                    QVERIFY(s.end - s.begin == count / size || s.end - s.begin == count / size + 1);
                    next = s.end;
                }
                QCOMPARE(next, count);
            }
    }

    void packedValuesComeBack()
    {
        Packer out;
        out.put(3.5);
        out.putVector(std::vector<std::int64_t>{4, -5});
        out.putVector(std::vector<int>{});
        Unpacker in(out.bytes());
        QCOMPARE(in.get<double>(), 3.5);
        QCOMPARE(in.getVector<std::int64_t>(), (std::vector<std::int64_t>{4, -5}));
        QVERIFY(in.getVector<int>().empty());
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, in.get<char>());
    }

    void everyRankGetsEveryRanksValuesInRankOrder()
    {
        QCOMPARE(concatenatedOnEveryRank(Ranks::single(), {1.5, 2.5}), (std::vector<double>{1.5, 2.5}));
        // Three ranks with shares of 2, 0 and 1 values (a rank may have nothing to give).
        std::vector<std::vector<double>> got(3);
        test::onRanks(3, [&](const Ranks& ranks) {
            const std::vector<std::vector<double>> local{{1.0, 2.0}, {}, {3.0}};
            got[static_cast<std::size_t>(ranks.rank())] = concatenatedOnEveryRank(ranks,
                                                                                  local[static_cast<std::size_t>(
                                                                                      ranks.rank())]);
        });
        for (const auto& values : got)
            QCOMPARE(values, (std::vector<double>{1.0, 2.0, 3.0}));
    }

    void exchangeAndSendReachTheirRanks()
    {
        QCOMPARE(Ranks::single().exchange({"x"}), (std::vector<std::string>{"x"}));
        QCOMPARE(valueOfEveryRank(Ranks::single(), 7), (std::vector<std::uint64_t>{7}));
        std::vector<std::vector<std::string>> received(3);
        std::vector<std::string> folded(3);
        std::vector<std::vector<std::uint64_t>> values(3);
        test::onRanks(3, [&](const Ranks& ranks) {
            const int me = ranks.rank();
            std::vector<std::string> toEach;
            for (int r = 0; r < 3; ++r)
                toEach.push_back(std::to_string(me) + ">" + std::to_string(r));
            received[static_cast<std::size_t>(me)] = ranks.exchange(toEach);
            // A fold through the ranks in order: each appends its rank to what the one before it sent.
            std::string so_far = me == 0 ? std::string() : ranks.receive(me - 1);
            so_far += std::to_string(me);
            if (me + 1 < ranks.size())
                ranks.send(me + 1, so_far);
            folded[static_cast<std::size_t>(me)] = so_far;
            values[static_cast<std::size_t>(me)] = valueOfEveryRank(ranks, static_cast<std::uint64_t>(10 * me));
        });
        for (int r = 0; r < 3; ++r) {
            const auto to = std::to_string(r);
            QCOMPARE(received[static_cast<std::size_t>(r)], (std::vector<std::string>{"0>" + to, "1>" + to, "2>" + to}));
            QCOMPARE(values[static_cast<std::size_t>(r)], (std::vector<std::uint64_t>{0, 10, 20}));
        }
        QCOMPARE(folded, (std::vector<std::string>{"0", "01", "012"}));
    }

    void aFailureOnOneRankReachesEveryRank()
    {
        QVERIFY(agreeOn(Ranks::single(), {}));
        QCOMPARE(agreeOn(Ranks::single(), makeError(ErrorCode::InvalidInput, "bad")).error().message,
                 std::string("bad"));
        std::vector<std::string> said(3);
        test::onRanks(3, [&](const Ranks& ranks) {
            const Status local = ranks.rank() == 0
                ? Status{}
                : Status(makeError(ErrorCode::Internal, "no memory " + std::to_string(ranks.rank())));
            const Status agreed = agreeOn(ranks, local);
            said[static_cast<std::size_t>(ranks.rank())] = agreed ? "ok" : agreed.error().message;
        });
        for (const auto& s : said)
            QCOMPARE(s, std::string("rank 1 of 3: no memory 1"));
        std::vector<int> agreed(2, 0);
        test::onRanks(2, [&](const Ranks& ranks) {
            agreed[static_cast<std::size_t>(ranks.rank())] = agreeOn(ranks, {}) ? 1 : 0;
        });
        QCOMPARE(agreed, (std::vector<int>{1, 1}));
    }

    void monteCarloOverRanksIsOneProcesssResult()
    {
        auto topo = *model::Topology::create(
            {test::site("a", 0, 0, 1, 8), test::site("b", 10, 10, 1, 8), test::site("c", 40, 40, 1, 8)});
        std::vector<model::CommEntry> entries;
        for (int p = 0; p < 12; ++p)
            entries.push_back({p, (p + 1) % 12, 1e6 * (p + 1), 10});
        auto comm = *model::CommMatrix::fromEntries(12, entries);
        model::Network network(topo.siteCount());
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                network.set(model::NetworkQuantity::Latency, i, j, i == j ? 0.01 : 10.0 * (1 + i + j));
                network.set(model::NetworkQuantity::Bandwidth, i, j, i == j ? 1000.0 : 10.0 / (1 + i * j));
            }
        auto problem = *mapping::MappingProblem::create(topo, model::NetworkEstimator::complete(network, topo), comm);
        Registry<mapping::Mapper> registry;
        mapping::registerBuiltinMappers(registry);
        const auto* mc = registry.find("monte-carlo");
        // 13 chunks of 4096: shares of 5, 4 and 4 chunks; the 30,000 kept costs span ranks 0 and 1.
        auto values = *ParamValues::parse(mc->parameters(), {"samples=50000", "keep=30000", "threads=2"});
        const Feedback alone;
        const auto one = mc->map(problem, values, 3, alone);
        QVERIFY(one);
        const auto& expected = *one;
        QCOMPARE(expected.costSamples.size(), std::size_t{30000});
        std::vector<mapping::MappingResult> results(3);
        std::vector<int> mapped(3, 0);
        test::onRanks(3, [&](const Ranks& ranks) {
            Feedback feedback;
            feedback.setRanks(ranks);
            auto result = mc->map(problem, values, 3, feedback);
            if (!result)
                return;
            mapped[static_cast<std::size_t>(ranks.rank())] = 1;
            results[static_cast<std::size_t>(ranks.rank())] = std::move(*result);
        });
        QCOMPARE(mapped, (std::vector<int>{1, 1, 1}));
        QCOMPARE(results[0].costSamples, expected.costSamples);
        QCOMPARE(results[0].bestCurve, expected.bestCurve);
        QCOMPARE(results[0].notes, expected.notes);
        for (const auto& r : results)
            QCOMPARE(r.placement.site, expected.placement.site);
    }
};

QTEST_GUILESS_MAIN(TestRanks)
#include "test_ranks.moc"
