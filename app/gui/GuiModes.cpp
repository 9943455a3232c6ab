#include "GuiModes.hpp"

#include "QtPlatform.hpp"
#include "common/InputError.hpp"
#include "export/ChartExport.hpp"
#include "session/ScenarioDocument.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "widgets/DemoPanel.hpp"
#include "widgets/DemoPlayer.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/ExportMenu.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/ResponsivenessProbe.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

namespace podscope::gui {
namespace {

// The configuration the window opens on when no --preset is given.
constexpr const char* kDefaultPreset = "mlperf07-resnet50-tf-4096";

struct Options {
    Scenario scenario = loadPreset(kDefaultPreset).scenario;
    ui::LayoutKind layout = ui::LayoutKind::Torus;
    ui::ColorMode colorMode = ui::ColorMode::ChipState;
    std::optional<double> timeUs;
    ui::ReplayKind replay = ui::ReplayKind::Collective; // --replay
    std::optional<double> timeFraction;                 // --time-fraction
    std::optional<ChipActivity> timeAt;                 // --time-at
    std::optional<ui::ChartKind> chart; // --chart: the chart tab in front
    QSize size{1280, 720}; // fits a 1366x768 laptop screen
    QString screenshot;
    int benchmarkFrames = 0;
    int benchmarkChanges = 0; // --benchmark-responsiveness
    std::optional<ui::DemoScript> demo; // --demo: the window opens on this demo
    int demoStep = 0;                   // 0-based
    bool presentation = false;          // --presentation: the classroom layout
    bool sizeGiven = false;

    // --- Scripted exports (issue 6): --export-chart/--export-view/--export-size/--export-dpi/--out
    std::optional<ui::ChartKind> exportChart;
    QString exportOut;  // the chart's file: .png, .svg or .pdf
    QString exportView; // the 3-D view's PNG
    std::optional<QSize> exportSize;
    int exportDpi = 0; // 0: the default of the export kind
    ui::ViewFigureOptions viewFigure; // --export-legend, -colorbar, -caption, -light
    bool exporting() const { return exportChart || !exportView.isEmpty(); }
    // --- end of scripted exports
};

QSize parseSize(const QString& text) {
    const auto parts = text.split('x');
    bool okW = false, okH = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 320 || h < 240 || w > 8192 || h > 8192) {
        throw InputError("size", "'" + text.toStdString() + "' must be WxH between 320x240 and 8192x8192");
    }
    return {w, h};
}

// `arguments`: the program's, read before QApplication exists (it would abort without a display,
// and --help must work anywhere); Qt's own options such as -platform are not taken.
Options parseOptions(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription("PodScope: how ML training scales on a TPU-v3 multipod");
    // Not addHelpOption(): its --help-all lists Qt's own options, which podscope does not take.
    parser.addOption(QCommandLineOption({"h", "help"}, "Displays help on commandline options."));
    parser.addVersionOption();
    const QCommandLineOption preset("preset", "MLPerf v0.7 preset (podscope-cli presets), or a topology preset or DIMS "
                                              "for the default model (default mlperf07-resnet50-tf-4096).", "NAME");
    const QCommandLineOption layout("layout", "torus, grid, physical or unrolled (from above, links as a heat map).", "LAYOUT");
    const QCommandLineOption colorBy("color-by",
                                     "state, replica, data-parallel-group, host or pod.", "MODE");
    const QCommandLineOption algorithm("algorithm", "2d, 2d-dual, ring, bidir-ring or flat-ring.",
                                       "NAME");
    const QCommandLineOption timeUs("time-us", "Replay time to show, in microseconds.", "T");
    const QCommandLineOption size("size", "Window size, e.g. 1600x900.", "WxH");
    const QCommandLineOption chart("chart", "Chart tab in front: scaling, breakdown, batch, links, "
                                            "layers or roofline (the Layers tab).", "KIND");
    const QCommandLineOption screenshot("screenshot", "Render the window to a PNG file and exit.", "FILE");
    const QCommandLineOption frames("benchmark-frames", "Play N frames and print frame-rate JSON.", "N");
    const QCommandLineOption responsiveness("benchmark-responsiveness",
                                            "Make N rapid configuration changes (one every 8 ms) "
                                            "and print the event loop's stalls as JSON.", "N");
    const QCommandLineOption replay("replay", "What the 3-D view replays: collective (the gradient "
                                              "sync, default), step (the whole training step, with "
                                              "the timeline panel) or step-eval (the step and an "
                                              "evaluation pass).", "KIND");
    const QCommandLineOption timeFraction("time-fraction",
                                          "Replay time to show, as a fraction 0..1 of what is "
                                          "replayed (the collective or the step).", "F");
    const QCommandLineOption timeAt("time-at",
                                    "With --replay step: show the middle of the longest span in "
                                    "which chip 0 does this (forward, backward, gradient-sync, "
                                    "optimizer, model-parallel, batch-norm, evaluating, "
                                    "waiting-for-input).", "ACTIVITY");
    // As podscope-cli's options of the same names.
    const QCommandLineOption modelParallel("model-parallel", "Cores per replica: 1, 2, 4, 8 or 16.",
                                           "N");
    const QCommandLineOption modelParallelKind("model-parallel-kind",
                                               "How a replica is split: spatial or tensor.", "KIND");
    const QCommandLineOption weightSharding("wus", "Weight-update sharding: on or off.", "ON|OFF");
    parser.addOptions({preset, layout, colorBy, algorithm, timeUs, size, screenshot, frames, responsiveness,
                       chart, replay, timeFraction, timeAt, modelParallel, modelParallelKind, weightSharding});
    const QCommandLineOption demo("demo", "Open a guided demo: a bundled one (ring-allreduce, twod-allreduce, "
                                          "batch-limit, model-parallelism, weight-update-sharding, "
                                          "input-pipeline, distributed-evaluation) or a demo script file (.json).", "NAME");
    const QCommandLineOption step("step", "With --demo: start at step K (1 = the first).", "K");
    parser.addOptions({demo, step});
    const QCommandLineOption presentation("presentation",
                                          "Open in the presentation layout (classroom mode: 3-D "
                                          "view, chart and demo caption in a large font); full "
                                          "screen unless --size or --screenshot is given.");
    parser.addOption(presentation);
    // --- Scripted exports (issue 6)
    const QCommandLineOption exportChart("export-chart",
                                         "Export a chart (scaling, batch, breakdown, links, layers "
                                         "or roofline) to "
                                         "--out FILE.png|svg|pdf and exit.", "KIND");
    const QCommandLineOption exportOut("out", "File written by --export-chart.", "FILE");
    const QCommandLineOption exportView("export-view", "Render the 3-D view off-screen to a PNG "
                                                       "file at --export-size and exit.", "FILE");
    const QCommandLineOption exportSize("export-size", "Pixel size of an export (default 1600x1000 "
                                                       "for charts, 1920x1080 for the view).", "WxH");
    const QCommandLineOption exportDpi("export-dpi", "DPI of an export (default 200 for charts, "
                                                     "96 for the view).", "N");
    parser.addOptions({exportChart, exportOut, exportView, exportSize, exportDpi});
    const QCommandLineOption exportLegend("export-legend", "With --export-view: add the legend of "
                                                           "the chip colours.");
    const QCommandLineOption exportColorBar("export-colorbar", "With --export-view: add the colour "
                                                               "bar of the link utilisation.");
    const QCommandLineOption exportCaption("export-caption", "With --export-view: add a caption "
                                                             "(configuration, phase, time).");
    const QCommandLineOption exportLight("export-light", "With --export-view: a light background, "
                                                         "for print.");
    parser.addOptions({exportLegend, exportColorBar, exportCaption, exportLight});
    // --- end of scripted exports
    if (!parser.parse(arguments)) {
        throw InputError("arguments", parser.errorText().toStdString());
    }
    if (parser.isSet("help")) {
        // Without a QCoreApplication (none exists yet) Qt cannot know the program's name.
        std::cout << parser.helpText().replace("<executable_name>", "podscope").toStdString();
        std::exit(0);
    }
    if (parser.isSet("version")) {
        std::cout << "podscope " << PODSCOPE_VERSION << "\n";
        std::exit(0);
    }
    if (!parser.positionalArguments().isEmpty()) {
        throw InputError("arguments", "unexpected argument '" + parser.positionalArguments().front().toStdString() + "'");
    }
    Options options;
    if (parser.isSet(preset)) {
        const std::string name = parser.value(preset).toStdString();
        const auto names = presetNames();
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            options.scenario = loadPreset(name).scenario;
        } else {
            options.scenario.topology = name;
            options.scenario.wrap.reset();
            try {
                resolveTopology(name, std::nullopt, loadHardware(options.scenario.hardware));
            } catch (const InputError&) {
                throw InputError("preset", "'" + name + "' is neither an MLPerf preset (podscope-cli presets) nor a "
                                           "topology (tpu-v3-multipod, tpu-v3-2pod, tpu-v3-pod or DIMS such as 16x16)");
            }
        }
    }
    if (parser.isSet(layout)) {
        options.layout = ui::parseLayout(parser.value(layout).toStdString());
    }
    if (parser.isSet(colorBy)) {
        options.colorMode = ui::parseColorMode(parser.value(colorBy).toStdString());
    }
    if (parser.isSet(algorithm)) {
        options.scenario.gradient.algorithm = parseAlgorithm(parser.value(algorithm).toStdString());
    }
    if (parser.isSet(modelParallel)) {
        bool ok = false;
        const int cores = parser.value(modelParallel).toInt(&ok);
        if (!ok || cores < 1) {
            throw InputError("model-parallel", "'" + parser.value(modelParallel).toStdString() +
                                                   "' must be a whole number of cores: 1, 2, 4, 8 or 16");
        }
        options.scenario.modelParallel = cores; // the model refuses other counts, naming them
    }
    if (parser.isSet(modelParallelKind)) {
        options.scenario.modelParallelKind =
            parseModelParallelKind(parser.value(modelParallelKind).toStdString(), "model-parallel-kind");
    }
    if (parser.isSet(weightSharding)) {
        const QString value = parser.value(weightSharding);
        if (value != "on" && value != "off") {
            throw InputError("wus", "'" + value.toStdString() + "' is neither on nor off");
        }
        options.scenario.weightUpdateSharding = value == "on";
    }
    if (parser.isSet(replay)) {
        options.replay = ui::parseReplayKind(parser.value(replay).toStdString());
    }
    if (parser.isSet(timeFraction)) {
        if (parser.isSet(timeUs)) {
            throw InputError("time-fraction", "cannot be combined with --time-us");
        }
        bool ok = false;
        const double f = parser.value(timeFraction).toDouble(&ok);
        if (!ok || !(f >= 0) || f > 1) {
            throw InputError("time-fraction", "'" + parser.value(timeFraction).toStdString() +
                                                  "' must be a number from 0 to 1");
        }
        options.timeFraction = f;
    }
    if (parser.isSet(timeAt)) {
        if (parser.isSet(timeUs) || parser.isSet(timeFraction) || options.replay == ui::ReplayKind::Collective) {
            throw InputError("time-at", "needs --replay step or step-eval, and no --time-us or --time-fraction");
        }
        const std::string wanted = parser.value(timeAt).toStdString();
        for (int a = 0; a < kChipActivityCount; ++a) {
            std::string name = toString(static_cast<ChipActivity>(a));
            std::replace(name.begin(), name.end(), ' ', '-');
            if (name == wanted || (wanted == "batch-norm" && a == static_cast<int>(ChipActivity::BatchNormSync)) ||
                (wanted == "model-parallel" && a == static_cast<int>(ChipActivity::ModelParallel))) {
                options.timeAt = static_cast<ChipActivity>(a);
            }
        }
        if (!options.timeAt) {
            throw InputError("time-at", "'" + wanted + "' is not an activity (forward, backward, gradient-sync, "
                                        "optimizer, model-parallel, batch-norm, evaluating, waiting-for-input)");
        }
    }
    if (parser.isSet(timeUs)) {
        bool ok = false;
        const double t = parser.value(timeUs).toDouble(&ok);
        if (!ok || !(t >= 0) || t > 1e12) {
            throw InputError("time-us", "must be a non-negative number of microseconds");
        }
        options.timeUs = t;
    }
    if (parser.isSet(size)) {
        options.size = parseSize(parser.value(size));
    }
    if (parser.isSet(chart)) {
        options.chart = ui::parseChartKind(parser.value(chart));
        if (!options.chart) {
            throw InputError("chart", "'" + parser.value(chart).toStdString() +
                                          "' must be scaling, breakdown, batch, links, layers or roofline");
        }
    }
    options.screenshot = parser.value(screenshot);
    options.presentation = parser.isSet(presentation);
    options.sizeGiven = parser.isSet(size);
    if (parser.isSet(demo)) {
        // The demo's step sets the configuration and the view: other settings would be lost.
        for (const auto* clash : {&preset, &layout, &colorBy, &algorithm, &timeUs, &chart, &replay,
                                  &timeFraction, &timeAt, &modelParallel, &modelParallelKind, &weightSharding}) {
            if (parser.isSet(*clash)) {
                throw InputError(clash->names().front().toStdString(),
                                 "cannot be combined with --demo (each demo step sets the configuration and the view)");
            }
        }
        options.demo = ui::loadDemo(parser.value(demo).toStdString());
        if (parser.isSet(step)) {
            bool ok = false;
            const int k = parser.value(step).toInt(&ok);
            const int steps = static_cast<int>(options.demo->steps.size());
            if (!ok || k < 1 || k > steps) {
                throw InputError("step", "'" + parser.value(step).toStdString() + "' must be a step from 1 to " +
                                             std::to_string(steps) + " of demo '" + options.demo->name + "'");
            }
            options.demoStep = k - 1;
        }
    } else if (parser.isSet(step)) {
        throw InputError("step", "only used with --demo");
    }
    if (parser.isSet(frames)) {
        bool ok = false;
        options.benchmarkFrames = parser.value(frames).toInt(&ok);
        if (!ok || options.benchmarkFrames < 1 || options.benchmarkFrames > 100000) {
            throw InputError("benchmark-frames", "must be a frame count between 1 and 100000");
        }
    }
    if (parser.isSet(responsiveness)) {
        bool ok = false;
        options.benchmarkChanges = parser.value(responsiveness).toInt(&ok);
        if (!ok || options.benchmarkChanges < 1 || options.benchmarkChanges > 100000) {
            throw InputError("benchmark-responsiveness", "must be a number of changes between 1 and 100000");
        }
        if (options.demo) {
            throw InputError("benchmark-responsiveness", "cannot be combined with --demo");
        }
    }
    // --- Scripted exports (issue 6)
    if (parser.isSet(exportChart)) {
        options.exportChart = ui::parseChartKind(parser.value(exportChart));
        if (!options.exportChart) {
            throw InputError("export-chart", "'" + parser.value(exportChart).toStdString() +
                                                 "' must be scaling, breakdown, batch, links, layers or roofline");
        }
        options.exportOut = parser.value(exportOut);
        if (options.exportOut.isEmpty()) {
            throw InputError("out", "--export-chart needs --out FILE.png, FILE.svg or FILE.pdf");
        }
        if (!ui::exportFormatOf(options.exportOut)) {
            throw InputError("out", "'" + options.exportOut.toStdString() +
                                        "' must end in .png, .svg or .pdf");
        }
    } else if (parser.isSet(exportOut)) {
        throw InputError("out", "only used with --export-chart");
    }
    options.exportView = parser.value(exportView);
    if (parser.isSet(exportView) && !options.exportView.endsWith(".png", Qt::CaseInsensitive)) {
        throw InputError("export-view", "'" + options.exportView.toStdString() + "' must end in .png");
    }
    for (const auto& [option, member] :
         {std::pair{&exportLegend, &ui::ViewFigureOptions::legend},
          std::pair{&exportColorBar, &ui::ViewFigureOptions::colorBar},
          std::pair{&exportCaption, &ui::ViewFigureOptions::caption},
          std::pair{&exportLight, &ui::ViewFigureOptions::lightBackground}}) {
        if (parser.isSet(*option)) {
            if (options.exportView.isEmpty()) {
                throw InputError(option->names().front().toStdString(),
                                 "only used with --export-view");
            }
            options.viewFigure.*member = true;
        }
    }
    if ((parser.isSet(exportSize) || parser.isSet(exportDpi)) && !options.exporting()) {
        throw InputError(parser.isSet(exportSize) ? "export-size" : "export-dpi",
                         "only used with --export-chart or --export-view");
    }
    if (parser.isSet(exportSize)) {
        const auto parts = parser.value(exportSize).split('x');
        bool okW = false, okH = false;
        const QSize pixels(parts.size() == 2 ? parts[0].toInt(&okW) : 0,
                           parts.size() == 2 ? parts[1].toInt(&okH) : 0);
        const QString problem = ui::checkExportSize(pixels);
        if (!okW || !okH || !problem.isEmpty()) {
            throw InputError("export-size", "'" + parser.value(exportSize).toStdString() +
                                                "' must be WxH, each side " +
                                                std::to_string(ui::kMinExportPixels) + " to " +
                                                std::to_string(ui::kMaxExportPixels) + " pixels");
        }
        options.exportSize = pixels;
    }
    if (parser.isSet(exportDpi)) {
        bool ok = false;
        options.exportDpi = parser.value(exportDpi).toInt(&ok);
        if (!ok || !ui::checkExportDpi(options.exportDpi).isEmpty()) {
            throw InputError("export-dpi", "'" + parser.value(exportDpi).toStdString() +
                                               "' must be a whole number from " +
                                               std::to_string(ui::kMinExportDpi) + " to " +
                                               std::to_string(ui::kMaxExportDpi));
        }
    }
    // --- end of scripted exports
    return options;
}

// Everything but a chart export shows or renders the 3-D view.
DisplayNeed displayNeed(const Options& options) {
    const bool onlyCharts = options.exportChart && options.exportView.isEmpty() && options.screenshot.isEmpty() &&
                            options.benchmarkFrames == 0 && options.benchmarkChanges == 0;
    return onlyCharts ? DisplayNeed::None : DisplayNeed::OpenGL;
}

bool platformHasOpenGL() {
    const QString platform = QGuiApplication::platformName();
    return platform != "offscreen" && platform != "minimal";
}

// Waits for the view to have drawn the current state, then saves the whole window.
void takeScreenshot(ui::MainWindow& window, const QString& file) {
    auto save = [&window, file] {
        // The 3-D scene lives in a native child window, which QWidget::grab does not see:
        // paint its framebuffer over the grabbed widgets.
        QImage image = window.grab().toImage();
        if (auto* view = window.view()) {
            QPainter painter(&image);
            const QPoint at = view->mapTo(&window, QPoint(0, 0));
            // VTK leaves alpha at zero where nothing is drawn: the view is opaque on screen.
            painter.drawImage(QRect(at, view->size()), view->grabFramebuffer().convertToFormat(QImage::Format_RGB32));
        }
        if (image.isNull() || !image.save(file, "PNG")) {
            std::cerr << "podscope: error: cannot write screenshot '" << file.toStdString() << "'\n";
            QApplication::exit(1);
            return;
        }
        QApplication::exit(0);
    };
    if (auto* view = window.view()) {
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection = QObject::connect(view, &ui::VtkView::frameSwapped, &window, [connection, save] {
            QObject::disconnect(*connection);
            QTimer::singleShot(50, save);
        });
        view->requestRender();
    } else {
        QTimer::singleShot(50, save);
    }
}

// --- Scripted exports (issue 6)
// Writes the requested chart and view exports, then exits: 0 when all were written, 1 if not.
// Called once the analysis and the replay both show the configuration.
void runExports(ui::MainWindow& window, const Options& options) {
    if (options.exportChart) {
        ui::ChartData data;
        data.analysis = window.explorer()->analysis();
        data.run = window.currentRun();
        const QSize pixels = options.exportSize.value_or(QSize(1600, 1000));
        const int dpi = options.exportDpi > 0 ? options.exportDpi : 200;
        const QString problem =
            ui::exportChart(*options.exportChart, data, options.exportOut, pixels, dpi);
        if (!problem.isEmpty()) {
            std::cerr << "podscope: error: " << problem.toStdString() << "\n";
            QApplication::exit(1);
            return;
        }
        std::cout << "Wrote " << options.exportOut.toStdString() << " (" << pixels.width() << "x"
                  << pixels.height() << " px, " << dpi << " DPI)\n";
    }
    if (options.exportView.isEmpty()) {
        QApplication::exit(0);
        return;
    }
    auto* view = window.view();
    if (!view) {
        std::cerr << "podscope: error: --export-view needs an OpenGL platform (run under X or Xvfb)\n";
        QApplication::exit(1);
        return;
    }
    // The view's OpenGL context exists once it has drawn a frame.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(view, &ui::VtkView::frameSwapped, &window, [connection, &window, options] {
        QObject::disconnect(*connection);
        const QSize pixels = options.exportSize.value_or(QSize(1920, 1080));
        QElapsedTimer clock;
        clock.start();
        QImage image = ui::renderViewFigure(window, pixels, options.viewFigure);
        const qint64 renderMs = clock.elapsed();
        if (image.isNull()) {
            std::cerr << "podscope: error: cannot render the 3-D view at " << pixels.width() << "x"
                      << pixels.height() << " (beyond the OpenGL driver's limits)\n";
            QApplication::exit(1);
            return;
        }
        const int dpi = options.exportDpi > 0 ? options.exportDpi : 96;
        image.setDotsPerMeterX(static_cast<int>(dpi / 0.0254 + 0.5));
        image.setDotsPerMeterY(static_cast<int>(dpi / 0.0254 + 0.5));
        const QString problem = ui::savePngAtomically(image, options.exportView);
        if (!problem.isEmpty()) {
            std::cerr << "podscope: error: " << problem.toStdString() << "\n";
            QApplication::exit(1);
            return;
        }
        std::cout << "Wrote " << options.exportView.toStdString() << " (" << pixels.width() << "x"
                  << pixels.height() << " px, rendered off-screen in " << renderMs << " ms)\n";
        QApplication::exit(0);
    });
    view->requestRender();
}
// --- end of scripted exports

// Plays N frames through the full Qt path (advance, recolour, update, paint, swap) as fast as
// the event loop allows, then prints one JSON line.
void benchmarkFrames(ui::MainWindow& window, int frames, double firstFrameMs) {
    auto* view = window.view();
    if (!view) {
        std::cerr << "podscope: error: --benchmark-frames needs an OpenGL platform (run under X or Xvfb)\n";
        QApplication::exit(1);
        return;
    }
    struct State {
        int done = 0;
        QElapsedTimer clock;
        std::vector<double> renderMs;
    };
    auto state = std::make_shared<State>();
    state->clock.start();
    QObject::connect(view, &ui::VtkView::frameSwapped, &window, [&window, view, frames, state, firstFrameMs] {
        if (state->done > 0) {
            state->renderMs.push_back(view->lastRenderMs());
        }
        if (state->done++ == frames) {
            const double seconds = static_cast<double>(state->clock.nsecsElapsed()) * 1e-9;
            auto sorted = state->renderMs;
            std::sort(sorted.begin(), sorted.end());
            const double median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
            std::printf("{\"frames\": %d, \"fps\": %.2f, \"render_ms_median\": %.3f, \"first_frame_ms\": %.0f, "
                        "\"chips\": %lld, \"links\": %zu}\n",
                        frames, frames / seconds, median, firstFrameMs,
                        static_cast<long long>(window.frame().chips.size()), window.frame().links.size());
            std::fflush(stdout);
            QApplication::exit(0);
            return;
        }
        if (state->done == 1) {
            state->clock.restart(); // the first frame includes uploading the scene
        }
        window.advanceFrame(1.0 / 60.0);
    });
    window.advanceFrame(1.0 / 60.0);
}

// Makes the probe's rapid changes in the window, then prints its stalls as one JSON line; exits
// 1 if the window did not come to show the last configuration.
void benchmarkResponsiveness(ui::MainWindow& window, int changes) {
    if (!window.view()) {
        std::cerr << "podscope: error: --benchmark-responsiveness needs an OpenGL platform (run under X or Xvfb)\n";
        QApplication::exit(1);
        return;
    }
    auto* probe = new ui::ResponsivenessProbe(window, changes);
    probe->setParent(&window);
    QObject::connect(probe, &ui::ResponsivenessProbe::finished, &window, [probe] {
        const auto& r = probe->result();
        std::printf("{\"changes\": %d, \"max_stall_ms\": %.1f, \"p99_stall_ms\": %.1f, "
                    "\"median_stall_ms\": %.1f, \"settle_ms\": %.0f, \"shows_last_configuration\": %s}\n",
                    r.changes, r.maxStallMs, r.p99StallMs, r.medianStallMs, r.settleMs,
                    r.showsLastConfiguration ? "true" : "false");
        std::fflush(stdout);
        if (!r.showsLastConfiguration) {
            std::cerr << "podscope: error: the window did not show the last configuration within 30 s\n";
        }
        QApplication::exit(r.showsLastConfiguration ? 0 : 1);
    });
    // The first frame uploads the whole scene (a few hundred ms on llvmpipe, reported by
    // --benchmark-frames as first_frame_ms): the changes start once it is on screen.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = QObject::connect(window.view(), &ui::VtkView::frameSwapped, probe, [connection, probe] {
        QObject::disconnect(*connection);
        probe->start();
    });
    window.view()->requestRender();
}

// The program's arguments as Qt reads them (the local 8-bit encoding).
QStringList argumentsOf(int argc, char** argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i) {
        arguments << QString::fromLocal8Bit(argv[i]);
    }
    return arguments;
}

} // namespace

int run(int argc, char** argv, std::chrono::steady_clock::time_point started) {
    Options options;
    try {
        options = parseOptions(argumentsOf(argc, argv));
    } catch (const InputError& e) {
        std::cerr << "podscope: error: " << e.what() << "\n";
        return 2;
    }
    const DisplayNeed need = displayNeed(options);
    if (const auto problem = chooseQtPlatform(need)) {
        std::cerr << "podscope: error: " << *problem << "\n";
        return 1;
    }
    const bool scripted = !options.screenshot.isEmpty() || options.benchmarkFrames > 0 ||
                          options.benchmarkChanges > 0 || options.exporting();
    // Scripted runs start from the default layout and leave the user's settings, recent files
    // and autosave alone: they get settings and data folders of their own for the run, and a
    // runtime folder where there is none (as root, or in a container), which Qt would otherwise
    // warn about on stderr.
    QTemporaryDir scriptedHome;
    if (scripted && scriptedHome.isValid()) {
        qputenv("XDG_CONFIG_HOME", scriptedHome.filePath("config").toLocal8Bit());
        qputenv("XDG_DATA_HOME", scriptedHome.filePath("data").toLocal8Bit());
        if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
            qputenv("XDG_RUNTIME_DIR", scriptedHome.path().toLocal8Bit()); // 0700, as Qt requires
        }
    }

    quietPlatformMessages();
    ui::VtkView::useDefaultSurfaceFormat();
    QApplication app(argc, argv);
    QApplication::setApplicationName("PodScope");
    QApplication::setOrganizationName("PodScope");
    QApplication::setApplicationVersion(PODSCOPE_VERSION);
    if (const auto problem = unreachableDisplay(need)) {
        std::cerr << "podscope: error: " << *problem << "\n";
        return 1;
    }

    ui::MainWindow window(options.scenario, platformHasOpenGL());
    window.resize(options.size);
    if (options.presentation) {
        window.setPresentation(true);
        if (!scripted && !options.sizeGiven) {
            window.setFullScreen(true);
        }
    }
    auto failScripted = [scripted](const QString& message) {
        if (scripted) {
            std::cerr << "podscope: error: " << message.toStdString() << "\n";
            QApplication::exit(1);
        }
    };
    QObject::connect(&window, &ui::MainWindow::runFailed, &app, failScripted);
    QObject::connect(window.explorer(), &ui::Explorer::analysisFailed, &app, failScripted);
    // The scripted modes start once the first result is on screen: the first replay, or with
    // --demo the demo's step (its configuration analysed and replayed).
    bool first = true;
    auto proceed = [&] {
        if (!options.demo) {
            if (options.timeUs) {
                window.setTimeUs(*options.timeUs);
            } else if (options.timeFraction) {
                window.setTimeFraction(*options.timeFraction);
            } else if (options.timeAt && !window.setTimeAtActivity(*options.timeAt)) {
                std::cerr << "podscope: error: chip 0 is never '" << toString(*options.timeAt)
                          << "' in this step\n";
                QApplication::exit(1);
                return;
            }
            if (options.chart) {
                window.explorer()->showChart(*options.chart);
            }
        }
        if (options.exporting()) {
            runExports(window, options); // issue 6
        } else if (!options.screenshot.isEmpty()) {
            takeScreenshot(window, options.screenshot);
        } else if (options.benchmarkChanges > 0) {
            benchmarkResponsiveness(window, options.benchmarkChanges);
        } else if (options.benchmarkFrames > 0) {
            if (!window.view()) {
                benchmarkFrames(window, options.benchmarkFrames, 0); // reports the missing view
                return;
            }
            // Wait for the first frame of the result, which ends the time to first frame.
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = QObject::connect(window.view(), &ui::VtkView::frameSwapped, &window, [&, connection] {
                QObject::disconnect(*connection);
                const double firstFrameMs =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
                benchmarkFrames(window, options.benchmarkFrames, firstFrameMs);
            });
            window.view()->requestRender();
        }
    };
    auto whenShown = [&] {
        if (!first) {
            return;
        }
        first = false;
        if (!options.demo) {
            window.setLayoutKind(options.layout);
            window.setColorMode(options.colorMode);
            window.setReplayKind(options.replay);
        }
        // The step replay's timeline is simulated off the UI thread: go on once it is shown.
        if (window.replaysStep() && (!window.stepRun() || window.simulatingStep())) {
            auto connection = std::make_shared<QMetaObject::Connection>();
            *connection = QObject::connect(&window, &ui::MainWindow::stepRunShown, &window,
                                           [connection, proceed] {
                                               QObject::disconnect(*connection);
                                               proceed();
                                           });
            return;
        }
        proceed();
    };
    if (options.demo) {
        QObject::connect(window.demos(), &ui::DemoPlayer::stepShown, &app, whenShown);
        window.demos()->start(*options.demo, options.demoStep);
    } else {
        // The first replay can arrive before the analysis (or the reverse): start once both show
        // the configuration, so that screenshots have their charts.
        auto whenSettled = [&window, whenShown] {
            const auto* analysis = window.explorer()->analysis();
            const auto* run = window.currentRun();
            if (analysis && ui::sameScenario(analysis->scenario, window.explorer()->document().scenario()) && run &&
                ui::sameView(run->scenario, window.viewScenario())) {
                whenShown();
            }
        };
        QObject::connect(&window, &ui::MainWindow::runShown, &app, whenSettled);
        QObject::connect(window.explorer(), &ui::Explorer::analysisShown, &app, whenSettled);
    }
    window.show();
    if (!scripted && !options.demo && ui::Explorer::hasUnsavedSession()) {
        // The autosave outlived its session: the last run ended without closing the window.
        const auto answer = QMessageBox::question(&window, QObject::tr("Restore session"),
                                                  QObject::tr("PodScope did not close cleanly last time. Restore the "
                                                              "configuration you were working on?"));
        if (answer == QMessageBox::Yes) {
            const QString problem = window.explorer()->restoreAutosave();
            if (!problem.isEmpty()) {
                QMessageBox::warning(&window, QObject::tr("Cannot restore"), problem);
            }
        }
    }
    return app.exec();
}

} // namespace podscope::gui
