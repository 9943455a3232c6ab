#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"

#include <podscope/settings.hpp>

namespace podscope::api {
namespace {

std::string typeName(SettingType type) {
    switch (type) {
    case SettingType::Text:
        return "text";
    case SettingType::Choice:
        return "choice";
    case SettingType::Switch:
        return "switch";
    case SettingType::Integer:
        return "integer";
    case SettingType::Number:
        return "number";
    }
    return "text";
}

} // namespace

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
