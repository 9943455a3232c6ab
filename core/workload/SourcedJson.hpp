#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace podscope {

// Reads {"value": x, "source": "..."} members of resource and workload files. A missing value or
// source throws InputError naming the file (its field) and the key.
double sourcedValue(const nlohmann::json& parent, const std::string& key, const std::string& file);
double sourcedValueOr(const nlohmann::json& parent, const std::string& key, double fallback,
                      const std::string& file);

} // namespace podscope
