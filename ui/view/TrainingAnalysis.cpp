#include "view/TrainingAnalysis.hpp"

#include "common/InputError.hpp"
#include "report/Sweeps.hpp"
#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepPlan.hpp"
#include "workload/Workload.hpp"

#include <algorithm>

namespace podscope::ui {
namespace {

std::optional<SweepPoint> tryPoint(const Scenario& scenario, double x) {
    try {
        const TrainingResult r = simulateTraining(scenario);
        return SweepPoint{x, r.throughputExamplesPerS, r.timeToTrainS, r.epochs,
                          r.breakdown.gradientSyncExposed, r.extrapolated, false, r.memory};
    } catch (const InputError&) {
        return std::nullopt; // e.g. fewer examples than replicas at this size
    }
}

// A batch of the sweep: timed when it fits in HBM, kept and marked when it does not.
std::optional<SweepPoint> batchPoint(const Scenario& scenario, double batch) {
    try {
        const StepPlan plan = buildStepPlanUnchecked(scenario);
        if (!plan.memory.fits()) {
            SweepPoint refused;
            refused.x = batch;
            refused.exceedsHbm = true;
            refused.memory = plan.memory;
            return refused;
        }
        const TrainingResult r = evaluateStepPlan(plan, scenario);
        return SweepPoint{batch, r.throughputExamplesPerS, r.timeToTrainS, r.epochs,
                          r.breakdown.gradientSyncExposed, r.extrapolated, false, r.memory};
    } catch (const InputError&) {
        return std::nullopt;
    }
}

} // namespace

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
    analysis.roofs = {plan.core.peakFlops(), plan.core.mxuEfficiency,
                      plan.core.hbmBps * plan.core.hbmEfficiency};
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

    for (std::int64_t chips : report::sweepSliceChips(scenario.hardware)) {
        Scenario point = scenario;
        useStandardSlice(point, chips);
        if (auto p = tryPoint(point, static_cast<double>(chips))) {
            analysis.byChips.push_back(*p);
        }
    }

    for (std::int64_t batch :
         report::sweepBatches(analysis.result.plan.replicas, scenario.globalBatch)) {
        Scenario point = scenario;
        point.globalBatch = batch;
        if (auto p = batchPoint(point, static_cast<double>(batch))) {
            analysis.byBatch.push_back(*p);
        }
    }
    for (std::size_t i = 0; i < analysis.byBatch.size(); ++i) {
        if (analysis.byBatch[i].exceedsHbm) {
            continue;
        }
        if (!analysis.fastestBatch ||
            analysis.byBatch[i].timeToTrainS < analysis.byBatch[*analysis.fastestBatch].timeToTrainS) {
            analysis.fastestBatch = i;
        }
    }

    for (const std::string& name : presetNames()) {
        const Preset preset = loadPreset(name);
        if (preset.scenario.workload != scenario.workload) {
            continue;
        }
        const Topology topology(resolveTopology(preset.scenario.topology, preset.scenario.wrap,
                                                loadHardware(preset.scenario.hardware)));
        analysis.measured.push_back({name, static_cast<double>(topology.chipCount()),
                                     static_cast<double>(preset.scenario.globalBatch),
                                     preset.reference.stepTimeS
                                         ? preset.scenario.globalBatch / *preset.reference.stepTimeS
                                         : 0.0,
                                     preset.reference.timeToTrainS});
    }
    return analysis;
}

ViewScenario gradientSyncView(const Scenario& scenario, const TrainingResult& result) {
    ViewScenario view;
    view.topology = scenario.topology;
    view.wrap = scenario.wrap;
    view.linkBandwidthGBps = scenario.linkBandwidthGBps;
    view.linkLatencyUs = scenario.linkLatencyUs;
    view.crossPodBandwidthGBps = scenario.crossPodBandwidthGBps;
    const auto collectives =
        gradientCollectives(scenario);
    view.collective = collectives.front();
    // With weight-update sharding the gradients are reduce-scattered and the weights gathered
    // back: on the links, the same traffic as an all-reduce.
    view.collective.op = CollectiveOp::AllReduce;
    view.modelParallelTile = result.plan.replicaTile;
    view.replicasPerChip = result.plan.replicasPerChip;
    if (view.modelParallelTile.empty()) {
        view.modelParallelTile = {1, 1};
    }
    return view;
}

} // namespace podscope::ui
