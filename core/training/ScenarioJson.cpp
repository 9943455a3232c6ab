#include "training/ScenarioJson.hpp"

#include "common/InputError.hpp"
#include "common/Limits.hpp"
#include "common/TextFile.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/Presets.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
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
    // Positive and finite; `hi` bounds what a field can sensibly hold (issue 7).
    double number(const std::string& key,
                  double hi = std::numeric_limits<double>::max()) const {
        const auto& v = object.at(key);
        if (!v.is_number()) {
            fail(key, "must be a number");
        }
        const double value = v.get<double>();
        if (!std::isfinite(value) || !(value > 0) || value > hi) {
            std::ostringstream range;
            range << "must be a positive number up to " << hi;
            fail(key, range.str());
        }
        return value;
    }
    // Zero allowed (a latency or a stage cost may be nothing); finite and at most `hi`.
    double nonNegative(const std::string& key, double hi) const {
        const auto& v = object.at(key);
        if (!v.is_number()) {
            fail(key, "must be a number");
        }
        const double value = v.get<double>();
        if (!std::isfinite(value) || !(value >= 0) || value > hi) {
            std::ostringstream range;
            range << "must be a number from 0 to " << hi;
            fail(key, range.str());
        }
        return value;
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

int lineAt(const std::string& text, std::size_t pos) {
    const auto upto = std::min(pos, text.size());
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n'));
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
                                               " levels (line " +
                                               std::to_string(lineAt(text, i)) + ") in " + origin);
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
    const auto slice = standardSlice(chips);
    scenario.topology = dimsText(slice.dims);
    scenario.wrap = wrapText(slice.wrap);
}

void applyScenarioJson(const json& object, Scenario& s, const std::string& text,
                       const std::string& origin) {
    const Reader r{object, "", text, origin};
    r.checkKeys({"preset", "workload", "framework", "hardware", "topology", "wrap", "chips",
                 "link_bandwidth_GBps", "global_batch", "model_parallel", "weight_update_sharding",
                 "gradient", "input", "eval_mode", "link_latency_us", "cross_pod_bandwidth_GBps", "eval_every_epochs",
                 "sequence_length", "batch_norm_group"});
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
        s.linkBandwidthGBps = r.number("link_bandwidth_GBps", limits::kMaxLinkBandwidthGBps);
    }
    if (r.has("link_latency_us")) {
        s.linkLatencyUs = r.nonNegative("link_latency_us", 1e6);
    }
    if (r.has("cross_pod_bandwidth_GBps")) {
        s.crossPodBandwidthGBps = r.number("cross_pod_bandwidth_GBps", 1e6);
    }
    if (r.has("eval_every_epochs")) {
        s.evalEveryEpochs = r.number("eval_every_epochs", 1000);
    }
    if (r.has("global_batch")) {
        s.globalBatch = r.integer("global_batch", 1, limits::kMaxGlobalBatch);
    }
    if (r.has("sequence_length")) {
        s.sequenceLength = static_cast<int>(r.integer("sequence_length", 1, 65536));
    }
    if (r.has("batch_norm_group")) {
        s.batchNormGroup = static_cast<int>(r.integer("batch_norm_group", 1, 65536));
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
        g.checkKeys({"precision", "algorithm", "chunks", "dim_order", "overlap", "bucket_MiB"});
        if (g.has("overlap")) {
            s.gradient.overlap = g.parsed("overlap", parseGradientOverlap);
        }
        if (g.has("bucket_MiB")) {
            s.gradient.bucketMiB = g.number("bucket_MiB", 65536);
        }
        if (g.has("precision")) {
            s.gradient.precision = g.parsed("precision", parseElementType);
        }
        if (g.has("algorithm")) {
            s.gradient.algorithm = g.parsed("algorithm", parseAlgorithm);
        }
        if (g.has("chunks")) {
            s.gradient.chunks = static_cast<int>(g.integer("chunks", 1, 1024));
        }
        if (g.has("dim_order")) {
            s.gradient.dimOrder = g.str("dim_order");
            parseDimOrder(s.gradient.dimOrder, 4, "gradient.dim_order"); // letters; the rank is checked later
        }
    }
    if (r.has("input")) {
        const Reader in{object.at("input"), "input.", text, origin};
        in.checkKeys({"host_cpu_cores", "decoded_cache", "prefetch_batches", "read_s", "decode_s", "augment_s",
                      "batch_s"});
        for (const auto& [key, stage] : {std::pair{"read_s", &s.inputCost.readS}, std::pair{"decode_s", &s.inputCost.decodeS},
                                         std::pair{"augment_s", &s.inputCost.augmentS},
                                         std::pair{"batch_s", &s.inputCost.batchS}}) {
            if (in.has(key)) {
                *stage = in.nonNegative(key, 10);
            }
        }
        if (in.has("host_cpu_cores")) {
            s.input.cpuCores = in.number("host_cpu_cores", limits::kMaxHostCpuCores);
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
    if (s.linkLatencyUs) {
        j["link_latency_us"] = *s.linkLatencyUs;
    }
    if (s.crossPodBandwidthGBps) {
        j["cross_pod_bandwidth_GBps"] = *s.crossPodBandwidthGBps;
    }
    if (s.evalEveryEpochs) {
        j["eval_every_epochs"] = *s.evalEveryEpochs;
    }
    j["global_batch"] = s.globalBatch;
    j["model_parallel"] = {{"degree", s.modelParallel}, {"kind", toString(s.modelParallelKind)}};
    j["weight_update_sharding"] = s.weightUpdateSharding;
    j["gradient"] = {{"precision", toString(s.gradient.precision)},
                     {"algorithm", toString(s.gradient.algorithm)},
                     {"chunks", s.gradient.chunks},
                     {"overlap", toString(s.gradient.overlap)},
                     {"bucket_MiB", s.gradient.bucketMiB}};
    if (s.sequenceLength) {
        j["sequence_length"] = *s.sequenceLength;
    }
    if (s.batchNormGroup) {
        j["batch_norm_group"] = *s.batchNormGroup;
    }
    if (!s.gradient.dimOrder.empty()) {
        j["gradient"]["dim_order"] = s.gradient.dimOrder;
    }
    json input = {{"decoded_cache", s.input.decodedCache},
                  {"prefetch_batches", s.input.prefetchBatches}};
    if (s.input.cpuCores > 0) {
        input["host_cpu_cores"] = s.input.cpuCores;
    }
    for (const auto& [key, stage] : {std::pair{"read_s", s.inputCost.readS}, std::pair{"decode_s", s.inputCost.decodeS},
                                     std::pair{"augment_s", s.inputCost.augmentS},
                                     std::pair{"batch_s", s.inputCost.batchS}}) {
        if (stage) {
            input[key] = *stage;
        }
    }
    j["input"] = input;
    if (s.evalMode) {
        j["eval_mode"] = toString(*s.evalMode);
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
