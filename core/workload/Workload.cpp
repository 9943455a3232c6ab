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
    c.extrapolationExponent = sourcedValueOr(json, "extrapolation_exponent", -1, file);
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

} // namespace

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
    const auto json = nlohmann::json::parse(text);
    Workload w;
    w.name = json.at("name").get<std::string>();
    w.description = json.value("description", "");
    w.exampleUnit = json.value("example_unit", "example");
    w.parameters = sourcedValue(json, "parameters", file);
    w.trainFlopsPerExample = sourcedValue(json, "train_flops_per_example", file);
    w.trainExamples = sourcedValue(json, "train_examples", file);

    const auto& eff = json.at("compute_efficiency");
    w.efficiency.eMax = sourcedValue(eff, "e_max", file);
    w.efficiency.bHalf = sourcedValue(eff, "b_half", file);
    w.gradientOverlapFraction = sourcedValue(json, "gradient_overlap_fraction", file);

    const auto& opt = json.at("optimizer");
    w.optimizer = opt.at("name").get<std::string>();
    w.optimizerBytesPerParam = sourcedValue(opt, "bytes_per_param", file);

    const auto& mp = json.at("model_parallel");
    w.modelParallel.preferred = parseModelParallelKind(mp.at("preferred").get<std::string>(), file);
    for (const char* kind : {"spatial", "tensor"}) {
        PartitionTraits& traits =
            std::string(kind) == "spatial" ? w.modelParallel.spatial : w.modelParallel.tensor;
        if (mp.contains(kind)) {
            traits.supported = true;
            traits.exchangesPerStep = sourcedValue(mp.at(kind), "exchanges_per_step", file);
            traits.bytesPerExamplePerExchange =
                sourcedValue(mp.at(kind), "bytes_per_example_per_exchange", file);
        }
    }

    const auto& ev = json.at("eval");
    w.eval.everyEpochs = sourcedValueOr(ev, "every_epochs", 0, file);
    w.eval.everySteps = sourcedValueOr(ev, "every_steps", 0, file);
    w.eval.everyExamples = sourcedValueOr(ev, "every_examples", 0, file);
    w.eval.firstEpoch = sourcedValueOr(ev, "first_epoch", 0, file);
    w.eval.asyncDefault = ev.at("async").get<bool>();
    w.eval.flopsPerExample = sourcedValue(ev, "flops_per_example", file);
    w.eval.examples = sourcedValue(ev, "examples", file);
    w.eval.fixedCostS = sourcedValue(ev, "fixed_cost_s", file);
    w.eval.asyncTailS = sourcedValueOr(ev, "async_tail_s", w.eval.fixedCostS, file);

    const auto& in = json.at("input");
    w.input.readS = sourcedValue(in, "read_core_s", file);
    w.input.decodeS = sourcedValue(in, "decode_core_s", file);
    w.input.augmentS = sourcedValue(in, "augment_core_s", file);
    w.input.batchS = sourcedValue(in, "batch_core_s", file);
    w.input.bytesToDevice = sourcedValue(in, "bytes_to_device", file);

    w.inRunStartupS = sourcedValue(json, "in_run_startup_s", file);
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
