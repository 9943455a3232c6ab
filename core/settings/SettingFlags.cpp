#include "settings/SettingFlags.hpp"

#include "common/InputError.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"

#include <algorithm>

namespace podscope {

std::vector<SettingAssignment> parseSettingFlags(const std::vector<SettingText>& given) {
    std::vector<SettingAssignment> assignments;
    for (const Setting& setting : scenarioSettings()) {
        for (const SettingText& flag : given) {
            if (flag.setting == &setting) {
                const std::string name(setting.flag);
                assignments.push_back({&setting, valueOfText(setting, flag.text, name)});
            }
        }
    }
    for (const SettingAssignment& a : assignments) {
        if (a.setting->excludes.empty()) {
            continue;
        }
        const bool clash = std::any_of(assignments.begin(), assignments.end(), [&](const auto& b) {
            return b.setting->key == a.setting->excludes;
        });
        if (clash) {
            const Setting* other = findSetting(a.setting->excludes);
            throw InputError(std::string(a.setting->flag),
                             "give either --" + std::string(a.setting->flag) + " or --" +
                                 std::string(other->flag) + ", not both");
        }
    }
    return assignments;
}

void applySettingFlags(const std::vector<SettingAssignment>& assignments, Scenario& scenario) {
    for (const SettingAssignment& a : assignments) {
        writeSetting(*a.setting, scenario, a.value, std::string(a.setting->flag));
    }
}

} // namespace podscope
