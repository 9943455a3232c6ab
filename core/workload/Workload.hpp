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

// A model and its training recipe, loaded from resources/workloads/<name>.json.
struct Workload {
    std::string name;
    std::string description;
    std::string exampleUnit; // "image", "sequence", ...
    double trainExamples = 0;
    std::string optimizer;
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
    InputCost input;
    Convergence convergence;
    // Operators of an imported model that map to no layer (empty for hand-written graphs).
    std::vector<UnmappedOperator> unmapped;

    const EvalSchedule& evalSchedule(const std::string& framework) const;
    double startupS(const std::string& framework) const;

    // Which model-parallel kinds the layers support: spatial needs feature maps to split,
    // tensor needs layers with a Megatron split.
    bool supports(ModelParallelKind kind) const;
    // The split a replica of several cores takes when none is named: the preferred one, else
    // the one the layers support (spatial before tensor).
    ModelParallelKind defaultSplit() const;
};

// Throws InputError for an unknown name.
Workload loadWorkload(const std::string& name);
// A workload document (resources/workloads/*.json, docs/workloads.md); `file` names it in errors.
Workload parseWorkload(const nlohmann::json& json, const std::string& file);
std::vector<std::string> workloadNames();

std::string toString(ModelParallelKind kind);
ModelParallelKind parseModelParallelKind(const std::string& text, const std::string& field);

} // namespace podscope
