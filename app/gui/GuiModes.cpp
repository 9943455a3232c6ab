#include "GuiModes.hpp"

#include "common/InputError.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/MainWindow.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
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
    QSize size{1280, 720}; // fits a 1366x768 laptop screen
    QString screenshot;
    int benchmarkFrames = 0;
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

Options parseOptions(const QApplication& app) {
    QCommandLineParser parser;
    parser.setApplicationDescription("PodScope: how ML training scales on a TPU-v3 multipod");
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption preset("preset", "MLPerf v0.7 preset (podscope-cli presets), or a topology preset or DIMS "
                                              "for the default model (default mlperf07-resnet50-tf-4096).", "NAME");
    const QCommandLineOption layout("layout", "torus, grid or physical.", "LAYOUT");
    const QCommandLineOption colorBy("color-by", "state, replica-group, model-parallel-group, host or pod.", "MODE");
    const QCommandLineOption algorithm("algorithm", "2d, ring, bidir-ring or flat-ring.", "NAME");
    const QCommandLineOption timeUs("time-us", "Replay time to show, in microseconds.", "T");
    const QCommandLineOption size("size", "Window size, e.g. 1600x900.", "WxH");
    const QCommandLineOption screenshot("screenshot", "Render the window to a PNG file and exit.", "FILE");
    const QCommandLineOption frames("benchmark-frames", "Play N frames and print frame-rate JSON.", "N");
    parser.addOptions({preset, layout, colorBy, algorithm, timeUs, size, screenshot, frames});
    if (!parser.parse(app.arguments())) {
        throw InputError("arguments", parser.errorText().toStdString());
    }
    if (parser.isSet("help")) {
        std::cout << parser.helpText().toStdString();
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
    options.screenshot = parser.value(screenshot);
    if (parser.isSet(frames)) {
        bool ok = false;
        options.benchmarkFrames = parser.value(frames).toInt(&ok);
        if (!ok || options.benchmarkFrames < 1 || options.benchmarkFrames > 100000) {
            throw InputError("benchmark-frames", "must be a frame count between 1 and 100000");
        }
    }
    return options;
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

} // namespace

int run(QApplication& app, std::chrono::steady_clock::time_point started) {
    Options options;
    try {
        options = parseOptions(app);
    } catch (const InputError& e) {
        std::cerr << "podscope: error: " << e.what() << "\n";
        return 2;
    }
    const bool scripted = !options.screenshot.isEmpty() || options.benchmarkFrames > 0;
    ui::MainWindow window(options.scenario, platformHasOpenGL());
    window.resize(options.size);
    QObject::connect(&window, &ui::MainWindow::runFailed, &app, [scripted](const QString& message) {
        if (scripted) {
            std::cerr << "podscope: error: " << message.toStdString() << "\n";
            QApplication::exit(1);
        }
    });
    bool first = true;
    QObject::connect(&window, &ui::MainWindow::runShown, &app, [&] {
        if (!first) {
            return;
        }
        first = false;
        window.setLayoutKind(options.layout);
        window.setColorMode(options.colorMode);
        if (options.timeUs) {
            window.setTimeUs(*options.timeUs);
        }
        if (!options.screenshot.isEmpty()) {
            takeScreenshot(window, options.screenshot);
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
    });
    window.show();
    if (!scripted && ui::Explorer::hasUnsavedSession()) {
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
