// The replay's clock (carved out of the main window): the span it replays, the pace at which a
// whole span plays, the loop at the end, and which moves signal a redraw.
#include "widgets/ReplayClock.hpp"

#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace podscope::ui;

class ReplayClockTest : public QObject {
    Q_OBJECT
private slots:
    void theTimeStaysInsideTheSpan() {
        ReplayClock clock;
        QCOMPARE(clock.fraction(0.3), 0.3); // nothing replayed yet
        clock.setSpan(2e-3, 10);
        clock.setTimeS(5e-3);
        QCOMPARE(clock.timeS(), 2e-3);
        clock.setTimeS(-1);
        QCOMPARE(clock.timeS(), 0.0);
        clock.place(1.5e-3);
        clock.setSpan(1e-3, 10); // a shorter span: clamped into it
        QCOMPARE(clock.timeS(), 1e-3);
        QCOMPARE(clock.fraction(), 1.0);
    }

    // Issue 23: the reading is written as people write durations ("1.375 s", not
    // "1374589.6 µs"), in one unit chosen by the span, so it keeps its unit as it runs.
    void theReadingIsInOneUnitChosenByTheSpan() {
        QLocale::setDefault(QLocale::c());
        ReplayClock clock;
        clock.setSpan(4.5819654, 10);
        clock.place(1.3745896);
        QCOMPARE(clock.reading(), QString("1.375 s / 4.582 s"));
        clock.setSpan(2.627e-3, 10);
        clock.place(2.3406e-3);
        QCOMPARE(clock.reading(), QString("2.341 ms / 2.627 ms"));
        clock.place(1e-6); // early in the span: still in the span's unit
        QCOMPARE(clock.reading(), QString("0.001 ms / 2.627 ms"));
        clock.setSpan(512.25e-6, 10);
        clock.place(256.1e-6);
        QCOMPARE(clock.reading(), QString("256.1 µs / 512.3 µs"));
    }

    void aWholeSpanPlaysInItsReplaySecondsAndLoops() {
        ReplayClock clock;
        clock.setSpan(2e-3, 10); // 2 ms of simulated time in 10 s of wall time at 1x
        clock.advance(2.5);
        QVERIFY(qAbs(clock.timeS() - 0.5e-3) < 1e-12);
        clock.setSpeed(2);
        clock.advance(2.5); // twice as fast: another 1 ms
        QVERIFY(qAbs(clock.timeS() - 1.5e-3) < 1e-12);
        clock.advance(2.5); // 2.5 ms: past the end, so round again to 0.5 ms
        QVERIFY(qAbs(clock.timeS() - 0.5e-3) < 1e-12);
    }

    void movesSignalARedrawExceptPlacements() {
        ReplayClock clock;
        QSignalSpy changed(&clock, &ReplayClock::timeChanged);
        clock.setSpan(1e-3, 6);
        clock.place(0.5e-3); // the caller redraws once its scene is rebuilt
        QCOMPARE(changed.count(), 0);
        clock.setTimeS(0.25e-3);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.last().at(0).toDouble(), 0.25e-3);
        ReplayClock empty;
        QSignalSpy emptyChanged(&empty, &ReplayClock::timeChanged);
        empty.advance(1); // nothing to replay: nothing moves
        QCOMPARE(emptyChanged.count(), 0);
    }

    void playingAdvancesUntilPaused() {
        ReplayClock clock;
        clock.setSpan(1.0, 1000);
        QSignalSpy playing(&clock, &ReplayClock::playingChanged);
        clock.setPlaying(true);
        clock.setPlaying(true); // already playing: one change
        QCOMPARE(playing.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(clock.timeS() > 0, 10000);
        clock.setPlaying(false);
        QCOMPARE(playing.count(), 2);
        QCOMPARE(playing.last().at(0).toBool(), false);
        const double paused = clock.timeS();
        QTest::qWait(100);
        QCOMPARE(clock.timeS(), paused);
    }
};

QTEST_GUILESS_MAIN(ReplayClockTest)
#include "ReplayClockTest.moc"
