#include "core/cost/bottleneck_cost.h"
#include "core/sim/platform.h"
#include "core/sim/replay.h"

#include "test_support.h"

#include <QTest>

#include <chrono>

using namespace meridian;
using namespace meridian::model;

namespace {

CommMatrix matrix(int n, const std::vector<CommEntry>& entries)
{
    auto comm = CommMatrix::fromEntries(n, entries);
    if (!comm)
        qFatal("%s", comm.error().message.c_str());
    return *comm;
}

/// Two sites of two one-slot hosts; 10 ms and 100 MB/s between them, 0.5 ms and 1000 MB/s inside.
struct TwoSites {
    Topology topology;
    Network network{2};

    TwoSites()
    {
        topology = *Topology::create({test::site("a", 0, 0, 2, 1), test::site("b", 10, 10, 2, 1)});
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                network.set(NetworkQuantity::Latency, i, j, i == j ? 0.5 : 10.0);
                network.set(NetworkQuantity::Bandwidth, i, j, i == j ? 1000.0 : 100.0);
            }
    }
};

Placement placed(const std::vector<int>& sites, const std::vector<int>& hosts)
{
    Placement p;
    p.site = sites;
    p.host = hosts;
    p.slot.assign(sites.size(), 0);
    return p;
}

} // namespace

class TestReplay : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void spreadsEachPairsMessagesEvenlyOverTheSteps()
    {
        // 0 -> 1: 4 messages of 1000 B; 1 -> 2: 2 of 500 B; 2 -> 0: 8 of 100 B. S = median(4, 2, 8) = 4.
        const CommMatrix comm = matrix(3, {{0, 1, 4000, 4}, {1, 2, 1000, 2}, {2, 0, 800, 8}});
        QCOMPARE(cost::bulkSynchronousSteps(comm), 4.0);
        std::int64_t lines = 0;
        const std::string trace = sim::bulkSynchronousTrace(comm, 4.0, 4, lines);
        // Step 0: 0 receives 2 messages (200 B) from 2 and sends 1000 B to 1; 1 receives; 2 sends. 1 -> 2 sends in
        // steps 1 and 3 only (where floor(2 (k + 1) / 4) grows).
        const std::string step0 = "0 irecv 2 0 200\n0 isend 1 0 1000\n0 waitall\n1 irecv 0 0 1000\n1 waitall\n"
                                  "2 isend 0 0 200\n2 waitall\n";
        const std::string step1 = "0 irecv 2 0 200\n0 isend 1 0 1000\n0 waitall\n1 irecv 0 0 1000\n1 isend 2 0 500\n"
                                  "1 waitall\n2 irecv 1 0 500\n2 isend 0 0 200\n2 waitall\n";
        QCOMPARE(trace,
                 "0 init\n1 init\n2 init\n" + step0 + step1 + step0 + step1 + "0 finalize\n1 finalize\n2 finalize\n");
        QCOMPARE(lines, static_cast<std::int64_t>(6 + 2 * (7 + 9)));
        // Without message counts: one step, each pair's bytes one message.
        const CommMatrix bytesOnly = *CommMatrix::fromEntries(2, {{0, 1, 5000, 0}}, false);
        QCOMPARE(cost::bulkSynchronousSteps(bytesOnly), 1.0);
        QCOMPARE(sim::bulkSynchronousTrace(bytesOnly, 1.0, 1, lines),
                 std::string("0 init\n1 init\n0 isend 1 0 5000\n0 waitall\n1 irecv 0 0 5000\n1 waitall\n0 finalize\n"
                             "1 finalize\n"));
    }

    void replaysFewerStepsOfALargeModel()
    {
        std::vector<CommEntry> entries;
        for (int i = 0; i < 64; ++i)
            for (int d : {1, 2, 3})
                entries.push_back({i, (i + d) % 64, 1e9, 100000});
        const CommMatrix comm = matrix(64, entries);
        const double steps = cost::bulkSynchronousSteps(comm);
        QCOMPARE(steps, 100000.0);
        const std::int64_t replayed = sim::replayedSteps(comm, steps);
        QVERIFY(replayed >= 1 && replayed < 100000);
        std::int64_t lines = 0;
        sim::bulkSynchronousTrace(comm, steps, replayed, lines);
        QVERIFY2(lines <= sim::kMaxReplayLines + 2 * 64, qPrintable(QString::number(lines)));
    }

    void predictsOneFlowAsLatencyPlusBytesOverBandwidth()
    {
        const TwoSites two;
        const auto platform = sim::buildPlatform(two.topology, two.network);
        QVERIFY(platform);
        const Feedback feedback;
        // 10^6 B from site a to site b in one message: 10 ms + 10^6 B / 10^8 B/s = 20 ms.
        const CommMatrix comm = matrix(2, {{0, 1, 1e6, 1}});
        auto p = sim::predictBulkSynchronous(*platform, comm, placed({0, 1}, {0, 2}), FeedbackRange(feedback, 0, 1));
        QVERIFY2(p, p ? "" : p.error().message.c_str());
        QCOMPARE(p->model, std::string("bulk-synchronous"));
        QVERIFY2(std::abs(p->seconds - 0.02) <= 1e-6, qPrintable(QString::number(p->seconds, 'g', 12)));
        // Ten steps of an exchange both ways: each step 10 ms + 10^5 B / 10^8 B/s (the directions do not share
        // a link), within SMPI's own overhead of well under a microsecond per step.
        const CommMatrix exchange = matrix(2, {{0, 1, 1e6, 10}, {1, 0, 1e6, 10}});
        p = sim::predictBulkSynchronous(*platform, exchange, placed({0, 1}, {0, 2}), FeedbackRange(feedback, 0, 1));
        QVERIFY(p);
        QCOMPARE(p->steps, 10.0);
        QVERIFY2(std::abs(p->seconds - 10 * (0.01 + 0.001)) <= 1e-5, qPrintable(QString::number(p->seconds, 'g', 12)));
        // The same inside site a: 0.5 ms + 10^5 B / 10^9 B/s per step.
        p = sim::predictBulkSynchronous(*platform, exchange, placed({0, 0}, {0, 1}), FeedbackRange(feedback, 0, 1));
        QVERIFY(p);
        QVERIFY2(std::abs(p->seconds - 10 * (0.0005 + 0.0001)) <= 1e-5,
                 qPrintable(QString::number(p->seconds, 'g', 12)));
    }

    void aCanceledPredictionStops()
    {
        const TwoSites two;
        const auto platform = *sim::buildPlatform(two.topology, two.network);
        Feedback canceled([](double, std::string_view) {}, [] { return true; });
        const auto started = std::chrono::steady_clock::now();
        auto p = sim::predictBulkSynchronous(platform, matrix(2, {{0, 1, 1e6, 1}}), placed({0, 1}, {0, 2}),
                                             FeedbackRange(canceled, 0, 1));
        QVERIFY(!p);
        QCOMPARE(p.error().code, ErrorCode::Canceled);
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
    }

    void withoutSmpirunThePredictionSaysWhatIsMissing()
    {
        const TwoSites two;
        const auto platform = *sim::buildPlatform(two.topology, two.network);
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent");
        const Feedback feedback;
        auto p = sim::predictBulkSynchronous(platform, matrix(2, {{0, 1, 1e6, 1}}), placed({0, 1}, {0, 2}),
                                             FeedbackRange(feedback, 0, 1));
        qputenv("PATH", path);
        QVERIFY(!p);
        QVERIFY2(p.error().message.find("smpirun") != std::string::npos, p.error().message.c_str());
    }

    void thePlatformStatesTheNetworkModel()
    {
        const TwoSites two;
        const std::string xml = sim::platformXml(*sim::buildPlatform(two.topology, two.network));
        QVERIFY(xml.find("<config>\n  <prop id=\"network/model\" value=\"CM02\"/>") != std::string::npos);
        QVERIFY(xml.find("<prop id=\"network/TCP-gamma\" value=\"0\"/>") != std::string::npos);
        QVERIFY(xml.find("<config>") < xml.find("<zone"));
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "test_replay.moc"
