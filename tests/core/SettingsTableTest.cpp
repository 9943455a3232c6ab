// The table of settings (settings/ScenarioSettings.cpp) against what files, flags and the docs
// do with it: every example round-trips through a file, every choice is taken, the ranges are
// what a file accepts at their bounds, presets load as their files say, and docs/settings.md
// holds the generated table.
#include "common/InputError.hpp"
#include "resources/BundledResources.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingFlags.hpp"
#include "settings/SettingValue.hpp"
#include "settings/SettingsMarkdown.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"

#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

namespace podscope {
namespace {

using nlohmann::json;

Scenario resnet() {
    return loadPreset("mlperf07-resnet50-tf-4096").scenario;
}

json::json_pointer pointerOf(std::string_view key) {
    std::string pointer = "/" + std::string(key);
    std::replace(pointer.begin(), pointer.end(), '.', '/');
    return json::json_pointer(pointer);
}

// The field a configuration file's refusal names; "accepted" when there is none.
std::string refusedField(const json& fields) {
    json file = fields;
    file["preset"] = "mlperf07-resnet50-tf-4096";
    try {
        parseScenario(file.dump(2), "test.json");
    } catch (const InputError& e) {
        return e.field();
    }
    return "accepted";
}

TEST(SettingsTable, KeysAndFlagsAreUniqueAndEachFlagHasAnExample) {
    std::set<std::string_view> keys, flags;
    std::set<std::string_view> groups;
    for (const SettingGroup& g : settingGroups()) {
        groups.insert(g.key);
    }
    for (const Setting& s : scenarioSettings()) {
        EXPECT_TRUE(keys.insert(s.key).second) << s.key;
        EXPECT_FALSE(s.description.empty()) << s.key;
        EXPECT_TRUE(s.read && s.write) << s.key;
        if (!s.flag.empty()) {
            EXPECT_TRUE(flags.insert(s.flag).second) << s.flag;
            EXPECT_FALSE(s.example.empty()) << s.key;
        }
        if (s.panel.control != PanelControl::None) {
            EXPECT_TRUE(groups.count(s.panel.group)) << s.key << " in " << s.panel.group;
            EXPECT_FALSE(s.panel.label.empty()) << s.key;
        }
        if (!s.excludes.empty()) {
            EXPECT_NE(findSetting(s.excludes), nullptr) << s.key;
        }
    }
}

TEST(SettingsTable, EveryExampleChangesTheScenarioAndRoundTripsThroughAFile) {
    for (const Setting& s : scenarioSettings()) {
        if (s.example.empty()) {
            continue;
        }
        const Scenario base = resnet();
        Scenario changed = base;
        const json value = valueOfText(s, std::string(s.example), std::string(s.flag));
        writeSetting(s, changed, value, std::string(s.key));
        const bool onlyChoice = s.choices && s.choices().size() == 1;
        EXPECT_TRUE(onlyChoice || toJson(changed) != toJson(base)) << s.key << " had no effect";
        if (!s.read(changed).is_null()) {
            EXPECT_EQ(s.read(changed), value) << s.key;
        }
        const Scenario back = parseScenario(toJson(changed).dump(2), "test.json");
        EXPECT_EQ(toJson(back), toJson(changed)) << s.key;
        // The file the example makes, as a user would write it: the key alone over the preset.
        json file;
        file[pointerOf(s.key)] = value;
        EXPECT_EQ(refusedField(file), "accepted") << s.key << " = " << s.example;
    }
}

TEST(SettingsTable, EveryChoiceIsTakenAndReadBack) {
    for (const Setting& s : scenarioSettings()) {
        if (s.type != SettingType::Choice) {
            continue;
        }
        ASSERT_TRUE(s.choices) << s.key;
        for (const SettingChoice& choice : s.choices()) {
            Scenario scenario = resnet();
            writeSetting(s, scenario, choice.value, std::string(s.key));
            EXPECT_EQ(s.read(scenario), choice.value) << s.key;
        }
        const std::string problem = problemWithValue(s, "no-such-choice");
        EXPECT_EQ(problem.rfind("'no-such-choice' must be ", 0), 0u) << problem;
    }
}

// The bounds of each range: a file may hold them, and nothing beyond them (the field named).
TEST(SettingsTable, RangesAreWhatAFileAccepts) {
    for (const Setting& s : scenarioSettings()) {
        if (s.type != SettingType::Integer && s.type != SettingType::Number) {
            continue;
        }
        const bool whole = s.type == SettingType::Integer;
        auto number = [&](double v) {
            return whole ? json(static_cast<std::int64_t>(v)) : json(v);
        };
        EXPECT_EQ(problemWithValue(s, number(s.highest)), "") << s.key;
        EXPECT_NE(problemWithValue(s, number(whole ? s.highest + 1 : s.highest * 1.001)), "")
            << s.key;
        if (s.lowestIncluded) {
            EXPECT_EQ(problemWithValue(s, number(s.lowest)), "") << s.key;
            EXPECT_NE(problemWithValue(s, number(s.lowest - 1)), "") << s.key;
        } else {
            EXPECT_NE(problemWithValue(s, number(s.lowest)), "") << s.key;
        }
        EXPECT_NE(problemWithValue(s, "8"), "") << s.key; // text is no number
        json beyond;
        beyond[pointerOf(s.key)] = number(whole ? s.highest + 1 : s.highest * 2);
        EXPECT_EQ(refusedField(beyond), s.key);
    }
    EXPECT_NE(problemWithValue(*findSetting("gradient.chunks"), 2.5), "");
    // As a file's text gives them (a JSON parser reads "0" as an unsigned number).
    for (const auto& [text, field] :
         {std::pair{R"({"gradient": {"chunks": 0}})", "gradient.chunks"},
          std::pair{R"({"model_parallel": {"degree": 0}})", "model_parallel.degree"},
          std::pair{R"({"global_batch": 0})", "global_batch"},
          std::pair{R"({"input": {"prefetch_batches": 1001}})", "input.prefetch_batches"}}) {
        EXPECT_EQ(refusedField(json::parse(text)), field) << text;
    }
    EXPECT_NE(problemWithValue(*findSetting("weight_update_sharding"), "yes"), "");
}

TEST(SettingsTable, FlagTextsReadAsPeopleWriteThem) {
    const Setting& wus = *findSetting("weight_update_sharding");
    for (const char* on : {"on", "true", "yes"}) {
        EXPECT_EQ(valueOfText(wus, on, "wus"), true) << on;
    }
    for (const char* off : {"off", "false", "no"}) {
        EXPECT_EQ(valueOfText(wus, off, "wus"), false) << off;
    }
    auto message = [](std::string_view key, const std::string& text) {
        const Setting& s = *findSetting(key);
        try {
            valueOfText(s, text, std::string(s.flag));
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message("weight_update_sharding", "maybe"), "wus: 'maybe' is neither on nor off");
    EXPECT_EQ(message("gradient.chunks", "many"), "chunks: 'many' is not a whole number");
    EXPECT_EQ(message("gradient.chunks", "2000"), "chunks: '2000' must be between 1 and 1024");
    EXPECT_EQ(message("gradient.chunks", "+8"), "accepted");
    EXPECT_EQ(message("link_bandwidth_GBps", "fast"), "link-bw: 'fast' is not a number");
    EXPECT_EQ(message("link_bandwidth_GBps", "nan"),
              "link-bw: 'nan' must be a positive number up to 1000000");
    EXPECT_EQ(message("gradient.precision", "fp8"), "precision: 'fp8' must be bf16 or fp32");
}

TEST(SettingsTable, FlagsThatExcludeEachOtherAreRefusedBeforeAnythingIsRead) {
    const std::vector<SettingText> both = {{findSetting("topology"), "16x16"},
                                           {findSetting("chips"), "256"}};
    try {
        parseSettingFlags(both);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "chips: give either --chips or --topology, not both");
    }
}

// The degree alone, on a data-parallel preset: the workload's own split, as podscope-cli did.
TEST(SettingsTable, ADegreeWithoutAKindTakesTheWorkloadsSplit) {
    for (const char* preset : {"mlperf07-resnet50-tf-4096", "mlperf07-transformer-tf-4096"}) {
        Scenario s = loadPreset(preset).scenario;
        s.modelParallel = 1;
        s.modelParallelKind = ModelParallelKind::None;
        applySettingFlags(parseSettingFlags({{findSetting("model_parallel.degree"), "4"}}), s);
        EXPECT_NE(s.modelParallelKind, ModelParallelKind::None) << preset;
        EXPECT_TRUE(loadWorkload(s.workload).supports(s.modelParallelKind)) << preset;
        EXPECT_NO_THROW(simulateTraining(s)) << preset;
        applySettingFlags(parseSettingFlags({{findSetting("model_parallel.degree"), "1"}}), s);
        EXPECT_EQ(s.modelParallelKind, ModelParallelKind::None) << preset;
    }
}

// Every key a preset's file gives is what the loaded scenario holds: writing it again changes
// nothing (chips too, which the file writes as its topology).
TEST(SettingsTable, PresetsLoadAsTheirFilesSay) {
    for (const auto& name : presetNames()) {
        const json file = json::parse(resources::text("presets/" + name + ".json")).at("scenario");
        const Scenario loaded = loadPreset(name).scenario;
        const json leaves = file.flatten();
        for (const auto& [pointer, value] : leaves.items()) {
            std::string key = pointer.substr(1);
            std::replace(key.begin(), key.end(), '/', '.');
            const Setting* setting = findSetting(key);
            ASSERT_NE(setting, nullptr) << name << ": " << key;
            Scenario again = loaded;
            writeSetting(*setting, again, value, key);
            EXPECT_EQ(toJson(again), toJson(loaded)) << name << ": " << key;
        }
    }
}

std::string sourceFile(const std::string& path) {
    std::ifstream in(std::string(PODSCOPE_SOURCE_DIR) + "/" + path);
    EXPECT_TRUE(in) << path;
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// Each line without its indentation.
std::string unindented(const std::string& text) {
    std::istringstream lines(text);
    std::string line, out;
    while (std::getline(lines, line)) {
        out += line.substr(std::min(line.find_first_not_of(' '), line.size())) + "\n";
    }
    return out;
}

TEST(SettingsTable, TheDocsHoldTheGeneratedTable) {
    const std::string docs = sourceFile("docs/settings.md");
    const std::string begin = "<!-- settings-table: podscope-cli settings --markdown -->\n";
    const std::string end = "<!-- end of settings-table -->";
    const auto from = docs.find(begin);
    const auto to = docs.find(end);
    ASSERT_NE(from, std::string::npos);
    ASSERT_NE(to, std::string::npos);
    EXPECT_EQ(docs.substr(from + begin.size(), to - from - begin.size()), settingsMarkdown())
        << "regenerate: build/bin/podscope-cli settings --markdown";
}

// The worked example of "Adding a setting" is the table's own entry, as it is.
TEST(SettingsTable, TheDocsWorkedExampleIsTheTablesEntry) {
    const std::string docs = sourceFile("docs/settings.md");
    const auto section = docs.find("## Adding a setting");
    ASSERT_NE(section, std::string::npos);
    const auto from = docs.find("```cpp\n", section);
    ASSERT_NE(from, std::string::npos);
    const auto to = docs.find("```", from + 7);
    const std::string example = unindented(docs.substr(from + 7, to - from - 7));
    EXPECT_NE(unindented(sourceFile("core/settings/ScenarioSettings.cpp")).find(example),
              std::string::npos)
        << example;
}

} // namespace
} // namespace podscope
