#include "CompareCommand.hpp"

#include "TextFormat.hpp"
#include "analysis/MachineComparison.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

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

const analysis::MachinePoint* find(const std::vector<analysis::MachinePoint>& points,
                                   const std::string& machine) {
    for (const auto& p : points) {
        if (p.machine == machine) {
            return &p;
        }
    }
    return nullptr;
}

// "0.42x" of the base's value; empty where either is unknown.
std::string relative(double value, double base) {
    return value > 0 && base > 0 ? formatNumber(value / base, 2) + "x" : "";
}

void printTable(const std::vector<analysis::MachinePoint>& points, const Scenario& base,
                std::ostream& out) {
    const analysis::MachinePoint* own = find(points, base.hardware);
    const auto ownResult = own != nullptr && own->point.result ? &*own->point.result : nullptr;
    const double ownChipSeconds = own != nullptr ? own->chipSeconds() : 0;
    out << base.workload << " at "
        << formatNumber(static_cast<double>(points.front().point.chips), 0)
        << " chips, global batch " << formatNumber(static_cast<double>(base.globalBatch), 0)
        << "; relative to " << base.hardware << "\n\n";
    const std::vector<std::string> header = {"machine",  "step time",  "relative", "time to train",
                                             "relative", "chip-hours", "relative"};
    std::vector<std::vector<std::string>> cells;
    for (const auto& p : points) {
        std::vector<std::string> line = {p.machine + (p.machine == base.hardware ? " *" : "")};
        if (!p.point.result) {
            line.push_back("refused: " + p.point.error);
            cells.push_back(std::move(line));
            continue;
        }
        const TrainingResult& r = *p.point.result;
        line.push_back(formatDuration(r.stepTimeS));
        line.push_back(relative(r.stepTimeS, ownResult ? ownResult->stepTimeS : 0));
        const bool known = r.timeToTrainKnown;
        line.push_back(known ? formatDuration(r.timeToTrainS) : "unknown");
        line.push_back(known && ownResult && ownResult->timeToTrainKnown
                           ? relative(r.timeToTrainS, ownResult->timeToTrainS)
                           : "");
        line.push_back(known ? formatNumber(p.chipSeconds() / 3600, 1) : "");
        line.push_back(relative(p.chipSeconds(), ownChipSeconds));
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> width(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
        width[c] = header[c].size();
        for (const auto& line : cells) {
            if (line.size() == header.size()) {
                width[c] = std::max(width[c], displayWidth(line[c]));
            }
        }
    }
    const auto print = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            // The machine left-aligned, numbers right-aligned, a refusal as text.
            const bool full = line.size() == header.size() || c == 0;
            const std::size_t pad = full ? width[c] - std::min(width[c], displayWidth(line[c])) : 0;
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
           "many chips with its own links, hosts and HBM, and the shared core parameters its "
           "file states (fitted or carried over: podscope-cli machines).\n";
}

} // namespace

void runCompareCommand(const CompareOptions& o, std::ostream& out) {
    const Scenario base = resolveScenario(o.choice);
    const std::vector<analysis::MachinePoint> points = analysis::compareMachines(base);
    if (!o.json) {
        printTable(points, base, out);
        return;
    }
    nlohmann::json array = nlohmann::json::array();
    for (const auto& p : points) {
        nlohmann::json row = {{"hardware", p.machine},
                              {"chips", p.point.chips},
                              {"global_batch", p.point.globalBatch}};
        if (p.point.result) {
            const TrainingResult& r = *p.point.result;
            row["step_time_s"] = r.stepTimeS;
            row["time_to_train_s"] =
                r.timeToTrainKnown ? nlohmann::json(r.timeToTrainS) : nlohmann::json();
            row["chip_seconds"] =
                r.timeToTrainKnown ? nlohmann::json(p.chipSeconds()) : nlohmann::json();
        } else {
            row["error"] = p.point.error;
        }
        array.push_back(std::move(row));
    }
    out << array.dump(2) << "\n";
}

} // namespace podscope::cli
