#pragma once

#include "figure/ChartKind.hpp"
#include "demo/DemoScript.hpp"
#include "export/ViewFigure.hpp"
#include "scene/SceneLayout.hpp"
#include "timeline/StepTimeline.hpp"
#include "training/Scenario.hpp"
#include "view/FrameColoring.hpp"
#include "view/StepColoring.hpp"
#include "view/StepRun.hpp"

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

namespace podscope::gui {

// What podscope's command line asks for: the scenario (--preset or --config, then the scenario
// flags, spelled and checked as podscope-cli's), the view and the scripted modes.
struct Options {
    Scenario scenario; // as parseOptions fills it
    ui::LayoutKind layout = ui::LayoutKind::Torus;
    ui::ColorMode colorMode = ui::ColorMode::ChipState;
    ui::StepLinkColors stepLinks = ui::StepLinkColors::TrafficKind; // --links
    std::optional<double> timeUs;
    ui::ReplayKind replay = ui::ReplayKind::Step; // --replay: the whole step by default
    bool replayGiven = false;                     // --replay was given
    std::optional<double> timeFraction;           // --time-fraction
    std::optional<ChipActivity> timeAt;           // --time-at
    std::optional<ui::ChartKind> chart;           // --chart: the chart tab in front
    QSize size{1280, 720};                        // fits a 1366x768 laptop screen
    QString screenshot;
    int benchmarkFrames = 0;
    int benchmarkChanges = 0;           // --benchmark-responsiveness
    std::optional<ui::DemoScript> demo; // --demo: the window opens on this demo
    int demoStep = 0;                   // 0-based
    bool presentation = false;          // --presentation: the classroom layout
    bool sizeGiven = false;

    // --- Scripted exports (issue 6): --export-chart/--export-view/--export-size/--export-dpi/--out
    std::optional<ui::ChartKind> exportChart;
    QString exportOut;  // the chart's file: .png, .svg or .pdf
    QString exportView; // the 3-D view's PNG
    std::optional<QSize> exportSize;
    int exportDpi = 0;                // 0: the default of the export kind
    ui::ViewFigureOptions viewFigure; // --export-legend, -colorbar, -caption, -light
    bool exporting() const { return exportChart || !exportView.isEmpty(); }
    // --- end of scripted exports
};

// `arguments`: the program's, read before QApplication exists (it would abort without a display,
// and --help must work anywhere); Qt's own options such as -platform are not taken. --help and
// --version print and exit; bad arguments are InputError naming the option.
Options parseOptions(const QStringList& arguments);

} // namespace podscope::gui
