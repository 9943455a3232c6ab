#include "workload/SourcedJson.hpp"

#include <stdexcept>

namespace podscope {

double sourcedValue(const nlohmann::json& parent, const std::string& key, const std::string& file) {
    if (!parent.contains(key)) {
        throw std::runtime_error(file + ": missing '" + key + "'");
    }
    const auto& entry = parent.at(key);
    if (!entry.is_object() || !entry.contains("value") || !entry.at("value").is_number() ||
        !entry.contains("source") || !entry.at("source").is_string()) {
        throw std::runtime_error(file + ": '" + key +
                                 "' must be {\"value\": number, \"source\": text}");
    }
    return entry.at("value").get<double>();
}

double sourcedValueOr(const nlohmann::json& parent, const std::string& key, double fallback,
                      const std::string& file) {
    return parent.contains(key) ? sourcedValue(parent, key, file) : fallback;
}

} // namespace podscope
