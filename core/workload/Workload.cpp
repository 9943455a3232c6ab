#include "workload/Workload.hpp"

#include "common/InputError.hpp"
#include "resources/BundledResources.hpp"
#include "workload/SourcedJson.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace podscope {
namespace {

constexpr const char* kPrefix = "workloads/";

Convergence parseConvergence(const nlohmann::json& json, double trainExamples,
                             const std::string& file) {
    Convergence c;
    c.examplesMin = sourcedValue(json, "examples_min", file);
    c.batchNoise = sourcedValue(json, "batch_noise", file);
    const auto range = json.at("measured_batches").at("value").get<std::vector<double>>();
    c.measuredBatchMin = range.at(0);
    c.measuredBatchMax = range.at(1);
    for (const auto& p : json.at("points")) {
        if (!p.contains("source")) {
            throw std::runtime_error(file + ": every convergence point needs a source");
        }
        ConvergencePoint point;
        point.globalBatch = p.at("global_batch").get<double>();
        if (p.contains("epochs")) {
            point.examples = p.at("epochs").get<double>() * trainExamples;
        } else if (p.contains("steps")) {
            point.examples = p.at("steps").get<double>() * point.globalBatch;
        } else {
            point.examples = p.at("examples").get<double>();
        }
        point.framework = p.value("framework", "any");
        c.points.push_back(point);
    }
    return c;
}

EvalSchedule parseEvalSchedule(const nlohmann::json& json, const std::string& where) {
    EvalSchedule e;
    const std::string unit = json.at("unit").get<std::string>();
    if (unit == "epochs") {
        e.unit = EvalSchedule::Unit::Epochs;
    } else if (unit == "steps") {
        e.unit = EvalSchedule::Unit::Steps;
    } else if (unit == "examples") {
        e.unit = EvalSchedule::Unit::Examples;
    } else {
        throw std::runtime_error(where + ": unknown unit '" + unit + "'");
    }
    e.every = sourcedValue(json, "every", where);
    e.first = sourcedValue(json, "first", where);
    const std::string mode = json.at("mode").get<std::string>();
    if (mode != "sync" && mode != "async") {
        throw std::runtime_error(where + ": unknown mode '" + mode + "'");
    }
    e.async = mode == "async";
    e.fixedCostS = sourcedValue(json, "fixed_cost_s", where);
    e.firstExtraS = sourcedValue(json, "first_extra_s", where);
    e.asyncTailS = sourcedValue(json, "async_tail_s", where);
    return e;
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

Workload loadWorkload(const std::string& name) {
    const std::string file = std::string(kPrefix) + name + ".json";
    std::string_view text;
    try {
        text = resources::text(file);
    } catch (const std::out_of_range&) {
        std::string known;
        for (const auto& n : workloadNames()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        throw InputError("workload", "unknown workload '" + name + "' (known: " + known + ")");
    }
    return parseWorkload(nlohmann::json::parse(text), file);
}

Workload parseWorkload(const nlohmann::json& json, const std::string& file) {
    Workload w;
    w.name = json.at("name").get<std::string>();
    w.description = json.value("description", "");
    w.exampleUnit = json.value("example_unit", "example");
    w.trainExamples = sourcedValue(json, "train_examples", file);
    w.optimizer = json.at("optimizer").get<std::string>();
    w.preferredSplit =
        parseModelParallelKind(json.at("model_parallel").at("preferred").get<std::string>(), file);
    w.published.parameters = sourcedValue(json.at("published"), "parameters", file);
    w.published.forwardMacsPerExample =
        sourcedValue(json.at("published"), "forward_macs_per_example", file);
    w.graph = parseLayerGraphSpec(json.at("graph"), file);

    const auto& ev = json.at("eval");
    w.evalExamples = sourcedValue(ev, "examples", file);
    for (const auto& [framework, e] : ev.at("schedules").items()) {
        w.evalSchedules[framework] = parseEvalSchedule(e, file + ": eval.schedules." + framework);
    }
    if (!w.evalSchedules.count("default")) {
        throw std::runtime_error(file + ": eval.schedules needs a default");
    }
    if (ev.contains("decode")) {
        w.decode = parseBeamSearchDecode(ev.at("decode"), file);
    }
    for (const auto& [framework, v] : json.at("in_run_startup_s").items()) {
        w.inRunStartupS[framework] = sourcedValue(json.at("in_run_startup_s"), framework, file);
    }
    if (!w.inRunStartupS.count("default")) {
        throw std::runtime_error(file + ": in_run_startup_s needs a default");
    }

    const auto& in = json.at("input");
    w.input.readS = sourcedValue(in, "read_core_s", file);
    w.input.decodeS = sourcedValue(in, "decode_core_s", file);
    w.input.augmentS = sourcedValue(in, "augment_core_s", file);
    w.input.batchS = sourcedValue(in, "batch_core_s", file);
    w.input.bytesToDevice = sourcedValue(in, "bytes_to_device", file);

    w.convergence = parseConvergence(json.at("convergence"), w.trainExamples, file);
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
