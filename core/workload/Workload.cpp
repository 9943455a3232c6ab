#include "workload/Workload.hpp"

#include "common/InputError.hpp"
#include "resources/BundledResources.hpp"
#include "training/Optimizer.hpp"
#include "training/ResourceCache.hpp"
#include "workload/SourcedJson.hpp"
#include "workload/WorkloadFile.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace podscope {
namespace {

using nlohmann::json;

constexpr const char* kPrefix = "workloads/";

// A section of a workload document: its members are checked for type and named in errors
// as "<file>: <section>: ...".
struct Section {
    const json& object;
    std::string where; // "mymodel.json: eval"

    [[noreturn]] void fail(const std::string& problem) const {
        const auto colon = where.find(": ");
        throw InputError(where.substr(0, colon), colon == std::string::npos
                                                     ? problem
                                                     : where.substr(colon + 2) + ": " + problem);
    }
    bool has(const std::string& key) const { return object.contains(key); }
    const json& member(const std::string& key) const {
        if (!object.contains(key)) {
            fail("field '" + key + "' is missing");
        }
        return object.at(key);
    }
    Section sub(const std::string& key) const {
        const json& m = member(key);
        if (!m.is_object()) {
            fail("field '" + key + "' must be an object");
        }
        const bool top = where.find(": ") == std::string::npos;
        return {m, where + (top ? ": " : ".") + key};
    }
    std::string text(const std::string& key) const {
        const json& m = member(key);
        if (!m.is_string()) {
            fail("field '" + key + "' must be a string");
        }
        return m.get<std::string>();
    }
    std::string textOr(const std::string& key, const std::string& fallback) const {
        return has(key) ? text(key) : fallback;
    }
    double number(const std::string& key) const {
        const json& m = member(key);
        if (!m.is_number() || !std::isfinite(m.get<double>())) {
            fail("field '" + key + "' must be a number");
        }
        return m.get<double>();
    }
    double positive(const std::string& key) const {
        const double v = number(key);
        if (!(v > 0)) {
            fail("field '" + key + "' must be a positive number");
        }
        return v;
    }
    // {"value": x, "source": "..."}, not negative.
    double sourced(const std::string& key) const {
        const double v = sourcedValue(object, key, where);
        if (v < 0) {
            fail("field '" + key + "' must not be negative");
        }
        return v;
    }
};

Section root(const json& document, const std::string& file) {
    if (!document.is_object()) {
        throw InputError(file, "a workload document must be a JSON object");
    }
    return {document, file};
}

Convergence parseConvergence(const Section& c, double trainExamples) {
    Convergence out;
    out.examplesMin = c.sourced("examples_min");
    out.batchNoise = c.sourced("batch_noise");
    if (!(out.examplesMin > 0) || !(out.batchNoise > 0)) {
        c.fail("examples_min and batch_noise must be positive");
    }
    const Section range = c.sub("measured_batches");
    const json& values = range.member("value");
    if (!values.is_array() || values.size() != 2 || !values[0].is_number() ||
        !values[1].is_number() || !(values[0].get<double>() > 0) ||
        values[1].get<double>() < values[0].get<double>()) {
        range.fail("field 'value' must be [smallest, largest] positive global batches");
    }
    out.measuredBatchMin = values[0].get<double>();
    out.measuredBatchMax = values[1].get<double>();
    if (!c.has("points")) {
        return out;
    }
    const json& points = c.member("points");
    if (!points.is_array()) {
        c.fail("field 'points' must be an array");
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i].is_object()) {
            c.fail("points[" + std::to_string(i) + "] must be an object");
        }
        const Section p{points[i], c.where + ".points[" + std::to_string(i) + "]"};
        p.text("source");
        ConvergencePoint point;
        point.globalBatch = p.positive("global_batch");
        if (p.has("epochs")) {
            if (!(trainExamples > 0)) {
                p.fail("field 'epochs' needs the document's train_examples");
            }
            point.examples = p.positive("epochs") * trainExamples;
        } else if (p.has("steps")) {
            point.examples = p.positive("steps") * point.globalBatch;
        } else {
            point.examples = p.positive("examples");
        }
        point.framework = p.textOr("framework", "any");
        out.points.push_back(point);
    }
    return out;
}

EvalSchedule parseEvalSchedule(const Section& s) {
    EvalSchedule e;
    const std::string unit = s.text("unit");
    if (unit == "epochs") {
        e.unit = EvalSchedule::Unit::Epochs;
    } else if (unit == "steps") {
        e.unit = EvalSchedule::Unit::Steps;
    } else if (unit == "examples") {
        e.unit = EvalSchedule::Unit::Examples;
    } else {
        s.fail("field 'unit' has an unknown value '" + unit + "' (epochs, steps, examples)");
    }
    e.every = s.sourced("every");
    e.first = s.sourced("first");
    const std::string mode = s.text("mode");
    if (mode != "sync" && mode != "async") {
        s.fail("field 'mode' has an unknown value '" + mode + "' (sync, async)");
    }
    e.async = mode == "async";
    e.fixedCostS = sourcedValueOr(s.object, "fixed_cost_s", 0, s.where);
    e.firstExtraS = sourcedValueOr(s.object, "first_extra_s", 0, s.where);
    e.asyncTailS = sourcedValueOr(s.object, "async_tail_s", 0, s.where);
    return e;
}

void parseEval(const Section& doc, Workload& w) {
    if (!doc.has("eval")) {
        w.evalSchedules["default"] = EvalSchedule{}; // every = 0: no evaluation
        return;
    }
    const Section ev = doc.sub("eval");
    w.evalExamples = ev.sourced("examples");
    const Section schedules = ev.sub("schedules");
    for (const auto& [framework, e] : schedules.object.items()) {
        w.evalSchedules[framework] = parseEvalSchedule(schedules.sub(framework));
        if (w.evalSchedules[framework].unit == EvalSchedule::Unit::Epochs &&
            !(w.trainExamples > 0)) {
            schedules.fail(framework +
                           ": a schedule in epochs needs the document's train_examples");
        }
    }
    if (!w.evalSchedules.count("default")) {
        schedules.fail("needs a 'default' schedule");
    }
    if (ev.has("decode")) {
        w.decode = parseBeamSearchDecode(ev.member("decode"), ev.where + ".decode");
    }
}

void parseStartup(const Section& doc, Workload& w) {
    if (!doc.has("in_run_startup_s")) {
        w.inRunStartupS["default"] = 0;
        return;
    }
    const Section startup = doc.sub("in_run_startup_s");
    for (const auto& [framework, v] : startup.object.items()) {
        w.inRunStartupS[framework] = startup.sourced(framework);
        if (v.is_object() && v.contains("cache_fill_measured_chips")) {
            const Section entry = startup.sub(framework);
            w.cacheFillMeasuredChips[framework] = entry.sourced("cache_fill_measured_chips");
            if (!(w.cacheFillMeasuredChips[framework] >= 1)) {
                entry.fail("field 'cache_fill_measured_chips' must be at least 1");
            }
        }
    }
    if (!w.inRunStartupS.count("default")) {
        startup.fail("needs a 'default' entry");
    }
}

void parseInput(const Section& doc, Workload& w) {
    if (!doc.has("input")) {
        return; // no host cost: the input pipeline keeps up (input.*_s settings add one)
    }
    const Section in = doc.sub("input");
    w.input.readS = in.sourced("read_core_s");
    w.input.decodeS = in.sourced("decode_core_s");
    w.input.augmentS = in.sourced("augment_core_s");
    w.input.batchS = in.sourced("batch_core_s");
    w.input.bytesToDevice = in.sourced("bytes_to_device");
}

} // namespace

const EvalSchedule& Workload::evalSchedule(const std::string& framework) const {
    const auto it = evalSchedules.find(framework);
    return it != evalSchedules.end() ? it->second : evalSchedules.at("default");
}

double Workload::startupS(const std::string& framework) const {
    const auto it = inRunStartupS.find(framework);
    return it != inRunStartupS.end() ? it->second : inRunStartupS.at("default");
}

double Workload::startupS(const std::string& framework, int hosts, int chipsPerHost) const {
    const double measured = startupS(framework);
    const auto fill = cacheFillMeasuredChips.find(
        inRunStartupS.count(framework) ? framework : std::string("default"));
    if (fill == cacheFillMeasuredChips.end()) {
        return measured;
    }
    // Hosts counted the same way for the measured slice and this one (a slice smaller than a
    // host has one host, holding the whole data set).
    const double measuredHosts =
        std::max(1.0, std::ceil(fill->second / std::max(chipsPerHost, 1) - 1e-9));
    return measured * measuredHosts / std::max(hosts, 1);
}

ModelParallelKind Workload::defaultSplit() const {
    if (preferredSplit != ModelParallelKind::None) {
        return preferredSplit;
    }
    return supports(ModelParallelKind::Spatial) ? ModelParallelKind::Spatial
                                                : ModelParallelKind::Tensor;
}

bool Workload::supports(ModelParallelKind kind) const {
    if (kind == ModelParallelKind::None) {
        return true;
    }
    for (const auto& layer : graph.layers) {
        const std::string type = layer.value("type", "");
        if (kind == ModelParallelKind::Spatial && type == "conv" &&
            layer.value("spatial", "split") == "split") {
            return true;
        }
        if (kind == ModelParallelKind::Tensor && layer.value("split", "none") != "none") {
            return true;
        }
    }
    return false;
}

std::vector<std::string> workloadNames() {
    std::vector<std::string> names;
    for (const auto& path : resources::list(kPrefix)) {
        const auto stem = path.substr(std::string(kPrefix).size());
        names.push_back(stem.substr(0, stem.size() - 5)); // drop ".json"
    }
    return names;
}

Workload loadWorkload(const std::string& nameOrPath) {
    if (isWorkloadFilePath(nameOrPath)) {
        return loadWorkloadFile(nameOrPath);
    }
    const std::string file = std::string(kPrefix) + nameOrPath + ".json";
    std::string_view text;
    try {
        text = resources::text(file);
    } catch (const std::out_of_range&) {
        std::string known;
        for (const auto& n : workloadNames()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw InputError("workload", "unknown workload '" + nameOrPath + "' (known: " + known +
                                         "; or a file: .json, config.json, .onnx)");
    }
    return parseWorkload(nlohmann::json::parse(text), file);
}

const Workload& cachedWorkload(const std::string& nameOrPath) {
    const std::string key =
        isWorkloadFilePath(nameOrPath) ? workloadFileVersionKey(nameOrPath) : nameOrPath;
    return cachedResource<Workload>(key,
                                    [&](const std::string&) { return loadWorkload(nameOrPath); });
}

Workload parseWorkload(const nlohmann::json& document, const std::string& file) {
    const Section doc = root(document, file);
    if (doc.has("format_version")) {
        const json& v = doc.member("format_version");
        if (!v.is_number_integer() || v.get<std::int64_t>() != kWorkloadFormatVersion) {
            doc.fail("format_version " + v.dump() + " is not one this PodScope reads (" +
                     std::to_string(kWorkloadFormatVersion) + ")");
        }
    }
    Workload w;
    w.name = doc.text("name");
    if (w.name.empty()) {
        doc.fail("field 'name' must not be empty");
    }
    w.description = doc.textOr("description", "");
    w.exampleUnit = doc.textOr("example_unit", "example");
    w.trainExamples = sourcedValueOr(document, "train_examples", 0, file);
    if (w.trainExamples < 0) {
        doc.fail("field 'train_examples' must not be negative");
    }
    w.optimizer = doc.textOr("optimizer", "Adam");
    try {
        optimizerDefinition(w.optimizer);
    } catch (const std::runtime_error&) {
        doc.fail("field 'optimizer' names no optimizer of resources/training/optimizers.json ('" +
                 w.optimizer + "'; SGD-momentum, LARS, Adam, LAMB)");
    }
    if (doc.has("model_parallel")) {
        const Section mp = doc.sub("model_parallel");
        w.preferredSplit = parseModelParallelKind(mp.textOr("preferred", "none"),
                                                  file + ": model_parallel.preferred");
    }
    if (doc.has("published")) {
        const Section published = doc.sub("published");
        w.published.parameters = sourcedValueOr(published.object, "parameters", 0, published.where);
        w.published.forwardMacsPerExample =
            sourcedValueOr(published.object, "forward_macs_per_example", 0, published.where);
    }
    doc.sub("graph");
    w.graph = parseLayerGraphSpec(document.at("graph"), file);
    parseEval(doc, w);
    parseStartup(doc, w);
    parseInput(doc, w);
    if (doc.has("convergence")) {
        w.convergence = parseConvergence(doc.sub("convergence"), w.trainExamples);
    }
    return w;
}

std::string toString(ModelParallelKind kind) {
    switch (kind) {
    case ModelParallelKind::None:
        return "none";
    case ModelParallelKind::Spatial:
        return "spatial";
    case ModelParallelKind::Tensor:
        return "tensor";
    }
    return "none";
}

ModelParallelKind parseModelParallelKind(const std::string& text, const std::string& field) {
    if (text == "none") {
        return ModelParallelKind::None;
    }
    if (text == "spatial") {
        return ModelParallelKind::Spatial;
    }
    if (text == "tensor") {
        return ModelParallelKind::Tensor;
    }
    throw InputError(field, "'" + text + "' is not a model-parallel kind (none, spatial, tensor)");
}

} // namespace podscope
