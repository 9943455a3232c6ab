// The step replay in the window (issue 13): the timeline panel and the replay show one time,
// whoever moves it; the timeline is simulated off the UI thread, cancellable, latest only.
// Runs on the offscreen platform: the replay's frame (the colours the 3-D view is given) is
// computed without the view.
#include "color/ActivityColors.hpp"
#include "training/Presets.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/TimelinePanel.hpp"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>
#include <QWheelEvent>
#include <cmath>

using namespace podscope;
using namespace podscope::ui;

namespace {

Scenario resnet() {
    return loadPreset("mlperf07-resnet50-tf-4096").scenario;
}

// What the replay shows agrees with the step timeline at the window's time.
void expectFrameAt(const MainWindow& window, double t) {
    const StepRun* run = window.stepRun();
    QVERIFY(run);
    QCOMPARE(window.frame().chips.size(), static_cast<std::size_t>(run->timeline.chips));
    for (ChipId c = 0; c < run->timeline.chips; c += 61) {
        QCOMPARE(window.frame().chips[static_cast<std::size_t>(c)],
                 activityColor(run->timeline.activityAt(c, t)));
    }
}

} // namespace

class StepReplayTest : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> window_;

    // A window replaying the ResNet-50 step, once its timeline is shown.
    MainWindow& stepWindow() {
        if (!window_) {
            window_ = std::make_unique<MainWindow>(resnet(), false);
            window_->resize(1280, 720);
            QSignalSpy collective(window_.get(), &MainWindow::runShown);
            window_->show();
            [&] { QVERIFY(collective.wait(60000)); }();
            QSignalSpy step(window_.get(), &MainWindow::stepRunShown);
            window_->setReplayKind(ReplayKind::Step);
            [&] { QVERIFY(step.count() > 0 || step.wait(60000)); }();
        }
        return *window_;
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void stepReplayShowsThePanelAndTheStep() {
        MainWindow& window = stepWindow();
        QVERIFY(window.replaysStep());
        QVERIFY(window.timelinePanel()->isVisible());
        QVERIFY(window.stepRun());
        QCOMPARE(window.durationUs(), window.stepRun()->timeline.stepS * 1e6);
        QCOMPARE(window.chipLegend()->legend(), activityLegend());
        // Back to the collective: the panel hides, the duration is the collective's again.
        window.setReplayKind(ReplayKind::Collective);
        QVERIFY(!window.timelinePanel()->isVisible());
        QVERIFY(std::abs(window.durationUs() - window.currentRun()->replay->durationS() * 1e6) <
                1e-6);
        window.setReplayKind(ReplayKind::Step);
        QVERIFY(window.timelinePanel()->isVisible());
    }

    void clickOnThePanelMovesTheReplay() {
        MainWindow& window = stepWindow();
        TimelinePanel* panel = window.timelinePanel();
        const QRect row = panel->trackRect(1); // compute
        QVERIFY(!row.isNull());
        const QPoint at(row.left() + row.width() * 3 / 10, row.center().y());
        QTest::mouseClick(panel, Qt::LeftButton, {}, at);
        const double expected = panel->timeAtX(at.x());
        QVERIFY(std::abs(window.timeUs() * 1e-6 - expected) < 1e-12);
        QCOMPARE(panel->cursorS(), window.timeUs() * 1e-6);
        QCOMPARE(panel->xOfTime(panel->cursorS()), at.x());
        expectFrameAt(window, window.timeUs() * 1e-6);
    }

    void scrubbingTheAxisMovesTheReplay() {
        MainWindow& window = stepWindow();
        TimelinePanel* panel = window.timelinePanel();
        const QRect axis = panel->axisRect();
        QTest::mousePress(panel, Qt::LeftButton, {}, QPoint(axis.left() + 20, axis.center().y()));
        for (int x = axis.left() + 40; x < axis.left() + axis.width() * 8 / 10; x += 60) {
            QTest::mouseMove(panel, QPoint(x, axis.center().y()));
            QCOMPARE(panel->cursorS(), window.timeUs() * 1e-6);
            QCOMPARE(panel->xOfTime(panel->cursorS()), x);
        }
        const int last = axis.left() + axis.width() * 8 / 10;
        QTest::mouseMove(panel, QPoint(last, axis.center().y()));
        QTest::mouseRelease(panel, Qt::LeftButton, {}, QPoint(last, axis.center().y()));
        QVERIFY(std::abs(window.timeUs() * 1e-6 - panel->timeAtX(last)) < 1e-12);
        expectFrameAt(window, window.timeUs() * 1e-6);
    }

    void replayTimeMovesThePanelsCursor() {
        MainWindow& window = stepWindow();
        window.setTimeFraction(0.9);
        QCOMPARE(window.timelinePanel()->cursorS(), window.timeUs() * 1e-6);
        expectFrameAt(window, window.timeUs() * 1e-6);
        window.advanceFrame(0.5); // half a second of playback
        QVERIFY(window.timeUs() * 1e-6 != 0.9 * window.stepRun()->timeline.stepS);
        QCOMPARE(window.timelinePanel()->cursorS(), window.timeUs() * 1e-6);
        expectFrameAt(window, window.timeUs() * 1e-6);
    }

    void wheelZoomsAboutThePointerAndDragPans() {
        MainWindow& window = stepWindow();
        TimelinePanel* panel = window.timelinePanel();
        panel->setVisibleRange(0, window.stepRun()->timeline.stepS);
        const QRect row = panel->trackRect(1);
        const QPoint at(row.left() + row.width() / 2, row.center().y());
        const double anchor = panel->timeAtX(at.x());
        const double before = panel->visibleToS() - panel->visibleFromS();
        QWheelEvent wheel(at, panel->mapToGlobal(at), {}, QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(panel, &wheel);
        QVERIFY(panel->visibleToS() - panel->visibleFromS() < before * 0.7);
        QVERIFY(std::abs(panel->timeAtX(at.x()) - anchor) < before / row.width() * 2);
        // Round ticks: every label a multiple of one 1-2-5 step.
        const QStringList ticks = panel->tickLabels();
        QVERIFY(ticks.size() >= 2);
        const double step = ticks[1].toDouble() - ticks[0].toDouble();
        const double mantissa = step / std::pow(10, std::floor(std::log10(step)));
        QVERIFY2(std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 ||
                     std::abs(mantissa - 5) < 1e-6,
                 qPrintable(ticks.join(' ')));
        // Dragging the tracks pans without moving the replay.
        const double time = window.timeUs();
        const double from = panel->visibleFromS();
        QTest::mousePress(panel, Qt::LeftButton, {}, at);
        QTest::mouseMove(panel, at + QPoint(100, 0));
        QTest::mouseRelease(panel, Qt::LeftButton, {}, at + QPoint(100, 0));
        QVERIFY(panel->visibleFromS() < from);
        QCOMPARE(window.timeUs(), time);
        panel->setVisibleRange(0, window.stepRun()->timeline.stepS);
    }

    void hoverNamesTheLayerWithItsTime() {
        MainWindow& window = stepWindow();
        TimelinePanel* panel = window.timelinePanel();
        // A layer the chip is at (a batch-norm sum inside a layer is on its own track).
        const QRect row = panel->trackRect(1);
        const auto& timeline = window.stepRun()->timeline;
        QPoint at;
        int item = -1;
        for (const TrackSpan& span : panel->tracks()[1].spans) {
            const int x = panel->xOfTime((span.startS + span.endS) / 2);
            if (x > row.left() + row.width() / 5 &&
                timeline.itemAt(panel->chip(), panel->timeAtX(x)) == span.item) {
                at = QPoint(x, row.center().y());
                item = span.item;
                break;
            }
        }
        QVERIFY(item >= 0);
        const QString tip = panel->toolTipAt(at);
        QVERIFY2(tip.contains(
                     QString::fromStdString(timeline.items[static_cast<std::size_t>(item)].name)),
                 qPrintable(tip));
        QVERIFY2(tip.contains(" ms") || tip.contains(" µs"), qPrintable(tip));
        // The gradient track names the bucket and its bytes.
        const QRect gradients = panel->trackRect(4);
        QVERIFY(!gradients.isNull());
        const auto& spans = panel->tracks()[4].spans;
        QVERIFY(!spans.empty());
        const QPoint bucket(panel->xOfTime((spans.front().startS + spans.front().endS) / 2),
                            gradients.top() + 2);
        const QString bucketTip = panel->toolTipAt(bucket);
        QVERIFY2(bucketTip.contains("iB per chip"), qPrintable(bucketTip));
    }

    void selectingAChipShowsItsTracks() {
        MainWindow& window = stepWindow();
        window.selectChip(777);
        QCOMPARE(window.timelinePanel()->chip(), ChipId(777));
        QVERIFY(window.caption().contains("chip 777"));
    }

    // Cancel: the running simulation's result never shows; the previous step stays.
    // A step the core could not simulate leaves the previous one on screen, marked, with the
    // whole message (not a status-bar line cut at the window's edge); the next step clears it.
    void aFailedStepMarksTheReplayStaleWithTheWholeMessage() {
        MainWindow& window = stepWindow();
        QVERIFY(!window.showsStaleMark());
        const QString message = QStringLiteral(
            "contention: the 19 gradient buckets together would take the event engine more than "
            "2000000 ring steps; this message is long enough to be cut in a status bar");
        window.showStepFailure(message);
        QVERIFY(window.showsStaleMark());
        QVERIFY2(window.staleMarkText().contains(message), qPrintable(window.staleMarkText()));
        QVERIFY(window.staleMarkText().startsWith("The replay shows the previous step"));
        window.setStale(true); // a refused configuration says so first
        QVERIFY(window.staleMarkText().contains("refused"));
        window.setStale(false);
        QVERIFY(window.staleMarkText().contains(message));
        QSignalSpy step(&window, &MainWindow::stepRunShown);
        Scenario other = resnet();
        other.globalBatch /= 4; // not the half that the cancel test below asks for
        window.showTraining(other);
        QVERIFY(step.wait(60000));
        QVERIFY(!window.showsStaleMark());
    }

    void cancelKeepsThePreviousStep() {
        MainWindow& window = stepWindow();
        const StepRun* before = window.stepRun();
        Scenario changed = resnet();
        changed.globalBatch /= 2;
        QSignalSpy shown(&window, &MainWindow::stepRunShown);
        window.showTraining(changed);
        QVERIFY(window.simulatingStep());
        window.cancelStep();
        QVERIFY(!shown.wait(3000));
        QCOMPARE(window.stepRun(), before);
        // Asking again simulates it.
        window.setReplayKind(ReplayKind::Step);
        QVERIFY(shown.wait(60000));
        QCOMPARE(window.stepRun()->scenario.globalBatch, changed.globalBatch);
    }

    // Issue 20: a multislice scenario draws its slices apart with the DCN between them; back
    // to one slice, one slice and no DCN.
    void aMultisliceStepDrawsEverySlice() {
        MainWindow& window = stepWindow();
        Scenario multislice = loadPreset("mlperf07-resnet50-tf2-16").scenario;
        multislice.hardware = "tpu-v5e";
        multislice.topology = "4x4";
        multislice.wrap.reset();
        multislice.slices = 4;
        QSignalSpy shown(&window, &MainWindow::stepRunShown);
        window.showTraining(multislice);
        QVERIFY(shown.wait(60000));
        QTRY_VERIFY(window.scene() && window.scene()->slices == 4);
        QCOMPARE(window.scene()->chipPositions.size(), std::size_t{4 * 16});
        QVERIFY(!window.scene()->dcnLinks.empty());
        // Mid-way through the DCN stage, its links in use.
        const StepRun* run = window.stepRun();
        for (const TimelineItem& item : run->timeline.items) {
            if (item.group == "dcn") {
                const ChipSpan& span = item.spanOf(0);
                window.setTimeFraction((span.startS + span.endS) / 2 / run->timeline.stepS);
            }
        }
        expectFrameAt(window, window.timeUs() * 1e-6);
        QCOMPARE(window.frame().dcnLink, activityColor(podscope::ChipActivity::GradientSync));
        multislice.slices = 1;
        window.showTraining(multislice);
        QVERIFY(shown.wait(60000));
        QTRY_VERIFY(window.scene() && window.scene()->slices == 1);
        QCOMPARE(window.scene()->chipPositions.size(), std::size_t{16});
        QVERIFY(window.scene()->dcnLinks.empty());
        window.showTraining(resnet());
        QVERIFY(shown.wait(60000));
    }

    // Issue 23: a refusal's text is shown whole, in the wrapped note above the view; the
    // one-line status (which cuts long text) only points to it.
    void aReplayThatCannotBeSimulatedSaysWhyWhole() {
        MainWindow& window = stepWindow();
        QSignalSpy failed(&window, &MainWindow::runFailed);
        Scenario refused = resnet();
        refused.globalBatch += 1; // no longer divides over the replicas
        window.showTraining(refused);
        QVERIFY(failed.wait(60000));
        const QString message = failed.front().front().toString();
        QVERIFY(message.size() > 40);
        QTRY_VERIFY(window.showsStaleMark());
        QVERIFY2(window.staleMarkText().contains(message), qPrintable(window.staleMarkText()));
        auto* note = window.findChild<QLabel*>("staleMark");
        QVERIFY(note && note->wordWrap());
        for (auto* status : window.statusBar()->findChildren<QLabel*>()) {
            QVERIFY2(!status->text().contains(message), qPrintable(status->text()));
        }
        // A configuration that simulates clears the note.
        QSignalSpy shown(&window, &MainWindow::stepRunShown);
        window.showTraining(resnet());
        QVERIFY(shown.wait(60000));
        QTRY_VERIFY(!window.showsStaleMark());
    }

    // Changes during a simulation: only the last configuration's step is ever shown.
    void changesDuringTheSimulationShowTheLatestOnly() {
        MainWindow& window = stepWindow();
        QSignalSpy shown(&window, &MainWindow::stepRunShown);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        Scenario last = resnet();
        const auto batch = last.globalBatch;
        for (auto divisor : {1, 2, 4}) {
            last.globalBatch = batch / divisor;
            window.showTraining(last);
        }
        QVERIFY(shown.wait(60000));
        QCOMPARE(failed.count(), 0);
        QTest::qWait(500); // nothing stale arrives after it
        QCOMPARE(shown.count(), 1);
        QCOMPARE(window.stepRun()->scenario.globalBatch, last.globalBatch);
        expectFrameAt(window, window.timeUs() * 1e-6);
    }
};

QTEST_MAIN(StepReplayTest)
#include "StepReplayTest.moc"
