#pragma once

#include "settings/Setting.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {

// A scenario flag as given to podscope-cli or podscope: --chunks 8.
struct SettingText {
    const Setting* setting;
    std::string text;
};

struct SettingAssignment {
    const Setting* setting;
    nlohmann::json value;
};

// Checks the flags' values and that no two exclude each other (--chips and --topology), before
// any file is read: InputError naming the flag ("chunks: 'x' is not a whole number"). Returns
// them in the table's order, the order they are applied in.
std::vector<SettingAssignment> parseSettingFlags(const std::vector<SettingText>& given);

// Writes them into the scenario (after its preset or file); InputError naming the flag.
void applySettingFlags(const std::vector<SettingAssignment>& assignments, Scenario& scenario);

} // namespace podscope
