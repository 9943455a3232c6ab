#include "api/SimulateJson.hpp"
#include "training/ScenarioJson.hpp"
#include "training/TrainingJson.hpp"

#include <podscope/simulate.hpp>

namespace podscope::api {

nlohmann::json simulateJson(const Scenario& scenario, const TrainingResult& result,
                            const std::vector<WhatIf>& whatIfs) {
    auto json = podscope::toJson(result);
    json["scenario"] = podscope::toJson(scenario);
    const Workload& workload = cachedWorkload(scenario.workload);
    if (!workload.unmapped.empty()) {
        auto& list = json["unmapped_operators"] = nlohmann::json::array();
        for (const UnmappedOperator& op : workload.unmapped) {
            list.push_back({{"op_type", op.opType},
                            {"count", op.count},
                            {"flops_share", op.flopsShare},
                            {"bytes_share", op.bytesShare}});
        }
    }
    for (const auto& w : whatIfs) {
        const auto ttt =
            w.result.timeToTrainKnown ? nlohmann::json(w.result.timeToTrainS) : nlohmann::json();
        json["what_if"][w.key] = {{"time_to_train_s", ttt},
                                  {"step_time_s", w.result.stepTimeS},
                                  {"bottleneck", w.result.bottleneck}};
    }
    return json;
}

SimulateResult simulate(const Configuration& configuration) {
    const Scenario& s = configuration.scenario();
    const TrainingResult r = simulateTraining(s);
    SimulateResult out;
    out.stepTimeS = r.stepTimeS;
    out.trainStepS = r.trainStepS;
    out.timeToTrainS = r.timeToTrainS;
    out.timeToTrainKnown = r.timeToTrainKnown;
    out.timeToTrainMissing = r.timeToTrainMissing;
    out.parameters = r.parameters;
    out.forwardFlopsPerExample = r.forwardFlopsPerExample;
    out.throughputExamplesPerS = r.throughputExamplesPerS;
    out.epochs = r.epochs;
    out.chips = r.chips;
    out.steps = r.steps;
    out.extrapolated = r.extrapolated;
    out.bottleneck = r.bottleneck;
    out.hbmBytesPerCore = r.memory.total();
    for (const BreakdownPart& part : kBreakdownParts) {
        out.breakdown.push_back({part.key, part.label, r.breakdown.*part.seconds});
    }
    out.json = simulateJson(s, r, whatIfs(s));
    return out;
}

} // namespace podscope::api
