#include "mapping_fixtures.h"

#include "core/common/random.h"
#include "core/mapping/local_search.h"
#include "core/mapping/search_cost.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
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

/// The lowest `value` over every assignment of 12 processes to 3 sites of `slots` slots each.
double lowest(const std::function<double(const std::vector<int>&)>& value, int slots)
{
    std::vector<int> siteOf(12, -1);
    std::vector<int> load(3, 0);
    double best = std::numeric_limits<double>::infinity();
    std::function<void(int)> place = [&](int p) {
        if (p == 12) {
            best = std::min(best, value(siteOf));
            return;
        }
        for (int s = 0; s < 3; ++s) {
            if (load[s] == slots)
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

/// The exact optimum by enumerating every assignment with four processes per site.
double optimum(const MappingProblem& problem)
{
    return lowest([&](const std::vector<int>& siteOf) { return problem.cost().evaluate(siteOf); }, 4);
}

/// A random 12-process problem on 3 priced sites of 3 nodes x 2 slots (room for 18), so that moves change the
/// nodes in use; instance prices 1, 3 and 0.5 USD per node-hour, egress 0.09, 0.02 and 0.12 USD per GB.
MappingProblem pricedInstance(std::uint64_t seed, bool instancePrices = true)
{
    const MappingProblem base = randomInstance(seed);
    std::vector<model::Site> sites{test::site("a", 10, 10, 3, 2), test::site("b", 40, 100, 3, 2),
                                   test::site("c", -20, -60, 3, 2)};
    const double hourly[] = {1.0, 3.0, 0.5};
    const double egress[] = {0.09, 0.02, 0.12};
    for (int s = 0; s < 3; ++s) {
        sites[s].instanceUsdPerHour = instancePrices ? hourly[s] : model::Site::kUnknown;
        sites[s].egressUsdPerGB = egress[s];
    }
    return *MappingProblem::create(*model::Topology::create(sites), base.network(), base.comm());
}

/// The prices of a priced instance's sites (2 slots per node).
BinPrices pricesOf(const MappingProblem& problem)
{
    BinPrices prices;
    for (const auto& site : problem.topology().sites()) {
        prices.instanceUsdPerHour.push_back(site.instanceUsdPerHour);
        prices.egressUsdPerGB.push_back(site.egressUsdPerGB);
        prices.slotsPerNode.push_back(2);
    }
    return prices;
}

/// The dollars-only SearchCost of a priced instance.
SearchCost dollarsOf(const MappingProblem& problem)
{
    return SearchCost(problem.cost(), problem.comm(), pricesOf(problem), 0.0, 1.0);
}

/// The random instance of `seed` on 3 sites of 5 slots (room for 15, so moves are possible) with site b's uplink
/// given (30 MB/s) and site a's downlink (20 MB/s): shared links that bind.
MappingProblem contendedInstance(std::uint64_t seed)
{
    const MappingProblem base = randomInstance(seed);
    std::vector<model::Site> sites{test::site("a", 10, 10, 5, 1), test::site("b", 40, 100, 5, 1),
                                   test::site("c", -20, -60, 5, 1)};
    sites[1].uplinkMBps = 30.0;
    sites[0].downlinkMBps = 20.0;
    return *MappingProblem::create(*model::Topology::create(sites), base.network(), base.comm());
}

/// One step of a random walk over 12 processes on 3 sites, as a search takes it: a move of a random process to a
/// random site (even trials) or a swap of two, its change from `cost`, and the loads carried along by apply (never
/// rebuilt). `after` gets the new assignment.
SearchState walkStep(const SearchCost& cost, cost::LinkLoads& links, const std::vector<int>& siteOf,
                     const SearchState& at, Random& random, int trial, std::vector<int>& after)
{
    after = siteOf;
    const int p = static_cast<int>(random.uniformInt(12));
    if (trial % 2 == 0) {
        const int to = static_cast<int>(random.uniformInt(3));
        std::vector<int> load(3, 0);
        for (int s : siteOf)
            ++load[s];
        const SearchState d = cost.moveDelta(siteOf, at, load, links, p, to);
        after[p] = to;
        cost.apply(links, siteOf, p, to);
        return d;
    }
    const int q = static_cast<int>(random.uniformInt(12));
    const SearchState d = cost.swapDelta(siteOf, at, links, p, q);
    std::swap(after[p], after[q]);
    std::vector<int> step = siteOf;
    cost.apply(links, step, p, siteOf[q]);
    step[p] = siteOf[q];
    cost.apply(links, step, q, siteOf[p]);
    return d;
}

/// Eight processes pinned in site A each receive 10^8 B (one message) from a free partner; B (8 slots, a 200 MB/s
/// uplink) has a 400 MB/s link to A, C (8 slots) a 150 MB/s one. Alpha-beta puts every partner in B, where they
/// share B's uplink; the busiest link is lowest with five in B and three in C (2.5 s).
MappingProblem sharedUplinkInstance()
{
    std::vector<model::Site> sites{test::site("A", 0, 0, 8, 1), test::site("B", 10, 10, 8, 1),
                                   test::site("C", -10, 20, 8, 1)};
    sites[1].uplinkMBps = 200.0;
    const double latency[3][3] = {{0.5, 10, 10}, {10, 0.5, 10}, {10, 10, 0.5}};
    const double bandwidth[3][3] = {{1000, 400, 150}, {400, 1000, 400}, {150, 400, 1000}};
    model::Network net(3);
    for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) {
            net.set(model::NetworkQuantity::Latency, k, l, latency[k][l]);
            net.set(model::NetworkQuantity::Bandwidth, k, l, bandwidth[k][l]);
        }
    std::vector<model::CommEntry> entries;
    std::vector<model::Pin> pins;
    for (int i = 0; i < 8; ++i) {
        entries.push_back({8 + i, i, 1e8, 1.0});
        pins.push_back({i, 0});
    }
    return *MappingProblem::create(*model::Topology::create(sites), net, *model::CommMatrix::fromEntries(16, entries),
                                   *model::Constraints::fromPins(pins));
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
        offered = std::max(offered, workers);
        if (m_offeredRun)
            for (int w = workers - 1; w >= 1; --w)
                worker(w);
        worker(0);
    }
    int offered = 0; ///< the most workers offered by one call (the searches; the hosts' sites offer fewer)

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

    // maxPasses bounds the descent passes of a whole run: one pass from a random start stops above where an
    // unbounded descent ends, more passes never end higher, and a run with restarts stops when the passes are spent
    // (so its result is the single pass's).
    void boundsTheDescentPassesOfARun()
    {
        const auto topo = test::fourRegions({256, 256, 256, 256});
        const auto problem = test::makeProblem(synth::Pattern::KMeans, 1024, topo);
        const Mapper* random = m_registry.find("random");
        const Feedback quiet;
        auto start = random->map(problem, 3, quiet);
        QVERIFY(start);
        std::vector<int> capacity;
        for (int s = 0; s < problem.siteCount(); ++s)
            capacity.push_back(problem.topology().capacity(s));
        const LocalSearch search(problem.cost(), capacity, std::vector<bool>(problem.processCount(), true));
        const auto runWith = [&](int passes, int restarts) {
            std::vector<int> assignment = start->placement.site;
            LocalSearchOptions options;
            options.maxPasses = passes;
            options.restarts = restarts;
            Random r(5);
            return search.run(assignment, options, r, FeedbackRange(quiet, 0.0, 1.0));
        };
        const double one = runWith(1, 0);
        const double unbounded = runWith(1000000, 0);
        QVERIFY(one > unbounded * (1.0 + 1e-9));
        QVERIFY(runWith(3, 0) <= one);
        QCOMPARE(runWith(1, 8), one);
    }

    void reachesTheExactOptimumOnSmallInstances()
    {
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        int hits = 0;
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            const MappingProblem problem = randomInstance(seed);
            const double best = optimum(problem);
            auto r = refine->map(problem, *ParamValues::parse(refine->parameters(), {"objective=alpha-beta"}), seed,
                                 feedback);
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
                                                        {std::string("start=") + start, "objective=alpha-beta"});
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
        QVERIFY(QString::fromStdString(expected->notes[2]).startsWith("8 independent searches"));
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
        auto r = refine->map(problem,
                             *ParamValues::parse(refine->parameters(), {"start=random", "objective=alpha-beta"}), 2,
                             feedback);
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
                                                 "restarts=0", "objective=alpha-beta"});
        const Feedback feedback;
        auto r = refine->map(problem, values, 1, feedback);
        QVERIFY(r);
        QVERIFY(model::checkPlacement(r->placement, topo, problem.constraints()).empty());
        const auto limited = std::find_if(r->notes.begin(), r->notes.end(),
                                          [](const std::string& note) { return note.find("time limit") != note.npos; });
        QVERIFY(limited != r->notes.end());
        QVERIFY(r->searchCurve.back().second < r->searchCurve.front().second);
    }

    void searchCostDeltasAreDifferencesOfEvaluations()
    {
        const MappingProblem problem = pricedInstance(3);
        const SearchCost cost(problem.cost(), problem.comm(), pricesOf(problem), 0.7, 40.0);
        Random random(11);
        std::vector<int> siteOf(12);
        for (int p = 0; p < 12; ++p)
            siteOf[p] = p % 3;
        for (int trial = 0; trial < 500; ++trial) {
            const SearchState at = cost.evaluate(siteOf);
            const cost::LinkLoads links = cost.links(siteOf);
            QCOMPARE(at.seconds, problem.cost().evaluate(siteOf));
            std::vector<int> load(3, 0);
            for (int s : siteOf)
                ++load[s];
            std::vector<int> after = siteOf;
            SearchState d;
            const int p = static_cast<int>(random.uniformInt(12));
            if (trial % 2 == 0) {
                const int to = static_cast<int>(random.uniformInt(3));
                if (to == siteOf[p] || load[to] == 6)
                    continue;
                d = cost.moveDelta(siteOf, at, load, links, p, to);
                after[p] = to;
            } else {
                const int q = static_cast<int>(random.uniformInt(12));
                if (siteOf[p] == siteOf[q])
                    continue;
                d = cost.swapDelta(siteOf, at, links, p, q);
                std::swap(after[p], after[q]);
            }
            const SearchState next = cost.evaluate(after);
            QVERIFY(std::abs(at.value + d.value - next.value) <= 1e-9 * std::abs(next.value));
            QVERIFY(std::abs(at.usdPerHour + d.usdPerHour - next.usdPerHour) <= 1e-12);
            QVERIFY(std::abs(at.egressUsd + d.egressUsd - next.egressUsd) <= 1e-12 * (1 + next.egressUsd));
            siteOf = std::move(after);
        }
        // The walk ended on a placement that pays both for nodes and for egress (both parts were exercised).
        const SearchState at = cost.evaluate(siteOf);
        QVERIFY(at.usdPerHour > 0.0 && at.egressUsd > 0.0);
    }

    void bottleneckDeltasAreDifferencesOfEvaluations()
    {
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const MappingProblem problem = contendedInstance(seed);
            const auto busiest = std::make_shared<const cost::BottleneckCost>(problem.topology(), problem.network(),
                                                                              problem.comm());
            const SearchCost cost(problem.cost(), busiest, 0.4, 0.6);
            Random random(seed);
            std::vector<int> siteOf(12);
            for (int p = 0; p < 12; ++p)
                siteOf[p] = p % 3;
            // The loads are carried along the walk by apply (as a search does), never rebuilt.
            cost::LinkLoads links = cost.links(siteOf);
            int changesOfTheBusiest = 0;
            for (int trial = 0; trial < 400; ++trial) {
                const SearchState at = cost.evaluate(siteOf);
                // The evaluator agrees with the busiest link of the placement's site x site traffic.
                const double reference = cost::bottleneck(problem.cost().breakdown(siteOf).trafficBytes,
                                                          problem.topology(), problem.network())
                                             .seconds;
                QVERIFY(std::abs(at.bottleneck - reference) <= 1e-12 * reference);
                QVERIFY(std::abs(cost::BottleneckCost::seconds(links) - reference) <= 1e-9 * reference);
                QVERIFY(std::abs(at.value - (0.4 * at.seconds + 0.6 * at.bottleneck)) <= 1e-12 * at.value);
                std::vector<int> after;
                const SearchState d = walkStep(cost, links, siteOf, at, random, trial, after);
                const SearchState next = cost.evaluate(after);
                QVERIFY(std::abs(at.bottleneck + d.bottleneck - next.bottleneck) <= 1e-9 * next.bottleneck);
                QVERIFY(std::abs(at.value + d.value - next.value) <= 1e-9 * next.value);
                changesOfTheBusiest += d.bottleneck != 0.0 ? 1 : 0;
                siteOf = std::move(after);
            }
            // The walk changed the busiest link often (the deltas were not all zero).
            QVERIFY(changesOfTheBusiest > 40);
        }
    }

    void stepTimeDeltasAreDifferencesOfEvaluations()
    {
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            // A ring with a few chords: few site pairs in use, so moves change the largest latency in use.
            const MappingProblem base = contendedInstance(seed);
            std::vector<model::CommEntry> entries;
            for (int i = 0; i < 12; ++i)
                entries.push_back({i, (i + 1) % 12, 1e6 * (1 + i), 10.0 + i});
            entries.push_back({0, 6, 5e7, 3.0});
            const MappingProblem problem = *MappingProblem::create(base.topology(), base.network(),
                                                                   *model::CommMatrix::fromEntries(12, entries));
            const double steps = cost::bulkSynchronousSteps(problem.comm());
            QCOMPARE(steps, 15.0); // the median of 3, 10, 11, ..., 21
            QVERIFY(steps >= 1.0);
            const auto predicted = std::make_shared<const cost::BottleneckCost>(problem.topology(), problem.network(),
                                                                                problem.comm(), steps);
            const SearchCost cost(problem.cost(), predicted, 1e-6, 1.0);
            // The value from its definition: the busiest link + steps x the largest latency between the sites of
            // two communicating processes.
            const auto reference = [&](const std::vector<int>& siteOf) {
                double slowest = 0.0;
                const auto& volume = problem.comm().volume();
                for (int i = 0; i < volume.outerSize(); ++i)
                    for (model::CommMatrix::Sparse::InnerIterator it(volume, i); it; ++it)
                        if (it.col() != i)
                            slowest = std::max(slowest,
                                               problem.network().latencyMs(siteOf[i], siteOf[it.col()]) / 1000.0);
                return cost::bottleneck(problem.cost().breakdown(siteOf).trafficBytes, problem.topology(),
                                        problem.network())
                           .seconds
                    + steps * slowest;
            };
            Random random(seed);
            std::vector<int> siteOf(12);
            for (int p = 0; p < 12; ++p)
                siteOf[p] = p % 3;
            cost::LinkLoads links = cost.links(siteOf);
            int latencyChanges = 0;
            for (int trial = 0; trial < 400; ++trial) {
                const SearchState at = cost.evaluate(siteOf);
                QVERIFY(std::abs(at.bottleneck - reference(siteOf)) <= 1e-12 * at.bottleneck);
                QVERIFY(std::abs(cost::BottleneckCost::seconds(links) - at.bottleneck) <= 1e-9 * at.bottleneck);
                std::vector<int> after;
                const SearchState d = walkStep(cost, links, siteOf, at, random, trial, after);
                const SearchState next = cost.evaluate(after);
                QVERIFY(std::abs(at.bottleneck + d.bottleneck - next.bottleneck) <= 1e-9 * next.bottleneck);
                QVERIFY(std::abs(at.value + d.value - next.value) <= 1e-9 * next.value);
                const double busiestBefore = cost::BottleneckCost::busiestLinkSeconds(predicted->loads(siteOf));
                const double busiestAfter = cost::BottleneckCost::busiestLinkSeconds(predicted->loads(after));
                latencyChanges += std::abs(d.bottleneck - (busiestAfter - busiestBefore)) > 1e-12 ? 1 : 0;
                siteOf = std::move(after);
            }
            // The latency term changed along the walk, not only the busiest link.
            QVERIFY2(latencyChanges > 10, qPrintable(QString::number(latencyChanges)));
        }
    }

    void theDefaultObjectiveReachesThePredictedTimesOptimum()
    {
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        int hits = 0;
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const MappingProblem problem = randomInstance(seed);
            const cost::BottleneckCost predicted(problem.topology(), problem.network(), problem.comm(),
                                                 cost::bulkSynchronousSteps(problem.comm()));
            const double best = lowest([&](const std::vector<int>& siteOf) { return predicted.evaluate(siteOf); }, 4);
            auto r = refine->map(problem, seed, feedback);
            QVERIFY(r);
            const double found = predicted.evaluate(r->placement.site);
            QVERIFY(found >= best * (1 - 1e-12));
            hits += found <= best * (1 + 1e-9) ? 1 : 0;
        }
        qInfo("refine's default reached the predicted time's optimum in %d of 20 instances", hits);
        QVERIFY2(hits >= 18, qPrintable(QString("only %1 of 20").arg(hits)));
    }

    void aJudgeChoosesBetweenTheLastCandidates()
    {
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        int judged = 0;
        for (std::uint64_t seed = 1; seed <= 30; ++seed) {
            std::mutex mutex;
            std::vector<std::pair<std::vector<int>, double>> calls;
            // A judge that disagrees with the searches' estimate: it prefers processes in the last sites.
            const MappingProblem problem = randomInstance(seed).withJudge(
                [&](const model::Placement& placement, const FeedbackRange&) -> Expected<double> {
                    double value = 0.0;
                    for (int s : placement.site)
                        value -= s;
                    const std::lock_guard lock(mutex);
                    calls.emplace_back(placement.site, value);
                    return value;
                });
            auto r = refine->map(problem, seed, feedback);
            QVERIFY(r);
            QVERIFY(model::checkPlacement(r->placement, problem.topology(), problem.constraints()).empty());
            if (calls.empty())
                continue;
            ++judged;
            QCOMPARE(calls.size(), std::size_t(2));
            QVERIFY(calls[0].first != calls[1].first);
            const auto best = calls[0].second <= calls[1].second ? calls[0].first : calls[1].first;
            QCOMPARE(r->placement.site, best);
            QVERIFY(std::any_of(r->notes.begin(), r->notes.end(), [](const std::string& note) {
                return note.starts_with("replayed the last two candidates");
            }));
        }
        qInfo("the judge chose in %d of 30 instances", judged);
        QVERIFY(judged > 0);
    }

    void minimisesTheBusiestLinkOrATimeAndBottleneckSumWhenAsked()
    {
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            const MappingProblem problem = contendedInstance(seed);
            const cost::BottleneckCost busiest(problem.topology(), problem.network(), problem.comm());
            // alpha-beta+bottleneck weighs each term by the start's (geo's) value.
            const auto start = m_registry.find("geo")->map(problem, seed, feedback);
            QVERIFY(start);
            const double weight = 0.7;
            const double timeWeight = (1 - weight) / problem.cost().evaluate(start->placement.site);
            const double busiestWeight = weight / busiest.evaluate(start->placement.site);
            const auto sum = [&](const std::vector<int>& siteOf) {
                return timeWeight * problem.cost().evaluate(siteOf) + busiestWeight * busiest.evaluate(siteOf);
            };
            // In one enumeration: the lowest busiest link, the lowest time among the placements that reach it
            // (the bottleneck objective's tie-break) and the lowest weighted sum.
            double bestTimeAtBest = std::numeric_limits<double>::infinity();
            double bestLink = std::numeric_limits<double>::infinity();
            double bestSum = std::numeric_limits<double>::infinity();
            lowest(
                [&](const std::vector<int>& siteOf) {
                    const double b = busiest.evaluate(siteOf);
                    const double t = problem.cost().evaluate(siteOf);
                    if (b < bestLink * (1 - 1e-12)) {
                        bestLink = b;
                        bestTimeAtBest = t;
                    } else if (b <= bestLink * (1 + 1e-12)) {
                        bestTimeAtBest = std::min(bestTimeAtBest, t);
                    }
                    bestSum = std::min(bestSum, timeWeight * t + busiestWeight * b);
                    return b;
                },
                5);
            const auto byLink = refine->map(problem,
                                            *ParamValues::parse(refine->parameters(), {"objective=bottleneck"}), seed,
                                            feedback);
            const auto byTime = refine->map(problem, seed, feedback);
            QVERIFY(byLink && byTime);
            const double found = busiest.evaluate(byLink->placement.site);
            qInfo("seed %d: busiest link %.4f s (optimum %.4f s), time objective's %.4f s", int(seed), found, bestLink,
                  busiest.evaluate(byTime->placement.site));
            QVERIFY2(found <= bestLink * (1 + 1e-9), qPrintable(QString("%1 > %2").arg(found).arg(bestLink)));
            QVERIFY(found <= busiest.evaluate(byTime->placement.site));
            const double foundTime = problem.cost().evaluate(byLink->placement.site);
            QVERIFY2(foundTime <= bestTimeAtBest * (1 + 1e-9),
                     qPrintable(QString("%1 > %2").arg(foundTime).arg(bestTimeAtBest)));
            // The weighted sum at its optimum too.
            const auto both = refine->map(problem,
                                          *ParamValues::parse(refine->parameters(),
                                                              {"objective=alpha-beta+bottleneck", "weight=0.7",
                                                               "start=geo"}),
                                          seed, feedback);
            QVERIFY(both);
            QVERIFY2(sum(both->placement.site) <= bestSum * (1 + 1e-9),
                     qPrintable(QString("%1 > %2").arg(sum(both->placement.site)).arg(bestSum)));
        }
    }

    void theBusiestLinkObjectiveSpreadsFlowsOffASharedUplink()
    {
        const MappingProblem problem = sharedUplinkInstance();
        const cost::BottleneckCost busiest(problem.topology(), problem.network(), problem.comm());
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        const auto byTime = refine->map(problem, *ParamValues::parse(refine->parameters(), {"objective=alpha-beta"}), 1,
                                        feedback);
        const auto byLink = refine->map(problem, *ParamValues::parse(refine->parameters(), {"objective=bottleneck"}), 1,
                                        feedback);
        QVERIFY(byTime && byLink);
        const auto inSite = [](const model::Placement& placement, int site) {
            return static_cast<int>(std::count(placement.site.begin() + 8, placement.site.end(), site));
        };
        // Alpha-beta: all eight partners behind B's uplink (8 x 10^8 B at 200 MB/s: 4 s on it).
        QCOMPARE(inSite(byTime->placement, 1), 8);
        QVERIFY(std::abs(busiest.evaluate(byTime->placement.site) - 4.0) < 1e-12);
        // The busiest link: five in B (2.5 s on its uplink), three in C (2 s on the 150 MB/s link).
        QCOMPARE(inSite(byLink->placement, 1), 5);
        QCOMPARE(inSite(byLink->placement, 2), 3);
        QVERIFY(std::abs(busiest.evaluate(byLink->placement.site) - 2.5) < 1e-12);
        QVERIFY(problem.cost().evaluate(byLink->placement.site) > problem.cost().evaluate(byTime->placement.site));
    }

    void minimisesDollarsOrAWeightedSumWhenAsked()
    {
        const Mapper* refine = m_registry.find("refine");
        const Feedback feedback;
        int tradeOffs = 0;
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            const MappingProblem problem = pricedInstance(seed);
            const SearchCost dollars = dollarsOf(problem);
            const double best = lowest([&](const std::vector<int>& siteOf) { return dollars.evaluate(siteOf).value; },
                                       6);
            const auto cheapest = refine->map(problem, *ParamValues::parse(refine->parameters(), {"objective=dollars"}),
                                              seed, feedback);
            const auto fastest = refine->map(problem,
                                             *ParamValues::parse(refine->parameters(), {"objective=alpha-beta"}), seed,
                                             feedback);
            QVERIFY(cheapest && fastest);
            const SearchState cheap = dollars.evaluate(cheapest->placement.site);
            const SearchState fast = dollars.evaluate(fastest->placement.site);
            QVERIFY2(cheap.value <= best * (1 + 1e-9), qPrintable(QString("%1 > %2").arg(cheap.value).arg(best)));
            QVERIFY(cheap.value <= fast.value);
            tradeOffs += cheap.value < fast.value * (1 - 1e-3) ? 1 : 0;
            qInfo("seed %d: time objective %.4f USD %.3f s, dollars objective %.4f USD %.3f s", int(seed), fast.value,
                  fast.seconds, cheap.value, cheap.seconds);
            QVERIFY(cheap.seconds >= fast.seconds * (1 - 1e-12));
            // Along the weights the dollars never rise and the time never falls (each point is the optimum of its
            // weighted sum on an instance this small).
            double lastDollars = fast.value * (1 + 1e-9), lastSeconds = fast.seconds * (1 - 1e-9);
            for (const char* weight : {"weight=0", "weight=0.25", "weight=0.5", "weight=0.75", "weight=1"}) {
                const auto r = refine->map(problem,
                                           *ParamValues::parse(refine->parameters(), {"objective=weighted", weight}),
                                           seed, feedback);
                QVERIFY(r);
                const SearchState at = dollars.evaluate(r->placement.site);
                QVERIFY2(at.value <= lastDollars * (1 + 1e-9) && at.seconds >= lastSeconds * (1 - 1e-9),
                         qPrintable(QString("seed %1, %2: %3 USD %4 s after %5 USD %6 s")
                                        .arg(seed)
                                        .arg(weight)
                                        .arg(at.value)
                                        .arg(at.seconds)
                                        .arg(lastDollars)
                                        .arg(lastSeconds)));
                lastDollars = at.value;
                lastSeconds = at.seconds;
            }
            QVERIFY(lastDollars <= best * (1 + 1e-9));
        }
        QVERIFY2(tradeOffs >= 3, "the instances should make the fastest placement cost more than the cheapest");
    }

    void refusesADollarObjectiveWithoutPrices()
    {
        const Mapper* refine = m_registry.find("refine");
        const auto r = refine->map(pricedInstance(1, false),
                                   *ParamValues::parse(refine->parameters(), {"objective=weighted"}), 1, Feedback());
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("site 'a' has none (instance_usd_per_hour)") != std::string::npos,
                 r.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRefineMapper)
#include "test_refine_mapper.moc"
