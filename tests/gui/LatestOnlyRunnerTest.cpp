// The runner behind every simulation the window starts off the UI thread: only the newest
// request's result arrives, and Cancel or a newer request stops the running job through its
// stop flag rather than letting it run to an end nobody sees.
#include "widgets/LatestOnlyRunner.hpp"

#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

using namespace podscope;
using namespace podscope::ui;

namespace {

// Long enough that a job which ignored its flag would fail the wait below.
constexpr auto kGuard = std::chrono::seconds(120);
constexpr int kWaitMs = 60000;

// A job that runs until its flag is set (or the guard passes), noting that it was stopped.
LatestOnlyRunner<int>::Job untilStopped(std::shared_ptr<std::atomic<bool>> sawStop) {
    return [sawStop](const StopFlag& stop) -> std::shared_ptr<const int> {
        const auto until = std::chrono::steady_clock::now() + kGuard;
        while (std::chrono::steady_clock::now() < until) {
            if (stop.load()) {
                sawStop->store(true);
                throw Cancelled();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return std::make_shared<int>(-1);
    };
}

} // namespace

class LatestOnlyRunnerTest : public QObject {
    Q_OBJECT

private slots:
    void cancelStopsTheRunningJob() {
        LatestOnlyRunner<int> runner;
        QSignalSpy cancelled(&runner, &LatestOnlyRunnerBase::cancelled);
        QSignalSpy finished(&runner, &LatestOnlyRunnerBase::finished);
        QSignalSpy failed(&runner, &LatestOnlyRunnerBase::failed);
        auto sawStop = std::make_shared<std::atomic<bool>>(false);
        runner.request(untilStopped(sawStop));
        QVERIFY(runner.busy());
        runner.cancel();
        QCOMPARE(cancelled.size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), kWaitMs);
        QVERIFY(sawStop->load());
        QCOMPARE(finished.size(), 0); // neither a result nor the Cancelled error is shown
        QCOMPARE(failed.size(), 0);
    }

    void aNewerRequestStopsTheRunningJobAndDeliversItsOwn() {
        LatestOnlyRunner<int> runner;
        QSignalSpy finished(&runner, &LatestOnlyRunnerBase::finished);
        auto sawStop = std::make_shared<std::atomic<bool>>(false);
        runner.request(untilStopped(sawStop));
        runner.request([](const StopFlag&) { return std::make_shared<const int>(42); });
        QVERIFY(finished.wait(kWaitMs));
        QVERIFY(sawStop->load());
        QCOMPARE(finished.size(), 1);
        QVERIFY(runner.result());
        QCOMPARE(*runner.result(), 42);
    }

    void aJobThatFailsReportsItsMessage() {
        LatestOnlyRunner<int> runner;
        QSignalSpy failed(&runner, &LatestOnlyRunnerBase::failed);
        runner.request([](const StopFlag&) -> std::shared_ptr<const int> {
            throw std::runtime_error("no such topology");
        });
        QVERIFY(failed.wait(kWaitMs));
        QCOMPARE(failed.front().front().toString(), QStringLiteral("no such topology"));
    }
};

QTEST_GUILESS_MAIN(LatestOnlyRunnerTest)
#include "LatestOnlyRunnerTest.moc"
