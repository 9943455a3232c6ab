#include "demo/DemoScript.hpp"

#include "common/InputError.hpp"
#include "demo/CaptionFields.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "resources/BundledResources.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace podscope::ui {
namespace {

using nlohmann::json;

constexpr const char* kPrefix = "demos/";

// Where a problem is: "steps[2].chart" and, for the message, "step 3 of demo 'x' in FILE".
struct Place {
    std::string field;
    std::string where;

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(field.empty() ? key : field + "." + key, problem + " (" + where + ")");
    }
    Place nested(const std::string& key) const {
        return {field.empty() ? key : field + "." + key, where};
    }
};

void checkKeys(const json& object, const std::set<std::string>& known, const Place& place) {
    for (const auto& [key, value] : object.items()) {
        if (!known.count(key)) {
            std::string list;
            for (const auto& k : known) {
                list += (list.empty() ? "" : ", ") + k;
            }
            place.fail(key, "unknown key (known: " + list + ")");
        }
    }
}

std::string stringAt(const json& object, const std::string& key, const Place& place) {
    const auto& value = object.at(key);
    if (!value.is_string() || value.get<std::string>().empty()) {
        place.fail(key, "must be a non-empty string");
    }
    return value.get<std::string>();
}

bool boolAt(const json& object, const std::string& key, const Place& place) {
    const auto& value = object.at(key);
    if (!value.is_boolean()) {
        place.fail(key, "must be true or false");
    }
    return value.get<bool>();
}

std::string problemOf(const InputError& e) {
    const std::string message = e.what();
    return message.substr(std::min(message.size(), e.field().size() + 2));
}

// Re-throws a problem that another parser (layout, chart, ...) found in the value of `key`.
template <typename Parse> auto parsedAt(const std::string& key, const Place& place, Parse parse) {
    try {
        return parse();
    } catch (const InputError& e) {
        place.fail(key, problemOf(e));
    }
}

// The scenario of a step: the previous step's with the keys this step names. The first step
// (or one that names a preset) starts from the preset, as a configuration file does.
Scenario stepScenario(const json& changes, const Scenario* previous, const Place& place) {
    if (!changes.is_object()) {
        place.fail("scenario", "must be a JSON object of configuration keys (as in a configuration file)");
    }
    try {
        if (!previous || changes.contains("preset")) {
            return parseScenario(changes.dump(), "the step's scenario");
        }
        Scenario scenario = *previous;
        applyScenarioJson(changes, scenario, "", "the step's scenario");
        return scenario;
    } catch (const InputError& e) {
        place.fail(e.field() == "config" ? "scenario" : "scenario." + e.field(), problemOf(e));
    }
}

void readView(const json& view, DemoStep& step, const Place& place) {
    if (!view.is_object()) {
        place.fail("view", "must be a JSON object with layout, color_by, replay and time_fraction");
    }
    const Place at = place.nested("view");
    checkKeys(view, {"layout", "color_by", "replay", "time_fraction"}, at);
    if (view.contains("replay")) {
        const std::string text = stringAt(view, "replay", at);
        step.replay = parsedAt("replay", at, [&] { return parseReplayKind(text); });
    }
    if (view.contains("layout")) {
        const std::string text = stringAt(view, "layout", at);
        step.layout = parsedAt("layout", at, [&] { return parseLayout(text); });
    }
    if (view.contains("color_by")) {
        const std::string text = stringAt(view, "color_by", at);
        step.colorMode = parsedAt("color_by", at, [&] { return parseColorMode(text); });
    }
    if (view.contains("time_fraction")) {
        const auto& value = view.at("time_fraction");
        if (!value.is_number() || !(value.get<double>() >= 0 && value.get<double>() <= 1)) {
            at.fail("time_fraction", "must be a number from 0 (start of the collective or step) to 1 "
                                     "(its end)");
        }
        step.timeFraction = value.get<double>();
    }
}

DemoStep readStep(const json& object, const DemoStep* previous, const Place& place) {
    if (!object.is_object()) {
        place.fail("", "must be a JSON object with title, caption and the changes of the step");
    }
    checkKeys(object,
              {"title", "caption", "scenario", "chart", "view", "data_blocks", "full_scale",
               "compare_with_previous"},
              place);
    for (const char* key : {"title", "caption"}) {
        if (!object.contains(key)) {
            place.fail(key, "is required");
        }
    }
    if (!previous && !object.contains("scenario")) {
        place.fail("scenario", "is required in the first step (name a preset or give a whole configuration)");
    }
    DemoStep step;
    if (previous) {
        step = *previous; // a step changes only what it names
        step.dataBlocks = false;
        step.fullScale = false;
        step.compareWithPrevious = false;
    }
    step.title = stringAt(object, "title", place);
    step.caption = stringAt(object, "caption", place);
    if (object.contains("scenario")) {
        step.scenario = stepScenario(object.at("scenario"), previous ? &previous->scenario : nullptr, place);
    }
    if (object.contains("chart")) {
        const std::string text = stringAt(object, "chart", place);
        step.chart = parsedAt("chart", place, [&] { return parseChartKind(text); });
    }
    if (object.contains("view")) {
        readView(object.at("view"), step, place);
    }
    if (object.contains("data_blocks")) {
        step.dataBlocks = boolAt(object, "data_blocks", place);
    }
    if (object.contains("full_scale")) {
        step.fullScale = boolAt(object, "full_scale", place);
    }
    if (object.contains("compare_with_previous")) {
        step.compareWithPrevious = boolAt(object, "compare_with_previous", place);
        if (step.compareWithPrevious && !previous) {
            place.fail("compare_with_previous",
                       "the first step has no previous step to compare with");
        }
    }
    // The configuration must be one the model can run, so that no step fails in front of a class.
    TrainingResult result;
    try {
        result = simulateTraining(step.scenario);
    } catch (const InputError& e) {
        place.fail("scenario." + e.field(), problemOf(e));
    }
    step.caption = parsedAt("caption", place, [&] { return fillCaption(step.caption, step.scenario, result); });
    if (step.dataBlocks && result.chips > kMaxDataBlockChips) {
        place.fail("data_blocks", "needs at most " + std::to_string(kMaxDataBlockChips) + " chips; this step has " +
                                      std::to_string(result.chips));
    }
    return step;
}

json parseJson(const std::string& text, const std::string& origin) {
    if (text.size() > limits::kMaxConfigFileBytes) {
        throw InputError("demo", "larger than 1 MiB: " + origin);
    }
    // Deep nesting is refused while parsing, before it can recurse far.
    const json::parser_callback_t depthLimit = [&origin](int depth, json::parse_event_t, json&) {
        if (depth > limits::kMaxJsonDepth) {
            throw InputError("demo", "nested deeper than " + std::to_string(limits::kMaxJsonDepth) + " levels in " + origin);
        }
        return true;
    };
    try {
        return json::parse(text, depthLimit);
    } catch (const json::parse_error& e) {
        throw InputError("demo", "not valid JSON in " + origin + " (" + e.what() + ")");
    } catch (const json::out_of_range&) {
        throw InputError("demo", "a number is out of range in " + origin);
    }
}

} // namespace

DemoScript parseDemoScript(const std::string& text, const std::string& origin) {
    const json object = parseJson(text, origin);
    const Place top{"", origin};
    if (!object.is_object()) {
        top.fail("demo", "must be a JSON object with name, title, summary and steps");
    }
    checkKeys(object, {"name", "title", "summary", "order", "sources", "steps"}, top);
    for (const char* key : {"name", "title", "summary", "steps"}) {
        if (!object.contains(key)) {
            top.fail(key, "is required");
        }
    }
    DemoScript script;
    script.name = stringAt(object, "name", top);
    script.title = stringAt(object, "title", top);
    script.summary = stringAt(object, "summary", top);
    if (object.contains("order")) {
        const auto& order = object.at("order");
        if (!order.is_number_integer() || order.get<std::int64_t>() < 0 || order.get<std::int64_t>() > 1000) {
            top.fail("order", "must be an integer from 0 to 1000");
        }
        script.order = order.get<int>();
    }
    if (object.contains("sources")) {
        const auto& sources = object.at("sources");
        if (!sources.is_array()) {
            top.fail("sources", "must be an array of strings");
        }
        for (std::size_t i = 0; i < sources.size(); ++i) {
            if (!sources[i].is_string()) {
                top.fail("sources[" + std::to_string(i) + "]", "must be a string");
            }
            script.sources.push_back(sources[i].get<std::string>());
        }
    }
    const auto& steps = object.at("steps");
    if (!steps.is_array() || steps.empty()) {
        top.fail("steps", "must be a non-empty array of steps");
    }
    if (steps.size() > 100) {
        top.fail("steps", "has " + std::to_string(steps.size()) + " steps; at most 100");
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Place place{"steps[" + std::to_string(i) + "]",
                          "step " + std::to_string(i + 1) + " of demo '" + script.name + "' in " + origin};
        script.steps.push_back(readStep(steps[i], script.steps.empty() ? nullptr : &script.steps.back(), place));
    }
    return script;
}

std::vector<DemoScript> bundledDemos() {
    std::vector<DemoScript> demos;
    for (const auto& path : resources::list(kPrefix)) {
        const std::string stem = path.substr(std::string(kPrefix).size());
        demos.push_back(loadDemo(stem.substr(0, stem.size() - 5)));
    }
    std::stable_sort(demos.begin(), demos.end(),
                     [](const DemoScript& a, const DemoScript& b) { return a.order < b.order; });
    return demos;
}

std::vector<std::string> bundledDemoNames() {
    std::vector<std::string> names;
    for (const auto& demo : bundledDemos()) {
        names.push_back(demo.name);
    }
    return names;
}

DemoScript loadDemo(const std::string& nameOrPath) {
    const std::string bundled = std::string(kPrefix) + nameOrPath + ".json";
    if (nameOrPath.find('/') == std::string::npos && nameOrPath.find('.') == std::string::npos) {
        try {
            return parseDemoScript(std::string(resources::text(bundled)), "resources/" + bundled);
        } catch (const std::out_of_range&) {
            std::string known;
            for (const auto& path : resources::list(kPrefix)) {
                const std::string stem = path.substr(std::string(kPrefix).size());
                known += (known.empty() ? "" : ", ") + stem.substr(0, stem.size() - 5);
            }
            throw InputError("demo", "unknown demo '" + nameOrPath + "' (bundled: " + known +
                                         "; or give the path of a .json script)");
        }
    }
    const std::string text = readUserTextFile(nameOrPath, "demo", limits::kMaxConfigFileBytes);
    return parseDemoScript(text, nameOrPath);
}

} // namespace podscope::ui
