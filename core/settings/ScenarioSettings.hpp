#pragma once

#include "settings/Setting.hpp"

#include <string_view>
#include <vector>

namespace podscope {

// Every setting of a scenario, once (docs/settings.md): the configuration file's keys, the
// scenario flags of podscope-cli and podscope, the configuration panel's controls and the docs'
// table all come from this list. Its order is the order in which a file's keys, or flags, are
// applied (a workload before its sequence length, a topology before its wrap), and the panel's.
const std::vector<Setting>& scenarioSettings();

// The groups of the configuration panel, in order: {"gradients", "Gradient summation"}, ...
struct SettingGroup {
    std::string_view key;
    std::string_view title;
};
const std::vector<SettingGroup>& settingGroups();

// The setting with this key ("gradient.chunks") or flag ("chunks"); nullptr when none.
const Setting* findSetting(std::string_view key);
const Setting* findSettingByFlag(std::string_view flag);
// The setting a message's field names: its key or flag, or the object that holds it
// ("model_parallel": the degree); nullptr when none.
const Setting* settingOfField(std::string_view field);

} // namespace podscope
