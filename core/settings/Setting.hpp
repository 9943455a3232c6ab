#pragma once

#include "training/Scenario.hpp"

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace podscope {

// What a setting's value is. Files hold it as JSON; command lines as text.
enum class SettingType {
    Text,    // a string the setting's write checks ("128x32")
    Choice,  // a string, one of the setting's choices
    Switch,  // true/false in files; on/off, true/false or yes/no on command lines
    Integer, // a whole number from lowest to highest
    Number,  // a finite number up to highest, above lowest (or from it: lowestIncluded)
};

struct SettingChoice {
    std::string value{}; // as files and flags write it
    std::string label{}; // as the app shows it; empty: the value
};

// The kind of control the configuration panel builds for a setting (ui/widgets/SettingControl).
enum class PanelControl {
    None,    // not in the panel
    Choice,  // a list of the choices (for an Integer: the powers of two up to highest)
    Offered, // a list the panel fills from the analysis (batches that divide evenly, ...)
    Check,
    Spin,    // whole numbers
    Decimal, // numbers, scaled and with decimals
    Text,
    Slice, // the standard slices by chip count
    Grid,  // text shown only for a grid that is no standard slice
};

// Where and how the app shows a setting: a row of one group of the configuration panel.
struct PanelRow {
    std::string_view group{}; // "model", "topology", "parallelism", "gradients" or "input"
    std::string_view label{}; // "Chunks"; also how refusals name the setting
    PanelControl control = PanelControl::None;
    int decimals = 0;           // Decimal
    double scale = 1;           // shown = value x scale (seconds shown as milliseconds: 1000)
    std::string_view unit{};    // the unit shown when scaled; empty: the setting's unit
    std::string_view hint{};    // placeholder of a text field
    std::string_view details{}; // the tooltip's words after the description
    bool (*enabledWhen)(const Scenario&) = nullptr; // where it matters only sometimes
};

// One setting of a scenario: how files, flags, the panel and the docs name, check and show it,
// and how it reads and writes the Scenario. The table of them is scenarioSettings().
struct Setting {
    std::string_view key{}; // JSON key path: "gradient.chunks"
    SettingType type = SettingType::Text;
    std::string_view unit{}; // "GB/s"; empty: none
    double lowest = 0;       // Integer, Number
    double highest = 0;
    bool lowestIncluded = true; // Number: false for "positive"
    // What leaving it unset means ("as the model does"); empty: it always has a value.
    std::string_view unset{};
    bool required = false; // in a file that names no preset
    // A required setting's value when neither a preset nor a configuration file gives one (a
    // model given alone: --workload FILE); empty: it must be given.
    std::string_view standalone{};
    std::string_view excludes{};    // a key that may not be given with this one
    std::string_view description{}; // one line, for --help, the docs and the tooltip
    std::string_view flag{};        // "chunks" for --chunks in podscope-cli and podscope
    std::string_view example{};     // a value for the flag, as a user might type it
    PanelRow panel{};
    std::function<std::vector<SettingChoice>()> choices{}; // Choice; the panel's list for Text
    // The value in the scenario, as a file writes it; null: unset (the file leaves it out).
    std::function<nlohmann::json(const Scenario&)> read{};
    // Sets a checked value (null: unset); may throw InputError for what only it can check.
    std::function<void(Scenario&, const nlohmann::json&)> write{};
    // While unset: the value the model uses where the scenario alone tells (the hardware's link
    // bandwidth), which the panel shows. Empty: none.
    std::function<std::optional<double>(const Scenario&)> implied{};
};

} // namespace podscope
