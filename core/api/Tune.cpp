#include "api/TunePlan.hpp"
#include "common/InputError.hpp"
#include "common/Suggestion.hpp"
#include "search/Search.hpp"
#include "search/StartingScenario.hpp"
#include "settings/ScenarioSettings.hpp"
#include "settings/SettingFlags.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/Presets.hpp"
#include "workload/WorkloadFile.hpp"

#include <algorithm>
#include <set>
#include <sstream>
#include <thread>

namespace podscope::api {
namespace {

using namespace search;

std::string suggestion(const std::string& word, const std::vector<std::string>& candidates) {
    const auto match = closestMatch(word, candidates);
    return match ? "; did you mean '" + *match + "'?" : "";
}

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& w : words) {
        text += (text.empty() ? "" : ", ") + w;
    }
    return text;
}

std::int64_t chipCount(const std::string& text) {
    std::int64_t value = 0;
    try {
        std::size_t used = 0;
        value = std::stoll(text, &used);
        if (used != text.size()) {
            throw std::invalid_argument(text);
        }
    } catch (const std::exception&) {
        throw InputError("chips", "'" + text + "' is not a whole number");
    }
    return value;
}

// "4096", "512,4096" or "256..4096" (the standard slices in between, and where the machine
// offers a DCN, the offered numbers of them: the search space checks a list's counts).
std::vector<std::int64_t> parseChips(const std::string& text, const Scenario& base) {
    const std::string& hardware = base.hardware;
    const std::vector<int> sliceCounts = offeredSliceCounts(base);
    const bool multislice = sliceCounts.size() > 1 || sliceCounts.front() > 1;
    if (text.empty()) {
        throw InputError("chips", "give a chip count, a list (512,4096) or a range (256..4096)");
    }
    std::vector<std::int64_t> chips;
    const auto range = text.find("..");
    if (range != std::string::npos) {
        const auto low = chipCount(text.substr(0, range));
        const auto high = chipCount(text.substr(range + 2));
        if (low > high) {
            throw InputError("chips",
                             "the range " + text + " is empty (the first count is larger)");
        }
        std::set<std::int64_t> counts;
        for (const auto n : standardChipCounts(hardware)) {
            for (const int slices : sliceCounts) {
                if (n * slices >= low && n * slices <= high) {
                    counts.insert(n * slices);
                }
            }
        }
        chips.assign(counts.begin(), counts.end());
        if (chips.empty()) {
            throw InputError("chips", "no standard slice lies in " + text);
        }
        return chips;
    }
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
        const auto n = chipCount(item);
        if (!multislice) {
            standardSlice(hardware, n); // InputError naming chips, with the known counts
        }
        chips.push_back(n);
    }
    return chips;
}

// A preset, or the model's preset (of the framework, TF first otherwise).
Scenario startingPoint(const TuneRequest& r) {
    if (!r.model.empty() && !r.preset.empty()) {
        throw InputError("model", "give either --model or --preset, not both");
    }
    if (!r.preset.empty()) {
        if (!r.framework.empty()) {
            throw InputError("framework",
                             "the preset sets the framework; use --model with --framework");
        }
        return loadPreset(r.preset).scenario;
    }
    if (r.model.empty()) {
        throw InputError("model",
                         "give --model NAME (" + joined(workloadNames()) +
                             ", or a model file: .onnx, config.json, .json) or --preset NAME");
    }
    if (isWorkloadFilePath(r.model)) {
        // A model of one's own: no preset to start from; the framework given, or the one a
        // model given alone takes (the settings table's), and the search sets the rest.
        Scenario s;
        cachedWorkload(r.model); // InputError: a bad file, naming the problem
        s.workload = r.model;
        s.framework =
            r.framework.empty() ? std::string(findSetting("framework")->standalone) : r.framework;
        loadFramework(s.framework); // InputError naming the framework
        return s;
    }
    const auto models = workloadNames();
    if (std::find(models.begin(), models.end(), r.model) == models.end()) {
        throw InputError("model", "unknown model '" + r.model + "'" + suggestion(r.model, models) +
                                      " (known: " + joined(models) + ")");
    }
    std::optional<std::string> framework;
    if (!r.framework.empty()) {
        loadFramework(r.framework); // InputError naming the framework
        framework = r.framework;
    }
    const std::optional<Scenario> chosen = startingScenario(r.model, framework);
    if (!chosen) {
        throw InputError("model", r.model + " has no preset to start from");
    }
    return *chosen;
}

// The starting point with the request's scenario flags (--train-steps N) applied.
Scenario baseScenario(const TuneRequest& r) {
    std::vector<SettingText> given;
    for (const auto& [flag, text] : r.settings) {
        const Setting* setting = findSettingByFlag(flag);
        if (setting == nullptr) {
            throw InputError(flag, "not a setting of a configuration (docs/settings.md)");
        }
        given.push_back({setting, text});
    }
    const auto assignments = parseSettingFlags(given); // before any file is read
    Scenario s = startingPoint(r);
    applySettingFlags(assignments, s);
    return s;
}

// The gradient's keys may leave out "gradient."; "wus" is weight_update_sharding.
std::vector<std::pair<std::string, std::string>>
dimensionFixes(const std::vector<std::pair<std::string, std::string>>& fixes) {
    const std::vector<std::string> keys(dimensionKeys().begin(), dimensionKeys().end());
    const auto known = [&](const std::string& k) {
        return std::find(keys.begin(), keys.end(), k) != keys.end();
    };
    std::vector<std::pair<std::string, std::string>> parsed;
    for (auto [key, value] : fixes) {
        if (!known(key) && known("gradient." + key)) {
            key = "gradient." + key;
        }
        if (key == "wus") {
            key = "weight_update_sharding";
        }
        if (!known(key)) {
            throw InputError("fix", "unknown key '" + key + "'" + suggestion(key, keys) +
                                        " (keys: " + joined(keys) + ")");
        }
        parsed.emplace_back(key, value);
    }
    return parsed;
}

} // namespace

std::string withCommas(std::uint64_t n) {
    std::string digits = std::to_string(n);
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) {
        digits.insert(static_cast<std::size_t>(i), 1, ','); // a char: GCC 12's false -Wrestrict
    }
    return digits;
}

PreparedTune prepareTune(const TuneRequest& r) {
    PreparedTune t;
    t.space.base = baseScenario(r);
    t.space.chips = parseChips(r.chips, t.space.base);
    t.space.allowExtrapolation = r.allowExtrapolation;
    t.space.fixes = dimensionFixes(r.fixes);
    const auto& names = objectiveNames();
    const std::vector<std::string> known(names.begin(), names.end());
    if (std::find(known.begin(), known.end(), r.objective) == known.end()) {
        throw InputError("objective", "unknown objective '" + r.objective + "'" +
                                          suggestion(r.objective, known) + " (" + joined(known) +
                                          ")");
    }
    t.settings.objective = parseObjective(r.objective);
    if (r.goal && !(*r.goal > 0)) {
        throw InputError("goal",
                         "must be a positive " + objectiveUnit(t.settings.objective) + " value");
    }
    t.goal = r.goal;
    if (r.fidelity != "analytic" && r.fidelity != "timeline") {
        throw InputError("fidelity", "'" + r.fidelity + "' is neither analytic nor timeline" +
                                         suggestion(r.fidelity, {"analytic", "timeline"}));
    }
    t.settings.fidelity = r.fidelity == "timeline" ? Fidelity::Timeline : Fidelity::Analytic;
    if (r.pareto != "chips" && r.pareto != "chip-seconds") {
        throw InputError("pareto", "'" + r.pareto + "' is neither chips nor chip-seconds");
    }
    t.settings.axis = r.pareto == "chips" ? ParetoAxis::Chips : ParetoAxis::ChipSeconds;
    if (r.top < 1 || r.top > 100) {
        throw InputError("top", "must be between 1 and 100 configurations");
    }
    t.settings.top = static_cast<std::size_t>(r.top);
    if (r.threads && (*r.threads < 1 || *r.threads > 1024)) {
        throw InputError("threads", "must be between 1 and 1024");
    }
    const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    t.settings.threads = r.threads.value_or(hardware);
    return t;
}

void checkSomethingEvaluated(const SearchSpace& space, const SearchTally& tally) {
    if (tally.evaluated() > 0) {
        return;
    }
    const SkipCounts& skipped = tally.skipped();
    throw InputError("space", "all " + withCommas(space.configurationCount()) +
                                  " configurations were skipped (" + withCommas(skipped.hbm) +
                                  " do not fit in HBM, " + withCommas(skipped.uneven) +
                                  " do not divide evenly, " + withCommas(skipped.unsupported) +
                                  " unsupported): loosen --fix or use other chip counts");
}

void checkGoal(const PreparedTune& t, const TuneReport& report) {
    const Objective objective = t.settings.objective;
    if (t.goal && !meetsGoal(objective, report.top.front().score, *t.goal)) {
        const double best = objectiveValue(objective, report.top.front().score);
        throw InputError("goal", "no configuration reaches " + formatObjective(objective, *t.goal) +
                                     " (" + toString(objective) + "); the best of " +
                                     withCommas(report.evaluated) + " reaches " +
                                     formatObjective(objective, best));
    }
}

TuneResult tune(const TuneRequest& request) {
    const PreparedTune t = prepareTune(request);
    const SearchSpace space(t.space);
    SearchOptions options;
    options.objective = t.settings.objective;
    options.keep = t.settings.top + 1;
    options.threads = t.settings.threads;
    const SearchTally tally = runSearch(space, options);
    checkSomethingEvaluated(space, tally);
    const TuneReport report = buildTuneReport(space, tally, t.settings);
    checkGoal(t, report);
    TuneResult result;
    result.configurations = report.configurations;
    result.evaluated = report.evaluated;
    for (std::size_t i = 0; i < report.top.size(); ++i) {
        const RankedConfiguration& c = report.top[i];
        TunedConfiguration row;
        row.rank = static_cast<int>(i + 1);
        row.timeToTrainS = c.confirmed ? c.timelineTimeToTrainS : c.result.timeToTrainS;
        row.stepTimeS = c.confirmed ? c.timelineStepS : c.result.stepTimeS;
        row.throughputExamplesPerS = c.result.throughputExamplesPerS;
        row.chips = c.result.chips;
        for (std::size_t d = 0; d < kDimensionCount; ++d) {
            row.settings.emplace_back(dimensionKeys()[d], c.settings[d]);
        }
        row.whyBeatsNext = c.whyBeatsNext;
        result.top.push_back(std::move(row));
    }
    result.json = toJson(report);
    return result;
}

} // namespace podscope::api
