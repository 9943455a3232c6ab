#include "workload/SourcedJson.hpp"

#include "common/InputError.hpp"

#include <cmath>

namespace podscope {

double sourcedValue(const nlohmann::json& parent, const std::string& key, const std::string& file) {
    if (!parent.is_object() || !parent.contains(key)) {
        throw InputError(file, "missing '" + key + "'");
    }
    const auto& entry = parent.at(key);
    if (!entry.is_object() || !entry.contains("value") || !entry.at("value").is_number() ||
        !entry.contains("source") || !entry.at("source").is_string()) {
        throw InputError(file, "'" + key + "' must be {\"value\": number, \"source\": text}");
    }
    const double value = entry.at("value").get<double>();
    if (!std::isfinite(value)) {
        throw InputError(file, "'" + key + "' must be a finite number");
    }
    return value;
}

double sourcedValueOr(const nlohmann::json& parent, const std::string& key, double fallback,
                      const std::string& file) {
    return parent.is_object() && parent.contains(key) ? sourcedValue(parent, key, file) : fallback;
}

} // namespace podscope
