// The 3-D view at 4096 chips (issue 23): chips, not link lines, fill the picture in every
// layout, colouring and replay, on the dark background and on the light one of print exports;
// colours drawn are the legend's; layout and colouring are chosen independently; the program
// replays the whole step unless told otherwise. Renders through GLX: needs an X server.
#include "GuiOptions.hpp"
#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/MainWindow.hpp"

#include <QImage>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

using namespace podscope;
using namespace podscope::ui;

namespace {

// How a pixel of a chip's cube looks: the chip's colour times the shade of the face's corners
// (43 % to 100 %, VtkView), give or take the rasteriser's rounding.
bool shadeOf(QRgb pixel, Rgb chip) {
    const double c[3] = {double(chip.r), double(chip.g), double(chip.b)};
    const double p[3] = {double(qRed(pixel)), double(qGreen(pixel)), double(qBlue(pixel))};
    const double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    if (cc <= 0) {
        return false;
    }
    const double f = (p[0] * c[0] + p[1] * c[1] + p[2] * c[2]) / cc;
    if (f < 0.4 || f > 1.02) {
        return false;
    }
    for (int k = 0; k < 3; ++k) {
        if (std::abs(p[k] - f * c[k]) > 10) {
            return false;
        }
    }
    return true;
}

struct Coverage {
    double chipShare = 0;    // of the pixels that are not background
    double pictureShare = 0; // of all pixels: the scene is not a speck
    int coloursShown = 0;    // chip colours each covering at least 0.5 % of the scene
};

// Which share of the drawn pixels shows a chip, in one of the frame's chip colours.
Coverage coverage(const QImage& image, const std::vector<Rgb>& chipColours, QRgb background) {
    std::vector<Rgb> colours;
    for (const Rgb& c : chipColours) {
        if (std::find(colours.begin(), colours.end(), c) == colours.end()) {
            colours.push_back(c);
        }
    }
    std::map<std::size_t, int> perColour;
    int drawn = 0, chips = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            if (p == background) {
                continue;
            }
            ++drawn;
            for (std::size_t k = 0; k < colours.size(); ++k) {
                if (shadeOf(p, colours[k])) {
                    ++chips;
                    ++perColour[k];
                    break;
                }
            }
        }
    }
    Coverage result;
    result.chipShare = drawn > 0 ? double(chips) / drawn : 0;
    result.pictureShare = double(drawn) / (double(image.width()) * image.height());
    for (const auto& [colour, count] : perColour) {
        result.coloursShown += count >= 0.005 * drawn;
    }
    return result;
}

QString describe(LayoutKind layout, ColorMode mode, const char* replay, bool light) {
    return QString("%1 / %2 / %3%4")
        .arg(QString::fromStdString(toString(layout)), QString::fromStdString(toString(mode)),
             replay, light ? " / light" : "");
}

} // namespace

class ViewAtScaleTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<MainWindow> window_;

    void waitForStep() {
        if (window_->stepRun() && !window_->simulatingStep()) {
            return;
        }
        QSignalSpy shown(window_.get(), &MainWindow::stepRunShown);
        QVERIFY(shown.wait(120000));
    }

    // Every layout and colouring at the current replay time: chips are most of what is drawn.
    void checkEveryLayoutAndColouring(const char* replay, double leastChipShare) {
        for (LayoutKind layout : allLayouts()) {
            window_->setLayoutKind(layout);
            for (ColorMode mode : {ColorMode::ChipState, ColorMode::Replica, ColorMode::Host}) {
                window_->setColorMode(mode);
                for (bool light : {false, true}) {
                    const QImage image =
                        light ? window_->view()->renderImage(QSize(800, 500), Rgb{255, 255, 255})
                              : window_->view()->renderImage(QSize(800, 500));
                    QVERIFY(!image.isNull());
                    const Coverage c = coverage(image, window_->frame().chips, image.pixel(1, 1));
                    const QString what = describe(layout, mode, replay, light) +
                                         QString(": chips %1 % of the drawn pixels, %2 colours, "
                                                 "scene %3 % of the image")
                                             .arg(c.chipShare * 100, 0, 'f', 1)
                                             .arg(c.coloursShown)
                                             .arg(c.pictureShare * 100, 0, 'f', 1);
                    qInfo("%s", qPrintable(what));
                    QVERIFY2(c.chipShare > leastChipShare, qPrintable(what));
                    QVERIFY2(c.pictureShare > 0.08, qPrintable(what));
                    if (mode == ColorMode::Replica) {
                        // A colour per chip (two replicas each) in the legend's 8: they all show.
                        QVERIFY2(c.coloursShown >= 8, qPrintable(what));
                    }
                }
            }
        }
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        VtkView::useDefaultSurfaceFormat();
        window_ =
            std::make_unique<MainWindow>(loadPreset("mlperf07-resnet50-tf-4096").scenario, true);
        window_->resize(1280, 720);
        QSignalSpy shown(window_.get(), &MainWindow::runShown);
        window_->show();
        QVERIFY(shown.wait(120000));
        window_->setPlaying(false);
        QCOMPARE(window_->currentRun()->topology.chipCount(), 4096);
    }

    void theProgramReplaysTheWholeStepByDefault() {
        const gui::Options options = gui::parseOptions({"podscope"});
        QVERIFY(options.replay == ReplayKind::Step);
        // One flag (one choice in the toolbar) away.
        QVERIFY(gui::parseOptions({"podscope", "--replay", "collective"}).replay ==
                ReplayKind::Collective);
        // The step replay's link colours are a choice of their own, in every layout.
        QVERIFY(options.stepLinks == StepLinkColors::TrafficKind);
        QVERIFY(gui::parseOptions({"podscope", "--links", "utilisation", "--layout", "torus"})
                    .stepLinks == StepLinkColors::Utilisation);
        QVERIFY(gui::parseOptions({"podscope", "--layout", "unrolled"}).stepLinks ==
                StepLinkColors::TrafficKind);
        try {
            gui::parseOptions({"podscope", "--links", "heat"});
            QFAIL("--links heat was accepted");
        } catch (const InputError& error) {
            QCOMPARE(QString::fromStdString(error.field()), QString("links"));
            QVERIFY(QString(error.what()).contains("traffic or utilisation"));
        }
    }

    void chipsShowInTheCollectiveReplay() {
        window_->setReplayKind(ReplayKind::Collective);
        window_->setTimeFraction(0.5); // mid-collective: thousands of chunks in flight
        checkEveryLayoutAndColouring("collective", 0.35);
    }

    // In the step, chips idle or busy and links quiet or carrying traffic: the backward pass
    // (no link traffic: the slab was the quiet links' grey) and the optimizer.
    void chipsShowInEveryPhaseOfTheStep() {
        window_->setReplayKind(ReplayKind::Step);
        waitForStep();
        for (podscope::ChipActivity phase :
             {podscope::ChipActivity::Backward, podscope::ChipActivity::Optimizer,
              podscope::ChipActivity::GradientSync}) {
            QVERIFY(window_->setTimeAtActivity(phase));
            checkEveryLayoutAndColouring(toString(phase), 0.35);
        }
    }

    void choosingALayoutLeavesTheColourChoicesAlone() {
        window_->setReplayKind(ReplayKind::Step);
        waitForStep();
        for (StepLinkColors links : {StepLinkColors::TrafficKind, StepLinkColors::Utilisation}) {
            for (bool arcs : {true, false}) {
                window_->setStepLinkColors(links);
                window_->setWrapArcs(arcs);
                window_->setColorMode(ColorMode::Replica);
                for (LayoutKind layout : allLayouts()) {
                    window_->setLayoutKind(layout);
                    QVERIFY(window_->layoutKind() == layout);
                    QVERIFY(window_->stepLinkColors() == links);
                    QCOMPARE(window_->wrapArcs(), arcs);
                    QVERIFY(window_->colorMode() == ColorMode::Replica);
                }
            }
        }
        window_->setWrapArcs(true);
    }

    // Chips coloured by replica in the step replay too, not by activity regardless.
    void theStepReplayColoursChipsAsChosen() {
        window_->setReplayKind(ReplayKind::Step);
        waitForStep();
        window_->setLayoutKind(LayoutKind::Torus);
        window_->setColorMode(ColorMode::Replica);
        std::set<std::tuple<int, int, int>> colours;
        for (const Rgb& c : window_->frame().chips) {
            colours.insert({c.r, c.g, c.b});
        }
        QCOMPARE(int(colours.size()), 8);
        // ResNet-50's replicas are one per core: a colour per chip, for its two replicas.
        const bool perCore = window_->stepRun()->plan.parallelism.replicasPerChip > 1;
        QCOMPARE(QString::fromStdString(window_->frame().chipLegend.title),
                 QString(perCore ? "Chips" : "Replicas"));
        QCOMPARE(window_->frame().chipLegend.categories.size(), std::size_t(8));
        window_->setColorMode(ColorMode::ChipState);
        QCOMPARE(QString::fromStdString(window_->frame().chipLegend.title),
                 QString("Chip activity"));
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(ViewAtScaleTest)
#include "ViewAtScaleTest.moc"
