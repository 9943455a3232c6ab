#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// Reads {"value": x, "source": "..."} members of bundled resource files. A missing value or
// source is a defect of the resource file and is reported naming the file and the key.
double sourcedValue(const nlohmann::json& parent, const std::string& key, const std::string& file);
double sourcedValueOr(const nlohmann::json& parent, const std::string& key, double fallback,
                      const std::string& file);

} // namespace podscope
