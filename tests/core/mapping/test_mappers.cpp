#include "mapping_fixtures.h"

#include "core/mapping/host_assignment.h"
#include "core/mapping/scotch_mapper.h"

#include <QElapsedTimer>

#include <thread>

using namespace meridian;
using namespace meridian::mapping;

namespace {

// Runs a computation's workers one after the other on the calling thread, in the order given: the extremes
// of what a real executor may do (every offered worker withdrawn, or the offered ones taking all the work).
class RecordingExecutor final : public Executor {
public:
    enum class Order { OnlyTheCaller, OfferedFirst };
    RecordingExecutor(int concurrency, Order order)
        : m_concurrency(concurrency)
        , m_order(order)
    {}
    int concurrency() const override { return m_concurrency; }
    void shareWork(int workers, const Worker& worker) override
    {
        ++calls;
        offered = std::max(offered, workers);
        if (m_order == Order::OfferedFirst)
            for (int w = workers - 1; w >= 1; --w)
                worker(w);
        worker(0);
    }
    int calls = 0;
    int offered = 0; ///< the most workers offered by one call

private:
    int m_concurrency;
    Order m_order;
};

} // namespace

class TestMappers : public QObject {
    Q_OBJECT

private:
    Registry<Mapper> m_registry;

    static QString check(const MappingProblem& problem, const model::Placement& placement)
    {
        if (placement.processCount() != problem.processCount())
            return "wrong size";
        if (!placement.hasHosts())
            return "a process has no host or slot";
        const auto v = model::checkPlacement(placement, problem.topology(), problem.constraints());
        return v.empty() ? QString() : QString::fromStdString(v.front().message);
    }

private Q_SLOTS:
    void initTestCase() { registerBuiltinMappers(m_registry); }

    void registersEveryMapperOnce()
    {
        const std::vector<std::string> expected = {"random",         "round-robin", "interleave", "greedy",
                                                   "mpipp",          "geo",         "scotch-bw",  "scotch-lat",
                                                   "topology-aware", "monte-carlo", "refine"};
        QCOMPARE(m_registry.ids(), expected);
        QVERIFY(!m_registry.add(std::make_unique<mapping::ScotchMapper>(ScotchMapper::Metric::Bandwidth)));
    }

    void mapsEveryProcessToAValidSlot_data()
    {
        QTest::addColumn<QString>("mapper");
        QTest::addColumn<int>("pattern");
        QTest::addColumn<QVector<int>>("slots");
        QTest::addColumn<int>("slotsPerHost");
        QTest::addColumn<double>("pins");
        for (const auto& id : m_registry.ids()) {
            for (auto p : {synth::Pattern::LU, synth::Pattern::KMeans, synth::Pattern::DNN}) {
                const auto name = id + "/" + std::string(synth::patternId(p));
                QTest::newRow((name + "/even").c_str())
                    << QString::fromStdString(id) << int(p) << QVector<int>{16, 16, 16, 16} << 1 << 0.2;
                QTest::newRow((name + "/24-16-16-8").c_str())
                    << QString::fromStdString(id) << int(p) << QVector<int>{24, 16, 16, 8} << 4 << 0.2;
                QTest::newRow((name + "/more-slots").c_str())
                    << QString::fromStdString(id) << int(p) << QVector<int>{32, 40, 8, 24} << 8 << 0.3;
                QTest::newRow((name + "/no-pins").c_str())
                    << QString::fromStdString(id) << int(p) << QVector<int>{16, 16, 16, 16} << 2 << 0.0;
            }
        }
    }

    void mapsEveryProcessToAValidSlot()
    {
        QFETCH(QString, mapper);
        QFETCH(int, pattern);
        QFETCH(QVector<int>, slots);
        QFETCH(int, slotsPerHost);
        QFETCH(double, pins);
        const auto topo = test::fourRegions(std::vector<int>(slots.begin(), slots.end()), slotsPerHost);
        const auto problem = test::makeProblem(static_cast<synth::Pattern>(pattern), 64, topo, pins, 3);
        const Feedback feedback;
        auto values = ParamValues::defaults(m_registry.find(mapper.toStdString())->parameters());
        if (mapper == "monte-carlo")
            values = *ParamValues::parse(m_registry.find("monte-carlo")->parameters(), {"samples=2000"});
        auto result = m_registry.find(mapper.toStdString())->map(problem, values, 11, feedback);
        QVERIFY2(result, result ? "" : result.error().toString().c_str());
        const QString problemText = check(problem, result->placement);
        QVERIFY2(problemText.isEmpty(), qPrintable(problemText));
    }

    void givesTheSamePlacementForTheSameSeed()
    {
        const auto topo = test::fourRegions({24, 16, 16, 8}, 4);
        const auto problem = test::makeProblem(synth::Pattern::KMeans, 64, topo, 0.2, 5);
        const Feedback feedback;
        for (const Mapper* m : m_registry.all()) {
            auto values = ParamValues::defaults(m->parameters());
            if (m->id() == "monte-carlo")
                values = *ParamValues::parse(m->parameters(), {"samples=20000"});
            auto a = m->map(problem, values, 42, feedback);
            auto b = m->map(problem, values, 42, feedback);
            QVERIFY(a && b);
            QVERIFY2(a->placement.site == b->placement.site && a->placement.host == b->placement.host
                         && a->placement.slot == b->placement.slot,
                     std::string(m->id()).c_str());
        }
    }

    void monteCarloDoesNotDependOnTheThreadCount()
    {
        const auto topo = test::fourRegions({16, 16, 16, 16});
        const auto problem = test::makeProblem(synth::Pattern::LU, 64, topo, 0.2, 2);
        const Mapper* mc = m_registry.find("monte-carlo");
        const Feedback feedback;
        auto one = mc->map(problem, *ParamValues::parse(mc->parameters(), {"samples=30000", "threads=1", "keep=30000"}),
                           9, feedback);
        auto three = mc->map(problem,
                             *ParamValues::parse(mc->parameters(), {"samples=30000", "threads=3", "keep=30000"}), 9,
                             feedback);
        QVERIFY(one && three);
        QCOMPARE(one->placement.site, three->placement.site);
        QCOMPARE(one->costSamples, three->costSamples);
        QCOMPARE(one->bestCurve, three->bestCurve);
    }

    // Monte Carlo starts no thread of its own: its workers go to the Feedback's executor, as many as the
    // executor runs at once, and the result is the same whichever of them does the work.
    void monteCarloSharesItsWorkThroughTheFeedbacksExecutor()
    {
        const auto topo = test::fourRegions({16, 16, 16, 16});
        const auto problem = test::makeProblem(synth::Pattern::LU, 64, topo, 0.2, 2);
        const Mapper* mc = m_registry.find("monte-carlo");
        const auto params = *ParamValues::parse(mc->parameters(), {"samples=30000", "keep=30000"});
        const Feedback reference;
        auto expected = mc->map(problem,
                                *ParamValues::parse(mc->parameters(), {"samples=30000", "threads=1", "keep=30000"}), 9,
                                reference);
        QVERIFY(expected);
        for (auto order : {RecordingExecutor::Order::OnlyTheCaller, RecordingExecutor::Order::OfferedFirst}) {
            RecordingExecutor executor(5, order);
            Feedback feedback;
            feedback.setExecutor(executor);
            auto r = mc->map(problem, params, 9, feedback);
            QVERIFY(r);
            // The samples, then the hosts of the four sites (completeHosts shares the sites).
            QCOMPARE(executor.calls, 2);
            QCOMPARE(executor.offered, 5);
            QCOMPARE(r->placement.site, expected->placement.site);
            QCOMPARE(r->costSamples, expected->costSamples);
            QCOMPARE(r->bestCurve, expected->bestCurve);
        }
    }

    // On a graph so large that kappa = 5's orders (each a complete fill) exceed geo's work budget, the automatic kappa
    // is the largest whose whole tree of orders fits, and says so; a kappa the user gives is kept, its inner groups
    // tried while the budget lasts; a small graph keeps kappa = 5 and every order.
    void geoBoundsItsSearchOnVeryLargeGraphs()
    {
        const auto topo = test::fourRegions(std::vector<int>(64, 256), 16);
        const auto large = test::makeProblem(synth::Pattern::LU, 16384, topo);
        const Mapper* geo = m_registry.find("geo");
        const Feedback quiet;
        auto automatic = geo->map(large, 1, quiet);
        QVERIFY(automatic);
        QCOMPARE(check(large, automatic->placement), QString());
        QVERIFY2(QString::fromStdString(automatic->notes.front()).startsWith("kappa 4 (not 5: its 720 orders"),
                 automatic->notes.front().c_str());
        QCOMPARE(automatic->notes.size(), std::size_t{1});
        auto given = geo->map(large, *ParamValues::parse(geo->parameters(), {"kappa=5"}), 1, quiet);
        QVERIFY(given);
        QVERIFY(QString::fromStdString(given->notes.front()).startsWith("kappa 5, "));
        QCOMPARE(given->notes.size(), std::size_t{2});
        QVERIFY(QString::fromStdString(given->notes[1]).contains("kept in K-means order"));

        const auto small = test::makeProblem(synth::Pattern::LU, 1024, test::fourRegions(std::vector<int>(64, 16), 16));
        auto full = geo->map(small, 1, quiet);
        QVERIFY(full);
        QVERIFY2(QString::fromStdString(full->notes.front())
                     .startsWith("kappa 5 (kappa=0: as many groups as sites, at most 5), 720 orders costed"),
                 full->notes.front().c_str());
        QCOMPARE(full->notes.size(), std::size_t{1});
    }

    // geo costs a group's orders on the executor's workers; the best by cost then by the order's rank is kept,
    // so the placement and the order chosen are the same whichever worker costs which order (real threads here,
    // several times, against one worker doing everything).
    void geoSharesItsOrdersThroughTheFeedbacksExecutor()
    {
        // Six sites in one place: every order of the same groups costs the same, so the tie rule decides.
        std::vector<model::Site> sites;
        for (int s = 0; s < 6; ++s)
            sites.push_back(test::site(std::string(1, static_cast<char>('a' + s)), 50.0, 8.0, 64, 8));
        const auto topo = *model::Topology::create(std::move(sites));
        const auto problem = test::makeProblem(synth::Pattern::LU, 3072, topo);
        const Mapper* geo = m_registry.find("geo");
        RecordingExecutor serial(1, RecordingExecutor::Order::OnlyTheCaller);
        Feedback reference;
        reference.setExecutor(serial);
        auto expected = geo->map(problem, 4, reference);
        QVERIFY(expected);
        QCOMPARE(serial.offered, 1);
        for (int round = 0; round < 5; ++round) {
            const Feedback threads; // Executor::standard(): a thread per worker
            auto r = geo->map(problem, 4, threads);
            QVERIFY(r);
            QCOMPARE(r->placement.site, expected->placement.site);
            QCOMPARE(r->notes, expected->notes);
        }
    }

    void monteCarloKeepsTheDistributionAndABestSoFarCurve()
    {
        const auto topo = test::fourRegions({16, 16, 16, 16});
        const auto problem = test::makeProblem(synth::Pattern::BT, 64, topo);
        const Mapper* mc = m_registry.find("monte-carlo");
        const Feedback feedback;
        auto r = mc->map(problem, *ParamValues::parse(mc->parameters(), {"samples=10000", "keep=5000"}), 1, feedback);
        QVERIFY(r);
        QCOMPARE(r->costSamples.size(), std::size_t(5000));
        QVERIFY(!r->bestCurve.empty());
        QCOMPARE(r->bestCurve.front().first, std::int64_t(1));
        QCOMPARE(r->bestCurve.back().first, std::int64_t(10000));
        for (std::size_t i = 1; i < r->bestCurve.size(); ++i)
            QVERIFY(r->bestCurve[i].second <= r->bestCurve[i - 1].second);
        const double best = problem.cost().evaluate(r->placement.site);
        QVERIFY(std::abs(r->bestCurve.back().second - best) <= 1e-9 * best);
        QVERIFY(*std::min_element(r->costSamples.begin(), r->costSamples.end()) >= best);
        QCOMPARE(r->costSamples.front(), r->bestCurve.front().second);
    }

    void stopsPromptlyWhenCanceled_data()
    {
        QTest::addColumn<QString>("mapper");
        QTest::addColumn<QStringList>("params");
        QTest::addColumn<int>("processes");
        QTest::newRow("monte-carlo") << "monte-carlo" << QStringList{"samples=10000000"} << 256;
        QTest::newRow("refine-annealing")
            << "refine" << QStringList{"annealing=true", "anneal_steps=1000000000"} << 256;
        QTest::newRow("mpipp") << "mpipp" << QStringList{"starts=64"} << 2048;
        QTest::newRow("geo") << "geo" << QStringList{"kappa=7"} << 8192;
        QTest::newRow("topology-aware") << "topology-aware" << QStringList{} << 8192;
    }

    void stopsPromptlyWhenCanceled()
    {
        QFETCH(QString, mapper);
        QFETCH(QStringList, params);
        QFETCH(int, processes);
        std::vector<int> slots(mapper == "geo" ? 8 : 4, processes / (mapper == "geo" ? 8 : 4));
        const auto topo = test::fourRegions(slots);
        const auto problem = test::makeProblem(mapper == "topology-aware" ? synth::Pattern::DNN : synth::Pattern::LU,
                                               processes, topo);
        const Mapper* m = m_registry.find(mapper.toStdString());
        std::vector<std::string> list;
        for (const auto& p : params)
            list.push_back(p.toStdString());
        const auto values = *ParamValues::parse(m->parameters(), list);
        Feedback feedback;
        QElapsedTimer sinceCancel;
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            sinceCancel.start();
            feedback.cancel();
        });
        auto result = m->map(problem, values, 1, feedback);
        const qint64 latency = sinceCancel.elapsed();
        canceller.join();
        QVERIFY(!result);
        QCOMPARE(result.error().code, ErrorCode::Canceled);
        // Generous bound: the uncanceled runs take minutes; this only proves the loops poll the feedback.
        QVERIFY2(latency < 1000, qPrintable(QString("returned %1 ms after cancel").arg(latency)));
    }

    void rejectsProblemsThatCannotBeMet()
    {
        const auto topo = test::fourRegions({8, 8, 8, 8});
        synth::PatternOptions options;
        options.processes = 40;
        auto comm = synth::generatePattern(synth::Pattern::LU, options);
        auto tooMany = MappingProblem::create(topo, test::priorNetwork(topo), *comm);
        QVERIFY(!tooMany);
        QCOMPARE(tooMany.error().code, ErrorCode::Infeasible);
        QVERIFY(tooMany.error().message.find("short by 8") != std::string::npos);

        options.processes = 16;
        comm = synth::generatePattern(synth::Pattern::LU, options);
        std::vector<model::Pin> pins;
        for (int p = 0; p < 10; ++p)
            pins.push_back({p, 2});
        auto overPinned = MappingProblem::create(topo, test::priorNetwork(topo), *comm,
                                                 *model::Constraints::fromPins(pins));
        QVERIFY(!overPinned);
        QVERIFY2(overPinned.error().message.find("singapore") != std::string::npos
                     && overPinned.error().message.find("over by 2") != std::string::npos,
                 overPinned.error().message.c_str());

        auto incomplete = MappingProblem::create(topo, model::Network(4), *comm);
        QVERIFY(!incomplete);
        QVERIFY(incomplete.error().message.find("missing") != std::string::npos);
    }

    // Finite traffic whose time at the network's slowest link is not a finite number is refused before any
    // mapper runs (geo, refine and mpipp failed with "a placement of the wrong size", the others printed null);
    // every mapper gives a finite cost for the largest traffic that is accepted.
    void refusesTrafficWhoseCostIsNotFinite()
    {
        const auto topo = test::fourRegions({2, 2, 2, 2});
        auto huge = model::CommMatrix::fromEntries(4, {{0, 1, 1e308, 1.0}, {1, 2, 1e308, 1.0}, {2, 3, 1e308, 1.0}});
        QVERIFY(huge);
        auto refused = MappingProblem::create(topo, test::priorNetwork(topo), *huge);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.find("is too large to cost") != std::string::npos,
                 refused.error().message.c_str());
        auto large = model::CommMatrix::fromEntries(4, {{0, 1, 1e290, 1e290}, {1, 2, 1e290, 1.0}, {2, 3, 1e290, 1.0}});
        QVERIFY(large);
        auto network = test::priorNetwork(topo);
        network.set(model::NetworkQuantity::Bandwidth, 0, 1, model::kMinBandwidthMBps, model::Provenance::Edited);
        network.set(model::NetworkQuantity::Latency, 0, 1, model::kMaxLatencyMs, model::Provenance::Edited);
        auto problem = MappingProblem::create(topo, network, *large);
        QVERIFY2(problem, problem ? "" : problem.error().message.c_str());
        for (const auto& id : m_registry.ids()) {
            Feedback feedback;
            auto result = m_registry.find(id)->map(*problem, 1, feedback);
            QVERIFY2(result, qPrintable(QString::fromStdString(id + ": " + (result ? "" : result.error().toString()))));
            QVERIFY2(std::isfinite(problem->cost().evaluate(result->placement.site)), id.c_str());
        }
    }

    void rejectsBadParameters()
    {
        const Mapper* geo = m_registry.find("geo");
        auto bad = ParamValues::parse(geo->parameters(), {"kappa=9"});
        QVERIFY(!bad);
        QVERIFY(bad.error().message.find("kappa") != std::string::npos);
        QVERIFY(!ParamValues::parse(geo->parameters(), {"kapa=2"}));
        QVERIFY(!ParamValues::parse(geo->parameters(), {"kappa=two"}));
        QVERIFY(!ParamValues::parse(m_registry.find("refine")->parameters(), {"start=nothing"}));
        QVERIFY(ParamValues::parse(m_registry.find("refine")->parameters(), {"start=scotch-lat", "annealing=true"}));
    }

    void geoKeepsHeavyPairsTogether()
    {
        // Two sites of two slots; 0-1 and 2-3 exchange a lot, 1-2 a little: Algorithm 1 opens a site with
        // the heaviest process and fills it with its heaviest partner.
        std::vector<model::Site> sites{test::site("a", 0, 0, 2, 1), test::site("b", 0, 90, 2, 1)};
        const auto topo = *model::Topology::create(sites);
        auto comm = model::CommMatrix::fromEntries(
            4, {{0, 1, 1e9, 10}, {1, 0, 1e9, 10}, {2, 3, 2e9, 10}, {3, 2, 2e9, 10}, {1, 2, 1e6, 1}, {2, 1, 1e6, 1}});
        auto problem = *MappingProblem::create(topo, test::priorNetwork(topo), *comm);
        const Feedback feedback;
        auto r = m_registry.find("geo")->map(problem, 1, feedback);
        QVERIFY(r);
        const auto& s = r->placement.site;
        QCOMPARE(s[0], s[1]);
        QCOMPARE(s[2], s[3]);
        QVERIFY(s[0] != s[2]);
    }

    void topologyAwareMapsTwoGroupsToTheTwoBestClusters()
    {
        // Fan et al.'s Fig. 5: three physical clusters of two sites each (k_phy = 3), eight processes in two
        // groups of four that exchange many messages inside and few across (eq. 1). Each group goes whole to
        // its own cluster, the two best-ranked ones; the far cluster stays unused. Bytes say otherwise
        // (0, 1, 4, 5 and 2, 3, 6, 7 exchange the large messages), so weights=bytes groups by those.
        std::vector<model::Site> sites{test::site("a0", 0, 0, 4, 1),   test::site("a1", 0, 0.5, 4, 1),
                                       test::site("b0", 0, 60, 4, 1),  test::site("b1", 0, 61, 4, 1),
                                       test::site("c0", 0, 150, 4, 1), test::site("c1", 0, 152, 4, 1)};
        const auto topo = *model::Topology::create(sites);
        std::vector<model::CommEntry> e;
        for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 8; ++b) {
                if (a == b)
                    continue;
                const bool sameGroup = a / 4 == b / 4;
                const bool sameByBytes = (a % 4 < 2) == (b % 4 < 2);
                const double messages = sameGroup ? (a < 4 ? 40 : 30) : 1;
                e.push_back({a, b, sameByBytes ? 1e9 : 1e3, messages});
            }
        auto problem = *MappingProblem::create(topo, test::priorNetwork(topo), *model::CommMatrix::fromEntries(8, e));
        const Mapper* mapper = m_registry.find("topology-aware");
        const Feedback feedback;
        const auto clusterOf = [](int site) { return site / 2; };

        auto byMessages = mapper->map(problem, *ParamValues::parse(mapper->parameters(), {"k_phy=3"}), 1, feedback);
        QVERIFY(byMessages);
        const auto& s = byMessages->placement.site;
        for (int p = 0; p < 8; ++p)
            QCOMPARE(clusterOf(s[p]), p < 4 ? 0 : 1);
        QVERIFY(QString::fromStdString(byMessages->notes.front()).contains("-> 2"));

        auto byBytes = mapper->map(problem, *ParamValues::parse(mapper->parameters(), {"k_phy=3", "weights=bytes"}), 1,
                                   feedback);
        QVERIFY(byBytes);
        const auto& t = byBytes->placement.site;
        for (int p : {1, 4, 5})
            QCOMPARE(clusterOf(t[p]), clusterOf(t[0]));
        for (int p : {3, 6, 7})
            QCOMPARE(clusterOf(t[p]), clusterOf(t[2]));
        QVERIFY(clusterOf(t[0]) != clusterOf(t[2]));
        QVERIFY(clusterOf(t[0]) != 2 && clusterOf(t[2]) != 2);
    }

    void scotchTargetIsAnExactDecoTarget()
    {
        const std::vector<std::vector<long>> d{{0, 1, 100}, {1, 0, 1}, {100, 1, 0}};
        const std::string text = scotchDecoTarget({4, 4, 8}, d);
        // Terminal 2 (8 slots) balances terminals 0 and 1 (4 + 4): it is split off first.
        QCOMPARE(QString::fromStdString(text), QString("deco\n0\n3 5\n0 4 4\n1 4 5\n2 8 3\n1\n100 1\n"));
    }

    void scotchUsesTheMiddleSiteForTheMiddleCluster()
    {
        // Three 4-process cliques in a chain A-B-C; sites x-y-z in a line (x and z far apart).
        std::vector<model::Site> sites{test::site("x", 0, 0, 4, 1), test::site("y", 0, 60, 4, 1),
                                       test::site("z", 0, 120, 4, 1)};
        const auto topo = *model::Topology::create(sites);
        std::vector<model::CommEntry> e;
        for (int a = 0; a < 12; ++a)
            for (int b = 0; b < 12; ++b) {
                if (a != b && a / 4 == b / 4)
                    e.push_back({a, b, 1e8, 10});
                if (a % 4 == b % 4 && std::abs(a / 4 - b / 4) == 1)
                    e.push_back({a, b, 5e7, 5});
            }
        // Put cluster B (4..7) first in rank order so index order cannot explain the result.
        auto problem = *MappingProblem::create(topo, test::priorNetwork(topo), *model::CommMatrix::fromEntries(12, e));
        const Feedback feedback;
        for (const char* id : {"scotch-bw", "scotch-lat"}) {
            auto r = m_registry.find(id)->map(problem, 1, feedback);
            QVERIFY(r);
            const auto& s = r->placement.site;
            for (int p = 0; p < 12; ++p)
                QCOMPARE(s[p], s[(p / 4) * 4]);
            QCOMPARE(s[4], 1); // the middle cluster on the middle site
        }
    }

    void completesHostsByPackingPartnersTogether()
    {
        // One site with two hosts of two slots: 0-2 and 1-3 are partners.
        std::vector<model::Site> sites{test::site("s", 0, 0, 2, 2)};
        const auto topo = *model::Topology::create(sites);
        auto comm = model::CommMatrix::fromEntries(4,
                                                   {{0, 2, 1e9, 10},
                                                    {2, 0, 1e9, 10},
                                                    {1, 3, 1e9, 10},
                                                    {3, 1, 1e9, 10},
                                                    {0, 1, 1e3, 1}});
        auto problem = *MappingProblem::create(topo, test::priorNetwork(topo), *comm);
        const Feedback feedback;
        auto placement = completeHosts(problem, {0, 0, 0, 0}, 1, FeedbackRange(feedback, 0, 1));
        QVERIFY(placement);
        QCOMPARE(placement->host[0], placement->host[2]);
        QCOMPARE(placement->host[1], placement->host[3]);
        QVERIFY(placement->host[0] != placement->host[1]);
        QVERIFY(model::checkPlacement(*placement, topo, {}).empty());
    }

    void roundRobinPacksAndInterleaveCyclesHosts()
    {
        std::vector<model::Site> sites{test::site("s", 0, 0, 3, 2)};
        const auto topo = *model::Topology::create(sites);
        auto comm = model::CommMatrix::fromEntries(5, {{0, 1, 1, 1}});
        auto problem = *MappingProblem::create(topo, test::priorNetwork(topo), *comm);
        const Feedback feedback;
        auto packed = m_registry.find("round-robin")->map(problem, 1, feedback);
        auto byNode = m_registry.find("interleave")->map(problem, 1, feedback);
        QVERIFY(packed && byNode);
        QCOMPARE(packed->placement.host, (std::vector<int>{0, 0, 1, 1, 2}));
        QCOMPARE(packed->placement.slot, (std::vector<int>{0, 1, 0, 1, 0}));
        QCOMPARE(byNode->placement.host, (std::vector<int>{0, 1, 2, 0, 1}));
        QCOMPARE(byNode->placement.slot, (std::vector<int>{0, 0, 0, 1, 1}));
    }
};

QTEST_GUILESS_MAIN(TestMappers)
#include "test_mappers.moc"
