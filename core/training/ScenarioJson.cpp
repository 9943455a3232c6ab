#include "training/ScenarioJson.hpp"

#include "common/InputError.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/Presets.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
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

struct Reader {
    const json& object;
    std::string prefix; // "gradient." for nested objects
    const std::string& text;
    const std::string& origin;

    std::string field(const std::string& key) const { return prefix + key; }

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        throw InputError(field(key), problem + lineOf(text, key) + " in " + origin);
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
    bool has(const std::string& key) const { return object.contains(key); }
    std::string str(const std::string& key) const {
        const auto& v = object.at(key);
        if (!v.is_string()) {
            fail(key, "must be a string");
        }
        return v.get<std::string>();
    }
    bool boolean(const std::string& key) const {
        const auto& v = object.at(key);
        if (!v.is_boolean()) {
            fail(key, "must be true or false");
        }
        return v.get<bool>();
    }
    std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi) const {
        const auto& v = object.at(key);
        if (!v.is_number_integer()) {
            fail(key, "must be an integer");
        }
        const auto value = v.get<std::int64_t>();
        if (value < lo || value > hi) {
            fail(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
        }
        return value;
    }
    double number(const std::string& key) const {
        const auto& v = object.at(key);
        if (!v.is_number() || !(v.get<double>() > 0)) {
            fail(key, "must be a positive number");
        }
        return v.get<double>();
    }
    template <typename Fn> auto parsed(const std::string& key, Fn parse) const {
        try {
            return parse(str(key), field(key));
        } catch (const InputError& e) {
            throw InputError(e.field(), std::string(e.what()).substr(e.field().size() + 2) +
                                            lineOf(text, key) + " in " + origin);
        }
    }
};

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
    std::string text;
    for (const int d : dims) {
        text += (text.empty() ? "" : "x") + std::to_string(d);
    }
    return text;
}

} // namespace

void useStandardSlice(Scenario& scenario, std::int64_t chips) {
    const auto slice = standardSlice(chips);
    scenario.topology = dimsText(slice.dims);
    scenario.wrap = wrapText(slice.wrap);
}

void applyScenarioJson(const json& object, Scenario& s, const std::string& text,
                       const std::string& origin) {
    const Reader r{object, "", text, origin};
    r.checkKeys({"preset", "workload", "framework", "hardware", "topology", "wrap", "chips",
                 "link_bandwidth_GBps", "global_batch", "model_parallel", "weight_update_sharding",
                 "gradient", "input", "eval_mode"});
    if (r.has("workload")) {
        s.workload = r.parsed("workload", [](const std::string& v, const std::string&) {
            loadWorkload(v); // validates the name
            return v;
        });
    }
    if (r.has("framework")) {
        s.framework = r.parsed("framework", [](const std::string& v, const std::string&) {
            loadFramework(v); // validates the name
            return v;
        });
    }
    if (r.has("hardware")) {
        s.hardware = r.str("hardware");
        if (s.hardware != "tpu-v3") {
            r.fail("hardware", "'" + s.hardware + "' is not supported (tpu-v3)");
        }
    }
    if (r.has("chips") && r.has("topology")) {
        r.fail("chips", "give either chips or topology, not both");
    }
    if (r.has("topology")) {
        s.topology = r.str("topology");
        s.wrap.reset();
    }
    if (r.has("chips")) {
        const auto chips = r.integer("chips", 1, 65536);
        try {
            useStandardSlice(s, chips);
        } catch (const InputError& e) {
            r.fail("chips", std::string(e.what()).substr(e.field().size() + 2));
        }
    }
    if (r.has("wrap")) {
        s.wrap = r.str("wrap");
    }
    if (r.has("link_bandwidth_GBps")) {
        s.linkBandwidthGBps = r.number("link_bandwidth_GBps");
    }
    if (r.has("global_batch")) {
        s.globalBatch = r.integer("global_batch", 1, std::int64_t{1} << 40);
    }
    if (r.has("model_parallel")) {
        const Reader m{object.at("model_parallel"), "model_parallel.", text, origin};
        m.checkKeys({"degree", "kind"});
        if (m.has("degree")) {
            s.modelParallel = static_cast<int>(m.integer("degree", 1, 16));
        }
        if (m.has("kind")) {
            s.modelParallelKind = m.parsed("kind", parseModelParallelKind);
        }
    }
    if (r.has("weight_update_sharding")) {
        s.weightUpdateSharding = r.boolean("weight_update_sharding");
    }
    if (r.has("gradient")) {
        const Reader g{object.at("gradient"), "gradient.", text, origin};
        g.checkKeys({"precision", "algorithm", "chunks"});
        if (g.has("precision")) {
            s.gradient.precision = g.parsed("precision", parseElementType);
        }
        if (g.has("algorithm")) {
            s.gradient.algorithm = g.parsed("algorithm", parseAlgorithm);
        }
        if (g.has("chunks")) {
            s.gradient.chunks = static_cast<int>(g.integer("chunks", 1, 1024));
        }
    }
    if (r.has("input")) {
        const Reader in{object.at("input"), "input.", text, origin};
        in.checkKeys({"host_cpu_cores", "decoded_cache", "prefetch_batches"});
        if (in.has("host_cpu_cores")) {
            s.input.cpuCores = in.number("host_cpu_cores");
        }
        if (in.has("decoded_cache")) {
            s.input.decodedCache = in.boolean("decoded_cache");
        }
        if (in.has("prefetch_batches")) {
            s.input.prefetchBatches = static_cast<int>(in.integer("prefetch_batches", 0, 1000));
        }
    }
    if (r.has("eval_mode")) {
        const auto mode = r.str("eval_mode");
        if (mode != "sync" && mode != "async") {
            r.fail("eval_mode", "'" + mode + "' is not an eval mode (sync, async)");
        }
        s.evalMode = mode == "sync" ? EvalMode::Sync : EvalMode::Async;
    }
}

Scenario parseScenario(const std::string& text, const std::string& origin) {
    json object;
    try {
        object = json::parse(text);
    } catch (const json::parse_error& e) {
        const auto upto = std::min<std::size_t>(e.byte, text.size());
        const auto line =
            1 + std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n');
        throw InputError("config",
                         "not valid JSON (line " + std::to_string(line) + ") in " + origin);
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
        for (const char* key : {"workload", "framework", "global_batch"}) {
            if (!object.contains(key)) {
                throw InputError(key, "is required (or name a preset) in " + origin);
            }
        }
        if (!object.contains("topology") && !object.contains("chips")) {
            throw InputError("topology", "is required, or chips (or name a preset) in " + origin);
        }
    }
    applyScenarioJson(object, s, text, origin);
    return s;
}

json toJson(const Scenario& s) {
    json j;
    j["workload"] = s.workload;
    j["framework"] = s.framework;
    j["hardware"] = s.hardware;
    j["topology"] = s.topology;
    if (s.wrap) {
        j["wrap"] = *s.wrap;
    }
    if (s.linkBandwidthGBps) {
        j["link_bandwidth_GBps"] = *s.linkBandwidthGBps;
    }
    j["global_batch"] = s.globalBatch;
    j["model_parallel"] = {{"degree", s.modelParallel}, {"kind", toString(s.modelParallelKind)}};
    j["weight_update_sharding"] = s.weightUpdateSharding;
    j["gradient"] = {{"precision", toString(s.gradient.precision)},
                     {"algorithm", toString(s.gradient.algorithm)},
                     {"chunks", s.gradient.chunks}};
    json input = {{"decoded_cache", s.input.decodedCache},
                  {"prefetch_batches", s.input.prefetchBatches}};
    if (s.input.cpuCores > 0) {
        input["host_cpu_cores"] = s.input.cpuCores;
    }
    j["input"] = input;
    if (s.evalMode) {
        j["eval_mode"] = toString(*s.evalMode);
    }
    return j;
}

Scenario loadScenarioFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        throw InputError("config", "cannot read '" + path + "'");
    }
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parseScenario(buffer.str(), path);
}

void saveScenarioFile(const std::string& path, const Scenario& scenario) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir)) {
        throw InputError("save-config", "no directory '" + dir.string() + "'");
    }
    const fs::path temp = dir / ("." + target.filename().string() + ".tmp" +
                                 std::to_string(static_cast<long>(::getpid())));
    {
        std::ofstream out(temp, std::ios::trunc);
        if (!out) {
            throw InputError("save-config", "cannot write '" + temp.string() + "'");
        }
        out << toJson(scenario).dump(2) << "\n";
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
