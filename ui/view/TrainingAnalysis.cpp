#include "view/TrainingAnalysis.hpp"

#include "analysis/ScalingSweeps.hpp"
#include "common/InputError.hpp"
#include "training/StepPlan.hpp"

namespace podscope::ui {

std::optional<MemoryUse> plannedMemory(const Scenario& scenario) {
    try {
        return buildStepPlanUnchecked(scenario).memory;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

TrainingAnalysis analyzeTraining(const Scenario& scenario) {
    TrainingAnalysis analysis;
    analysis.scenario = scenario;
    // One plan: the result, the layer table and the roofs all come from it.
    const StepPlan plan = buildStepPlan(scenario);
    analysis.result = evaluateStepPlan(plan, scenario);
    analysis.layers = layerTable(plan);
    analysis.roofs = analysis::coreRoofs(plan);
    analysis.replicas = plan.parallelism.replicas;
    for (const Layer& layer : plan.graph->layers) {
        analysis.hasBatchNorm = analysis.hasBatchNorm || layer.batchNorm == BatchNormKind::Batch;
    }
    const LayerGraphSpec& graph = plan.workload->graph;
    if (!graph.sequenceVariable.empty()) {
        if (auto it = graph.variables.find(graph.sequenceVariable); it != graph.variables.end()) {
            analysis.sequenceLength = it->second;
        }
    }
    analysis.measuredBatchLow = plan.workload->convergence.lowestMeasuredBatch();
    analysis.measuredBatchHigh = plan.workload->convergence.highestMeasuredBatch();
    analysis.whatIfs = whatIfs(scenario);

    analysis.byChips = analysis::strongScaling(scenario);
    analysis.byBatch = analysis::batchSweep(scenario, analysis.result);
    for (std::size_t i = 0; i < analysis.byBatch.size(); ++i) {
        const auto& p = analysis.byBatch[i].result;
        if (p && p->timeToTrainKnown &&
            (!analysis.fastestBatch ||
             p->timeToTrainS < analysis.byBatch[*analysis.fastestBatch].result->timeToTrainS)) {
            analysis.fastestBatch = i;
        }
    }
    analysis.byMachine = analysis::compareMachines(scenario);
    analysis.measured = analysis::measuredPoints(scenario.workload, scenario.hardware);
    return analysis;
}

ViewScenario gradientSyncView(const Scenario& scenario, const TrainingResult& result) {
    ViewScenario view;
    view.hardware = scenario.hardware; // the machine's links, not the default machine's
    view.topology = scenario.topology;
    view.wrap = scenario.wrap;
    view.twisted = scenario.twisted;
    view.linkBandwidthGBps = scenario.linkBandwidthGBps;
    view.linkLatencyUs = scenario.linkLatencyUs;
    view.crossPodBandwidthGBps = scenario.crossPodBandwidthGBps;
    // One plan for the collectives and the DCN stage (the result carries neither whole).
    const StepPlan plan = buildStepPlanUnchecked(scenario);
    view.collective = gradientCollectives(plan).front();
    // With weight-update sharding the gradients are reduce-scattered and the weights gathered
    // back: on the links, the same traffic as an all-reduce.
    view.collective.op = CollectiveOp::AllReduce;
    view.modelParallelTile = result.plan.replicaTile;
    view.replicasPerChip = result.plan.replicasPerChip;
    view.slices = result.slices;
    view.dcnStageS = result.dcnSyncS;
    if (result.slices > 1) {
        // The DCN links' share of the stage in use: the plan's stage without its per-step
        // latency over the whole stage (19 of 25 GB/s for ResNet-50 on four v5e pods).
        DcnAllReduce sending = plan.dcn;
        const double whole = sending.seconds();
        sending.latencyS = 0;
        view.dcnLinkUse = whole > 0 ? sending.seconds() / whole : 1.0;
    }
    if (view.modelParallelTile.empty()) {
        view.modelParallelTile = {1, 1};
    }
    return view;
}

} // namespace podscope::ui
