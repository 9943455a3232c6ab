#include "training/Presets.hpp"

#include "common/InputError.hpp"
#include "resources/BundledResources.hpp"
#include "training/ScenarioJson.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace podscope {
namespace {
constexpr const char* kPrefix = "presets/";
}

std::vector<std::string> presetNames() {
    std::vector<std::string> names;
    for (const auto& path : resources::list(kPrefix)) {
        const auto stem = path.substr(std::string(kPrefix).size());
        names.push_back(stem.substr(0, stem.size() - 5));
    }
    return names;
}

Preset loadPreset(const std::string& name, const std::string& field) {
    const std::string file = std::string(kPrefix) + name + ".json";
    std::string text;
    try {
        text = std::string(resources::text(file));
    } catch (const std::out_of_range&) {
        std::string known;
        for (const auto& n : presetNames()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw InputError(field, "unknown preset '" + name + "' (known: " + known + ")");
    }
    const auto json = nlohmann::json::parse(text);
    Preset p;
    p.name = json.at("name").get<std::string>();
    p.title = json.value("title", p.name);
    p.description = json.value("description", "");
    applyScenarioJson(json.at("scenario"), p.scenario, "", file);
    const auto& ref = json.at("reference");
    p.reference.timeToTrainS = ref.at("time_to_train_s").get<double>();
    if (ref.contains("step_time_s")) {
        p.reference.stepTimeS = ref.at("step_time_s").get<double>();
    }
    p.reference.stepTimeIncludesEval = ref.value("step_time_includes_eval", true);
    p.reference.source = ref.at("source").get<std::string>();
    p.reference.stepSource = ref.value("step_time_source", "");
    if (ref.contains("evaluations")) {
        p.reference.evaluationsMin = ref.at("evaluations").at("min").get<int>();
        p.reference.evaluationsMax = ref.at("evaluations").at("max").get<int>();
    }
    return p;
}

} // namespace podscope
