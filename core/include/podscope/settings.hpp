#pragma once

#include <string>
#include <vector>

namespace podscope::api {

// One setting of a configuration as docs/settings.md lists it (the core's settings table).
struct SettingInfo {
    std::string key;      // in configuration files: "gradient.chunks"
    std::string flag;     // "chunks" (--chunks); empty: files only
    std::string type;     // text, choice, switch, integer or number
    std::string unit;     // "GB/s"; empty: none
    std::string accepted; // "1 to 1024", "on or off"; empty: free text
    std::string defaultValue;
    std::string description;
    std::string help;    // the flag's --help text: description, accepted values, default
    std::string example; // a value for the flag, as a user might type it
};

// Every setting, in the table's order (the order flags are applied in).
std::vector<SettingInfo> settings();

} // namespace podscope::api
