#include "CompareCommand.hpp"

#include "TextFormat.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <podscope/compare.hpp>

namespace podscope::cli {

CLI::App* addCompareCommand(CLI::App& app, CompareOptions& o) {
    auto* cmd = app.add_subcommand(
        "compare", "The configuration on every machine at the same chips and global batch: step "
                   "time, time to train and chip-hours, relative to its own machine");
    addScenarioChoiceOptions(*cmd, o.choice);
    cmd->add_flag("--json", o.json, "Print a JSON array");
    return cmd;
}

namespace {

// "0.42x" of the base's value; empty where either is unknown.
std::string relative(double value, double base) {
    return value > 0 && base > 0 ? formatNumber(value / base, 2) + "x" : "";
}

// "128x32", or "16 x 16x16" for sixteen 16x16 slices over the data-centre network.
std::string sliceText(const api::MachineRow& r) {
    return r.slices > 1 ? std::to_string(r.slices) + " x " + r.slice : r.slice;
}

void printTable(const std::vector<api::MachineRow>& rows, const Scenario& base, std::ostream& out) {
    const auto own = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.own; });
    const bool ownRuns = own != rows.end() && own->error.empty();
    const double ownStep = ownRuns ? own->stepTimeS : 0;
    const double ownTrain = ownRuns && own->timeToTrainKnown ? own->timeToTrainS : 0;
    const double ownChipSeconds = ownRuns ? own->chipSeconds : 0;
    out << base.workload << " at " << formatNumber(static_cast<double>(rows.front().chips), 0)
        << " chips, global batch " << formatNumber(static_cast<double>(base.globalBatch), 0)
        << "; relative to " << base.hardware << "\n\n";
    const std::vector<std::string> header = {"machine",       "slice",    "step time",  "relative",
                                             "time to train", "relative", "chip-hours", "relative"};
    std::vector<std::vector<std::string>> cells;
    for (const auto& r : rows) {
        std::vector<std::string> line = {r.hardware + (r.own ? " *" : "")};
        if (!r.error.empty()) {
            line.push_back("refused: " + r.error);
            cells.push_back(std::move(line));
            continue;
        }
        const bool known = r.timeToTrainKnown;
        line.push_back(sliceText(r));
        line.push_back(formatDuration(r.stepTimeS));
        line.push_back(relative(r.stepTimeS, ownStep));
        line.push_back(known ? formatDuration(r.timeToTrainS) : "unknown");
        line.push_back(known ? relative(r.timeToTrainS, ownTrain) : "");
        line.push_back(known ? formatNumber(r.chipSeconds / 3600, 1) : "");
        line.push_back(known ? relative(r.chipSeconds, ownChipSeconds) : "");
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
        width[c] = header[c].size();
        for (const auto& line : cells) {
            if (c < line.size() && (line.size() == header.size() || c == 0)) {
                width[c] = std::max(width[c], displayWidth(line[c]));
            }
        }
    }
    const auto print = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            // The machine left-aligned, numbers right-aligned, a refusal as text.
            const bool aligned = line.size() == header.size() || c == 0;
            const std::size_t pad =
                aligned ? width[c] - std::min(width[c], displayWidth(line[c])) : 0;
            text +=
                c == 0 ? line[c] + std::string(pad, ' ') : "  " + std::string(pad, ' ') + line[c];
        }
        out << text << "\n";
    };
    print(header);
    for (const auto& line : cells) {
        print(line);
    }
    out << "\n* the configuration's own machine. Each machine runs its standard slice of this "
           "many chips, or where its pods are smaller copies of its largest slice that divides "
           "them (N x SHAPE) joined over the data-centre network, with its own links, hosts and "
           "HBM, and the shared core parameters its file states (fitted or carried over: "
           "podscope-cli machines).\n";
}

} // namespace

void runCompareCommand(const CompareOptions& o, std::ostream& out) {
    const api::Configuration configuration =
        api::Configuration::load(configurationRequest(o.choice.source, o.choice.settings));
    const Scenario& base = configuration.scenario();
    const std::vector<api::MachineRow> rows = api::compareMachines(configuration);
    if (!o.json) {
        printTable(rows, base, out);
        return;
    }
    nlohmann::json array = nlohmann::json::array();
    for (const auto& r : rows) {
        nlohmann::json row = {
            {"hardware", r.hardware},
            {"chips", r.chips},
            {"slices", r.slice.empty() ? nlohmann::json() : nlohmann::json(r.slices)},
            {"slice", r.slice.empty() ? nlohmann::json() : nlohmann::json(r.slice)},
            {"global_batch", r.globalBatch},
            {"own", r.own}};
        if (r.error.empty()) {
            const auto known = [&](double v) {
                return r.timeToTrainKnown ? nlohmann::json(v) : nlohmann::json();
            };
            row["step_time_s"] = r.stepTimeS;
            row["time_to_train_s"] = known(r.timeToTrainS);
            row["chip_seconds"] = known(r.chipSeconds);
        } else {
            row["error"] = r.error;
        }
        array.push_back(std::move(row));
    }
    out << array.dump(2) << "\n";
}

} // namespace podscope::cli
