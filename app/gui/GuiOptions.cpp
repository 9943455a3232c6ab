#include "GuiOptions.hpp"

#include "common/InputError.hpp"
#include "export/ChartExport.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingFlags.hpp"
#include "settings/SettingValue.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <QCommandLineParser>
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <podscope/configuration.hpp>

namespace podscope::gui {
namespace {

// The configuration the window opens on when neither --preset nor --config is given.
constexpr const char* kDefaultPreset = "mlperf07-resnet50-tf-4096";

QSize parseSize(const QString& text) {
    const auto parts = text.split('x');
    bool okW = false, okH = false;
    const int w = parts.size() == 2 ? parts[0].toInt(&okW) : 0;
    const int h = parts.size() == 2 ? parts[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 320 || h < 240 || w > 8192 || h > 8192) {
        throw InputError("size",
                         "'" + text.toStdString() + "' must be WxH between 320x240 and 8192x8192");
    }
    return {w, h};
}

} // namespace

Options parseOptions(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription("PodScope: how ML training scales on TPU pods");
    // Not addHelpOption(): its --help-all lists Qt's own options, which podscope does not take.
    parser.addOption(QCommandLineOption({"h", "help"}, "Displays help on commandline options."));
    parser.addVersionOption();
    const QCommandLineOption preset(
        "preset",
        "MLPerf v0.7 preset (podscope-cli presets), or a topology preset or DIMS "
        "for the default model (default mlperf07-resnet50-tf-4096).",
        "NAME");
    const QCommandLineOption config(
        "config",
        "A configuration file (JSON; may name a preset and override some "
        "fields), as podscope-cli's --config.",
        "FILE");
    const QCommandLineOption layout(
        "layout", "torus, grid, physical or unrolled (the grid from above, long links).", "LAYOUT");
    const QCommandLineOption colorBy("color-by",
                                     "state, replica, data-parallel-group, host or pod.", "MODE");
    const QCommandLineOption links("links",
                                   "How the step replay colours links: traffic (by the kind it "
                                   "carries, default) or utilisation (a heat map); in every "
                                   "layout.",
                                   "COLOURS");
    const QCommandLineOption timeUs("time-us", "Replay time to show, in microseconds.", "T");
    const QCommandLineOption size("size", "Window size, e.g. 1600x900.", "WxH");
    const QCommandLineOption chart("chart",
                                   "Chart tab in front: scaling, breakdown, batch, links, "
                                   "layers, roofline (the Layers tab) or machines.",
                                   "KIND");
    const QCommandLineOption screenshot("screenshot", "Render the window to a PNG file and exit.",
                                        "FILE");
    const QCommandLineOption frames("benchmark-frames", "Play N frames and print frame-rate JSON.",
                                    "N");
    const QCommandLineOption responsiveness("benchmark-responsiveness",
                                            "Make N rapid configuration changes (one every 8 ms) "
                                            "and print the event loop's stalls as JSON.",
                                            "N");
    const QCommandLineOption replay("replay",
                                    "What the 3-D view replays: step (the whole training "
                                    "step, with the timeline panel; default), collective (the "
                                    "gradient sync alone) or step-eval (the step and the "
                                    "evaluations' share of it).",
                                    "KIND");
    const QCommandLineOption timeFraction("time-fraction",
                                          "Replay time to show, as a fraction 0..1 of what is "
                                          "replayed (the collective or the step).",
                                          "F");
    const QCommandLineOption timeAt("time-at",
                                    "In the step replay: show the middle of the longest span in "
                                    "which chip 0 does this (forward, backward, gradient-sync, "
                                    "optimizer, model-parallel, batch-norm, evaluating, "
                                    "waiting-for-input).",
                                    "ACTIVITY");
    parser.addOptions({preset, config, layout, colorBy, links, timeUs, size, screenshot, frames,
                       responsiveness, chart, replay, timeFraction, timeAt});
    // The scenario flags: podscope-cli's, from the same table (settings/ScenarioSettings.hpp).
    std::vector<std::pair<const Setting*, QCommandLineOption>> settingOptions;
    for (const Setting& setting : scenarioSettings()) {
        if (!setting.flag.empty()) {
            settingOptions.emplace_back(
                &setting,
                QCommandLineOption(QString::fromUtf8(setting.flag.data(),
                                                     static_cast<qsizetype>(setting.flag.size())),
                                   QString::fromStdString(settingHelp(setting)),
                                   QString::fromStdString(valueName(setting))));
            parser.addOption(settingOptions.back().second);
        }
    }
    const QCommandLineOption demo(
        "demo",
        "Open a guided demo: a bundled one (ring-allreduce, twod-allreduce, "
        "batch-limit, model-parallelism, weight-update-sharding, "
        "input-pipeline, distributed-evaluation) or a demo script file (.json).",
        "NAME");
    const QCommandLineOption step("step", "With --demo: start at step K (1 = the first).", "K");
    parser.addOptions({demo, step});
    const QCommandLineOption presentation("presentation",
                                          "Open in the presentation layout (classroom mode: 3-D "
                                          "view, chart and demo caption in a large font); full "
                                          "screen unless --size or --screenshot is given.");
    parser.addOption(presentation);
    // --- Scripted exports (issue 6)
    const QCommandLineOption exportChart(
        "export-chart",
        "Export a chart (scaling, batch, breakdown, links, layers, "
        "roofline or machines) to "
        "--out FILE.png|svg|pdf and exit.",
        "KIND");
    const QCommandLineOption exportOut("out", "File written by --export-chart.", "FILE");
    const QCommandLineOption exportView("export-view",
                                        "Render the 3-D view off-screen to a PNG "
                                        "file at --export-size and exit.",
                                        "FILE");
    const QCommandLineOption exportSize("export-size",
                                        "Pixel size of an export (default 1600x1000 "
                                        "for charts, 1920x1080 for the view).",
                                        "WxH");
    const QCommandLineOption exportDpi("export-dpi",
                                       "DPI of an export (default 200 for charts, "
                                       "96 for the view).",
                                       "N");
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
        throw InputError("arguments", "unexpected argument '" +
                                          parser.positionalArguments().front().toStdString() + "'");
    }
    // The flags' values are checked before any file is read, as podscope-cli does.
    std::vector<SettingText> given;
    for (const auto& [setting, option] : settingOptions) {
        if (parser.isSet(option)) {
            given.push_back({setting, parser.value(option).toStdString()});
        }
    }
    const auto assignments = parseSettingFlags(given);
    Options options;
    if (parser.isSet(preset) && parser.isSet(config)) {
        throw InputError("preset", "give either --preset or --config, not both");
    }
    const bool modelAlone = !parser.isSet(preset) && !parser.isSet(config) &&
                            std::any_of(given.begin(), given.end(), [](const SettingText& g) {
                                return g.setting->key == "workload";
                            });
    if (modelAlone) {
        // A model given alone opens as podscope-cli reads it: the settings table's standalone
        // values for what the flags leave out, not the default preset's.
        api::ConfigurationRequest request;
        for (const SettingText& g : given) {
            request.settings.push_back({std::string(g.setting->flag), g.text});
        }
        options.scenario = api::Configuration::load(request).scenario();
    } else {
        options.scenario = parser.isSet(config)
                               ? loadScenarioFile(parser.value(config).toStdString())
                               : loadPreset(kDefaultPreset).scenario;
    }
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
                throw InputError("preset",
                                 "'" + name +
                                     "' is neither an MLPerf preset (podscope-cli presets) nor a "
                                     "topology (one of the machine's presets, podscope-cli "
                                     "machines, or DIMS such as 16x16)");
            }
        }
    }
    applySettingFlags(assignments, options.scenario);
    if (parser.isSet(layout)) {
        options.layout = ui::parseLayout(parser.value(layout).toStdString());
    }
    if (parser.isSet(colorBy)) {
        options.colorMode = ui::parseColorMode(parser.value(colorBy).toStdString());
    }
    if (parser.isSet(links)) {
        const QString text = parser.value(links);
        if (text == "traffic") {
            options.stepLinks = ui::StepLinkColors::TrafficKind;
        } else if (text == "utilisation" || text == "utilization") {
            options.stepLinks = ui::StepLinkColors::Utilisation;
        } else {
            throw InputError("links",
                             "'" + text.toStdString() + "' must be traffic or utilisation");
        }
    }
    if (parser.isSet(replay)) {
        options.replay = ui::parseReplayKind(parser.value(replay).toStdString());
        options.replayGiven = true;
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
        if (parser.isSet(timeUs) || parser.isSet(timeFraction) ||
            options.replay == ui::ReplayKind::Collective) {
            throw InputError("time-at",
                             "needs the step replay (not --replay collective), and no --time-us or "
                             "--time-fraction");
        }
        const std::string wanted = parser.value(timeAt).toStdString();
        for (int a = 0; a < kChipActivityCount; ++a) {
            std::string name = toString(static_cast<ChipActivity>(a));
            std::replace(name.begin(), name.end(), ' ', '-');
            if (name == wanted ||
                (wanted == "batch-norm" && a == static_cast<int>(ChipActivity::BatchNormSync)) ||
                (wanted == "model-parallel" &&
                 a == static_cast<int>(ChipActivity::ModelParallel))) {
                options.timeAt = static_cast<ChipActivity>(a);
            }
        }
        if (!options.timeAt) {
            throw InputError(
                "time-at",
                "'" + wanted +
                    "' is not an activity (forward, backward, gradient-sync, "
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
            throw InputError(
                "chart",
                "'" + parser.value(chart).toStdString() +
                    "' must be scaling, breakdown, batch, links, layers, roofline or machines");
        }
    }
    options.screenshot = parser.value(screenshot);
    options.presentation = parser.isSet(presentation);
    options.sizeGiven = parser.isSet(size);
    if (parser.isSet(demo)) {
        // The demo's step sets the configuration and the view: other settings would be lost.
        std::vector<const QCommandLineOption*> clashes = {&preset,       &config, &layout, &colorBy,
                                                          &links,        &timeUs, &chart,  &replay,
                                                          &timeFraction, &timeAt};
        for (const auto& [setting, option] : settingOptions) {
            clashes.push_back(&option);
        }
        for (const auto* clash : clashes) {
            if (parser.isSet(*clash)) {
                throw InputError(clash->names().front().toStdString(),
                                 "cannot be combined with --demo (each demo step sets the "
                                 "configuration and the view)");
            }
        }
        options.demo = ui::loadDemo(parser.value(demo).toStdString());
        if (parser.isSet(step)) {
            bool ok = false;
            const int k = parser.value(step).toInt(&ok);
            const int steps = static_cast<int>(options.demo->steps.size());
            if (!ok || k < 1 || k > steps) {
                throw InputError("step", "'" + parser.value(step).toStdString() +
                                             "' must be a step from 1 to " + std::to_string(steps) +
                                             " of demo '" + options.demo->name + "'");
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
            throw InputError("benchmark-responsiveness",
                             "must be a number of changes between 1 and 100000");
        }
        if (options.demo) {
            throw InputError("benchmark-responsiveness", "cannot be combined with --demo");
        }
    }
    // --- Scripted exports (issue 6)
    if (parser.isSet(exportChart)) {
        options.exportChart = ui::parseChartKind(parser.value(exportChart));
        if (!options.exportChart) {
            throw InputError(
                "export-chart",
                "'" + parser.value(exportChart).toStdString() +
                    "' must be scaling, breakdown, batch, links, layers, roofline or machines");
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
        throw InputError("export-view",
                         "'" + options.exportView.toStdString() + "' must end in .png");
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

} // namespace podscope::gui
