// The teaching demos (issue 8) end to end, as a class sees them: every step of every bundled
// demo is shown in a real window under Xvfb (configuration, chart, 3-D view, caption, data
// blocks), Back and Leave behave, and the program renders a step for slides.
#include "charts/FigureAxis.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/ThroughputChart.hpp"
#include "demo/CaptionFields.hpp"
#include "demo/DemoScript.hpp"
#include "session/ScenarioDocument.hpp"
#include "training/StepModel.hpp"
#include "view/TrainingAnalysis.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/DataBlocksView.hpp"
#include "widgets/DemoPanel.hpp"
#include "widgets/DemoPlayer.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/MainWindow.hpp"

#include <QCommandLinkButton>
#include <QDockWidget>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace podscope;
using namespace podscope::ui;

namespace {

constexpr int kStepTimeoutMs = 60000; // a 4096-chip step replays its collective in seconds

// Runs podscope with arguments; returns exit code, stderr in `errors`.
int runProgram(const QStringList& arguments, QString* errors = nullptr) {
    QProcess process;
    process.start(PODSCOPE_GUI_PROGRAM, arguments);
    if (!process.waitForFinished(120000)) {
        process.kill();
        return -1;
    }
    if (errors) {
        *errors = QString::fromUtf8(process.readAllStandardError());
    }
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

// Readable names in QCOMPARE messages.
template <typename Kind> QString name(Kind kind) { return QString::fromStdString(toString(kind)); }

} // namespace

class DemoTest : public QObject {
    Q_OBJECT

private:
    // A window with the 3-D view on screen, or null when it never appeared.
    static std::unique_ptr<MainWindow> openWindow(const Scenario& scenario, QSize size) {
        auto window = std::make_unique<MainWindow>(scenario, true);
        window->resize(size);
        window->show();
        return QTest::qWaitForWindowExposed(window.get()) ? std::move(window) : nullptr;
    }

    // Shows `step` (0-based) through the player and waits until it is on screen.
    static bool showAndWait(DemoPlayer& player, int step, const std::function<void()>& go) {
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        go();
        if (player.ready() && player.step() == step) {
            return true;
        }
        return shown.wait(kStepTimeoutMs) && player.step() == step && player.ready();
    }

    // What a step promises is on screen.
    static void checkStepShown(MainWindow& window, const DemoScript& demo, int index) {
        const DemoStep& step = demo.steps[static_cast<std::size_t>(index)];
        DemoPlayer& player = *window.demos();
        Explorer& explorer = *window.explorer();
        QVERIFY(player.dock()->isVisible());
        QVERIFY(sameScenario(explorer.document().scenario(), step.scenario));
        QVERIFY(explorer.analysis() != nullptr);
        QVERIFY(sameScenario(explorer.analysis()->scenario, step.scenario));
        QCOMPARE(name(explorer.currentChart()), name(step.chart));
        // A scaling chart marks this step's configuration, labelled with its chips (the
        // batch-limit demo's steps 1-3 share one curve: the mark is what moves).
        if (step.chart == ChartKind::Scaling) {
            const ThroughputChart& chart = *explorer.throughputChart();
            const std::int64_t chips = simulateTraining(step.scenario).chips;
            QCOMPARE(chart.currentSeries()->count(), 1);
            QCOMPARE(std::llround(chart.chipsAxis().fromAxis(chart.currentSeries()->at(0).x())),
                     static_cast<long long>(chips));
            QTRY_VERIFY(chart.currentLabel() != nullptr);
            QVERIFY2(chart.currentLabel()->text().startsWith(
                         readableNumber(static_cast<double>(chips)) + " chips"),
                     qPrintable(chart.currentLabel()->text()));
            // Whole, inside the plot.
            const QGraphicsSimpleTextItem& label = *chart.currentLabel();
            QVERIFY(chart.chart()->plotArea().contains(label.mapRectToParent(label.boundingRect())));
        }
        QCOMPARE(name(window.layoutKind()), name(step.layout));
        QCOMPARE(name(window.colorMode()), name(step.colorMode));
        // The 3-D view replays this step's gradient summation, on this step's chips.
        QVERIFY(window.currentRun() != nullptr);
        QCOMPARE(window.currentRun()->topology.chipCount(), simulateTraining(step.scenario).chips);
        QVERIFY(std::abs(window.timeUs() - step.timeFraction * window.durationUs()) <= 1e-6 * window.durationUs() + 1e-9);
        // The caption and the step number the class reads.
        // A caption that quotes the replay clock quotes what the clock under the view shows,
        // in its format ("2.341 ms", the unit the span chooses).
        const QString clock = window.clockText();
        QVERIFY2(clock.count(" / ") == 1, qPrintable(clock));
        const QString total = clock.section(" / ", 1);
        QString expected = QString::fromStdString(step.caption);
        if (expected.contains(kReplayClockField)) {
            expected.replace(kReplayClockField, total);
            QVERIFY2(player.panel()->captionText().contains(" " + total),
                     qPrintable(player.panel()->captionText() + " | clock " + clock));
        }
        QCOMPARE(player.panel()->captionText(), expected);
        QVERIFY(player.panel()->stepText().startsWith(QString("Step %1 of %2").arg(index + 1).arg(demo.steps.size())));
        QCOMPARE(player.panel()->backButton()->isEnabled(), index > 0);
        QCOMPARE(player.panel()->nextButton()->isEnabled(), index + 1 < static_cast<int>(demo.steps.size()));
        QCOMPARE(player.panel()->nextDemoButton()->isVisible(), index + 1 == static_cast<int>(demo.steps.size()));
        QCOMPARE(player.panel()->dataBlocksShown(), step.dataBlocks);
        if (step.dataBlocks) {
            const DataBlocksView* blocks = player.panel()->dataBlocks();
            QVERIFY(blocks->frameCount() > 2);
            QVERIFY(blocks->timeline().check.verified); // what is shown is what the schedule computes
            QCOMPARE(static_cast<std::int64_t>(blocks->timeline().chips.size()), window.currentRun()->topology.chipCount());
        }
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        VtkView::useDefaultSurfaceFormat(); // as the program does
    }

    void everyDemoRunsThroughEndToEnd_data() {
        QTest::addColumn<QString>("name");
        for (const auto& name : bundledDemoNames()) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
        }
    }

    void everyDemoRunsThroughEndToEnd() {
        QFETCH(QString, name);
        const DemoScript demo = loadDemo(name.toStdString());
        const auto opened = openWindow(loadDemo(name.toStdString()).steps.back().scenario, QSize(1600, 900));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QVERIFY(showAndWait(player, 0, [&] { player.start(demo); }));
        checkStepShown(window, demo, 0);
        for (int step = 1; step < static_cast<int>(demo.steps.size()); ++step) {
            QVERIFY2(showAndWait(player, step, [&] { player.panel()->nextButton()->click(); }),
                     qPrintable(QString("step %1 never shown").arg(step + 1)));
            checkStepShown(window, demo, step);
        }
        QVERIFY(demo.steps.back().fullScale);
        QCOMPARE(window.currentRun()->topology.chipCount(), 4096);

        // Back shows the previous step again.
        const int last = static_cast<int>(demo.steps.size()) - 1;
        QVERIFY(showAndWait(player, last - 1, [&] { player.panel()->backButton()->click(); }));
        checkStepShown(window, demo, last - 1);

        // Leaving keeps the configuration to explore from, and Undo steps back through the demo.
        player.panel()->leaveButton()->click();
        QVERIFY(!player.active());
        QVERIFY(!player.dock()->isVisible());
        QVERIFY(sameScenario(window.explorer()->document().scenario(), demo.steps[static_cast<std::size_t>(last - 1)].scenario));
        QUndoStack* undo = window.explorer()->document().undoStack();
        QVERIFY(undo->canUndo());
    }

    // The last step of every demo leads on: the next demo in the menu's order is one click away
    // (and the last demo leads back to the first).
    void lastStepOffersTheNextDemo_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("next");
        const auto names = bundledDemoNames();
        for (std::size_t i = 0; i < names.size(); ++i) {
            QTest::newRow(names[i].c_str()) << QString::fromStdString(names[i])
                                            << QString::fromStdString(names[(i + 1) % names.size()]);
        }
    }

    void lastStepOffersTheNextDemo() {
        QFETCH(QString, name);
        QFETCH(QString, next);
        const DemoScript demo = loadDemo(name.toStdString());
        const DemoScript following = loadDemo(next.toStdString());
        const auto opened = openWindow(demo.steps.back().scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        const int last = static_cast<int>(demo.steps.size()) - 1;
        QVERIFY(showAndWait(player, 0, [&] { player.start(demo); }));
        QVERIFY(!player.panel()->nextDemoButton()->isVisible());
        QVERIFY(showAndWait(player, last, [&] { player.showStep(last); }));
        const auto* offer = player.panel()->nextDemoButton();
        QVERIFY(offer->isVisible() && offer->isEnabled());
        QVERIFY2(offer->description().contains(QString::fromStdString(following.title)),
                 qPrintable(offer->description()));
        QVERIFY(!offer->visibleRegion().isEmpty());
        QVERIFY(showAndWait(player, 0, [&] { player.panel()->nextDemoButton()->click(); }));
        QCOMPARE(QString::fromStdString(player.script().name), next);
        checkStepShown(window, following, 0);
    }

    void ringDemoBlocksFollowTheReplay() {
        const DemoScript demo = loadDemo("ring-allreduce");
        const auto opened = openWindow(demo.steps.front().scenario, QSize(1600, 900));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QVERIFY(showAndWait(player, 2, [&] { player.start(demo, 2); }));
        // All-gather half way: the frame sits in the second half of the timeline.
        const DataBlocksView* blocks = player.panel()->dataBlocks();
        QVERIFY(blocks->frame() > blocks->frameCount() / 2);
        // The bidirectional step shows two streams; the unidirectional one, one.
        QCOMPARE(blocks->timeline().streams, 1);
        QVERIFY(showAndWait(player, 3, [&] { player.next(); }));
        QCOMPARE(player.panel()->dataBlocks()->timeline().streams, 2);
        QCOMPARE(player.panel()->dataBlocks()->frameCount(), blocks->frameCount()); // same number of steps
    }

    void anEditDuringAStepIsTheUsers() {
        const DemoScript demo = loadDemo("batch-limit");
        const auto opened = openWindow(demo.steps.front().scenario, QSize(1280, 720));
        QVERIFY(opened);
        MainWindow& window = *opened;
        DemoPlayer& player = *window.demos();
        QVERIFY(showAndWait(player, 0, [&] { player.start(demo); }));
        QVERIFY(!player.panel()->busy());
        QSignalSpy shown(&player, &DemoPlayer::stepShown);
        player.next();
        QVERIFY(player.panel()->busy());
        // Before step 2 is on screen, the user picks another batch: the step is not claimed.
        Scenario mine = demo.steps[1].scenario;
        mine.globalBatch = 4096;
        window.explorer()->document().edit(mine, "my batch");
        QVERIFY(QTest::qWaitFor([&] { return window.explorer()->analysis() &&
                                             sameScenario(window.explorer()->analysis()->scenario, mine); },
                                kStepTimeoutMs));
        QTest::qWait(200);
        QVERIFY(!player.ready());
        QCOMPARE(shown.count(), 0);
        QVERIFY(!player.panel()->busy()); // no "Preparing the step" left hanging
        QVERIFY(sameScenario(window.explorer()->document().scenario(), mine)); // the demo did not undo it
    }

    void programRendersADemoStepForSlides_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("step");
        for (const auto& name : bundledDemoNames()) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name) << 2;
        }
        QTest::newRow("ring full scale") << "ring-allreduce" << 5;
    }

    void programRendersADemoStepForSlides() {
        QFETCH(QString, name);
        QFETCH(int, step);
        QTemporaryDir dir;
        const QString file = dir.filePath("step.png");
        QString errors;
        QCOMPARE(runProgram({"--demo", name, "--step", QString::number(step), "--size", "1280x720", "--screenshot", file},
                            &errors),
                 0);
        const QImage image(file);
        QCOMPARE(image.size(), QSize(1280, 720));
        // Not blank: the 3-D scene, the charts and the caption put many colours on the picture.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7) {
                colours.insert(image.pixel(x, y));
            }
        }
        QVERIFY2(colours.size() > 50, qPrintable(errors));
    }

    void badDemoArgumentsExitWithTwoNamingTheOption_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("unknown demo") << QStringList{"--demo", "no-such-demo"} << "demo";
        QTest::newRow("step 0") << QStringList{"--demo", "ring-allreduce", "--step", "0"} << "step";
        QTest::newRow("step past the end") << QStringList{"--demo", "ring-allreduce", "--step", "6"} << "step";
        QTest::newRow("step not a number") << QStringList{"--demo", "ring-allreduce", "--step", "two"} << "step";
        QTest::newRow("step without demo") << QStringList{"--step", "2"} << "step";
        QTest::newRow("demo and preset") << QStringList{"--demo", "ring-allreduce", "--preset", "16x16"} << "preset";
    }

    void badDemoArgumentsExitWithTwoNamingTheOption() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, named);
        QString errors;
        QCOMPARE(runProgram(arguments + QStringList{"--screenshot", "/nonexistent/never.png"}, &errors), 2);
        QVERIFY2(errors.contains(named + ":"), qPrintable(errors));
    }

    void malformedScriptFileIsRefusedNamingStepAndField() {
        QTemporaryDir dir;
        const QString file = dir.filePath("broken.json");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"name": "broken", "title": "Broken", "summary": "x", "steps": [
            {"title": "a", "caption": "b", "scenario": {"preset": "mlperf07-resnet50-tf-4096"}},
            {"title": "c", "caption": "d", "chart": "pie"}]})");
        out.close();
        QString errors;
        QCOMPARE(runProgram({"--demo", file, "--screenshot", dir.filePath("never.png")}, &errors), 2);
        QVERIFY2(errors.contains("steps[1].chart") && errors.contains("step 2 of demo 'broken'"), qPrintable(errors));
        QVERIFY(!QFile::exists(dir.filePath("never.png")));
    }
};

QTEST_MAIN(DemoTest)
#include "DemoTest.moc"
