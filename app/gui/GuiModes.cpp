#include "GuiModes.hpp"

#include "GuiOptions.hpp"
#include "QtPlatform.hpp"
#include "common/InputError.hpp"
#include "export/ChartExport.hpp"
#include "session/ScenarioDocument.hpp"
#include "vtk/VtkView.hpp"
#include "widgets/DemoPanel.hpp"
#include "widgets/DemoPlayer.hpp"
#include "widgets/Explorer.hpp"
#include "widgets/ExportMenu.hpp"
#include "widgets/LegendWidget.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/ResponsivenessProbe.hpp"

#include <QApplication>
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
#include <utility>

namespace podscope::gui {
namespace {

// Everything but a chart export shows or renders the 3-D view.
DisplayNeed displayNeed(const Options& options) {
    const bool onlyCharts = options.exportChart && options.exportView.isEmpty() &&
                            options.screenshot.isEmpty() && options.benchmarkFrames == 0 &&
                            options.benchmarkChanges == 0;
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
            painter.drawImage(QRect(at, view->size()),
                              view->grabFramebuffer().convertToFormat(QImage::Format_RGB32));
        }
        if (image.isNull() || !image.save(file, "PNG")) {
            std::cerr << "podscope: error: cannot write screenshot '" << file.toStdString()
                      << "'\n";
            QApplication::exit(1);
            return;
        }
        QApplication::exit(0);
    };
    if (auto* view = window.view()) {
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection =
            QObject::connect(view, &ui::VtkView::frameSwapped, &window, [connection, save] {
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
        std::cerr
            << "podscope: error: --export-view needs an OpenGL platform (run under X or Xvfb)\n";
        QApplication::exit(1);
        return;
    }
    // The view's OpenGL context exists once it has drawn a frame.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection =
        QObject::connect(view, &ui::VtkView::frameSwapped, &window, [connection, &window, options] {
            QObject::disconnect(*connection);
            const QSize pixels = options.exportSize.value_or(QSize(1920, 1080));
            QElapsedTimer clock;
            clock.start();
            QImage image = ui::renderViewFigure(window, pixels, options.viewFigure);
            const qint64 renderMs = clock.elapsed();
            if (image.isNull()) {
                std::cerr << "podscope: error: cannot render the 3-D view at " << pixels.width()
                          << "x" << pixels.height() << " (beyond the OpenGL driver's limits)\n";
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
            std::cout << "Wrote " << options.exportView.toStdString() << " (" << pixels.width()
                      << "x" << pixels.height() << " px, rendered off-screen in " << renderMs
                      << " ms)\n";
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
        std::cerr << "podscope: error: --benchmark-frames needs an OpenGL platform (run under X or "
                     "Xvfb)\n";
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
    QObject::connect(
        view, &ui::VtkView::frameSwapped, &window, [&window, view, frames, state, firstFrameMs] {
            if (state->done > 0) {
                state->renderMs.push_back(view->lastRenderMs());
            }
            if (state->done++ == frames) {
                const double seconds = static_cast<double>(state->clock.nsecsElapsed()) * 1e-9;
                auto sorted = state->renderMs;
                std::sort(sorted.begin(), sorted.end());
                const double median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
                std::printf("{\"frames\": %d, \"fps\": %.2f, \"render_ms_median\": %.3f, "
                            "\"first_frame_ms\": %.0f, "
                            "\"chips\": %lld, \"links\": %zu}\n",
                            frames, frames / seconds, median, firstFrameMs,
                            static_cast<long long>(window.frame().chips.size()),
                            window.frame().links.size());
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
        std::cerr << "podscope: error: --benchmark-responsiveness needs an OpenGL platform (run "
                     "under X or Xvfb)\n";
        QApplication::exit(1);
        return;
    }
    auto* probe = new ui::ResponsivenessProbe(window, changes);
    probe->setParent(&window);
    QObject::connect(probe, &ui::ResponsivenessProbe::finished, &window, [probe] {
        const auto& r = probe->result();
        std::printf(
            "{\"changes\": %d, \"max_stall_ms\": %.1f, \"p99_stall_ms\": %.1f, "
            "\"median_stall_ms\": %.1f, \"settle_ms\": %.0f, \"shows_last_configuration\": %s}\n",
            r.changes, r.maxStallMs, r.p99StallMs, r.medianStallMs, r.settleMs,
            r.showsLastConfiguration ? "true" : "false");
        std::fflush(stdout);
        if (!r.showsLastConfiguration) {
            std::cerr
                << "podscope: error: the window did not show the last configuration within 30 s\n";
        }
        QApplication::exit(r.showsLastConfiguration ? 0 : 1);
    });
    // The first frame uploads the whole scene (a few hundred ms on llvmpipe, reported by
    // --benchmark-frames as first_frame_ms): the changes start once it is on screen.
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection =
        QObject::connect(window.view(), &ui::VtkView::frameSwapped, probe, [connection, probe] {
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
    // A failure the default step replay answers by replaying the gradient sync instead.
    bool replacedFailure = false;
    auto failScripted = [scripted, &replacedFailure](const QString& message) {
        if (std::exchange(replacedFailure, false)) {
            return;
        }
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
            *connection = QObject::connect(
                window.view(), &ui::VtkView::frameSwapped, &window, [&, connection] {
                    QObject::disconnect(*connection);
                    const double firstFrameMs = std::chrono::duration<double, std::milli>(
                                                    std::chrono::steady_clock::now() - started)
                                                    .count();
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
            window.setStepLinkColors(options.stepLinks);
            window.setReplayKind(options.replay);
        }
        // The step replay's timeline is simulated off the UI thread: go on once it is shown.
        if (window.replaysStep() && (!window.stepRun() || window.simulatingStep())) {
            auto shown = std::make_shared<QMetaObject::Connection>();
            auto failed = std::make_shared<QMetaObject::Connection>();
            *shown = QObject::connect(&window, &ui::MainWindow::stepRunShown, &window,
                                      [shown, failed, proceed] {
                                          QObject::disconnect(*shown);
                                          QObject::disconnect(*failed);
                                          proceed();
                                      });
            // The whole step is only the default: a configuration whose step the timeline
            // cannot simulate still opens, on its gradient sync, and says why.
            if (!options.replayGiven && !options.demo) {
                *failed = QObject::connect(
                    &window, &ui::MainWindow::stepRunFailed, &window,
                    [shown, failed, proceed, &window, &replacedFailure](const QString& message) {
                        QObject::disconnect(*shown);
                        QObject::disconnect(*failed);
                        std::cerr << "podscope: the step replay could not be simulated ("
                                  << message.toStdString() << "); replaying the gradient sync\n";
                        replacedFailure = true;
                        window.setReplayKind(ui::ReplayKind::Collective);
                        proceed();
                    });
            }
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
            if (analysis &&
                ui::sameScenario(analysis->scenario, window.explorer()->document().scenario()) &&
                run && ui::sameView(run->scenario, window.viewScenario())) {
                whenShown();
            }
        };
        QObject::connect(&window, &ui::MainWindow::runShown, &app, whenSettled);
        QObject::connect(window.explorer(), &ui::Explorer::analysisShown, &app, whenSettled);
    }
    window.show();
    if (!scripted && !options.demo && ui::Explorer::hasUnsavedSession()) {
        // The autosave outlived its session: the last run ended without closing the window.
        const auto answer = QMessageBox::question(
            &window, QObject::tr("Restore session"),
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
