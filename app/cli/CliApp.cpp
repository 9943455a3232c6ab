#include "CliApp.hpp"

#include "CalibrateCommand.hpp"
#include "CollectiveCommand.hpp"
#include "LayersCommand.hpp"
#include "ParseErrorText.hpp"
#include "MachinesCommand.hpp"
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

#include <ostream>

namespace podscope::cli {

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
    CLI::App app{"PodScope: how ML training scales on TPU pods (headless)", "podscope-cli"};
    app.set_version_flag("--version", std::string("podscope-cli ") + PODSCOPE_VERSION);
    app.require_subcommand(0, 1);

    CollectiveOptions collective;
    auto* collectiveCmd = addCollectiveCommand(app, collective);
    MachinesOptions machines;
    auto* machinesCmd = addMachinesCommand(app, machines);
    PresetsOptions presets;
    auto* presetsCmd = addPresetsCommand(app, presets);
    SettingsOptions settings;
    auto* settingsCmd = addSettingsCommand(app, settings);
    SimulateOptions simulate;
    auto* simulateCmd = addSimulateCommand(app, simulate);
    SweepOptions sweep;
    auto* sweepCmd = addSweepCommand(app, sweep);
    TraceOptions traceOptions;
    auto* traceCmd = addTraceCommand(app, traceOptions);
    TimelineCommandOptions timelineOptions;
    auto* timelineCmd = addTimelineCommand(app, timelineOptions);
    ReportOptions reportOptions;
    auto* reportCmd = addReportCommand(app, reportOptions);
    LayersOptions layersOptions;
    auto* layersCmd = addLayersCommand(app, layersOptions);
    CalibrateOptions calibrateOptions;
    auto* calibrateCmd = addCalibrateCommand(app, calibrateOptions);
    ProfileOptions profileOptions;
    auto* profileCmd = addProfileCommand(app, profileOptions);
    TuneOptions tuneOptions;
    auto* tuneCmd = addTuneCommand(app, tuneOptions);

    // The command is the first word that is not a flag (the program takes no other words).
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-') {
            continue;
        }
        if (const auto problem = unknownCommand(app, argv[i])) {
            err << "podscope-cli: error: " << *problem << "\n";
            return kExitBadInput;
        }
        break;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --help-all, --version
        return app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
        err << "podscope-cli: error: " << describeParseError(app, e) << "\n";
        return kExitBadInput;
    }

    try {
        if (collectiveCmd->parsed()) {
            runCollectiveCommand(collective, out);
        } else if (machinesCmd->parsed()) {
            runMachinesCommand(machines, out);
        } else if (presetsCmd->parsed()) {
            runPresetsCommand(presets, out);
        } else if (settingsCmd->parsed()) {
            runSettingsCommand(settings, out);
        } else if (simulateCmd->parsed()) {
            runSimulateCommand(simulate, out);
        } else if (sweepCmd->parsed()) {
            runSweepCommand(sweep, out);
        } else if (traceCmd->parsed()) {
            runTraceCommand(traceOptions, out, err);
        } else if (timelineCmd->parsed()) {
            runTimelineCommand(timelineOptions, out, err);
        } else if (reportCmd->parsed()) {
            runReportCommand(reportOptions, out, err);
        } else if (layersCmd->parsed()) {
            runLayersCommand(layersOptions, out);
        } else if (calibrateCmd->parsed()) {
            runCalibrateCommand(calibrateOptions, out);
        } else if (profileCmd->parsed()) {
            runProfileCommand(profileOptions, out);
        } else if (tuneCmd->parsed()) {
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
