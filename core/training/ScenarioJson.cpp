#include "training/ScenarioJson.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingValue.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unistd.h>

namespace podscope {
namespace {

using nlohmann::json;

// "(line N)" for the first occurrence of "key" in the text, or "" when unknown.
std::string lineOf(const std::string& text, const std::string& key) {
    if (text.empty()) {
        return "";
    }
    const auto pos = text.find("\"" + key + "\"");
    if (pos == std::string::npos) {
        return "";
    }
    const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n');
    return " (line " + std::to_string(line) + ")";
}

// Names fields and lines in messages about one object of a configuration.
struct Reader {
    const json& object;
    std::string prefix; // "gradient." for nested objects
    const std::string& text;
    const std::string& origin;

    std::string field(const std::string& key) const { return prefix + key; }
    std::string where(const std::string& key) const { return lineOf(text, key) + " in " + origin; }

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(field(key), problem + where(key));
    }

    void checkKeys(const std::set<std::string>& known) const {
        if (!object.is_object()) {
            throw InputError(prefix.empty() ? "config" : prefix.substr(0, prefix.size() - 1),
                             "must be a JSON object in " + origin);
        }
        for (const auto& [key, value] : object.items()) {
            if (!known.count(key)) {
                std::string list;
                for (const auto& k : known) {
                    list += (list.empty() ? "" : ", ") + k;
                }
                fail(key, "unknown key (known: " + list + ")");
            }
        }
    }
};

// "gradient.chunks" -> {"gradient", "chunks"}; "workload" -> {"", "workload"}.
std::pair<std::string, std::string> splitKey(std::string_view key) {
    const auto dot = key.find('.');
    if (dot == std::string_view::npos) {
        return {"", std::string(key)};
    }
    return {std::string(key.substr(0, dot)), std::string(key.substr(dot + 1))};
}

// The keys a configuration may have at its top level ("" ) or in one of its objects.
std::set<std::string> knownKeys(const std::string& object) {
    std::set<std::string> known;
    if (object.empty()) {
        known.insert("preset");
    }
    for (const Setting& setting : scenarioSettings()) {
        const auto [parent, leaf] = splitKey(setting.key);
        if (object.empty()) {
            known.insert(parent.empty() ? leaf : parent);
        } else if (parent == object) {
            known.insert(leaf);
        }
    }
    return known;
}

int lineAt(const std::string& text, std::size_t pos) {
    const auto upto = std::min(pos, text.size());
    return 1 +
           static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n'));
}

// Refuses deep nesting before the JSON parser sees it: a configuration is two levels deep, and
// thousands of brackets would only cost memory and time (and recursion in other readers).
void checkNesting(const std::string& text, const std::string& origin) {
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i; // skip the escaped character
            } else if (c == '"') {
                inString = false;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > limits::kMaxJsonDepth) {
                throw InputError("config", "nested deeper than " +
                                               std::to_string(limits::kMaxJsonDepth) +
                                               " levels (line " + std::to_string(lineAt(text, i)) +
                                               ") in " + origin);
            }
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
}

std::string wrapText(const std::vector<bool>& wrap) {
    static const std::string letters = "xyzw";
    std::string text;
    for (std::size_t d = 0; d < wrap.size(); ++d) {
        if (wrap[d]) {
            text += letters[d];
        }
    }
    return text.empty() ? "none" : text;
}

std::string dimsText(const std::vector<int>& dims) {
    // Appended piece by piece: GCC 12 at -O3 reports a false -Wrestrict on
    // `const char* + std::string` (GCC bug 105329).
    std::string text;
    for (const int d : dims) {
        if (!text.empty()) {
            text += 'x';
        }
        text += std::to_string(d);
    }
    return text;
}

} // namespace

void useStandardSlice(Scenario& scenario, std::int64_t chips) {
    const auto slice = standardSlice(scenario.hardware, chips);
    scenario.topology = dimsText(slice.dims);
    scenario.wrap = wrapText(slice.wrap);
}

void applyScenarioJson(const json& object, Scenario& s, const std::string& text,
                       const std::string& origin) {
    const Reader top{object, "", text, origin};
    top.checkKeys(knownKeys(""));
    std::map<std::string, Reader> objects; // "gradient" -> its reader
    for (const Setting& setting : scenarioSettings()) {
        const std::string parent = splitKey(setting.key).first;
        if (!parent.empty() && object.contains(parent) && !objects.count(parent)) {
            const Reader nested{object.at(parent), parent + ".", text, origin};
            nested.checkKeys(knownKeys(parent));
            objects.emplace(parent, nested);
        }
    }
    auto given = [&](std::string_view key) -> const json* {
        const auto [parent, leaf] = splitKey(key);
        const json* holder = &object;
        if (!parent.empty()) {
            const auto it = objects.find(parent);
            holder = it == objects.end() ? nullptr : &it->second.object;
        }
        return holder && holder->contains(leaf) ? &holder->at(leaf) : nullptr;
    };
    for (const Setting& setting : scenarioSettings()) {
        if (!setting.excludes.empty() && given(setting.key) && given(setting.excludes)) {
            top.fail(std::string(setting.key), "give either " + std::string(setting.key) + " or " +
                                                   std::string(setting.excludes) + ", not both");
        }
    }
    for (const Setting& setting : scenarioSettings()) {
        const json* value = given(setting.key);
        if (!value) {
            continue;
        }
        const auto [parent, leaf] = splitKey(setting.key);
        const Reader& r = parent.empty() ? top : objects.at(parent);
        if (const std::string problem = problemWithValue(setting, *value); !problem.empty()) {
            r.fail(leaf, problem);
        }
        writeSetting(setting, s, *value, r.field(leaf), r.where(leaf));
    }
}

Scenario parseScenario(const std::string& text, const std::string& origin) {
    if (text.size() > limits::kMaxConfigFileBytes) {
        throw InputError("config", "larger than " +
                                       std::to_string(limits::kMaxConfigFileBytes >> 20) +
                                       " MiB in " + origin);
    }
    checkNesting(text, origin);
    json object;
    try {
        object = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError("config", "not valid JSON (line " + std::to_string(lineAt(text, e.byte)) +
                                       ") in " + origin);
    } catch (const json::out_of_range&) {
        // nlohmann reports a number too large for a double ("1e400") this way (issue 7).
        throw InputError("config", "a number is out of range in " + origin);
    }
    if (!object.is_object()) {
        throw InputError("config", "must be a JSON object in " + origin);
    }
    Scenario s;
    if (object.contains("preset")) {
        if (!object.at("preset").is_string()) {
            throw InputError("preset",
                             "must be a string" + lineOf(text, "preset") + " in " + origin);
        }
        s = loadPreset(object.at("preset").get<std::string>()).scenario;
    } else {
        for (const Setting& setting : scenarioSettings()) {
            const std::string key(setting.key);
            if (!setting.required || object.contains(key)) {
                continue;
            }
            // As for a model given by flags alone (the framework): one rule for both.
            if (!setting.standalone.empty()) {
                writeSetting(setting, s, std::string(setting.standalone), key);
                continue;
            }
            // Another setting that sets it instead (chips, for the topology).
            const auto alternative =
                std::find_if(scenarioSettings().begin(), scenarioSettings().end(),
                             [&](const Setting& other) { return other.excludes == setting.key; });
            if (alternative == scenarioSettings().end()) {
                throw InputError(key, "is required (or name a preset) in " + origin);
            }
            if (!object.contains(std::string(alternative->key))) {
                throw InputError(key, "is required, or " + std::string(alternative->key) +
                                          " (or name a preset) in " + origin);
            }
        }
    }
    applyScenarioJson(object, s, text, origin);
    return s;
}

json toJson(const Scenario& s) {
    json j = json::object();
    for (const Setting& setting : scenarioSettings()) {
        json value = setting.read(s);
        if (!value.is_null()) {
            std::string pointer = "/" + std::string(setting.key);
            std::replace(pointer.begin(), pointer.end(), '.', '/');
            j[json::json_pointer(pointer)] = std::move(value);
        }
    }
    return j;
}

Scenario loadScenarioFile(const std::string& path) {
    const std::string text = readUserTextFile(path, "config", limits::kMaxConfigFileBytes);
    return parseScenario(text, path);
}

void saveScenarioFile(const std::string& path, const Scenario& scenario) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir)) {
        throw InputError("save-config", "no directory '" + dir.string() + "'");
    }
    // Serialised before the disk is touched: a failure here leaves no temporary file behind.
    const std::string text = toJson(scenario).dump(2) + "\n";
    // Appended, not `"." + std::string`: GCC 12 at -O3 reports a false -Wrestrict there.
    const fs::path temp = dir / std::string(".")
                                    .append(target.filename().string())
                                    .append(".tmp")
                                    .append(std::to_string(static_cast<long>(::getpid())));
    {
        std::ofstream out(temp, std::ios::trunc);
        if (!out) {
            throw InputError("save-config", "cannot write '" + temp.string() + "'");
        }
        out << text;
        out.flush();
        if (!out) {
            out.close();
            std::error_code ignored;
            fs::remove(temp, ignored);
            throw InputError("save-config", "cannot write '" + temp.string() + "'");
        }
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw InputError("save-config", "cannot replace '" + path + "'");
    }
}

} // namespace podscope
