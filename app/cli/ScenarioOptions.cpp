#include "ScenarioOptions.hpp"

#include "NumberFlags.hpp"
#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "training/Framework.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace podscope::cli {

void addScenarioSourceOptions(CLI::App& cmd, ScenarioSource& s) {
    cmd.add_option("--preset", s.preset,
                   "A bundled MLPerf v0.7 preset (see: podscope-cli presets)");
    cmd.add_option("--config", s.config,
                   "A configuration file (JSON; may name a preset and override some fields)");
}

void addScenarioOverrideOptions(CLI::App& cmd, ScenarioOverrides& o) {
    cmd.add_option("--topology", o.topology,
                   "Topology preset (tpu-v3-multipod, ...) or DIMS such as 128x32");
    cmd.add_option("--wrap", o.wrap, "Wrapped dimensions: x, y, xy, all or none");
    cmd.add_option("--model-parallel", o.modelParallel, "Cores per replica: 1, 2, 4, 8 or 16")
        ->check(wholeNumberFor<int>());
    cmd.add_option("--framework", o.framework, "tf, jax (or tf2)");
    cmd.add_option("--wus", o.wus, "Weight-update sharding: on or off");
    cmd.add_option("--link-bw", o.linkBwGBps, "What-if: ICI link bandwidth per direction in GB/s")
        ->check(realNumber());
    cmd.add_option("--decoded-cache", o.decodedCache, "Host cache of decoded examples: on or off");
}

bool parseOnOff(const std::string& text, const std::string& field) {
    if (text == "on" || text == "true" || text == "yes") {
        return true;
    }
    if (text == "off" || text == "false" || text == "no") {
        return false;
    }
    throw InputError(field, "'" + text + "' is neither on nor off");
}

Scenario loadScenario(const ScenarioSource& source) {
    if (source.preset && source.config) {
        throw InputError("preset", "give either --preset or --config, not both");
    }
    if (source.preset) {
        return loadPreset(*source.preset).scenario;
    }
    if (source.config) {
        return loadScenarioFile(*source.config);
    }
    throw InputError("preset", "give --preset NAME or --config FILE (see: podscope-cli presets)");
}

void addScenarioChoiceOptions(CLI::App& cmd, ScenarioChoice& choice) {
    addScenarioSourceOptions(cmd, choice.source);
    cmd.add_option("--chips", choice.chips, "Use the standard slice with this many chips (16 ... 4096)")
        ->check(wholeNumberFor<std::int64_t>());
    cmd.add_option("--global-batch", choice.globalBatch, "Global batch (examples per step)")
        ->check(wholeNumberFor<std::int64_t>());
    addScenarioOverrideOptions(cmd, choice.overrides);
}

Scenario resolveScenario(const ScenarioChoice& choice) {
    Scenario s = loadScenario(choice.source);
    if (choice.chips && choice.overrides.topology) {
        throw InputError("chips", "give either --chips or --topology, not both");
    }
    if (choice.chips) {
        useStandardSlice(s, *choice.chips);
    }
    if (choice.globalBatch) {
        if (*choice.globalBatch < 1 || *choice.globalBatch > limits::kMaxGlobalBatch) {
            throw InputError("global-batch", "must be between 1 and " + std::to_string(limits::kMaxGlobalBatch));
        }
        s.globalBatch = *choice.globalBatch;
    }
    applyOverrides(choice.overrides, s);
    return s;
}

std::optional<std::string> startingPreset(const ScenarioSource& source) {
    if (source.preset) {
        return source.preset;
    }
    if (!source.config) {
        return std::nullopt;
    }
    const std::string text = readUserTextFile(*source.config, "config", limits::kMaxConfigFileBytes);
    const auto object = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (object.is_object() && object.contains("preset") && object.at("preset").is_string()) {
        return object.at("preset").get<std::string>();
    }
    return std::nullopt;
}

void applyOverrides(const ScenarioOverrides& o, Scenario& s) {
    if (o.topology) {
        s.topology = *o.topology;
        s.wrap.reset();
    }
    if (o.wrap) {
        s.wrap = *o.wrap;
    }
    if (o.framework) {
        loadFramework(*o.framework); // validates
        s.framework = *o.framework;
    }
    if (o.wus) {
        s.weightUpdateSharding = parseOnOff(*o.wus, "wus");
    }
    if (o.linkBwGBps) {
        if (!(*o.linkBwGBps > 0)) {
            throw InputError("link-bw", "must be a positive bandwidth in GB/s");
        }
        s.linkBandwidthGBps = *o.linkBwGBps;
    }
    if (o.decodedCache) {
        s.input.decodedCache = parseOnOff(*o.decodedCache, "decoded-cache");
    }
    if (o.modelParallel) {
        s.modelParallel = *o.modelParallel;
        if (s.modelParallel == 1) {
            s.modelParallelKind = ModelParallelKind::None;
        } else if (s.modelParallelKind == ModelParallelKind::None) {
            const Workload w = loadWorkload(s.workload);
            s.modelParallelKind = w.preferredSplit != ModelParallelKind::None ? w.preferredSplit
                                  : w.supports(ModelParallelKind::Spatial) ? ModelParallelKind::Spatial
                                                                           : ModelParallelKind::Tensor;
        }
    }
}

} // namespace podscope::cli
