#include "app/jobs/job_runner.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <thread>

using namespace meridian;

namespace {

// Works until canceled (or `limit` ms), reporting progress.
Expected<int> spin(const Feedback& feedback, int limit)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < limit) {
        if (feedback.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        feedback.setProgress(clock.elapsed() / double(limit), "spinning");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return 42;
}

// Work shared by an executor's workers: each takes chunks until none is left.
struct Chunks {
    explicit Chunks(int count)
        : count(count)
    {}
    void take(std::atomic<int>& running, std::atomic<int>& peak)
    {
        while (next.fetch_add(1) < count) {
            const int now = ++running;
            int seen = peak.load();
            while (now > seen && !peak.compare_exchange_weak(seen, now)) {
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            --running;
            ++done;
        }
    }
    int count;
    std::atomic<int> next{0};
    std::atomic<int> done{0};
};

} // namespace

class TestJobRunner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsSeveralJobsAtOnceAndDeliversResultsOnTheMainThread()
    {
        jobs::JobRunner runner;
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        std::atomic<int> concurrent{0}, peak{0};
        std::vector<int> results;
        Qt::HANDLE mainThread = QThread::currentThreadId();
        bool doneOnMain = true;
        for (int k = 0; k < 2; ++k)
            runner.start<int>(
                QString("job %1").arg(k),
                [&, k](const Feedback&) -> Expected<int> {
                    // An atomic maximum: a plain load-then-store loses the higher count when both jobs start
                    // together (seen once in a pristine root: peak 1).
                    const int now = ++concurrent;
                    for (int seen = peak.load(); now > seen && !peak.compare_exchange_weak(seen, now);) {
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(150));
                    --concurrent;
                    return k;
                },
                [&](Expected<int> out) {
                    doneOnMain = doneOnMain && QThread::currentThreadId() == mainThread;
                    results.push_back(*out);
                });
        QCOMPARE(runner.runningCount(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 5000);
        QCOMPARE(peak.load(), 2);
        QVERIFY(doneOnMain);
        std::sort(results.begin(), results.end());
        QCOMPARE(results, (std::vector<int>{0, 1}));
        QCOMPARE(ended.first().at(1).value<jobs::JobEnd>(), jobs::JobEnd::Finished);
        QCOMPARE(runner.runningCount(), 0);
    }

    void reportsProgressWithTheStage()
    {
        jobs::JobRunner runner;
        QSignalSpy progress(&runner, &jobs::JobRunner::jobProgress);
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        runner.start<int>("spin", [](const Feedback& f) { return spin(f, 300); });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QVERIFY(progress.count() >= 2);
        QCOMPARE(progress.last().at(2).toString(), QString("spinning"));
        QVERIFY(progress.last().at(1).toDouble() > 0.5);
    }

    // A stage reported without a change of the progress value (a command's output lines) is still seen.
    void keepsTheLatestStageWhileTheValueStays()
    {
        jobs::JobRunner runner;
        std::atomic<bool> release{false};
        const int id = runner.start<int>("stages", [&](const Feedback& f) -> Expected<int> {
            f.setProgress(0.0, "first line");
            f.setProgress(0.0, "second line");
            while (!release)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 0;
        });
        QTRY_COMPARE_WITH_TIMEOUT(runner.stage(id), QString("second line"), 5000);
        release = true;
        runner.waitForAll();
        QCOMPARE(runner.stage(id), QString());
    }

    void cancelsWithoutApplyingTheResult()
    {
        jobs::JobRunner runner;
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        bool applied = false;
        const int id = runner.start<int>(
            "long", [](const Feedback& f) { return spin(f, 60000); }, [&](Expected<int>) { applied = true; });
        QTest::qWait(50);
        runner.cancel(id);
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QCOMPARE(ended.first().at(1).value<jobs::JobEnd>(), jobs::JobEnd::Canceled);
        QVERIFY(!applied);
    }

    void turnsErrorsAndExceptionsIntoFailures()
    {
        jobs::JobRunner runner;
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        QString seen;
        runner.start<int>(
            "fails", [](const Feedback&) -> Expected<int> { return makeError(ErrorCode::Infeasible, "too few slots"); },
            [&](Expected<int> out) { seen = QString::fromStdString(out.error().message); });
        runner.start<int>("throws", [](const Feedback&) -> Expected<int> { throw std::runtime_error("boom"); });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 2, 5000);
        QCOMPARE(seen, QString("too few slots"));
        for (const auto& e : ended)
            QCOMPARE(e.at(1).value<jobs::JobEnd>(), jobs::JobEnd::Failed);
        QVERIFY(ended.at(0).at(2).toString().contains("too few slots")
                || ended.at(1).at(2).toString().contains("too few slots"));
        QVERIFY(ended.at(0).at(2).toString().contains("boom") || ended.at(1).at(2).toString().contains("boom"));
    }

    void cancelsAndWaitsWhenDestroyed()
    {
        std::atomic<bool> stopped{false};
        {
            jobs::JobRunner runner;
            runner.start<int>("long", [&](const Feedback& f) {
                auto out = spin(f, 60000);
                stopped = true;
                return out;
            });
            QTest::qWait(30);
        }
        QVERIFY(stopped.load());
    }

    // The completion gets the work's own type, move-only ones included (no type erasure on the way).
    void keepsTheResultType()
    {
        jobs::JobRunner runner;
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        int got = 0;
        runner.start<std::unique_ptr<int>>(
            "boxed", [](const Feedback&) -> Expected<std::unique_ptr<int>> { return std::make_unique<int>(7); },
            [&](Expected<std::unique_ptr<int>> out) { got = **out; });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QCOMPARE(got, 7);
    }

    // Every job's Feedback names the runner's executor, and the workers a job shares out run on the
    // runner's pool: three jobs of four workers each on a two-thread pool never run more than two
    // workers at once, and each job still does all of its work (no deadlock while the pool is full).
    void jobsAndTheirWorkersShareOnePool()
    {
        jobs::JobRunner runner(nullptr, 2);
        QCOMPARE(runner.executor().concurrency(), 2);
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        std::atomic<int> running{0}, peak{0};
        std::vector<std::unique_ptr<Chunks>> work;
        std::atomic<bool> namedTheRunnersExecutor = true;
        for (int k = 0; k < 3; ++k) {
            work.push_back(std::make_unique<Chunks>(40));
            Chunks* chunks = work.back().get();
            runner.start<int>(QString("shared %1").arg(k), [&, chunks](const Feedback& f) -> Expected<int> {
                if (&f.executor() != &runner.executor())
                    namedTheRunnersExecutor = false;
                f.executor().shareWork(4, [&](int) { chunks->take(running, peak); });
                return chunks->done.load();
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 3, 20000);
        QVERIFY(namedTheRunnersExecutor);
        for (const auto& chunks : work)
            QCOMPARE(chunks->done.load(), 40);
        QVERIFY2(peak.load() <= 2, qPrintable(QString("peak %1 workers at once").arg(peak.load())));
        QCOMPARE(peak.load(), 2);
    }

    // An exception in a worker on another thread fails the job once every worker has stopped.
    void aWorkersExceptionFailsItsJob()
    {
        jobs::JobRunner runner(nullptr, 4);
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        runner.start<int>("worker throws", [](const Feedback& f) -> Expected<int> {
            std::atomic<bool> thrown{false};
            f.executor().shareWork(4, [&](int w) {
                if (w != 0) {
                    thrown = true;
                    throw std::runtime_error("worker broke");
                }
                QElapsedTimer clock;
                clock.start();
                while (!thrown && clock.elapsed() < 5000)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            });
            return 0;
        });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QCOMPARE(ended.first().at(1).value<jobs::JobEnd>(), jobs::JobEnd::Failed);
        QVERIFY(ended.first().at(2).toString().contains("worker broke"));
    }
};

QTEST_MAIN(TestJobRunner)
#include "test_job_runner.moc"
