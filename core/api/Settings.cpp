#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"

#include <podscope/settings.hpp>

namespace podscope::api {

std::vector<SettingInfo> settings() {
    std::vector<SettingInfo> infos;
    for (const Setting& s : scenarioSettings()) {
        infos.push_back({std::string(s.key), std::string(s.flag), typeName(s.type),
                         std::string(s.unit), acceptedValues(s), defaultValue(s),
                         std::string(s.description), settingHelp(s), std::string(s.example)});
    }
    return infos;
}

} // namespace podscope::api
