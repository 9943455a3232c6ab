#include "widgets/MainWindow.hpp"

#include "session/ScenarioDocument.hpp"
#include "training/Presets.hpp"
#include "view/TrainingAnalysis.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/ControlPanel.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/ResponsivenessProbe.hpp"
#include "widgets/TuneDialog.hpp"

#include <QAction>
#include <QComboBox>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace podscope;
using namespace podscope::ui;

namespace {

// Waits until the view has painted and swapped the current state.
void waitForFrame(MainWindow& window) {
    QSignalSpy swapped(window.view(), &VtkView::frameSwapped);
    window.view()->requestRender();
    QVERIFY(swapped.wait(10000));
}

// Fraction of the 3-D view covered by the scene: the background is a grey-blue gradient, so a
// clearly coloured pixel (chip, link, marker) is the scene's.
double sceneCoverage(MainWindow& window) {
    const QImage image = window.view()->grabFramebuffer();
    int scene = 0, sampled = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            const QColor c = image.pixelColor(x, y);
            const int spread =
                std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()});
            scene += spread > 40;
            ++sampled;
        }
    }
    return static_cast<double>(scene) / sampled;
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> open(const std::string& topology) {
        // ResNet-50's gradient all-reduce, replayed on the given topology.
        Scenario scenario = loadPreset("mlperf07-resnet50-tf-4096").scenario;
        scenario.topology = topology;
        scenario.wrap.reset();
        auto window = std::make_unique<MainWindow>(scenario, true);
        window->resize(1200, 800);
        QSignalSpy shown(window.get(), &MainWindow::runShown);
        window->show();
        if (!shown.wait(60000)) {
            return nullptr;
        }
        return window;
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // settings go to a test location
        VtkView::useDefaultSurfaceFormat();       // as the program does
    }

    void windowOpensOnTheMultipod() {
        auto window = open("tpu-v3-multipod");
        QVERIFY(window);
        QVERIFY(window->hasRun());
        QVERIFY(window->durationUs() > 100);
        QCOMPARE(window->frame().chips.size(), std::size_t{4096});
        QVERIFY(window->caption().contains("chunk"));
        QCOMPARE(QString::fromStdString(window->linkLegend()->legend().title),
                 QString("Link utilisation"));
        QCOMPARE(QString::fromStdString(window->linkLegend()->legend().unit), QString("%"));
    }

    void everyLayoutDrawsSomethingWithALegend() {
        auto window = open("tpu-v3-pod");
        QVERIFY(window);
        for (auto layout : {LayoutKind::Torus, LayoutKind::Grid, LayoutKind::Physical}) {
            for (auto mode : allColorModes()) {
                window->setLayoutKind(layout);
                window->setColorMode(mode);
                waitForFrame(*window);
                const double coverage = sceneCoverage(*window);
                QVERIFY2(coverage > 0.03,
                         qPrintable(QString("%1 / %2: scene covers %3 of the view")
                                        .arg(QString::fromStdString(toString(layout)))
                                        .arg(QString::fromStdString(toString(mode)))
                                        .arg(coverage)));
                QVERIFY(!window->chipLegend()->legend().title.empty());
                // Swatches, or a colour bar for many groups.
                QVERIFY(window->chipLegend()->legend().continuous ||
                        window->chipLegend()->legend().categories.size() >= 1);
            }
        }
    }

    void pickingAScreenPositionFindsTheChipThere() {
        auto window = open("tpu-v3-pod");
        QVERIFY(window);
        window->setLayoutKind(LayoutKind::Grid);
        window->view()->setCamera(VtkView::CameraPreset::Top);
        waitForFrame(*window);
        for (ChipId chip : {0, 31, 100, 517, 1000, 1023}) {
            const QPoint at = window->view()->widgetPositionOf(chip);
            QVERIFY(window->view()->rect().contains(at));
            QCOMPARE(window->view()->chipAt(at), chip);
        }
        // Clicking shows the chip's details card.
        const QPoint at = window->view()->widgetPositionOf(517);
        QTest::mouseClick(window->view()->renderWindow(), Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(window->details().contains("Chip 517"));
        QVERIFY(window->details().contains("host"));
        // A link between two chips: its midpoint picks it, and a click shows its card.
        const int link = 40;
        const QPoint middle = window->view()->widgetPositionOfLink(link);
        QCOMPARE(window->view()->chipAt(middle), -1);
        QCOMPARE(window->view()->linkAt(middle), link);
        QTest::mouseClick(window->view()->renderWindow(), Qt::LeftButton, Qt::NoModifier, middle);
        QVERIFY2(window->details().contains("GB/s per direction"), qPrintable(window->details()));
        // Far outside the grid there is no chip.
        QCOMPARE(window->view()->chipAt(QPoint(2, 2)), -1);
    }

    void animationAdvancesWithTime() {
        auto window = open("tpu-v3-pod");
        QVERIFY(window);
        window->setTimeUs(0);
        const double start = window->timeUs();
        window->advanceFrame(0.5);
        QVERIFY(window->timeUs() > start);
        // Scrubbing through the replay passes every phase in order, and the X and Y phases light
        // different links.
        QStringList phases;
        std::vector<Rgb> alongX, alongY;
        for (int i = 0; i <= 400; ++i) {
            window->setTimeUs(window->durationUs() * i / 400.0);
            const QString phase = window->caption().section(',', 0, 0);
            if (phase != "idle" && (phases.isEmpty() || phases.back() != phase)) {
                phases << phase;
            }
            if (phase == "reduce-scatter along X" && alongX.empty()) {
                alongX = window->frame().links;
            }
            if (phase == "reduce-scatter along Y" && alongY.empty()) {
                alongY = window->frame().links;
            }
        }
        QCOMPARE(phases, QStringList({"reduce-scatter along X", "reduce-scatter along Y",
                                      "all-gather along Y", "all-gather along X"}));
        QVERIFY(!alongX.empty() && alongX != alongY);
    }

    // Hundreds of changes in a few seconds: the window never freezes, and what is shown at the
    // end is the last configuration, not a stale one. A freeze, not a speed: the bound holds on
    // a loaded 2-core machine (simulations run off the UI thread; a stall of seconds means work
    // on it). How short the stalls are is measured by podscope --benchmark-responsiveness
    // (docs/performance.md).
    void staysResponsiveThroughRapidChanges() {
        auto window = open("tpu-v3-multipod");
        QVERIFY(window);
        waitForFrame(*window); // the first frame uploads the scene: not a reaction to a change
        ResponsivenessProbe probe(*window, 300);
        QSignalSpy finished(&probe, &ResponsivenessProbe::finished);
        probe.start();
        QVERIFY(finished.wait(120000));
        const auto& result = probe.result();
        QCOMPARE(result.changes, 300);
        QVERIFY2(result.showsLastConfiguration,
                 "the window still shows an earlier configuration after 30 s");
        QVERIFY2(result.maxStallMs < 2000,
                 qPrintable(QString("the event loop froze for %1 ms").arg(result.maxStallMs)));
        const Scenario& wanted = window->explorer()->document().scenario();
        QCOMPARE(window->currentRun()->scenario.collective.chunks, wanted.gradient.chunks);
        QCOMPARE(window->explorer()->controls()->findChild<QSpinBox*>("gradient.chunks")->value(),
                 wanted.gradient.chunks);
    }

    void screenshotModeWritesTheWindow() {
        QTemporaryDir dir;
        const QString file = dir.filePath("shot.png");
        QProcess program;
        // The gradient-sync replay: 600 px is below the height the step replay's legends and
        // timeline panel need (625 px, window layouts at small sizes are issue 23 item 4).
        program.start(PODSCOPE_GUI_PROGRAM,
                      {"--screenshot", file, "--preset", "tpu-v3-pod", "--layout", "grid", "--size",
                       "900x600", "--time-us", "100", "--replay", "collective"});
        QVERIFY(program.waitForFinished(120000));
        QCOMPARE(program.exitCode(), 0);
        const QImage image(file);
        QCOMPARE(image.size(), QSize(900, 600));
    }

    // Tools > Find the fastest... opens the search dialog on the window's model; a second
    // trigger raises the same dialog rather than opening another.
    void toolsMenuOpensTheSearchDialog() {
        auto window = open("tpu-v3-pod");
        QVERIFY(window);
        QAction* action = nullptr;
        for (QAction* menu : window->menuBar()->actions()) {
            if (menu->text().remove('&') == "Tools" && menu->menu()) {
                for (QAction* item : menu->menu()->actions()) {
                    if (item->text().remove('&').startsWith("Find the fastest")) {
                        action = item;
                    }
                }
            }
        }
        QVERIFY2(action, "no Tools > Find the fastest... action");
        QVERIFY(window->findChildren<TuneDialog*>().isEmpty());
        action->trigger();
        auto dialogs = window->findChildren<TuneDialog*>();
        QCOMPARE(dialogs.size(), 1);
        QVERIFY(dialogs.front()->isVisible());
        QCOMPARE(dialogs.front()->findChild<QComboBox*>("tuneModel")->currentText(),
                 QString::fromStdString(window->explorer()->document().scenario().workload));
        action->trigger();
        QCOMPARE(window->findChildren<TuneDialog*>().size(), 1);
    }

    void unknownPresetIsRefused() {
        QProcess program;
        program.start(PODSCOPE_GUI_PROGRAM,
                      {"--preset", "tpu-v9-superpod", "--screenshot", "/tmp/never.png"});
        QVERIFY(program.waitForFinished(60000));
        QCOMPARE(program.exitCode(), 2);
        const QString error = QString::fromUtf8(program.readAllStandardError());
        QVERIFY2(error.contains("tpu-v9-superpod"), qPrintable(error));
        QVERIFY(!QFile::exists("/tmp/never.png"));
        program.start(PODSCOPE_GUI_PROGRAM, {"--layout", "spiral"});
        QVERIFY(program.waitForFinished(60000));
        QCOMPARE(program.exitCode(), 2);
        QVERIFY(QString::fromUtf8(program.readAllStandardError()).contains("layout"));
    }
};

QTEST_MAIN(MainWindowTest)
#include "MainWindowTest.moc"
