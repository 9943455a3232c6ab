#include "PresetsCommand.hpp"

#include "TextFormat.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

namespace podscope::cli {

CLI::App* addPresetsCommand(CLI::App& app, PresetsOptions& o) {
    auto* cmd = app.add_subcommand("presets", "List the bundled MLPerf v0.7 training presets");
    cmd->add_flag("--json", o.json, "Print a JSON array");
    return cmd;
}

void runPresetsCommand(const PresetsOptions& o, std::ostream& out) {
    nlohmann::json array = nlohmann::json::array();
    for (const auto& name : presetNames()) {
        const Preset p = loadPreset(name);
        if (o.json) {
            nlohmann::json ref = {{"time_to_train_s", p.reference.timeToTrainS},
                                  {"source", p.reference.source}};
            if (p.reference.stepTimeS) {
                ref["step_time_s"] = *p.reference.stepTimeS;
                ref["step_time_includes_eval"] = p.reference.stepTimeIncludesEval;
            }
            if (p.reference.evaluationsMax > 0) {
                ref["evaluations"] = {{"min", p.reference.evaluationsMin},
                                      {"max", p.reference.evaluationsMax}};
            }
            array.push_back({{"name", p.name},
                             {"title", p.title},
                             {"description", p.description},
                             {"scenario", toJson(p.scenario)},
                             {"reference", ref}});
        } else {
            out << p.name << std::string(p.name.size() < 32 ? 32 - p.name.size() : 1, ' ')
                << "measured " << formatDuration(p.reference.timeToTrainS) << "  " << p.description
                << "\n";
        }
    }
    if (o.json) {
        out << array.dump(2) << "\n";
    }
}

} // namespace podscope::cli
