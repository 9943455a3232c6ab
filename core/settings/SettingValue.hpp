#pragma once

#include "settings/Setting.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// What is wrong with a value for this setting, as a file holds it ("must be between 1 and
// 1024"); empty when nothing is. Null is never a value a file or a flag gives.
std::string problemWithValue(const Setting& setting, const nlohmann::json& value);

// The value a flag's text stands for ("8", "on", "1e2"); InputError naming `field` when none.
nlohmann::json valueOfText(const Setting& setting, const std::string& text,
                           const std::string& field);

// Sets a checked value (null: unset). The setting's own checks (a topology that does not
// resolve) are InputErrors naming `field`, with `where` appended (" (line 3) in f.json").
void writeSetting(const Setting& setting, Scenario& scenario, const nlohmann::json& value,
                  const std::string& field, const std::string& where = "");

// For people: "1 to 1024", "bf16 or fp32", "on or off"; empty for free text.
std::string acceptedValues(const Setting& setting);
// "text", "choice", "switch", "integer" or "number": the docs' and the API's name of a type.
std::string typeName(SettingType type);
// The default: "4", "on", "as the model does"; "required" where a file must give it.
std::string defaultValue(const Setting& setting);
// The flag's help in both programs: the description, the accepted values and the default.
std::string settingHelp(const Setting& setting);
// The flag's value name in --help: INT, NUMBER, ON|OFF or TEXT.
std::string valueName(const Setting& setting);

// A number for people: whole numbers in full (65536, 1099511627776), others as %g.
std::string formatSettingNumber(double value);

} // namespace podscope
