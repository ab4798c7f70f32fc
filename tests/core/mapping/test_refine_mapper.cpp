#include "mapping_fixtures.h"

#include "core/common/random.h"

#include <functional>
#include <limits>
#include <mutex>

using namespace meridian;
using namespace meridian::mapping;

namespace {

/// A random 12-process problem on 3 sites of 4 slots with a random asymmetric network.
MappingProblem randomInstance(std::uint64_t seed)
{
    Random random(seed);
    std::vector<model::Site> sites{test::site("a", 10, 10, 4, 1), test::site("b", 40, 100, 4, 1),
                                   test::site("c", -20, -60, 4, 1)};
    const auto topo = *model::Topology::create(sites);
    model::Network net(3);
    for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) {
            const bool same = k == l;
            net.set(model::NetworkQuantity::Latency, k, l,
                    same ? 0.05 + random.uniform01() : 5.0 + 150.0 * random.uniform01());
            net.set(model::NetworkQuantity::Bandwidth, k, l,
                    same ? 500.0 + 500.0 * random.uniform01() : 5.0 + 95.0 * random.uniform01());
        }
    std::vector<model::CommEntry> entries;
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j)
            if (i != j && random.uniform01() < 0.3)
                entries.push_back(
                    {i, j, 1e5 + 1e8 * random.uniform01(), 1.0 + static_cast<double>(random.uniformInt(100))});
    return *MappingProblem::create(topo, net, *model::CommMatrix::fromEntries(12, entries));
}

/// The exact optimum by enumerating every assignment with four processes per site.
double optimum(const MappingProblem& problem)
{
    std::vector<int> siteOf(12, -1);
    std::vector<int> load(3, 0);
    double best = std::numeric_limits<double>::infinity();
    std::function<void(int)> place = [&](int p) {
        if (p == 12) {
            best = std::min(best, problem.cost().evaluate(siteOf));
            return;
        }
        for (int s = 0; s < 3; ++s) {
            if (load[s] == 4)
                continue;
            siteOf[p] = s;
            ++load[s];
            place(p + 1);
            --load[s];
        }
    };
    place(0);
    return best;
}

/// Runs a computation's workers one after the other on the calling thread: the offered ones first (they take
/// every search) or never (the caller takes them all).
class SerialExecutor final : public Executor {
public:
    SerialExecutor(int concurrency, bool offeredRun)
        : m_concurrency(concurrency)
        , m_offeredRun(offeredRun)
    {}
    int concurrency() const override { return m_concurrency; }
    void shareWork(int workers, const Worker& worker) override
    {
        offered = workers;
        if (m_offeredRun)
            for (int w = workers - 1; w >= 1; --w)
                worker(w);
        worker(0);
    }
    int offered = 0;

private:
    int m_concurrency;
    bool m_offeredRun;
};

} // namespace

class TestRefineMapper : public QObject {
    Q_OBJECT

private:
    Registry<Mapper> m_registry;

private Q_SLOTS:
    void initTestCase() { registerBuiltinMappers(m_registry); }

    void reachesTheExactOptimumOnSmallInstances()
    {
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        int hits = 0;
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            const MappingProblem problem = randomInstance(seed);
            const double best = optimum(problem);
            auto r = refine->map(problem, seed, feedback);
            QVERIFY(r);
            const double cost = problem.cost().evaluate(r->placement.site);
            QVERIFY(cost >= best * (1 - 1e-12));
            if (cost <= best * (1 + 1e-9))
                ++hits;
        }
        qInfo("refine reached the exact optimum in %d of 100 instances", hits);
        QVERIFY2(hits >= 90, qPrintable(QString("only %1 of 100").arg(hits)));
    }

    void isNeverWorseThanItsStart()
    {
        const auto topo = test::fourRegions({24, 16, 16, 8}, 2);
        const Feedback feedback;
        for (auto pattern : {synth::Pattern::LU, synth::Pattern::KMeans, synth::Pattern::DNN, synth::Pattern::FT}) {
            const auto problem = test::makeProblem(pattern, 64, topo, 0.2, 4);
            for (const char* start : {"random", "greedy", "geo", "scotch-bw", "topology-aware", "mpipp"}) {
                auto base = m_registry.find(start)->map(problem, 3, feedback);
                const auto values = *ParamValues::parse(m_registry.find("refine")->parameters(),
                                                        {std::string("start=") + start});
                auto refined = m_registry.find("refine")->map(problem, values, 3, feedback);
                QVERIFY(base && refined);
                const double before = problem.cost().evaluate(base->placement.site);
                const double after = problem.cost().evaluate(refined->placement.site);
                QVERIFY2(after <= before,
                         qPrintable(QString("%1 from %2: %3 > %4")
                                        .arg(synth::patternId(pattern).data(), start)
                                        .arg(after)
                                        .arg(before)));
            }
        }
    }

    void startsFromAnInputPlacementAndKeepsAnOptimalOne()
    {
        const MappingProblem problem = randomInstance(77);
        const Feedback feedback;
        auto first = m_registry.find("refine")->map(problem, 1, feedback);
        QVERIFY(first);
        auto withStart = problem.withStart(first->placement);
        QVERIFY(withStart);
        const auto values = *ParamValues::parse(m_registry.find("refine")->parameters(), {"start=input", "restarts=0"});
        auto again = m_registry.find("refine")->map(*withStart, values, 1, feedback);
        QVERIFY(again);
        QVERIFY(problem.cost().evaluate(again->placement.site) <= problem.cost().evaluate(first->placement.site));
        auto noStart = m_registry.find("refine")->map(problem, values, 1, feedback);
        QVERIFY(!noStart);
        QVERIFY(noStart.error().message.find("no start placement") != std::string::npos);
    }

    void annealingRespectsPinsAndCapacities()
    {
        const auto topo = test::fourRegions({24, 16, 16, 8}, 4);
        const auto problem = test::makeProblem(synth::Pattern::KMeans, 60, topo, 0.3, 8);
        const Feedback feedback;
        const auto values = *ParamValues::parse(m_registry.find("refine")->parameters(),
                                                {"annealing=true", "anneal_steps=200000", "start=random"});
        auto r = m_registry.find("refine")->map(problem, values, 5, feedback);
        QVERIFY(r);
        QVERIFY(model::checkPlacement(r->placement, topo, problem.constraints()).empty());
    }

    void givesOnePlacementForASeedOnAnyThreadCount()
    {
        const auto topo = test::fourRegions({24, 16, 16, 8}, 2);
        const auto problem = test::makeProblem(synth::Pattern::KMeans, 64, topo, 0.2, 4);
        const Mapper* refine = m_registry.find("refine");
        const Feedback reference;
        auto expected = refine->map(problem, 5, reference);
        QVERIFY(expected);
        QVERIFY(QString::fromStdString(expected->notes[1]).startsWith("8 independent searches"));
        for (auto [concurrency, offeredRun] : {std::pair{1, false}, {3, true}, {8, true}, {8, false}}) {
            SerialExecutor executor(concurrency, offeredRun);
            Feedback feedback;
            feedback.setExecutor(executor);
            auto r = refine->map(problem, 5, feedback);
            QVERIFY(r);
            QCOMPARE(executor.offered, concurrency);
            QCOMPARE(r->placement.site, expected->placement.site);
            QCOMPARE(r->placement.host, expected->placement.host);
        }
    }

    void reportsTheBestSoFarAsItImproves()
    {
        const auto topo = test::fourRegions({16, 16, 16, 16});
        const auto problem = test::makeProblem(synth::Pattern::LU, 64, topo, 0.0, 1);
        const Mapper* refine = m_registry.find("refine");
        std::mutex mutex;
        std::vector<double> reported;
        Feedback feedback;
        feedback.setBestCallback([&](double best) {
            const std::lock_guard lock(mutex);
            reported.push_back(best);
        });
        auto r = refine->map(problem, *ParamValues::parse(refine->parameters(), {"start=random"}), 2, feedback);
        QVERIFY(r);
        const double cost = problem.cost().evaluate(r->placement.site);
        QVERIFY(reported.size() >= 2);
        QVERIFY(std::is_sorted(reported.rbegin(), reported.rend()));
        QCOMPARE(reported.back(), cost);
        const auto& curve = r->searchCurve;
        QCOMPARE(curve.size(), reported.size());
        for (std::size_t i = 1; i < curve.size(); ++i) {
            QVERIFY(curve[i].first >= curve[i - 1].first);
            QVERIFY(curve[i].second < curve[i - 1].second);
        }
        QCOMPARE(curve.back().second, cost);
    }

    void stopsAtItsTimeLimitWithTheBestSoFar()
    {
        const auto topo = test::fourRegions({16, 16, 16, 16});
        const auto problem = test::makeProblem(synth::Pattern::BT, 64, topo, 0.2, 3);
        const Mapper* refine = m_registry.find("refine");
        const auto values = *ParamValues::parse(refine->parameters(),
                                                {"start=random", "anneal_steps=1000000000", "time_limit_s=0.3",
                                                 "restarts=0"});
        const Feedback feedback;
        auto r = refine->map(problem, values, 1, feedback);
        QVERIFY(r);
        QVERIFY(model::checkPlacement(r->placement, topo, problem.constraints()).empty());
        const auto limited = std::find_if(r->notes.begin(), r->notes.end(),
                                          [](const std::string& note) { return note.find("time limit") != note.npos; });
        QVERIFY(limited != r->notes.end());
        QVERIFY(r->searchCurve.back().second < r->searchCurve.front().second);
    }
};

QTEST_GUILESS_MAIN(TestRefineMapper)
#include "test_refine_mapper.moc"
