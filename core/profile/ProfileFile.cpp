#include "profile/ProfileFile.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "resources/BundledResources.hpp"
#include "training/ScenarioJson.hpp"

#include <cmath>

namespace podscope {

ProfileFile parseProfileFile(const std::string& text, const std::string& origin) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        throw InputError(origin, "is not a JSON object");
    }
    ProfileFile f;
    f.name = j.value("name", "");
    f.description = j.value("description", "");
    const auto source = j.find("source");
    if (source == j.end() || !source->is_object() || !source->contains("repository") ||
        !source->contains("path") || !source->contains("commit") || !source->contains("licence")) {
        throw InputError(origin + ".source", "needs repository, path, commit and licence");
    }
    f.source = *source;
    const auto configs = j.find("configurations");
    if (configs == j.end() || !configs->is_array() || configs->empty()) {
        throw InputError(origin + ".configurations", "needs a list of {weight, scenario}");
    }
    for (std::size_t i = 0; i < configs->size(); ++i) {
        const nlohmann::json& c = (*configs)[i];
        const std::string where = origin + ".configurations[" + std::to_string(i) + "]";
        if (!c.is_object() || !c.contains("scenario") || !c["scenario"].is_object()) {
            throw InputError(where, "needs a \"scenario\" object");
        }
        ProfiledConfiguration pc;
        pc.weight = c.value("weight", 1.0);
        if (!(pc.weight > 0) || !std::isfinite(pc.weight)) {
            throw InputError(where + ".weight", "must be a number above 0");
        }
        pc.scenario = parseScenario(c["scenario"].dump(), where + ".scenario");
        f.configurations.push_back(std::move(pc));
    }
    const auto measured = j.find("measured");
    if (measured == j.end()) {
        throw InputError(origin, "needs a \"measured\" object");
    }
    f.measured = profileSummaryFromJson(*measured, origin + ".measured");
    return f;
}

ProfileFile bundledProfile(const std::string& name) {
    const std::string path = "profiles/" + name + ".json";
    std::string_view text;
    try {
        text = resources::text(path);
    } catch (const std::out_of_range&) {
        std::string known;
        for (const std::string& n : bundledProfileNames()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw InputError("--summary", "no bundled profile '" + name + "' (bundled: " + known + ")");
    }
    return parseProfileFile(std::string(text), path);
}

std::vector<std::string> bundledProfileNames() {
    std::vector<std::string> names;
    for (const std::string& path : resources::list("profiles/")) {
        const std::size_t slash = path.rfind('/');
        const std::size_t dot = path.rfind(".json");
        names.push_back(path.substr(slash + 1, dot - slash - 1));
    }
    return names;
}

} // namespace podscope
