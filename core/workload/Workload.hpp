#pragma once

#include "workload/BeamSearchDecode.hpp"
#include "workload/Convergence.hpp"
#include "workload/LayerGraph.hpp"
#include "workload/UnmappedOperator.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace podscope {

enum class ModelParallelKind { None, Spatial, Tensor };

// Host work per training example, in CPU core-seconds per stage.
struct InputCost {
    double readS = 0;
    double decodeS = 0; // skipped when decoded examples are cached in host RAM
    double augmentS = 0;
    double batchS = 0;
    double bytesToDevice = 0; // per example, over the host-to-device link
};

// When a run evaluates and what each evaluation costs beyond the forward pass of the
// evaluation set on the device. Evaluations run at first, first + every, ... in `unit`.
struct EvalSchedule {
    enum class Unit { Epochs, Steps, Examples };
    Unit unit = Unit::Epochs;
    double every = 0; // 0: never
    double first = 0;
    bool async = false;
    double fixedCostS = 0;  // per synchronous evaluation: host metric, decode, loop switch
    double firstExtraS = 0; // the first evaluation also compiles its program
    // Asynchronous evaluation: hidden behind training, except that the run ends only when the
    // result of the last one is in: this long after the last step.
    double asyncTailS = 0;
};

// Published totals the layer graph is checked against (tests).
struct PublishedTotals {
    double parameters = 0;
    double forwardMacsPerExample = 0;
};

// A model and its training recipe: a workload document (docs/workloads.md), bundled in
// resources/workloads/<name>.json or read from a user's file. Only the name and the graph are
// required; a model without convergence data has no time to train unless the scenario names
// its length (train_steps, train_examples).
struct Workload {
    std::string name;
    std::string file; // the user's file it came from; empty for a bundled workload
    std::string description;
    std::string exampleUnit;  // "image", "sequence", ...
    double trainExamples = 0; // 0: not stated (epochs are then not reported)
    std::string optimizer = "Adam";
    ModelParallelKind preferredSplit = ModelParallelKind::None;
    LayerGraphSpec graph;
    PublishedTotals published;
    double evalExamples = 0;
    // Translation models evaluate by beam search (absent: one forward pass of the set).
    std::optional<BeamSearchDecode> decode;
    // Per framework (a "default" entry for the others): evaluation and in-run start-up, both
    // measured in the logs of that framework's runs.
    std::map<std::string, EvalSchedule> evalSchedules;
    std::map<std::string, double> inRunStartupS;
    // Per framework, where the start-up is a cache fill: the chips of the slice it was measured
    // on. Each host decodes its share of the data set on the first pass, so the fill scales with
    // that share (1 / hosts); absent: a fixed cost.
    std::map<std::string, double> cacheFillMeasuredChips;
    InputCost input;
    Convergence convergence; // examples to the target; see hasConvergence()
    // Operators of an imported model that map to no layer (empty for hand-written graphs).
    std::vector<UnmappedOperator> unmapped;

    bool hasConvergence() const { return convergence.examplesMin > 0; }
    const EvalSchedule& evalSchedule(const std::string& framework) const;
    double startupS(const std::string& framework) const; // as measured
    // On `hosts` hosts of `chipsPerHost` chips: a cache fill scaled by the host's data share.
    double startupS(const std::string& framework, int hosts, int chipsPerHost) const;

    // Which model-parallel kinds the layers support: spatial needs feature maps to split,
    // tensor needs layers with a Megatron split.
    bool supports(ModelParallelKind kind) const;
    // The split a replica of several cores takes when none is named: the preferred one, else
    // the one the layers support (spatial before tensor).
    ModelParallelKind defaultSplit() const;
};

// The version of the workload document format this build reads (docs/workloads.md).
inline constexpr int kWorkloadFormatVersion = 1;

// A bundled name ("bert") or a file (WorkloadFile.hpp: a workload document, a Hugging Face
// config.json or an ONNX model). Throws InputError for an unknown name or a bad file.
Workload loadWorkload(const std::string& nameOrPath);
// The same, parsed once per name (and per file version: path, size and modification time).
const Workload& cachedWorkload(const std::string& nameOrPath);
// A workload document (resources/workloads/*.json, docs/workloads.md); `file` names it in
// errors, which are InputErrors naming the section, layer and field.
Workload parseWorkload(const nlohmann::json& json, const std::string& file);
std::vector<std::string> workloadNames();

std::string toString(ModelParallelKind kind);
ModelParallelKind parseModelParallelKind(const std::string& text, const std::string& field);

} // namespace podscope
