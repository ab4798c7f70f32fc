#include "app/jobs/job_runner.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <thread>

using namespace meridian;

namespace {

// Works until canceled (or `limit` ms), reporting progress.
jobs::JobOutput spin(const Feedback& feedback, int limit)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < limit) {
        if (feedback.isCanceled())
            return makeError(ErrorCode::Canceled, "canceled");
        feedback.setProgress(clock.elapsed() / double(limit), "spinning");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return jobs::JobOutput(std::any(42));
}

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
            runner.start(
                QString("job %1").arg(k),
                [&, k](const Feedback&) -> jobs::JobOutput {
                    peak = std::max(peak.load(), ++concurrent);
                    std::this_thread::sleep_for(std::chrono::milliseconds(150));
                    --concurrent;
                    return jobs::JobOutput(std::any(k));
                },
                [&](jobs::JobOutput out) {
                    doneOnMain = doneOnMain && QThread::currentThreadId() == mainThread;
                    results.push_back(std::any_cast<int>(*out));
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
        runner.start("spin", [](const Feedback& f) { return spin(f, 300); });
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 1, 5000);
        QVERIFY(progress.count() >= 2);
        QCOMPARE(progress.last().at(2).toString(), QString("spinning"));
        QVERIFY(progress.last().at(1).toDouble() > 0.5);
    }

    void cancelsWithoutApplyingTheResult()
    {
        jobs::JobRunner runner;
        QSignalSpy ended(&runner, &jobs::JobRunner::jobEnded);
        bool applied = false;
        const int id = runner.start(
            "long", [](const Feedback& f) { return spin(f, 60000); }, [&](jobs::JobOutput) { applied = true; });
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
        runner.start(
            "fails",
            [](const Feedback&) -> jobs::JobOutput { return makeError(ErrorCode::Infeasible, "too few slots"); },
            [&](jobs::JobOutput out) { seen = QString::fromStdString(out.error().message); });
        runner.start("throws", [](const Feedback&) -> jobs::JobOutput { throw std::runtime_error("boom"); });
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
            runner.start("long", [&](const Feedback& f) {
                auto out = spin(f, 60000);
                stopped = true;
                return out;
            });
            QTest::qWait(30);
        }
        QVERIFY(stopped.load());
    }
};

QTEST_MAIN(TestJobRunner)
#include "test_job_runner.moc"
