#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope {
struct Scenario;
}

namespace podscope::api {

// A setting by the name of its flag ("global-batch", or "global_batch" as Python spells it) and
// its value: text as a command line gives it ("on", "8", "128x32"), or a JSON number or boolean,
// which is read as the same text would be. Names and values are those of docs/settings.md.
struct SettingValue {
    std::string name;
    nlohmann::json value;
};

// Where a configuration comes from, and what overrides it: `--preset P` or `--config FILE`
// (exactly one) and the scenario flags, as `podscope-cli simulate` takes them.
struct ConfigurationRequest {
    std::string preset; // empty: none
    std::string file;   // a configuration file (JSON, docs/settings.md); empty: none
    std::vector<SettingValue> settings;
};

// One checked training configuration (a scenario). Cheap to copy.
class Configuration {
public:
    // The settings are checked first, then the source is loaded and they are applied; bad input
    // throws podscope::InputError with podscope-cli's message ("chunks: 'x' is not a whole
    // number").
    static Configuration load(const ConfigurationRequest& request);
    // From an object in the configuration file's format (what toJson writes).
    static Configuration fromJson(const nlohmann::json& object);
    static Configuration fromScenario(const Scenario& scenario);

    // Every setting, in the file format: reading it back gives the same configuration.
    nlohmann::json toJson() const;
    // Written atomically (a temporary file renamed over `path`).
    void save(const std::string& path) const;

    // The core's own type (training/Scenario.hpp), for code built with the core.
    const Scenario& scenario() const { return *scenario_; }

private:
    explicit Configuration(std::shared_ptr<const Scenario> scenario);
    std::shared_ptr<const Scenario> scenario_;
};

// The bundled MLPerf presets' names ("mlperf07-bert-jax-4096", ...), as `podscope-cli presets`.
std::vector<std::string> presetNames();

} // namespace podscope::api
