#include "CalibrateCommand.hpp"

#include "TextFormat.hpp"
#include "calibration/Calibration.hpp"
#include "common/AtomicFile.hpp"
#include "common/InputError.hpp"
#include "machine/Machine.hpp"
#include "resources/BundledResources.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addCalibrateCommand(CLI::App& app, CalibrateOptions& o) {
    auto* cmd = app.add_subcommand("calibrate",
                                   "Fit a machine's shared core parameters on its measured steps "
                                   "(resources/calibration/FIT-steps.json) and report in-sample, "
                                   "leave-one-model-out and held-out errors");
    cmd->add_option("--hardware", o.hardware,
                    "The machine to fit (default: the default machine); only a machine with "
                    "measured steps of its own can be fitted");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    cmd->add_option("--write", o.write,
                    "Replace this calibration file (resources/calibration/FIT-fit.json, FIT the "
                    "machine's calibration) with the fit");
    return cmd;
}

namespace {

std::string signedPercent(double fraction) {
    return (fraction >= 0 ? "+" : "") + formatNumber(100 * fraction, 1) + " %";
}

// The fit a machine's calibration names, when the machine's steps are what it was fitted on;
// InputError("hardware") when its parameters are carried over from another machine's fit.
std::string fitOf(const Machine& machine) {
    const std::string steps = "calibration/" + machine.calibrationFit + "-steps.json";
    if (machine.calibrationBasis != "fitted" || resources::list(steps).empty()) {
        throw InputError("hardware", "machine '" + machine.name +
                                         "' has no measured steps to fit: its " +
                                         "shared core parameters are carried over from the '" +
                                         machine.calibrationFit + "' fit (resources/calibration/" +
                                         machine.calibrationFit + "-fit.json); calibrate '" +
                                         machine.calibrationFit + "' instead");
    }
    return machine.calibrationFit;
}

void printText(const CalibrationReport& r, const std::string& machine, std::ostream& out) {
    const CoreCalibration& c = r.fit.parameters;
    out << "Fitted on " << machine << "'s measured steps (rms log error "
        << formatNumber(r.fit.rmsLogError, 3) << ", " << r.fit.evaluations << " evaluations)\n"
        << "  ICI hop latency    " << formatDuration(c.linkLatencyS) << "\n"
        << "  kernel overhead    " << formatDuration(c.kernelOverheadS) << "\n"
        << "  MXU efficiency     " << formatNumber(c.mxuEfficiency, 3) << "\n\n";
    out << "point                                      measured     predicted  error     "
           "held-out model\n";
    for (const bool fit : {true, false}) {
        out << (fit ? "In-sample (fit points)\n" : "Out-of-sample (never fitted)\n");
        for (const PointError& e : r.points) {
            if (e.fit != fit) {
                continue;
            }
            std::string name = e.name.substr(0, 42);
            name.resize(43, ' ');
            std::string measured = formatDuration(e.measured);
            measured.resize(13, ' ');
            std::string predicted = formatDuration(e.predicted);
            predicted.resize(11, ' ');
            std::string error = signedPercent(e.error);
            error.resize(10, ' ');
            out << "  " << name << measured << predicted << error << signedPercent(e.errorHeldOut)
                << "\n";
        }
    }
    out << "\n'held-out model': refitted without any point of that workload "
           "(leave-one-model-out).\n";
}

} // namespace

void runCalibrateCommand(const CalibrateOptions& o, std::ostream& out) {
    const Machine& machine = bundledMachine(o.hardware.value_or(defaultMachineName()));
    const std::string fit = fitOf(machine);
    const CalibrationReport report = calibrate(loadCalibrationPoints(fit));
    if (o.write) {
        writeFileAtomically(*o.write, calibrationFileText(report, fit), "write");
    }
    if (!o.json) {
        printText(report, machine.name, out);
        return;
    }
    const CoreCalibration& c = report.fit.parameters;
    nlohmann::json j;
    j["parameters"] = {{"link_latency_s", c.linkLatencyS},
                       {"kernel_overhead_s", c.kernelOverheadS},
                       {"mxu_efficiency", c.mxuEfficiency}};
    j["hardware"] = machine.name;
    j["rms_log_error"] = report.fit.rmsLogError;
    j["points"] = nlohmann::json::array();
    for (const PointError& e : report.points) {
        j["points"].push_back({{"name", e.name},
                               {"workload", e.workload},
                               {"role", e.fit ? "fit" : "check"},
                               {"measured_s", e.measured},
                               {"predicted_s", e.predicted},
                               {"error", e.error},
                               {"held_out_predicted_s", e.predictedHeldOut},
                               {"held_out_error", e.errorHeldOut}});
    }
    // The parameters each leave-one-model-out refit found: how far one model moves the fit.
    j["held_out_fits"] = nlohmann::json::object();
    for (const auto& [model, refit] : report.heldOutFits) {
        j["held_out_fits"][model] = {{"link_latency_s", refit.linkLatencyS},
                                     {"kernel_overhead_s", refit.kernelOverheadS},
                                     {"mxu_efficiency", refit.mxuEfficiency}};
    }
    out << j.dump(2) << "\n";
}

} // namespace podscope::cli
