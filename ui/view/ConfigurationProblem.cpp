#include "view/ConfigurationProblem.hpp"

#include "common/InputError.hpp"
#include "parallelism/ParallelismPlan.hpp"
#include "settings/ScenarioSettings.hpp"
#include "training/StepModel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <vector>

namespace podscope::ui {
namespace {

// Runs the model; the scenario when accepted.
std::optional<Scenario> accepted(const Scenario& scenario) {
    try {
        simulateTraining(scenario);
        return scenario;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

std::optional<ConfigurationProblem::Suggestion> batchSuggestion(const Scenario& refused) {
    std::int64_t replicas = 0;
    try {
        const Topology topology = scenarioTopology(refused);
        const std::int64_t cores = topology.chipCount() * topology.coresPerChip();
        // Any batch that divides evenly will do to learn the number of replicas.
        replicas =
            planParallelism(topology, cores, refused.modelParallel, refused.modelParallelKind)
                .replicas;
    } catch (const InputError&) {
        return std::nullopt; // the problem is elsewhere too
    }
    // The nearest multiple of the replicas, at least one example each; halved until it fits in
    // HBM when the nearest does not.
    const double perReplica =
        static_cast<double>(refused.globalBatch) / static_cast<double>(replicas);
    const auto nearest = std::max<std::int64_t>(1, std::llround(perReplica));
    Scenario fixed = refused;
    for (std::int64_t examples = nearest; examples >= 1; examples /= 2) {
        fixed.globalBatch = examples * replicas;
        if (fixed.globalBatch == refused.globalBatch || !accepted(fixed)) {
            continue;
        }
        const std::string batch = std::to_string(fixed.globalBatch);
        const std::string per = std::to_string(examples) + (examples == 1 ? " example" : " examples") +
                                " per replica";
        return ConfigurationProblem::Suggestion{
            examples == nearest ? "The nearest batch that divides evenly: " + batch + " (" + per + ")."
                                : "The largest batch near it that divides evenly and fits in HBM: " +
                                      batch + " (" + per + ").",
            "Use " + batch, fixed};
    }
    return std::nullopt;
}

std::optional<ConfigurationProblem::Suggestion> parallelismSuggestion(const Scenario& refused) {
    // The degrees nearest the refused one first; a kind the workload supports where one is needed.
    std::vector<int> degrees{1, 2, 4, 8, 16};
    std::stable_sort(degrees.begin(), degrees.end(), [&](int a, int b) {
        return std::abs(std::log2(a) - std::log2(refused.modelParallel)) <
               std::abs(std::log2(b) - std::log2(refused.modelParallel));
    });
    for (int degree : degrees) {
        std::vector<ModelParallelKind> kinds{refused.modelParallelKind};
        if (degree == 1) {
            kinds = {ModelParallelKind::None};
        } else if (refused.modelParallelKind == ModelParallelKind::None ||
                   degree == refused.modelParallel) {
            kinds = {ModelParallelKind::Spatial, ModelParallelKind::Tensor};
        }
        for (ModelParallelKind kind : kinds) {
            Scenario fixed = refused;
            fixed.modelParallel = degree;
            fixed.modelParallelKind = kind;
            if (fixed.modelParallel == refused.modelParallel &&
                fixed.modelParallelKind == refused.modelParallelKind) {
                continue;
            }
            if (accepted(fixed)) {
                const std::string what = std::to_string(degree) +
                                         (degree == 1 ? " core" : " cores") + " per replica" +
                                         (degree > 1 ? " (" + toString(kind) + ")" : "");
                return ConfigurationProblem::Suggestion{"The nearest that runs: " + what + ".",
                                                        "Use " + what, fixed};
            }
        }
    }
    return std::nullopt;
}

std::optional<ConfigurationProblem::Suggestion> dimOrderSuggestion(const Scenario& refused) {
    Scenario fixed = refused;
    fixed.gradient.dimOrder.clear();
    if (!accepted(fixed)) {
        return std::nullopt;
    }
    return ConfigurationProblem::Suggestion{
        "The default order (wrapped dimensions first) fits every grid.", "Use wrapped first",
        fixed};
}

std::optional<ConfigurationProblem::Suggestion> cadenceSuggestion(const Scenario& refused) {
    if (!refused.evalEveryEpochs) {
        return std::nullopt;
    }
    Scenario fixed = refused;
    fixed.evalEveryEpochs = std::clamp(*refused.evalEveryEpochs, 0.1, 1000.0);
    if (*fixed.evalEveryEpochs == *refused.evalEveryEpochs || !accepted(fixed)) {
        return std::nullopt;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%g", *fixed.evalEveryEpochs);
    return ConfigurationProblem::Suggestion{
        std::string("The nearest cadence the model takes: every ") + text + " epochs.",
        std::string("Use ") + text, fixed};
}

} // namespace

std::string settingName(const std::string& field) {
    // The panel's label of the setting the field names (its key, its flag or its object).
    if (const Setting* setting = settingOfField(field); setting && !setting->panel.label.empty()) {
        return std::string(setting->panel.label);
    }
    std::string words = field;
    std::replace(words.begin(), words.end(), '_', ' ');
    std::replace(words.begin(), words.end(), '.', ' ');
    if (!words.empty() && words[0] >= 'a' && words[0] <= 'z') {
        words[0] = static_cast<char>(words[0] - 'a' + 'A');
    }
    return words;
}

ConfigurationProblem explainProblem(const Scenario& refused, const std::string& message) {
    ConfigurationProblem problem;
    const auto colon = message.find(": ");
    problem.field = colon == std::string::npos ? std::string() : message.substr(0, colon);
    const std::string what = colon == std::string::npos ? message : message.substr(colon + 2);
    problem.setting = problem.field.empty() ? "Configuration" : settingName(problem.field);
    problem.explanation = problem.setting + ": " + what + ".";
    if (problem.field == "global_batch") {
        // The model refuses a batch for one of two reasons: it does not divide evenly, or a
        // core's share does not fit in HBM (the refusal carries the numbers).
        problem.explanation += what.find("of HBM per core") != std::string::npos
                                   ? " The activations a core keeps for the backward pass grow "
                                     "with its examples."
                                   : " Every replica must get the same whole number of examples.";
        problem.suggestion = batchSuggestion(refused);
    } else if (problem.field == "model_parallel" || problem.field == "groups") {
        problem.suggestion = parallelismSuggestion(refused);
        if (!problem.suggestion) {
            problem.suggestion = batchSuggestion(refused);
        }
    } else if (problem.field == "gradient.dim_order" || problem.field == "dim-order") {
        problem.suggestion = dimOrderSuggestion(refused);
    } else if (problem.field == "eval_every_epochs") {
        problem.suggestion = cadenceSuggestion(refused);
    }
    return problem;
}

} // namespace podscope::ui
