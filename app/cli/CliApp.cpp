#include "CliApp.hpp"

#include "CalibrateCommand.hpp"
#include "CollectiveCommand.hpp"
#include "CompareCommand.hpp"
#include "LayersCommand.hpp"
#include "MachinesCommand.hpp"
#include "ParseErrorText.hpp"
#include "PresetsCommand.hpp"
#include "ProfileCommand.hpp"
#include "ReportCommand.hpp"
#include "SettingsCommand.hpp"
#include "SimulateCommand.hpp"
#include "SweepCommand.hpp"
#include "TimelineCommand.hpp"
#include "TraceCommand.hpp"
#include "TuneCommand.hpp"
#include "common/InputError.hpp"

#include <CLI/CLI.hpp>
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace podscope::cli {

namespace {

constexpr std::array<std::string_view, 14> kCommandNames = {
    "collective", "machines", "presets", "settings", "simulate",  "sweep",   "compare",
    "trace",      "timeline", "report",  "layers",   "calibrate", "profile", "tune"};

// What the line asks for before any command's options are built: the command (the first word
// that is not a flag; the program takes no other words), or top-level help, which lists every
// command.
struct CommandLine {
    std::optional<std::string_view> command;
    bool topLevelHelp = false;
};

CommandLine readCommandLine(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view word = argv[i];
        if (word == "-h" || word == "--help" || word == "--help-all") {
            return {std::nullopt, true};
        }
        if (!word.starts_with('-')) {
            return {word, false};
        }
    }
    return {};
}

bool parsed(const CLI::App* command) {
    return command != nullptr && command->parsed();
}

} // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
    CLI::App app{"PodScope: how ML training scales on TPU pods (headless)", "podscope-cli"};
    app.set_version_flag("--version", std::string("podscope-cli ") + PODSCOPE_VERSION);
    app.require_subcommand(0, 1);

    // A command's options (hundreds, from the settings table) cost more to build than most
    // commands take to run, so only the named command is built (every one for top-level help,
    // none for the main job or --version); a word that names no command is refused first.
    const CommandLine line = readCommandLine(argc, argv);
    if (line.command) {
        const std::vector<std::string> names(kCommandNames.begin(), kCommandNames.end());
        if (const auto problem = unknownCommand(names, std::string(*line.command))) {
            err << "podscope-cli: error: " << *problem << "\n";
            return kExitBadInput;
        }
    }
    const auto wanted = [&](std::string_view name) {
        return line.command ? *line.command == name : line.topLevelHelp;
    };

    CollectiveOptions collective;
    CLI::App* collectiveCmd =
        wanted("collective") ? addCollectiveCommand(app, collective) : nullptr;
    MachinesOptions machines;
    CLI::App* machinesCmd = wanted("machines") ? addMachinesCommand(app, machines) : nullptr;
    PresetsOptions presets;
    CLI::App* presetsCmd = wanted("presets") ? addPresetsCommand(app, presets) : nullptr;
    SettingsOptions settings;
    CLI::App* settingsCmd = wanted("settings") ? addSettingsCommand(app, settings) : nullptr;
    SimulateOptions simulate;
    CLI::App* simulateCmd = wanted("simulate") ? addSimulateCommand(app, simulate) : nullptr;
    SweepOptions sweep;
    CLI::App* sweepCmd = wanted("sweep") ? addSweepCommand(app, sweep) : nullptr;
    CompareOptions compare;
    CLI::App* compareCmd = wanted("compare") ? addCompareCommand(app, compare) : nullptr;
    TraceOptions traceOptions;
    CLI::App* traceCmd = wanted("trace") ? addTraceCommand(app, traceOptions) : nullptr;
    TimelineCommandOptions timelineOptions;
    CLI::App* timelineCmd = wanted("timeline") ? addTimelineCommand(app, timelineOptions) : nullptr;
    ReportOptions reportOptions;
    CLI::App* reportCmd = wanted("report") ? addReportCommand(app, reportOptions) : nullptr;
    LayersOptions layersOptions;
    CLI::App* layersCmd = wanted("layers") ? addLayersCommand(app, layersOptions) : nullptr;
    CalibrateOptions calibrateOptions;
    CLI::App* calibrateCmd =
        wanted("calibrate") ? addCalibrateCommand(app, calibrateOptions) : nullptr;
    ProfileOptions profileOptions;
    CLI::App* profileCmd = wanted("profile") ? addProfileCommand(app, profileOptions) : nullptr;
    TuneOptions tuneOptions;
    CLI::App* tuneCmd = wanted("tune") ? addTuneCommand(app, tuneOptions) : nullptr;

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --help-all, --version
        return app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
        err << "podscope-cli: error: " << describeParseError(app, e) << "\n";
        return kExitBadInput;
    }

    try {
        if (parsed(collectiveCmd)) {
            runCollectiveCommand(collective, out);
        } else if (parsed(machinesCmd)) {
            runMachinesCommand(machines, out);
        } else if (parsed(presetsCmd)) {
            runPresetsCommand(presets, out);
        } else if (parsed(settingsCmd)) {
            runSettingsCommand(settings, out);
        } else if (parsed(simulateCmd)) {
            runSimulateCommand(simulate, out);
        } else if (parsed(sweepCmd)) {
            runSweepCommand(sweep, out);
        } else if (parsed(compareCmd)) {
            runCompareCommand(compare, out);
        } else if (parsed(traceCmd)) {
            runTraceCommand(traceOptions, out, err);
        } else if (parsed(timelineCmd)) {
            runTimelineCommand(timelineOptions, out, err);
        } else if (parsed(reportCmd)) {
            runReportCommand(reportOptions, out, err);
        } else if (parsed(layersCmd)) {
            runLayersCommand(layersOptions, out);
        } else if (parsed(calibrateCmd)) {
            runCalibrateCommand(calibrateOptions, out);
        } else if (parsed(profileCmd)) {
            runProfileCommand(profileOptions, out);
        } else if (parsed(tuneCmd)) {
            return runTuneCommand(tuneOptions, out, err);
        } else {
            // The main job: the default configuration, summarised for a person.
            out << "PodScope " << PODSCOPE_VERSION << ": the default configuration\n\n";
            CollectiveOptions defaults;
            defaults.chunks = 4;
            defaults.verify = true;
            runCollectiveCommand(defaults, out);
            out << "\nTry: podscope-cli collective --help\n";
        }
    } catch (const InputError& e) {
        err << "podscope-cli: error: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        err << "podscope-cli: internal error: " << e.what() << "\n";
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace podscope::cli
