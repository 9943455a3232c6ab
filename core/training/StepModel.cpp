#include "training/StepModel.hpp"

#include "collective/AnalyticEngine.hpp"
#include "collective/Schedule.hpp"
#include "common/InputError.hpp"
#include "common/Units.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/ResourceCache.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

namespace podscope {
namespace {

double collectiveTime(const Topology& topology, CollectiveSpec spec) {
    validateCollective(topology, spec);
    return runAnalytic(topology, spec).timeS;
}

// Gradient summation over the replica groups; returns the whole collective time.
double gradientSyncTime(const Topology& topology, const Scenario& s, const Workload& w,
                        const ParallelismPlan& plan, int& groupSize) {
    const auto collectives = gradientCollectives(topology, s, w, plan);
    groupSize = collectives.front().groups.kind == GroupLayout::Kind::All
                    ? static_cast<int>(topology.chipCount())
                    : static_cast<int>(topology.chipCount() / plan.chipsPerReplica);
    if (groupSize <= 1) {
        return 0;
    }
    double time = 0;
    for (const CollectiveSpec& spec : collectives) {
        time += collectiveTime(topology, spec);
    }
    return time;
}

double modelParallelTime(const Topology& topology, const Workload& w, const ParallelismPlan& plan,
                         double hbmBpsPerChip) {
    if (plan.modelParallel <= 1) {
        return 0;
    }
    const PartitionTraits& traits = w.modelParallel.of(plan.kind);
    if (!traits.supported) {
        throw InputError("model_parallel", w.name + " has no " + toString(plan.kind) +
                                               " partitioning in its workload file");
    }
    const double bytes = traits.bytesPerExamplePerExchange * plan.perReplicaBatch;
    if (plan.kind == ModelParallelKind::Spatial) {
        // Halo exchange with the neighbouring partition: one hop, the partition's share.
        const double perExchange =
            topology.linkLatency() + bytes / plan.modelParallel / topology.spec().linkBandwidthBps;
        return traits.exchangesPerStep * perExchange;
    }
    // Tensor partitioning: activation all-reduce inside the replica.
    if (plan.chipsPerReplica <= 1) {
        return traits.exchangesPerStep * bytes / hbmBpsPerChip;
    }
    CollectiveSpec spec;
    spec.op = CollectiveOp::AllReduce;
    spec.algorithm = Algorithm::TwoD;
    spec.element = ElementType::BF16;
    spec.bytesPerChip = bytes;
    spec.groups.kind = GroupLayout::Kind::WithinTile;
    spec.groups.tile = plan.replicaTile;
    return traits.exchangesPerStep * collectiveTime(topology, spec);
}

int evaluationCount(const EvalSchedule& e, std::int64_t steps, double epochs, double examples) {
    constexpr double kTolerance = 1e-6;
    if (e.everyExamples > 0) {
        return static_cast<int>(std::floor(examples / e.everyExamples + kTolerance));
    }
    if (e.everySteps > 0) {
        return static_cast<int>(std::floor(static_cast<double>(steps) / e.everySteps + kTolerance));
    }
    if (e.everyEpochs > 0) {
        int count = 0;
        for (double at = e.everyEpochs; at <= epochs + kTolerance; at += e.everyEpochs) {
            if (at + kTolerance >= e.firstEpoch) {
                ++count;
            }
        }
        return count;
    }
    return 0;
}

std::string bottleneckOf(const StepBreakdown& b) {
    if (b.inputStall > 0) {
        return "input";
    }
    const std::vector<std::pair<const char*, double>> parts = {
        {"compute", b.compute},
        {"gradient_sync", b.gradientSyncExposed},
        {"model_parallel_comm", b.modelParallelComm},
        {"optimizer", b.optimizer},
        {"eval", b.evalAmortized},
        {"overhead", b.overhead}};
    const auto it = std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& c) {
        return a.second < c.second;
    });
    return it->first;
}

} // namespace

Topology scenarioTopology(const Scenario& s) {
    TopologySpec spec =
        resolveTopology(s.topology, s.wrap, cachedResource<Hardware>(s.hardware, loadHardware));
    if (s.linkBandwidthGBps) {
        if (!(*s.linkBandwidthGBps > 0)) {
            throw InputError("link_bandwidth_GBps", "must be positive");
        }
        spec.linkBandwidthBps = *s.linkBandwidthGBps * units::kGB;
    }
    if (s.linkLatencyUs) {
        if (!(*s.linkLatencyUs >= 0) || !std::isfinite(*s.linkLatencyUs)) {
            throw InputError("link_latency_us", "must be a finite latency of at least 0");
        }
        spec.linkLatencyS = *s.linkLatencyUs * units::kMicrosecond;
    }
    if (s.crossPodBandwidthGBps) {
        if (!(*s.crossPodBandwidthGBps > 0)) {
            throw InputError("cross_pod_bandwidth_GBps", "must be positive");
        }
        spec.crossPodBandwidthBps = *s.crossPodBandwidthGBps * units::kGB;
    }
    return Topology(std::move(spec));
}

std::vector<CollectiveSpec> gradientCollectives(const Topology& topology, const Scenario& s, const Workload& w,
                                                const ParallelismPlan& plan) {
    const double shards = plan.kind == ModelParallelKind::Tensor ? plan.chipsPerReplica : 1;
    CollectiveSpec spec;
    spec.algorithm = s.gradient.algorithm;
    spec.element = s.gradient.precision;
    spec.chunks = s.gradient.chunks;
    if (!s.gradient.dimOrder.empty()) {
        spec.dimOrder = parseDimOrder(s.gradient.dimOrder, topology.rank(), "gradient.dim_order");
    }
    spec.bytesPerChip = w.parameters * elementBytes(s.gradient.precision) / shards;
    if (plan.kind == ModelParallelKind::Tensor && plan.chipsPerReplica > 1) {
        spec.groups.kind = GroupLayout::Kind::AcrossTiles;
        spec.groups.tile = plan.replicaTile;
    }
    if (!s.weightUpdateSharding) {
        spec.op = CollectiveOp::AllReduce;
        return {spec};
    }
    CollectiveSpec gather = spec;
    spec.op = CollectiveOp::ReduceScatter;
    gather.op = CollectiveOp::AllGather;
    return {spec, gather};
}

std::string toString(EvalMode mode) {
    return mode == EvalMode::Sync ? "sync" : "async";
}

TrainingResult simulateTraining(const Scenario& s) {
    const Hardware& hw = cachedResource<Hardware>(s.hardware, loadHardware);
    const PlatformFacts& platform = cachedResource<PlatformFacts>(s.hardware, loadPlatformFacts);
    const Workload& w = cachedResource<Workload>(s.workload, loadWorkload);
    const Framework& fw = cachedResource<Framework>(s.framework, loadFramework);
    const Topology topology = scenarioTopology(s);
    if (s.globalBatch <= 0) {
        throw InputError("global_batch", "must be a positive number of examples");
    }
    if (s.gradient.chunks < 1) {
        throw InputError("gradient.chunks", "must be at least 1");
    }

    TrainingResult r;
    r.chips = topology.chipCount();
    r.plan = planParallelism(topology, s.globalBatch, s.modelParallel, s.modelParallelKind);
    const ParallelismPlan& plan = r.plan;
    const double peakPerCore = hw.peakFlopsPerChip / hw.coresPerChip;
    const double hbmPerCore = platform.hbmBandwidthBpsPerChip / hw.coresPerChip;

    // Compute.
    r.computeEfficiency = w.efficiency.at(plan.examplesPerCore);
    StepBreakdown& b = r.breakdown;
    b.compute = w.trainFlopsPerExample * plan.examplesPerCore / (peakPerCore * r.computeEfficiency);

    // Gradient summation: the two cores of a chip sum first (on chip, through HBM), then the
    // replica groups over the links; the overlapped fraction hides behind the backward pass.
    int groupSize = 1;
    r.gradientSyncS = gradientSyncTime(topology, s, w, plan, groupSize);
    const double shards = plan.kind == ModelParallelKind::Tensor ? plan.chipsPerReplica : 1;
    const double gradientBytesPerChip = w.parameters * elementBytes(s.gradient.precision) / shards;
    const bool twoCopiesPerChip = plan.chipsPerReplica == 1 && hw.coresPerChip > 1;
    const double onChipSumS =
        twoCopiesPerChip ? gradientBytesPerChip / platform.hbmBandwidthBpsPerChip : 0.0;
    b.gradientSyncExposed = (1.0 - w.gradientOverlapFraction) * r.gradientSyncS + onChipSumS;

    b.modelParallelComm = modelParallelTime(topology, w, plan, platform.hbmBandwidthBpsPerChip);

    // Optimizer: each core updates its copy, or its shard with weight-update sharding.
    double paramsPerCore =
        plan.kind == ModelParallelKind::Tensor ? w.parameters / plan.modelParallel : w.parameters;
    if (s.weightUpdateSharding) {
        paramsPerCore = w.parameters / shards / std::max(groupSize, 1) / hw.coresPerChip;
    }
    b.optimizer = paramsPerCore * w.optimizerBytesPerParam / hbmPerCore;
    b.overhead = fw.perStepOverheadS;

    // Host input.
    const double deviceStepS =
        b.compute + b.gradientSyncExposed + b.modelParallelComm + b.optimizer + b.overhead;
    HostInputSettings input = s.input;
    if (!(input.cpuCores > 0)) {
        input.cpuCores = platform.hostCpuCores;
    }
    const int hosts = std::max(topology.hostCount(), 1);
    InputCost cost = w.input;
    for (const auto& [value, stage, name] :
         {std::tuple{s.inputCost.readS, &cost.readS, "input.read_s"},
          std::tuple{s.inputCost.decodeS, &cost.decodeS, "input.decode_s"},
          std::tuple{s.inputCost.augmentS, &cost.augmentS, "input.augment_s"},
          std::tuple{s.inputCost.batchS, &cost.batchS, "input.batch_s"}}) {
        if (value) {
            if (!(*value >= 0) || !std::isfinite(*value) || *value > 10) {
                throw InputError(name, "must be between 0 and 10 core-seconds per example");
            }
            *stage = *value;
        }
    }
    r.input = evaluateHostInput(cost, input, hosts, static_cast<double>(r.chips) / hosts,
                                static_cast<double>(s.globalBatch) / hosts, deviceStepS,
                                platform.hostToDeviceBpsPerChip);
    b.inputStall = r.input.stallS;
    r.trainStepS = deviceStepS + b.inputStall;

    // Convergence, evaluations, start-up.
    const double examples =
        w.convergence.examplesToTarget(static_cast<double>(s.globalBatch), fw.name);
    r.steps =
        static_cast<std::int64_t>(std::ceil(examples / static_cast<double>(s.globalBatch) - 1e-9));
    r.epochs = static_cast<double>(r.steps) * static_cast<double>(s.globalBatch) / w.trainExamples;
    EvalSchedule schedule = w.eval;
    if (s.evalEveryEpochs) {
        // Bounded below so that the evaluations of a run stay countable (and few).
        if (!(*s.evalEveryEpochs >= 0.1) || !(*s.evalEveryEpochs <= 1000)) {
            throw InputError("eval_every_epochs", "must be between 0.1 and 1000 epochs");
        }
        schedule.everyEpochs = *s.evalEveryEpochs;
        schedule.everySteps = 0;
        schedule.everyExamples = 0;
    }
    r.evaluations =
        evaluationCount(schedule, r.steps, r.epochs,
                        static_cast<double>(r.steps) * static_cast<double>(s.globalBatch));
    const EvalMode mode =
        s.evalMode.value_or(w.eval.asyncDefault ? EvalMode::Async : EvalMode::Sync);
    const double evalPerCore = w.eval.examples / static_cast<double>(plan.cores);
    const double evalDeviceS = w.eval.flopsPerExample * evalPerCore /
                               (peakPerCore * w.efficiency.at(std::max(evalPerCore, 1e-9)));
    r.evaluationS = evalDeviceS + (mode == EvalMode::Sync ? w.eval.fixedCostS : 0.0);
    const int loops = std::max(r.evaluations, 1);
    b.evalAmortized = (r.evaluations * r.evaluationS + loops * fw.perLoopRoundTripS) /
                      static_cast<double>(r.steps);

    r.stepTimeS = b.total();
    r.startupS = fw.inRunStartupS + w.inRunStartupS;
    r.finalEvalWaitS = mode == EvalMode::Async && r.evaluations > 0 ? w.eval.asyncTailS : 0.0;
    r.timeToTrainS = static_cast<double>(r.steps) * r.stepTimeS + r.startupS + r.finalEvalWaitS;
    r.throughputExamplesPerS = static_cast<double>(s.globalBatch) / r.trainStepS;
    r.bottleneck = bottleneckOf(b);
    return r;
}

} // namespace podscope
